// The mixed-precision solves: gesv_mixed and posv_mixed (LAPACK's dsgesv and dsposv,
// zcgesv and zcposv), in the working precisions d and z.
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "src/base/kernel_table.hpp"
#include "testing_drivers/testing/run_common.hpp"

namespace grain::testing::driver {

namespace {

using grain::detail::Kernel;
using grain::detail::kernel_flops;

// LAPACKE's mixed-precision solves, the vendor's: T double or complex double.
template <typename T>
int vendor_mixed(bool cholesky, Uplo uplo, int n, int nrhs, T* a, int lda, lapack_int* ipiv, T* b, int ldb, T* x,
                 int ldx, lapack_int* iter) {
    if constexpr (std::is_same_v<T, double>)
        return cholesky ? LAPACKE_dsposv(LAPACK_COL_MAJOR, char(uplo), n, nrhs, a, lda, b, ldb, x, ldx, iter)
                        : LAPACKE_dsgesv(LAPACK_COL_MAJOR, n, nrhs, a, lda, ipiv, b, ldb, x, ldx, iter);
    else
        return cholesky ? LAPACKE_zcposv(LAPACK_COL_MAJOR, char(uplo), n, nrhs, a, lda, b, ldb, x, ldx, iter)
                        : LAPACKE_zcgesv(LAPACK_COL_MAJOR, n, nrhs, a, lda, ipiv, b, ldb, x, ldx, iter);
}

// gesv_mixed (a general matrix) and posv_mixed (`cholesky`: an SPD one): the refinement's
// steps are the run's, its backward error the residual; the vendor is LAPACKE's dsgesv or
// dsposv on the same matrices, on GPU runs cuSOLVER's IRS gesv factoring in the Runtime's
// gpu_math, or its potrf and potrs in T.
template <typename T, bool cholesky>
Result run_mixed(const Run& r) {
    if constexpr (!std::is_same_v<T, double> && !std::is_same_v<T, std::complex<double>>) {
        throw usage_error(std::string(cholesky ? "posv_mixed" : "gesv_mixed") +
                          " runs in precisions d and z (it factors in s and c): -p d or -p z");
    } else {
        const Case& c = r.c;
        const Uplo uplo = r.options.uplo;
        Factorization<T> f(r, c.n, cholesky ? Kind::Spd : Kind::General, true);
        std::vector<int> ipiv(size_t(c.n));
        Result res;
        run_grain(r, res, [&] {
            grain::Matrix<T> tF = in_place(r, f.F), tB = in_place(r, f.B), tX = in_place(r, f.X);
            grain::Pivots p(c.n, ipiv.data());
            res.info = cholesky ? grain::posv_mixed(uplo, tF, tB, tX, res.steps)
                                : grain::gesv_mixed(tF, p, tB, tX, res.steps);
        });
        const BlasThreads blas_threads(r.threads);
        if (r.gpu_vendor()) {
#ifdef GRAIN_USE_CUDA
            Array<T> vX = f.B;
            int steps = 0;
            set_vendor(res, gpu::solve_mixed(cholesky, uplo, c.n, c.nrhs, f.A.data(), f.A.ld(), f.B.data(), f.B.ld(),
                                             vX.data(), vX.ld(), r.runtime.gpu_math(), r.runtime.gpu_memory(), steps));
#endif
        } else if (r.options.vendor) {
            Array<T> vA = f.A, vB = f.B, vX = f.B;
            std::vector<lapack_int> vp(size_t(c.n) + 1);
            lapack_int iter = 0;
            res.vendor_time = timed([&] {
                vendor_mixed(cholesky, uplo, int(c.n), int(c.nrhs), vA.data(), vA.ld(), vp.data(), vB.data(), vB.ld(),
                             vX.data(), vX.ld(), &iter);
            });
        }
        if (r.options.check) res.residual = f.solve_residual();
        return res;
    }
}

template <typename T>
Result run_gesv_mixed(const Run& r) { return run_mixed<T, false>(r); }
template <typename T>
Result run_posv_mixed(const Run& r) { return run_mixed<T, true>(r); }

// The flops counted are the working precision's solve's (gesv's, posv's), as LAPACK's
// testing counts dsgesv's: the rates compare with gesv's and posv's.
double gesv_flops(const Case& c) { return kernel_flops(Kernel::Getrf, double(c.n), double(c.n), 0) + solve_flops(c); }
double posv_flops(const Case& c) { return kernel_flops(Kernel::Potrf, 0, double(c.n), 0) + solve_flops(c); }
// A factorization's with pivots, the vendor's X, and grain's copies of A and B in single
// precision (half the elements' bytes) with its residual R.
uint64_t mixed_bytes(const Options& o, const Case& c) {
    const uint64_t singles = array_bytes(c, c.n, c.n + c.nrhs) / 2;
    return add(add(factorization_bytes(o, c, true, true), singles), times(2, array_bytes(c, c.n, c.nrhs)));
}

const Registered mixed{
    // name, residual bound, runner, flops, bytes, whether it reads -m, -k, --nrhs, workload, mixed
    {"gesv_mixed", 60, GRAIN_BY_PRECISION(run_gesv_mixed), gesv_flops, mixed_bytes, false, false, true,
     grain::Workload::PivotedLu, true},
    {"posv_mixed", 60, GRAIN_BY_PRECISION(run_posv_mixed), posv_flops, mixed_bytes, false, false, true,
     grain::Workload::Cholesky, true},
};

}  // namespace
}  // namespace grain::testing::driver
