// The norms: lange, its four norms in one run.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "testing_drivers/testing/run_common.hpp"

namespace grain::testing::driver {

namespace {

constexpr Norm norms[] = {Norm::Max, Norm::One, Norm::Inf, Norm::Frobenius};

// grain's four norms of a general m x n matrix, timed together, against LAPACKE's; the
// residual is the largest relative difference in units of eps max(m, n), the bound of a
// sum of max(m, n) terms in another order.
template <typename T>
Result run_lange(const Run& r) {
    const Case& c = r.c;
    const Array<T> A = random_array<T>(c.m, c.n, Kind::General, r.rng);
    real_t<T> value[4] = {};
    Result res;
    run_grain(r, res, [&] {
        const grain::Matrix<T> tA = in_place(r, A);
        for (int k = 0; k < 4; ++k) value[k] = grain::lange(norms[k], tA);
    });
    if (r.options.vendor || r.options.check) {
        real_t<T> ref[4] = {};
        const BlasThreads blas_threads(r.threads);
        res.vendor_time = timed([&] {
            for (int k = 0; k < 4; ++k) ref[k] = norm(char(norms[k]), A);
        });
        const double unit = std::numeric_limits<real_t<T>>::epsilon() * double(std::max<int64_t>({c.m, c.n, 1}));
        for (int k = 0; k < 4; ++k)
            res.residual = std::max(res.residual, std::abs(double(value[k]) - double(ref[k])) /
                                                      (std::max(double(ref[k]), std::numeric_limits<double>::min()) * unit));
    }
    return res;
}

const Registered norms_family{
    // name, residual bound, runner, flops (an element read once per norm), bytes (A), whether it reads -m, -k, --nrhs, workload
    {"lange", 10, GRAIN_BY_PRECISION(run_lange), [](const Case& c) { return 4 * double(c.m) * double(c.n); },
     [](const Options&, const Case& c) { return array_bytes(c, c.m, c.n); },
     true, false, false, grain::Workload::Product},
};

}  // namespace
}  // namespace grain::testing::driver
