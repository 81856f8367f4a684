// Every routine, in the four precisions, square and rectangular shapes, sizes that are and
// are not multiples of the tile size (including n < nb and n = 1), checked by residual.
#include <tuple>

#include "common.hpp"

namespace grain::test {
namespace {

using testing::factor_residual;
using testing::gemm_residual;
using testing::minus;
using testing::norm;
using testing::solve_residual;

template <typename T>
class Routines : public ::testing::Test {};
TYPED_TEST_SUITE(Routines, Precisions);

// ConjTrans is Trans in real precisions: there the real routines run it once more.
const Op ops[] = {Op::NoTrans, Op::Trans, Op::ConjTrans};
const Uplo uplos[] = {Uplo::Lower, Uplo::Upper};
const int64_t sizes[] = {1, 7, 16, 35, 48, 67};

// A triangular test matrix: well conditioned whatever the diagonal, with garbage in
// the other triangle, which no routine may read. Returns it and its clean version.
template <typename T>
std::pair<Array<T>, Array<T>> triangular(int64_t n, Uplo uplo, Diag diag) {
    Array<T> A = random_array<T>(n, n, Kind::General, rng()), clean(n, n);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            const bool inside = uplo == Uplo::Lower ? i > j : i < j;
            if (i == j) {
                A(i, j) = T(2) + A(i, j);
                clean(i, j) = diag == Diag::Unit ? T(1) : A(i, j);
            } else if (inside) {
                A(i, j) /= T(n);
                clean(i, j) = A(i, j);
            } else {
                A(i, j) = T(1e3);  // must not be referenced
            }
        }
    return {A, clean};
}

TYPED_TEST(Routines, Gemm) {
    using T = TypeParam;
    const std::tuple<int64_t, int64_t, int64_t> shapes[] = {
        {1, 1, 1}, {7, 5, 3}, {16, 16, 16}, {35, 20, 50}, {48, 33, 17}, {20, 35, 0}};
    for (auto [m, n, k] : shapes)
        for (Op ta : ops)
            for (Op tb : ops) {
                SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n << " k=" << k << " transa=" << char(ta)
                                                  << " transb=" << char(tb));
                const T alpha = T(1.5), beta = T(-0.75);
                const Array<T> A = random_array<T>(ta == Op::NoTrans ? m : k, ta == Op::NoTrans ? k : m, Kind::General, rng());
                const Array<T> B = random_array<T>(tb == Op::NoTrans ? k : n, tb == Op::NoTrans ? n : k, Kind::General, rng());
                const Array<T> C0 = random_array<T>(m, n, Kind::General, rng());
                Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales()), tC = tiles_of(C0, scales());
                ASSERT_EQ(gemm(ta, tb, alpha, tA, tB, beta, tC), 0);
                Array<T> ref = C0;
                blas::gemm(ta, tb, int(m), int(n), int(k), alpha, A.data(), A.ld(), B.data(), B.ld(), beta, ref.data(),
                           ref.ld());
                const double error = norm('M', minus(to_array(tC), ref));
                EXPECT_LT(gemm_residual(error, alpha, norm('M', A), norm('M', B), beta, norm('M', C0), k), 10);
            }
}

// One matrix as both inputs: the same tile appears twice in some tasks.
TYPED_TEST(Routines, GemmWithTheSameMatrixTwice) {
    using T = TypeParam;
    const Array<T> A = random_array<T>(40, 23, Kind::General, rng());
    Matrix<T> tA = tiles_of(A, scales()), tC(40, 40, scales());
    ASSERT_EQ(gemm(Op::NoTrans, Op::Trans, T(1), tA, tA, T(0), tC), 0);
    Array<T> ref(40, 40);
    blas::gemm(Op::NoTrans, Op::Trans, 40, 40, 23, T(1), A.data(), A.ld(), A.data(), A.ld(), T(0), ref.data(), ref.ld());
    EXPECT_LT(gemm_residual(norm('M', minus(to_array(tC), ref)), T(1), norm('M', A), norm('M', A), T(0), 0.0, 23), 10);
}

