// The norms: lange, lansy, lanhe and lantr, each its four norms in one run (lansy, lanhe and
// lantr on --uplo's triangle; lantr's diagonal not unit).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "testing_drivers/testing/run_common.hpp"

namespace grain::testing::driver {

namespace {

constexpr Norm norms[] = {Norm::Max, Norm::One, Norm::Inf, Norm::Frobenius};

enum class Routine { Lange, Lansy, Lanhe, Lantr };

// grain's four norms of an m x n matrix (n x n but for lange and lantr), timed together,
// against LAPACKE's; the residual is the largest relative difference in units of eps
// max(m, n), the bound of a sum of max(m, n) terms in another order.
template <Routine routine, typename T>
Result run_norm(const Run& r) {
    const Case& c = r.c;
    const Uplo u = r.options.uplo;
    const Array<T> A = random_array<T>(c.m, c.n, Kind::General, r.rng);
    real_t<T> value[4] = {};
    Result res;
    run_grain(r, res, [&] {
        const grain::Matrix<T> tA = in_place(r, A);
        for (int k = 0; k < 4; ++k) {
            if (routine == Routine::Lange) value[k] = grain::lange(norms[k], tA);
            if (routine == Routine::Lansy) value[k] = grain::lansy(norms[k], u, tA);
            if (routine == Routine::Lanhe) value[k] = grain::lanhe(norms[k], u, tA);
            if (routine == Routine::Lantr) value[k] = grain::lantr(norms[k], u, Diag::NonUnit, tA);
        }
    });
    if (r.options.vendor || r.options.check) {
        real_t<T> ref[4] = {};
        const BlasThreads blas_threads(r.threads);
        const int m = int(c.m), n = int(c.n), ld = int(A.ld());
        res.vendor_time = timed([&] {
            for (int k = 0; k < 4; ++k) {
                const char which = char(norms[k]);
                if (routine == Routine::Lange) ref[k] = norm(which, A);
                if (routine == Routine::Lansy) ref[k] = blas::lansy(which, u, n, A.data(), ld);
                if (routine == Routine::Lanhe) ref[k] = blas::lanhe(which, u, n, A.data(), ld);
                if (routine == Routine::Lantr) ref[k] = blas::lantr(which, u, Diag::NonUnit, m, n, A.data(), ld);
            }
        });
        const double unit = std::numeric_limits<real_t<T>>::epsilon() * double(std::max<int64_t>({c.m, c.n, 1}));
        for (int k = 0; k < 4; ++k)
            res.residual = std::max(res.residual, std::abs(double(value[k]) - double(ref[k])) /
                                                      (std::max(double(ref[k]), std::numeric_limits<double>::min()) * unit));
    }
    return res;
}

template <typename T>
Result run_lange(const Run& r) { return run_norm<Routine::Lange, T>(r); }
template <typename T>
Result run_lansy(const Run& r) { return run_norm<Routine::Lansy, T>(r); }
template <typename T>
Result run_lanhe(const Run& r) { return run_norm<Routine::Lanhe, T>(r); }
template <typename T>
Result run_lantr(const Run& r) { return run_norm<Routine::Lantr, T>(r); }

// Elements read once per norm: all of lange's, half of the others'.
double norm_flops(const Case& c, bool triangle) { return (triangle ? 2 : 4) * double(c.m) * double(c.n); }

const Registered norms_family{
    // name, residual bound, runner, flops (an element read once per norm), bytes (A), whether it reads -m, -k, --nrhs, workload
    {"lange", 10, GRAIN_BY_PRECISION(run_lange), [](const Case& c) { return norm_flops(c, false); },
     [](const Options&, const Case& c) { return array_bytes(c, c.m, c.n); }, true, false, false, grain::Workload::Product},
    {"lansy", 10, GRAIN_BY_PRECISION(run_lansy), [](const Case& c) { return norm_flops(c, true); },
     [](const Options&, const Case& c) { return array_bytes(c, c.n, c.n); }, false, false, false, grain::Workload::Product},
    {"lanhe", 10, GRAIN_BY_PRECISION(run_lanhe), [](const Case& c) { return norm_flops(c, true); },
     [](const Options&, const Case& c) { return array_bytes(c, c.n, c.n); }, false, false, false, grain::Workload::Product},
    {"lantr", 10, GRAIN_BY_PRECISION(run_lantr), [](const Case& c) { return norm_flops(c, true); },
     [](const Options&, const Case& c) { return array_bytes(c, c.m, c.n); }, true, false, false, grain::Workload::Product},
};

}  // namespace
}  // namespace grain::testing::driver
