// The LU operations: getrf_nopiv and gesv_nopiv (no pivoting); getrf, getrs and gesv
// (partial pivoting).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/base/kernel_table.hpp"
#include "testing_drivers/testing/run_common.hpp"
#include "testing_drivers/testing/scalapack.hpp"

namespace grain::testing::driver {

namespace {

using grain::detail::Kernel;
using grain::detail::kernel_flops;

// getrf_nopiv and gesv_nopiv: a diagonally dominant matrix, so no pivoting is needed.
template <typename T, bool solve>
Result run_lu(const Run& r) {
    const Case& c = r.c;
    const int64_t m = c.m;  // n for gesv_nopiv
    Factorization<T> f(r, m, Kind::DiagonallyDominant, solve);
    Result res;
    run_grain(r, res, [&] {
        grain::Matrix<T> tF = in_place(r, f.F), tX = in_place(r, f.X);
        res.info = solve ? grain::gesv_nopiv(tF, tX) : grain::getrf_nopiv(tF);
    });
    const BlasThreads blas_threads(r.threads);
    const bool gpu_baseline = !solve && r.gpu_vendor();  // cuSOLVER's, else LAPACKE's
    if (r.options.vendor && !gpu_baseline) {  // LAPACK's LU pivots: the nearest vendor routine
        Array<T> vA = f.A, vB = f.B;
        std::vector<lapack_int> ipiv(size_t(std::min(m, c.n)) + 1);
        res.vendor_time = timed([&] {
            blas::getrf(int(m), int(c.n), vA.data(), vA.ld(), ipiv.data());
            if (solve) blas::getrs(Op::NoTrans, int(c.n), int(c.nrhs), vA.data(), vA.ld(), ipiv.data(), vB.data(), vB.ld());
        });
    }
    if (r.options.check && solve) res.residual = f.solve_residual();
    if (r.options.check && !solve)
        res.residual = m == c.n && c.n >= vector_check_from ? factor_residual_by_vector(f.A, f.F, Factors::Lu, check_rng(r))
                                                           : factor_residual(f.A, lu_product(f.F));
#ifdef GRAIN_USE_CUDA
    // After the check: cuSOLVER's factors come back into grain's, no longer needed.
    if (gpu_baseline)
        set_vendor(res, gpu::getrf_nopiv(m, c.n, f.A.data(), f.A.ld(), f.F.data(), f.F.ld(), r.runtime.gpu_memory()));
#endif
    return res;
}

// getrf, getrs and gesv: LU with partial pivoting of a general matrix (getrs factors
// first, untimed, and times the solve alone).
template <typename T, Step step>
Result run_lu_pivoting(const Run& r) {
    const Case& c = r.c;
    const bool solve = step != Step::Factor;
    const int64_t m = c.m, mn = std::min(m, c.n);  // m = n but for getrf
    Factorization<T> f(r, m, Kind::General, solve);
    std::vector<int> ipiv(static_cast<size_t>(mn));
    Result res;
    if (step == Step::Solve) {
        const WorkersRunning running;
        grain::Matrix<T> tF = in_place(r, f.F);
        grain::Pivots p(mn, ipiv.data());
        res.info = grain::getrf(tF, p);
    }
    gather(r);
    run_grain(r, res, [&] {
        grain::Matrix<T> tF = in_place(r, f.F), tX = in_place(r, f.X);
        grain::Pivots p(mn, ipiv.data());
        if (step == Step::Factor) res.info = grain::getrf(tF, p);
        if (step == Step::Solve) res.info = std::max(res.info, grain::getrs(Op::NoTrans, tF, p, tX));
        if (step == Step::Both) res.info = grain::gesv(tF, p, tX);
    });
    const BlasThreads blas_threads(r.threads);
    const bool gpu_baseline = step == Step::Factor && r.gpu_vendor();  // cuSOLVER's, else LAPACKE's
    if (r.options.scalapack && step == Step::Factor) {
        res.vendor_time = scalapack::getrf(*r.grid, c.scales.front(), f.A);
    } else if (r.options.vendor && !gpu_baseline) {  // threaded LAPACKE
        Array<T> vA = f.A, vB = f.B;
        std::vector<lapack_int> vp(size_t(mn) + 1);
        if (step == Step::Solve) blas::getrf(int(m), int(c.n), vA.data(), vA.ld(), vp.data());
        res.vendor_time = timed([&] {
            if (step != Step::Solve) blas::getrf(int(m), int(c.n), vA.data(), vA.ld(), vp.data());
            if (solve) blas::getrs(Op::NoTrans, int(c.n), int(c.nrhs), vA.data(), vA.ld(), vp.data(), vB.data(), vB.ld());
        });
    }
    if (r.options.check && solve) res.residual = f.solve_residual();
    if (r.options.check && !solve) {
        // P A against L U: A's rows interchanged in place, and back after (no copy of A).
        auto interchange = [&](size_t i) {
            if (ipiv[i] - 1 != int64_t(i))
                for (int64_t j = 0; j < c.n; ++j) std::swap(f.A(int64_t(i), j), f.A(int64_t(ipiv[i] - 1), j));
        };
        for (size_t i = 0; i < ipiv.size(); ++i) interchange(i);
        res.residual = m == c.n && c.n >= vector_check_from ? factor_residual_by_vector(f.A, f.F, Factors::Lu, check_rng(r))
                                                           : factor_residual(f.A, lu_product(f.F));
        for (size_t i = ipiv.size(); i-- > 0;) interchange(i);
    }
#ifdef GRAIN_USE_CUDA
    // After the check: cuSOLVER's factors come back into grain's, no longer needed.
    if (gpu_baseline)
        set_vendor(res, gpu::getrf(m, c.n, f.A.data(), f.A.ld(), f.F.data(), f.F.ld(), r.runtime.gpu_memory()));
#endif
    return res;
}

template <typename T>
Result run_getrf_nopiv(const Run& r) { return run_lu<T, false>(r); }
template <typename T>
Result run_gesv_nopiv(const Run& r) { return run_lu<T, true>(r); }
template <typename T>
Result run_getrf(const Run& r) { return run_lu_pivoting<T, Step::Factor>(r); }
template <typename T>
Result run_getrs(const Run& r) { return run_lu_pivoting<T, Step::Solve>(r); }
template <typename T>
Result run_gesv(const Run& r) { return run_lu_pivoting<T, Step::Both>(r); }

// The kernel table's counts: an m x n LU (solve_flops: run_common.hpp).
double nopiv_flops(const Case& c) { return kernel_flops(Kernel::GetrfNopiv, double(c.m), double(c.n), 0); }
double getrf_flops(const Case& c) { return kernel_flops(Kernel::Getrf, double(c.m), double(c.n), 0); }
uint64_t nopiv_bytes(const Options& o, const Case& c) { return factorization_bytes(o, c, true, false); }
uint64_t pivoting_bytes(const Options& o, const Case& c) { return factorization_bytes(o, c, true, true); }

const Registered lu{
    // name, residual bound, runner, flops, bytes, whether it reads -m, -k, --nrhs, workload
    {"getrf_nopiv", 60, GRAIN_BY_PRECISION(run_getrf_nopiv), nopiv_flops, nopiv_bytes, true, false, false, grain::Workload::Lu},
    {"gesv_nopiv", 60, GRAIN_BY_PRECISION(run_gesv_nopiv),
     [](const Case& c) { return kernel_flops(Kernel::GetrfNopiv, double(c.n), double(c.n), 0) + solve_flops(c); },
     nopiv_bytes, false, false, true, grain::Workload::Lu},
    {"getrf", 60, GRAIN_BY_PRECISION(run_getrf), getrf_flops, pivoting_bytes, true, false, false, grain::Workload::PivotedLu},
    {"getrs", 60, GRAIN_BY_PRECISION(run_getrs), solve_flops, pivoting_bytes, false, false, true, grain::Workload::PivotedLu},
    {"gesv", 60, GRAIN_BY_PRECISION(run_gesv),
     [](const Case& c) { return kernel_flops(Kernel::Getrf, double(c.n), double(c.n), 0) + solve_flops(c); },
     pivoting_bytes, false, false, true, grain::Workload::PivotedLu},
};

}  // namespace
}  // namespace grain::testing::driver