TYPED_TEST(Routines, Trsm) {
    using T = TypeParam;
    const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {7, 20}, {35, 17}, {48, 48}, {16, 5}};
    for (auto [m, n] : shapes)
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : uplos)
                for (Op trans : ops)
                    for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                        SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n << " side=" << char(side)
                                                          << " uplo=" << char(uplo) << " trans=" << char(trans)
                                                          << " diag=" << char(diag));
                        const int64_t order = side == Side::Left ? m : n;
                        const auto [A, clean] = triangular<T>(order, uplo, diag);
                        const Array<T> B = random_array<T>(m, n, Kind::General, rng());
                        Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
                        const T alpha = T(-2);
                        ASSERT_EQ(trsm(side, uplo, trans, diag, alpha, tA, tB), 0);
                        EXPECT_LT(solve_residual(side, trans, clean, to_array(tB), alpha, B), 60);
                    }
}

// One tile holding the whole triangle, wider than the CPU kernel's leaf: the kernel halves
// it, at uneven widths, for every side, triangle, op and diagonal.
TYPED_TEST(Routines, TrsmOnOneWideTile) {
    using T = TypeParam;
    const std::pair<int64_t, int64_t> shapes[] = {{67, 45}, {45, 130}, {101, 101}};
    for (auto [m, n] : shapes)
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : uplos)
                for (Op trans : ops)
                    for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                        SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n << " side=" << char(side)
                                                          << " uplo=" << char(uplo) << " trans=" << char(trans)
                                                          << " diag=" << char(diag));
                        const int64_t order = side == Side::Left ? m : n;
                        const auto [A, clean] = triangular<T>(order, uplo, diag);
                        const Array<T> B = random_array<T>(m, n, Kind::General, rng());
                        const int tile = int(std::max(m, n));
                        Matrix<T> tA = tiles_of(A, tile), tB = tiles_of(B, tile);
                        const T alpha = T(0.5);
                        ASSERT_EQ(trsm(side, uplo, trans, diag, alpha, tA, tB), 0);
                        EXPECT_LT(solve_residual(side, trans, clean, to_array(tB), alpha, B), 60);
                    }
}

// syrk (C = alpha op(A) op(A)^T + beta C) and herk (op(A)^H, alpha and beta real: the
// same alpha and beta in both, so that one reference formula serves).
template <typename T>
void rank_k_test(bool hermitian) {
    const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {7, 3}, {35, 50}, {48, 17}, {33, 0}};
    // In complex precisions syrk takes NoTrans or Trans, herk NoTrans or ConjTrans.
    const Op transposes = hermitian ? Op::ConjTrans : Op::Trans;
    for (auto [n, k] : shapes)
        for (Uplo uplo : uplos)
            for (Op trans : {Op::NoTrans, transposes}) {
                SCOPED_TRACE(::testing::Message() << (hermitian ? "herk" : "syrk") << " n=" << n << " k=" << k
                                                  << " uplo=" << char(uplo) << " trans=" << char(trans));
                const real_t<T> alpha = real_t<T>(0.5), beta = real_t<T>(2);
                const Array<T> A = random_array<T>(trans == Op::NoTrans ? n : k, trans == Op::NoTrans ? k : n,
                                                   Kind::General, rng());
                // A diagonal with imaginary parts, which herk drops, as BLAS's does (but with
                // k = 0 and beta = 1, where BLAS returns at once).
                const Array<T> C0 = random_array<T>(n, n, Kind::General, rng());
                Matrix<T> tA = tiles_of(A, scales()), tC = tiles_of(C0, scales());
                Array<T> ref = C0;
                if (hermitian) {
                    ASSERT_EQ(herk(uplo, trans, alpha, tA, beta, tC), 0);
                    blas::herk(uplo, trans, int(n), int(k), alpha, A.data(), A.ld(), beta, ref.data(), ref.ld());
                } else {
                    ASSERT_EQ(syrk(uplo, trans, T(alpha), tA, T(beta), tC), 0);
                    blas::syrk(uplo, trans, int(n), int(k), T(alpha), A.data(), A.ld(), T(beta), ref.data(), ref.ld());
                }
                const Array<T> C = to_array(tC);
                double error = 0;
                for (int64_t j = 0; j < n; ++j)
                    for (int64_t i = 0; i < n; ++i) {
                        const bool in_triangle = uplo == Uplo::Lower ? i >= j : i <= j;
                        if (!in_triangle) {
                            ASSERT_EQ(C(i, j), C0(i, j)) << "outside the triangle, at " << i << "," << j;
                        }
                        error = std::max(error, double(std::abs(C(i, j) - ref(i, j))));
                    }
                EXPECT_LT(gemm_residual(error, T(alpha), norm('M', A), norm('M', A), T(beta), norm('M', C0), k), 10);
            }
}

