// The inversion operations: trtri, lauum, potri, poinv, getri. The vendor is threaded LAPACKE
// (on GPU runs too, until cuSOLVER's potri is wired in: doc/usage.md).
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "src/base/kernel_table.hpp"
#include "testing_drivers/testing/run_common.hpp"

namespace grain::testing::driver {

namespace {

using grain::detail::Kernel;
using grain::detail::kernel_flops;

// A well-conditioned triangle in the uplo triangle (LowerTriangular, or its transpose),
// the other triangle zero.
template <typename T>
Array<T> triangle(const Run& r, Uplo uplo) {
    Array<T> L = random_array<T>(r.c.n, r.c.n, Kind::LowerTriangular, r.rng);
    if (uplo == Uplo::Lower) return L;
    Array<T> U(L.n, L.m);
    for (int64_t j = 0; j < L.n; ++j)
        for (int64_t i = j; i < L.m; ++i) U(j, i) = L(i, j);
    return U;
}

enum class Inversion { Trtri, Lauum, Potri, Poinv };

template <typename T, Inversion op>
Result run_inversion(const Run& r) {
    const Case& c = r.c;
    const Uplo uplo = r.options.uplo;
    const int n = int(c.n);
    const bool spd = op == Inversion::Potri || op == Inversion::Poinv;
    // The input: a triangle, or an SPD matrix (its factor, for potri, made untimed).
    const Array<T> A = spd ? random_array<T>(c.n, c.n, Kind::Spd, r.rng) : triangle<T>(r, uplo);
    Array<T> input = A;
    // lauum's triangle is a Cholesky factor's, whose diagonal is real: LAPACK's reads no other.
    if (op == Inversion::Lauum)
        for (int64_t i = 0; i < c.n; ++i) input(i, i) = T(std::real(input(i, i)));
    if (op == Inversion::Potri && blas::potrf(uplo, n, input.data(), input.ld()) != 0)
        throw std::runtime_error("grain_testing: potri's input is not positive definite");
    Result res;
    Array<T> X = input;  // grain's output, in place
    run_grain(r, res, [&] {
        grain::Matrix<T> tX = in_place(r, X);
        if (op == Inversion::Trtri) res.info = grain::trtri(uplo, Diag::NonUnit, tX);
        if (op == Inversion::Lauum) res.info = grain::lauum(uplo, tX);
        if (op == Inversion::Potri) res.info = grain::potri(uplo, tX);
        if (op == Inversion::Poinv) res.info = grain::poinv(uplo, tX);
    });
    const BlasThreads blas_threads(r.threads);
    Array<T> ref = op == Inversion::Poinv ? A : input;
    if (r.options.vendor || op == Inversion::Lauum) {
        const double t = timed([&] {
            if (op == Inversion::Trtri) blas::trtri(uplo, Diag::NonUnit, n, ref.data(), ref.ld());
            if (op == Inversion::Lauum) blas::lauum(uplo, n, ref.data(), ref.ld());
            if (op == Inversion::Poinv) blas::potrf(uplo, n, ref.data(), ref.ld());
            if (op == Inversion::Potri || op == Inversion::Poinv) blas::potri(uplo, n, ref.data(), ref.ld());
        });
        if (r.options.vendor) res.vendor_time = t;
    }
    if (r.options.check) {
        if (op == Inversion::Lauum)  // against LAPACK's product, on the triangle
            res.residual = gemm_residual(double(norm('M', minus(from_triangle(X, uplo, true), from_triangle(ref, uplo, true)))),
                                         T(1), norm('M', input), norm('M', input), T(0), 0.0, c.n);
        else
            res.residual = inverse_residual(spd ? A : from_triangle(A, uplo, false),
                                            from_triangle(X, uplo, spd));
    }
    return res;
}

template <typename T>
Result run_trtri(const Run& r) { return run_inversion<T, Inversion::Trtri>(r); }
template <typename T>
Result run_lauum(const Run& r) { return run_inversion<T, Inversion::Lauum>(r); }
template <typename T>
Result run_potri(const Run& r) { return run_inversion<T, Inversion::Potri>(r); }
template <typename T>
Result run_poinv(const Run& r) { return run_inversion<T, Inversion::Poinv>(r); }

// getri on a random matrix's LU factors and pivots (LAPACKE's getrf, untimed), so that
// grain and the vendor invert the same ones; checked by the inverse residual.
template <typename T>
Result run_getri(const Run& r) {
    const Case& c = r.c;
    const int n = int(c.n);
    const Array<T> A = random_array<T>(c.n, c.n, Kind::General, r.rng);
    Array<T> factor = A;
    std::vector<int> ipiv(static_cast<size_t>(n));
    {
        const BlasThreads blas_threads(r.threads);
        if (blas::getrf(n, n, factor.data(), factor.ld(), ipiv.data()) != 0)
            throw std::runtime_error("grain_testing: getri's input is singular");
    }
    Result res;
    Array<T> X = factor;
    run_grain(r, res, [&] {
        grain::Matrix<T> tX = in_place(r, X);
        res.info = grain::getri(tX, grain::Pivots(c.n, ipiv.data()));
    });
    if (r.options.vendor) {
        const BlasThreads blas_threads(r.threads);
        Array<T> ref = factor;
        res.vendor_time = timed([&] { blas::getri(n, ref.data(), ref.ld(), ipiv.data()); });
    }
    if (r.options.check) res.residual = inverse_residual(A, X);
    return res;
}

// The kernel table's counts: trtri and lauum n^3 / 3 each, potri both, poinv potrf's too.
double order_flops(Kernel kernel, const Case& c) { return kernel_flops(kernel, 0, double(c.n), 0); }
double potri_flops(const Case& c) { return order_flops(Kernel::Trtri, c) + order_flops(Kernel::Lauum, c); }
// LAPACK Working Note 41's getri: 4 n^3 / 3, the two triangles' inverses and their product.
double getri_flops(const Case& c) {
    return 2 * order_flops(Kernel::Trtri, c) + order_flops(Kernel::Trtrm, c);
}

// A, the input, X; the vendor's copy; the check's two full matrices and its product
uint64_t inversion_bytes(const Options& o, const Case& c) {
    const uint64_t square = array_bytes(c, c.n, c.n);
    return add(times(square, 3), add(o.vendor || o.check ? square : 0, o.check ? times(square, 3) : 0));
}

const Registered inversion{
    // name, residual bound, runner, flops, bytes, whether it reads -m, -k, --nrhs, workload
    {"trtri", 60, GRAIN_BY_PRECISION(run_trtri), [](const Case& c) { return order_flops(Kernel::Trtri, c); },
     inversion_bytes, false, false, false, grain::Workload::Cholesky},
    {"lauum", 10, GRAIN_BY_PRECISION(run_lauum), [](const Case& c) { return order_flops(Kernel::Lauum, c); },
     inversion_bytes, false, false, false, grain::Workload::Cholesky},
    {"potri", 60, GRAIN_BY_PRECISION(run_potri), potri_flops, inversion_bytes, false, false, false,
     grain::Workload::Cholesky},
    {"poinv", 60, GRAIN_BY_PRECISION(run_poinv),
     [](const Case& c) { return order_flops(Kernel::Potrf, c) + potri_flops(c); }, inversion_bytes, false, false,
     false, grain::Workload::Cholesky},
    {"getri", 60, GRAIN_BY_PRECISION(run_getri), getri_flops, inversion_bytes, false, false, false,
     grain::Workload::PivotedLu},
};

}  // namespace
}  // namespace grain::testing::driver
