// The Cholesky operations: potrf, potrs, posv.
#include <algorithm>
#include <cstdint>

#include "src/base/kernel_table.hpp"
#include "testing_drivers/testing/run_common.hpp"
#include "testing_drivers/testing/scalapack.hpp"

namespace grain::testing::driver {

namespace {

using grain::detail::Kernel;
using grain::detail::kernel_flops;

// potrf, potrs and posv (step): an SPD matrix.
template <typename T, Step step>
Result run_cholesky(const Run& r) {
    const Case& c = r.c;
    const Uplo uplo = r.options.uplo;
    Factorization<T> f(r, c.n, Kind::Spd, step != Step::Factor);
    Result res;
    if (step == Step::Solve) {  // potrs times the solve alone
        const WorkersRunning running;
        grain::Matrix<T> tF = in_place(r, f.F);
        res.info = grain::potrf(uplo, tF);
    }
    gather(r);
    run_grain(r, res, [&] {
        grain::Matrix<T> tF = in_place(r, f.F), tX = in_place(r, f.X);
        if (step == Step::Factor) res.info = grain::potrf(uplo, tF);
        if (step == Step::Solve) res.info = std::max(res.info, grain::potrs(uplo, tF, tX));
        if (step == Step::Both) res.info = grain::posv(uplo, tF, tX);
    });
    const BlasThreads blas_threads(r.threads);
    const bool gpu_baseline = step == Step::Factor && r.gpu_vendor();  // cuSOLVER's, else LAPACKE's
    if (r.options.scalapack && step == Step::Factor) {
        res.vendor_time = scalapack::potrf(*r.grid, c.scales.front(), uplo, f.A);
    } else if (r.options.vendor && !gpu_baseline) {
        Array<T> vA = f.A, vB = f.B;
        if (step == Step::Solve) blas::potrf(uplo, int(c.n), vA.data(), vA.ld());
        res.vendor_time = timed([&] {
            if (step != Step::Solve) blas::potrf(uplo, int(c.n), vA.data(), vA.ld());
            if (f.solve) blas::potrs(uplo, int(c.n), int(c.nrhs), vA.data(), vA.ld(), vB.data(), vB.ld());
        });
    }
    if (r.options.check && f.solve) res.residual = f.solve_residual();
    if (r.options.check && !f.solve)
        res.residual = c.n >= vector_check_from
                           ? factor_residual_by_vector(f.A, f.F, uplo == Uplo::Lower ? Factors::CholeskyLower
                                                                                     : Factors::CholeskyUpper,
                                                       check_rng(r))
                           : factor_residual(f.A, cholesky_product(uplo, f.F));
#ifdef GRAIN_USE_CUDA
    // After the check: cuSOLVER's factor comes back into grain's, no longer needed.
    if (gpu_baseline) set_vendor(res, gpu::potrf(uplo, c.n, f.A.data(), f.A.ld(), f.F.data(), f.F.ld(), r.runtime.gpu_memory()));
#endif
    return res;
}

template <typename T>
Result run_potrf(const Run& r) { return run_cholesky<T, Step::Factor>(r); }
template <typename T>
Result run_potrs(const Run& r) { return run_cholesky<T, Step::Solve>(r); }
template <typename T>
Result run_posv(const Run& r) { return run_cholesky<T, Step::Both>(r); }

// The kernel table's counts (solve_flops: run_common.hpp).
double potrf_flops(const Case& c) { return kernel_flops(Kernel::Potrf, 0, double(c.n), 0); }
uint64_t cholesky_bytes(const Options& o, const Case& c) { return factorization_bytes(o, c, false, false); }

const Registered cholesky{
    // name, residual bound, runner, flops, bytes, whether it reads -m, -k, --nrhs, workload
    {"potrf", 60, GRAIN_BY_PRECISION(run_potrf), potrf_flops, cholesky_bytes, false, false, false, grain::Workload::Cholesky},
    {"potrs", 60, GRAIN_BY_PRECISION(run_potrs), solve_flops, cholesky_bytes, false, false, true, grain::Workload::Cholesky},
    {"posv", 60, GRAIN_BY_PRECISION(run_posv),
     [](const Case& c) { return potrf_flops(c) + solve_flops(c); }, cholesky_bytes, false, false, true, grain::Workload::Cholesky},
};

}  // namespace
}  // namespace grain::testing::driver