TYPED_TEST(Routines, Syrk) { rank_k_test<TypeParam>(false); }
TYPED_TEST(Routines, Herk) { rank_k_test<TypeParam>(true); }

TYPED_TEST(Routines, Potrf) {
    using T = TypeParam;
    for (int64_t n : sizes)
        for (Uplo uplo : uplos) {
            SCOPED_TRACE(::testing::Message() << "n=" << n << " uplo=" << char(uplo));
            Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
            Array<T> input = A;  // the other triangle holds garbage: potrf must not read or write it
            for (int64_t j = 0; j < n; ++j)
                for (int64_t i = 0; i < n; ++i)
                    if (uplo == Uplo::Lower ? i < j : i > j) input(i, j) = T(-7);
            Matrix<T> tA = tiles_of(input, scales());
            ASSERT_EQ(potrf(uplo, tA), 0);
            const Array<T> F = to_array(tA);
            for (int64_t j = 0; j < n; ++j)
                for (int64_t i = 0; i < n; ++i)
                    if (uplo == Uplo::Lower ? i < j : i > j) {
                        ASSERT_EQ(F(i, j), T(-7));
                    }
            EXPECT_LT(factor_residual(A, testing::cholesky_product(uplo, F)), 60);
        }
}

TYPED_TEST(Routines, PotrsAndPosv) {
    using T = TypeParam;
    for (int64_t n : sizes)
        for (int64_t nrhs : {1, 5, 20})
            for (Uplo uplo : uplos) {
                SCOPED_TRACE(::testing::Message() << "n=" << n << " nrhs=" << nrhs << " uplo=" << char(uplo));
                const Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
                const Array<T> B = random_array<T>(n, nrhs, Kind::General, rng());
                Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
                ASSERT_EQ(potrf(uplo, tA), 0);
                ASSERT_EQ(potrs(uplo, tA, tB), 0);
                EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(tB), T(1), B), 60);

                Matrix<T> sA = tiles_of(A, scales()), sB = tiles_of(B, scales());
                ASSERT_EQ(posv(uplo, sA, sB), 0);
                EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(sB), T(1), B), 60);
            }
}

TYPED_TEST(Routines, GetrfNopiv) {
    using T = TypeParam;
    const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {7, 7}, {16, 16}, {35, 20}, {20, 35}, {48, 48}, {67, 50}};
    for (auto [m, n] : shapes) {
        SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n);
        const Array<T> A = random_array<T>(m, n, Kind::DiagonallyDominant, rng());
        Matrix<T> tA = tiles_of(A, scales());
        ASSERT_EQ(getrf_nopiv(tA), 0);
        EXPECT_LT(factor_residual(A, testing::lu_product(to_array(tA))), 60);
    }
}

