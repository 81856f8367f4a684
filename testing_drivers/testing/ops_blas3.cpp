// The BLAS 3 operations: gemm, trsm, trmm, symm, hemm, syrk, herk, syr2k, her2k.
#include <algorithm>
#include <cstdint>
#include <tuple>

#include "src/base/kernel_table.hpp"
#include "testing_drivers/testing/run_common.hpp"
#include "testing_drivers/testing/scalapack.hpp"

namespace grain::testing::driver {

namespace {

using grain::detail::Kernel;
using grain::detail::kernel_flops;

template <typename T>
Result run_gemm(const Run& r) {
    const Case& c = r.c;
    const T alpha = T(1.5), beta = T(-0.5);
    const Array<T> A = random_array<T>(c.m, c.k, Kind::General, r.rng);
    const Array<T> B = random_array<T>(c.k, c.n, Kind::General, r.rng);
    const Array<T> C0 = random_array<T>(c.m, c.n, Kind::General, r.rng);
    Result res;
    Array<T> C = C0;  // grain's output, in place
    run_grain(r, res, [&] {
        grain::Matrix<T> tC = in_place(r, C);
        res.info = grain::gemm(Op::NoTrans, Op::NoTrans, alpha, in_place(r, A), in_place(r, B), beta, tC);
    });
    // The CPU product is the check's reference (but at large sizes, where one random
    // vector checks it) and, on CPU runs, the vendor's time.
    const bool large = std::max({c.m, c.n, c.k}) >= vector_check_from;
    if (r.options.check && large) res.residual = gemm_residual_by_vector(A, B, C0, C, alpha, beta, check_rng(r));
    if (r.options.scalapack) {
        const BlasThreads blas_threads(r.threads);
        res.vendor_time = scalapack::gemm(*r.grid, c.scales.front(), alpha, A, B, beta, C0);
    }
    if ((r.options.check && !large) || (r.options.vendor && !r.gpu_vendor())) {
        Array<T> ref = C0;
        const BlasThreads blas_threads(r.threads);
        const double t = timed([&] {
            blas::gemm(Op::NoTrans, Op::NoTrans, int(c.m), int(c.n), int(c.k), alpha, A.data(), A.ld(), B.data(),
                       B.ld(), beta, ref.data(), ref.ld());
        });
        if (!r.gpu_vendor()) res.vendor_time = t;
        if (!large) res.residual = gemm_residual(double(norm('M', minus(C, ref))), alpha, norm('M', A), norm('M', B), beta,
                                     norm('M', C0), c.k);
    }
#ifdef GRAIN_USE_CUDA
    // After the check: cuBLAS's product comes back into grain's, no longer needed.
    if (r.gpu_vendor())
        set_vendor(res, gpu::gemm(c.m, c.n, c.k, alpha, A.data(), A.ld(), B.data(), B.ld(), beta, C0.data(),
                                    C0.ld(), C.data(), C.ld(), r.runtime.gpu_memory()));
#endif
    return res;
}

// trsm, and trmm (`product`): B = alpha A^-1 B or alpha A B, A lower triangular.
template <typename T, bool product>
Result run_triangular(const Run& r) {
    const Case& c = r.c;
    const T alpha = T(1.5);
    const Array<T> A = random_array<T>(c.m, c.m, Kind::LowerTriangular, r.rng);
    const Array<T> B = random_array<T>(c.m, c.n, Kind::General, r.rng);
    const auto args = std::make_tuple(Side::Left, Uplo::Lower, Op::NoTrans, Diag::NonUnit);
    Result res;
    Array<T> X = B;  // grain's output, in place
    run_grain(r, res, [&] {
        grain::Matrix<T> tX = in_place(r, X);
        const auto [side, uplo, trans, diag] = args;
        if constexpr (product)
            res.info = grain::trmm(side, uplo, trans, diag, alpha, in_place(r, A), tX);
        else
            res.info = grain::trsm(side, uplo, trans, diag, alpha, in_place(r, A), tX);
    });
    const BlasThreads blas_threads(r.threads);
    Array<T> ref = B;
    if (r.options.vendor || (product && r.options.check)) {
        const auto [side, uplo, trans, diag] = args;
        const double t = timed([&] {
            if constexpr (product)
                blas::trmm(side, uplo, trans, diag, int(c.m), int(c.n), alpha, A.data(), A.ld(), ref.data(), ref.ld());
            else
                blas::trsm(side, uplo, trans, diag, int(c.m), int(c.n), alpha, A.data(), A.ld(), ref.data(), ref.ld());
        });
        if (r.options.vendor) res.vendor_time = t;
    }
    if (r.options.check)
        res.residual = product ? gemm_residual(double(norm('M', minus(X, ref))), alpha, norm('M', A), norm('M', B), T(0),
                                               0.0, c.m)
                               : solve_residual(Side::Left, Op::NoTrans, A, X, alpha, B);
    return res;
}

template <typename T>
Result run_trsm(const Run& r) { return run_triangular<T, false>(r); }
template <typename T>
Result run_trmm(const Run& r) { return run_triangular<T, true>(r); }

// syrk's error as gemm's check measures it, on the uplo triangle (against ref); the
// other triangle must be untouched (equal to C0).
template <typename T>
double triangle_error(Uplo uplo, const Array<T>& C, const Array<T>& ref, const Array<T>& C0) {
    double error = 0;
    for (int64_t j = 0; j < C.n; ++j)
        for (int64_t i = 0; i < C.m; ++i) {
            const bool in_triangle = uplo == Uplo::Lower ? i >= j : i <= j;
            const T expected = in_triangle ? ref(i, j) : C0(i, j);
            error = std::max(error, double(std::abs(C(i, j) - expected)));
        }
    return error;
}

// syrk and herk (alpha and beta real; C Hermitian, its diagonal real, in complex precisions).
template <typename T, bool hermitian>
Result run_rank_k(const Run& r) {
    const Case& c = r.c;
    const real_t<T> alpha = real_t<T>(1.5), beta = real_t<T>(-0.5);
    const Uplo uplo = r.options.uplo;
    const Array<T> A = random_array<T>(c.n, c.k, Kind::General, r.rng);
    const Array<T> C0 = random_array<T>(c.n, c.n, hermitian ? Kind::Spd : Kind::General, r.rng);
    Result res;
    Array<T> C = C0;  // grain's output, in place
    run_grain(r, res, [&] {
        grain::Matrix<T> tC = in_place(r, C);
        res.info = hermitian ? grain::herk(uplo, Op::NoTrans, alpha, in_place(r, A), beta, tC)
                             : grain::syrk(uplo, Op::NoTrans, T(alpha), in_place(r, A), T(beta), tC);
    });
    if (r.options.vendor || r.options.check) {
        Array<T> ref = C0;
        const BlasThreads blas_threads(r.threads);
        res.vendor_time = timed([&] {
            if (hermitian)
                blas::herk(uplo, Op::NoTrans, int(c.n), int(c.k), alpha, A.data(), A.ld(), beta, ref.data(), ref.ld());
            else
                blas::syrk(uplo, Op::NoTrans, int(c.n), int(c.k), T(alpha), A.data(), A.ld(), T(beta), ref.data(),
                           ref.ld());
        });
        res.residual = gemm_residual(triangle_error(uplo, C, ref, C0), T(alpha), norm('M', A), norm('M', A), T(beta),
                                     norm('M', C0), c.k);
    }
    return res;
}

// symm and hemm: C = alpha A B + beta C, A m x m (its uplo triangle), from the left.
template <typename T, bool hermitian>
Result run_symmetric(const Run& r) {
    const Case& c = r.c;
    const T alpha = T(1.5), beta = T(-0.5);
    const Uplo uplo = r.options.uplo;
    const Array<T> A = random_array<T>(c.m, c.m, Kind::General, r.rng);
    const Array<T> B = random_array<T>(c.m, c.n, Kind::General, r.rng);
    const Array<T> C0 = random_array<T>(c.m, c.n, Kind::General, r.rng);
    Result res;
    Array<T> C = C0;  // grain's output, in place
    run_grain(r, res, [&] {
        grain::Matrix<T> tC = in_place(r, C);
        res.info = hermitian ? grain::hemm(Side::Left, uplo, alpha, in_place(r, A), in_place(r, B), beta, tC)
                             : grain::symm(Side::Left, uplo, alpha, in_place(r, A), in_place(r, B), beta, tC);
    });
    if (r.options.vendor || r.options.check) {
        Array<T> ref = C0;
        const BlasThreads blas_threads(r.threads);
        res.vendor_time = timed([&] {
            if constexpr (hermitian)
                blas::hemm(Side::Left, uplo, int(c.m), int(c.n), alpha, A.data(), A.ld(), B.data(), B.ld(), beta,
                           ref.data(), ref.ld());
            else
                blas::symm(Side::Left, uplo, int(c.m), int(c.n), alpha, A.data(), A.ld(), B.data(), B.ld(), beta,
                           ref.data(), ref.ld());
        });
        res.residual = gemm_residual(double(norm('M', minus(C, ref))), alpha, norm('M', A), norm('M', B), beta,
                                     norm('M', C0), c.m);
    }
    return res;
}

// syr2k and her2k (beta real; C Hermitian, its diagonal real, in complex precisions).
template <typename T, bool hermitian>
Result run_rank_2k(const Run& r) {
    const Case& c = r.c;
    const T alpha = T(1.5);
    const real_t<T> beta = real_t<T>(-0.5);
    const Uplo uplo = r.options.uplo;
    const Array<T> A = random_array<T>(c.n, c.k, Kind::General, r.rng);
    const Array<T> B = random_array<T>(c.n, c.k, Kind::General, r.rng);
    const Array<T> C0 = random_array<T>(c.n, c.n, hermitian ? Kind::Spd : Kind::General, r.rng);
    Result res;
    Array<T> C = C0;  // grain's output, in place
    run_grain(r, res, [&] {
        grain::Matrix<T> tC = in_place(r, C);
        res.info = hermitian ? grain::her2k(uplo, Op::NoTrans, alpha, in_place(r, A), in_place(r, B), beta, tC)
                             : grain::syr2k(uplo, Op::NoTrans, alpha, in_place(r, A), in_place(r, B), T(beta), tC);
    });
    if (r.options.vendor || r.options.check) {
        Array<T> ref = C0;
        const BlasThreads blas_threads(r.threads);
        res.vendor_time = timed([&] {
            if constexpr (hermitian)
                blas::her2k(uplo, Op::NoTrans, int(c.n), int(c.k), alpha, A.data(), A.ld(), B.data(), B.ld(), beta,
                            ref.data(), ref.ld());
            else
                blas::syr2k(uplo, Op::NoTrans, int(c.n), int(c.k), alpha, A.data(), A.ld(), B.data(), B.ld(), T(beta),
                            ref.data(), ref.ld());
        });
        res.residual = gemm_residual(triangle_error(uplo, C, ref, C0), T(2) * alpha,
                                     norm('M', A), norm('M', B), T(beta), norm('M', C0), c.k);
    }
    return res;
}

template <typename T>
Result run_symm(const Run& r) { return run_symmetric<T, false>(r); }
template <typename T>
Result run_hemm(const Run& r) { return run_symmetric<T, true>(r); }
template <typename T>
Result run_syr2k(const Run& r) { return run_rank_2k<T, false>(r); }
template <typename T>
Result run_her2k(const Run& r) { return run_rank_2k<T, true>(r); }

template <typename T>
Result run_syrk(const Run& r) { return run_rank_k<T, false>(r); }
template <typename T>
Result run_herk(const Run& r) { return run_rank_k<T, true>(r); }

// A, B, C0, C; the reference and C - reference
uint64_t gemm_bytes(const Options& o, const Case& c) {
    const uint64_t operands = add(add(array_bytes(c, c.m, c.k), array_bytes(c, c.k, c.n)), array_bytes(c, c.m, c.n));
    const bool large = std::max({c.m, c.n, c.k}) >= vector_check_from;
    return add(add(operands, array_bytes(c, c.m, c.n)), (o.check && !large) || o.vendor ? times(array_bytes(c, c.m, c.n), 2) : 0);
}

// A, B, X; the vendor's B, then the residual's
uint64_t trsm_bytes(const Options& o, const Case& c) {
    const uint64_t operands = add(array_bytes(c, c.m, c.m), array_bytes(c, c.m, c.n));
    return add(add(operands, array_bytes(c, c.m, c.n)), o.check || o.vendor ? array_bytes(c, c.m, c.n) : 0);
}

// A, C0, C; the reference
uint64_t rank_k_bytes(const Options& o, const Case& c) {
    const uint64_t operands = add(array_bytes(c, c.n, c.k), array_bytes(c, c.n, c.n));
    return add(add(operands, array_bytes(c, c.n, c.n)), o.check || o.vendor ? array_bytes(c, c.n, c.n) : 0);
}

// The kernel table's counts for the runs' shapes: trsm solves m x n B from the left, syrk
// updates n x n C with inner k.
double rank_k_flops(const Case& c) { return kernel_flops(Kernel::Syrk, 0, double(c.n), double(c.k)); }

// A, B, C0, C; the reference
uint64_t symm_bytes(const Options& o, const Case& c) {
    const uint64_t operands = add(array_bytes(c, c.m, c.m), times(array_bytes(c, c.m, c.n), 3));
    return add(operands, o.check || o.vendor ? times(array_bytes(c, c.m, c.n), 2) : 0);
}

// A, B, C0, C; the reference
uint64_t rank_2k_bytes(const Options& o, const Case& c) {
    const uint64_t operands = add(times(array_bytes(c, c.n, c.k), 2), times(array_bytes(c, c.n, c.n), 2));
    return add(operands, o.check || o.vendor ? times(array_bytes(c, c.n, c.n), 2) : 0);
}

const Registered blas3{
    // name, residual bound, runner, flops, bytes, whether it reads -m, -k, --nrhs, workload
    {"gemm", 10, GRAIN_BY_PRECISION(run_gemm),
     [](const Case& c) { return kernel_flops(Kernel::Gemm, double(c.m), double(c.n), double(c.k)); }, gemm_bytes, true,
     true, false, grain::Workload::Product},
    {"trsm", 60, GRAIN_BY_PRECISION(run_trsm),
     [](const Case& c) { return kernel_flops(Kernel::Trsm, double(c.m), double(c.n), 0); }, trsm_bytes, true, false,
     false, grain::Workload::Product},
    {"trmm", 10, GRAIN_BY_PRECISION(run_trmm),
     [](const Case& c) { return kernel_flops(Kernel::Trmm, double(c.m), double(c.n), 0); }, trsm_bytes, true, false,
     false, grain::Workload::Product},
    {"symm", 10, GRAIN_BY_PRECISION(run_symm),
     [](const Case& c) { return kernel_flops(Kernel::Symm, double(c.m), double(c.n), 0); }, symm_bytes, true, false,
     false, grain::Workload::Product},
    {"hemm", 10, GRAIN_BY_PRECISION(run_hemm),
     [](const Case& c) { return kernel_flops(Kernel::Hemm, double(c.m), double(c.n), 0); }, symm_bytes, true, false,
     false, grain::Workload::Product},
    {"syr2k", 10, GRAIN_BY_PRECISION(run_syr2k),
     [](const Case& c) { return kernel_flops(Kernel::Syr2k, 0, double(c.n), double(c.k)); }, rank_2k_bytes, false,
     true, false, grain::Workload::Product},
    {"her2k", 10, GRAIN_BY_PRECISION(run_her2k),
     [](const Case& c) { return kernel_flops(Kernel::Her2k, 0, double(c.n), double(c.k)); }, rank_2k_bytes, false,
     true, false, grain::Workload::Product},
    {"syrk", 10, GRAIN_BY_PRECISION(run_syrk), rank_k_flops, rank_k_bytes, false, true, false, grain::Workload::Product},
    {"herk", 10, GRAIN_BY_PRECISION(run_herk), rank_k_flops, rank_k_bytes, false, true, false, grain::Workload::Product},
};

}  // namespace
}  // namespace grain::testing::driver