TYPED_TEST(Routines, GetrsAndGesvNopiv) {
    using T = TypeParam;
    for (int64_t n : sizes)
        for (int64_t nrhs : {1, 9}) {
            SCOPED_TRACE(::testing::Message() << "n=" << n << " nrhs=" << nrhs);
            const Array<T> A = random_array<T>(n, n, Kind::DiagonallyDominant, rng());
            const Array<T> B = random_array<T>(n, nrhs, Kind::General, rng());
            Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
            ASSERT_EQ(getrf_nopiv(tA), 0);
            ASSERT_EQ(getrs_nopiv(tA, tB), 0);
            EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(tB), T(1), B), 60);

            Matrix<T> sA = tiles_of(A, scales()), sB = tiles_of(B, scales());
            ASSERT_EQ(gesv_nopiv(sA, sB), 0);
            EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(sB), T(1), B), 60);
        }
}

// The LAPACK-layout overloads work in place on arrays with padding (lda > m),
// and leave the padding alone.
// ||X - Xtrue||_inf / ||Xtrue||_inf
template <typename T>
double forward_error(const Array<T>& X, const Array<T>& truth) {
    return double(norm('I', minus(X, truth))) / double(norm('I', truth));
}

// B = A X for a random X, the solution a solver must find.
template <typename T>
std::pair<Array<T>, Array<T>> system_for(const Array<T>& A, int64_t nrhs) {
    const Array<T> X = random_array<T>(A.n, nrhs, Kind::General, rng());
    Array<T> B(A.m, nrhs);
    blas::gemm(Op::NoTrans, Op::NoTrans, int(A.m), int(nrhs), int(A.n), T(1), A.data(), A.ld(), X.data(), X.ld(),
               T(0), B.data(), B.ld());
    return {X, B};
}

// On ill-conditioned matrices the residual bound that LAPACKE meets on the same
// matrices holds for grain too, and grain's forward error stays within a small factor
// of LAPACKE's: a loss of stability (a wrong pivot order, a tile kernel on the wrong
// triangle) would show here, not on the well-conditioned matrices above.
TYPED_TEST(Routines, IllConditionedCholesky) {
    using T = TypeParam;
    for (int64_t n : {77, 130})
        for (double cond : hard_conditions<T>())
            for (Uplo uplo : uplos) {
                SCOPED_TRACE(::testing::Message() << "n=" << n << " cond=" << cond << " uplo=" << char(uplo));
                const Array<T> A = spd_with_condition<T>(n, cond, rng());
                const auto [truth, B] = system_for(A, 3);
                Array<T> lapacke = A, lapacke_x = B;
                ASSERT_EQ(blas::potrf(uplo, int(n), lapacke.data(), lapacke.ld()), 0);
                ASSERT_EQ(blas::potrs(uplo, int(n), 3, lapacke.data(), lapacke.ld(), lapacke_x.data(), lapacke_x.ld()), 0);
                const double lapacke_factor = factor_residual(A, testing::cholesky_product(uplo, lapacke));
                const double lapacke_solve = solve_residual(Side::Left, Op::NoTrans, A, lapacke_x, T(1), B);
                ASSERT_LT(lapacke_factor, 60);
                ASSERT_LT(lapacke_solve, 60);
                Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
                ASSERT_EQ(posv(uplo, tA, tB), 0);
                EXPECT_LT(factor_residual(A, testing::cholesky_product(uplo, to_array(tA))), 60);
                EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(tB), T(1), B), 60);
                EXPECT_LE(forward_error(to_array(tB), truth), 10 * forward_error(lapacke_x, truth));
            }
}

TYPED_TEST(Routines, IllConditionedLuNopiv) {
    using T = TypeParam;
    for (int64_t n : {77, 130})
        for (double cond : hard_conditions<T>()) {
            const double decades = std::log10(cond);
            SCOPED_TRACE(::testing::Message() << "n=" << n << " scaled over " << decades << " decades");
            const Array<T> A = scaled_dominant<T>(n, decades, rng());
            const auto [truth, B] = system_for(A, 2);
            Array<T> lapacke = A, lapacke_x = B;
            std::vector<lapack_int> ipiv(static_cast<size_t>(n));
            ASSERT_EQ(blas::getrf(int(n), int(n), lapacke.data(), lapacke.ld(), ipiv.data()), 0);
            ASSERT_EQ(blas::getrs(Op::NoTrans, int(n), 2, lapacke.data(), lapacke.ld(), ipiv.data(), lapacke_x.data(), lapacke_x.ld()), 0);
            const double lapacke_solve = solve_residual(Side::Left, Op::NoTrans, A, lapacke_x, T(1), B);
            ASSERT_LT(lapacke_solve, 60);
            Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
            ASSERT_EQ(gesv_nopiv(tA, tB), 0);
            EXPECT_LT(factor_residual(A, testing::lu_product(to_array(tA))), 60);
            EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(tB), T(1), B), 60);
            EXPECT_LE(forward_error(to_array(tB), truth), 10 * forward_error(lapacke_x, truth));
        }
}

TYPED_TEST(Routines, LapackLayout) {
    using T = TypeParam;
    // The suite's ladder (16 alone, or the ctest variant's): the LAPACK-layout forms split
    // under the variant's policy too.
    std::string ladder;
    for (int scale : scales()) ladder += (ladder.empty() ? "" : ",") + std::to_string(scale);
    ::setenv("GRAIN_SCALES", ladder.c_str(), 1);
    const int64_t n = 45, nrhs = 7, pad = 3, lda = n + pad;
    const T sentinel = T(12345);
    auto padded = [&](const Array<T>& x) {
        Array<T> p(x.m + pad, x.n);
        for (T& v : p.a) v = sentinel;
        for (int64_t j = 0; j < x.n; ++j)
            for (int64_t i = 0; i < x.m; ++i) p(i, j) = x(i, j);
        return p;
    };
    auto unpadded = [&](const Array<T>& p) {
        Array<T> x(p.m - pad, p.n);
        for (int64_t j = 0; j < x.n; ++j) {
            for (int64_t i = 0; i < x.m; ++i) x(i, j) = p(i, j);
            for (int64_t i = x.m; i < p.m; ++i) EXPECT_EQ(p(i, j), sentinel);
        }
        return x;
    };
    const Array<T> S = random_array<T>(n, n, Kind::Spd, rng());
    const Array<T> D = random_array<T>(n, n, Kind::DiagonallyDominant, rng());
    const Array<T> B = random_array<T>(n, nrhs, Kind::General, rng());

    Array<T> a = padded(S);
    ASSERT_EQ(potrf(Uplo::Lower, n, a.data(), lda), 0);
    EXPECT_LT(factor_residual(S, testing::cholesky_product(Uplo::Lower, unpadded(a))), 60);
    Array<T> b = padded(B);
    ASSERT_EQ(potrs(Uplo::Lower, n, nrhs, a.data(), lda, b.data(), lda), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, S, unpadded(b), T(1), B), 60);

    a = padded(S), b = padded(B);
    ASSERT_EQ(posv(Uplo::Upper, n, nrhs, a.data(), lda, b.data(), lda), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, S, unpadded(b), T(1), B), 60);

    a = padded(D);
    ASSERT_EQ(getrf_nopiv(n, n, a.data(), lda), 0);
    EXPECT_LT(factor_residual(D, testing::lu_product(unpadded(a))), 60);
    b = padded(B);
    ASSERT_EQ(getrs_nopiv(n, nrhs, a.data(), lda, b.data(), lda), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, D, unpadded(b), T(1), B), 60);

    a = padded(D), b = padded(B);
    ASSERT_EQ(gesv_nopiv(n, nrhs, a.data(), lda, b.data(), lda), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, D, unpadded(b), T(1), B), 60);

    const Array<T> G = random_array<T>(n, n, Kind::General, rng());
    const Array<T> C0 = random_array<T>(n, nrhs, Kind::General, rng());
    Array<T> c = padded(C0);
    const Array<T> g = padded(G), bb = padded(B);
    ASSERT_EQ(gemm(Op::ConjTrans, Op::NoTrans, n, nrhs, n, T(2), g.data(), lda, bb.data(), lda, T(1), c.data(), lda), 0);
    Array<T> ref = C0;
    blas::gemm(Op::ConjTrans, Op::NoTrans, int(n), int(nrhs), int(n), T(2), G.data(), G.ld(), B.data(), B.ld(), T(1),
               ref.data(), ref.ld());
    EXPECT_LT(gemm_residual(norm('M', minus(unpadded(c), ref)), T(2), norm('M', G), norm('M', B), T(1), norm('M', C0), n),
              10);

    const auto [L, clean] = triangular<T>(n, Uplo::Lower, Diag::NonUnit);
    const Array<T> l = padded(L);
    b = padded(B);
    ASSERT_EQ(trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::NonUnit, n, nrhs, T(1), l.data(), lda, b.data(), lda), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, clean, unpadded(b), T(1), B), 60);

    c = padded(S);
    ASSERT_EQ(syrk(Uplo::Upper, Op::Trans, n, n, T(-1), g.data(), lda, T(1), c.data(), lda), 0);
    ref = S;
    blas::syrk(Uplo::Upper, Op::Trans, int(n), int(n), T(-1), G.data(), G.ld(), T(1), ref.data(), ref.ld());
    const Array<T> got = unpadded(c);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= j; ++i)
            EXPECT_LE(std::abs(got(i, j) - ref(i, j)), 100 * n * std::numeric_limits<real_t<T>>::epsilon());
    ::unsetenv("GRAIN_SCALES");
}

// Routines work on views of sub-blocks of tiles, and leave the rest alone.
TYPED_TEST(Routines, Views) {
    using T = TypeParam;
    const int64_t n = 70;  // 5 x 5 tiles, the last ones 6 wide
    const Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
    Matrix<T> tA = tiles_of(A, nb);
    Matrix<T> block = tA.sub(1, 4, 1, 4);  // rows and columns 16..69
    ASSERT_EQ(block.m(), 54);
    ASSERT_EQ(potrf(Uplo::Lower, block), 0);
    Array<T> sub_ref(54, 54);
    for (int64_t j = 0; j < 54; ++j)
        for (int64_t i = 0; i < 54; ++i) sub_ref(i, j) = A(i + 16, j + 16);
    EXPECT_LT(factor_residual(sub_ref, testing::cholesky_product(Uplo::Lower, to_array(block))), 60);
    const Array<T> all = to_array(tA);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            if (i < 16 || j < 16) {
                ASSERT_EQ(all(i, j), A(i, j));
            }
}

}  // namespace
}  // namespace grain::test

namespace grain::test {
namespace {

// A matrix on a Distribution of one process, in a program no MPI launcher started: a
// local matrix (no MPI call: StarPU-MPI would call MPI when its tiles are unregistered),
// with every placement's owners, and the routines' results.
TEST(RoutinesOnOneProcess, DistributedMatrixIsLocal) {
    ASSERT_EQ(Runtime::ranks(), 1);
    const int64_t n = 75;
    const Array<double> A = random_array<double>(n, n, Kind::Spd, rng());
    for (const Distribution& d : {Distribution::block_cyclic(1, 1), Distribution::random(1, 3)}) {
        Matrix<double> M(n, n, scales(), d);
        EXPECT_FALSE(M.distributed());
        EXPECT_EQ(M.tile_rank(M.mt() - 1, 0), 0);
        M.from_lapack(A.data(), A.ld());
        ASSERT_EQ(potrf(Uplo::Lower, M), 0);
        EXPECT_LT(testing::factor_residual(A, testing::cholesky_product(Uplo::Lower, to_array(M))), 60);
        Array<double> gathered(n, n);
        M.gather_to(0, gathered.data(), gathered.ld());
        EXPECT_EQ(testing::norm('M', testing::minus(gathered, to_array(M))), 0.0);
    }
    EXPECT_THROW(Matrix<double>(n, n, 16, Distribution::block_cyclic(1, 2)), grain::invalid_argument);
}

}  // namespace
}  // namespace grain::test
