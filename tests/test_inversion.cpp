// trmm, trtri, lauum, potri, poinv and getri: against LAPACK's products and by LAPACK's
// inverse residual, ill-conditioned inputs included; info as LAPACKE's.
#include <grain/grain.hpp>

#include "common.hpp"

namespace grain::test {
namespace {

using testing::from_triangle;
using testing::gemm_residual;
using testing::inverse_residual;
using testing::minus;
using testing::norm;

template <typename T>
class Inversion : public ::testing::Test {};
TYPED_TEST_SUITE(Inversion, Precisions);

const Uplo uplos[] = {Uplo::Lower, Uplo::Upper};

// A well-conditioned uplo triangle (a dominant diagonal), with 1e3 in the other triangle,
// which no routine may read or write.
template <typename T>
Array<T> garbage_triangle(int64_t n, Uplo uplo) {
    Array<T> A = random_array<T>(n, n, Kind::General, rng());
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            const bool inside = uplo == Uplo::Lower ? i > j : i < j;
            if (i == j)
                A(i, j) += T(2);
            else if (!inside)
                A(i, j) = T(1e3);
        }
    return A;
}

// The elements outside the uplo triangle (the diagonal excluded) are those of `before`.
template <typename T>
void expect_other_triangle_kept(const Array<T>& after, const Array<T>& before, Uplo uplo) {
    for (int64_t j = 0; j < after.n; ++j)
        for (int64_t i = 0; i < after.m; ++i)
            if (uplo == Uplo::Lower ? i < j : i > j) {
                ASSERT_EQ(after(i, j), before(i, j)) << "at " << i << "," << j;
            }
}

TYPED_TEST(Inversion, TrmmAgainstBlas) {
    using T = TypeParam;
    const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {7, 20}, {35, 17}, {48, 48}};
    for (auto [m, n] : shapes)
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : uplos)
                for (Op trans : {Op::NoTrans, Op::Trans, Op::ConjTrans})
                    for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                        SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n << " side=" << char(side)
                                                          << " uplo=" << char(uplo) << " trans=" << char(trans)
                                                          << " diag=" << char(diag));
                        const int64_t order = side == Side::Left ? m : n;
                        const Array<T> A = garbage_triangle<T>(order, uplo);
                        const Array<T> B = random_array<T>(m, n, Kind::General, rng());
                        Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
                        const T alpha = T(-1.5);
                        ASSERT_EQ(trmm(side, uplo, trans, diag, alpha, tA, tB), 0);
                        Array<T> ref = B;
                        blas::trmm(side, uplo, trans, diag, int(m), int(n), alpha, A.data(), A.ld(), ref.data(),
                                   ref.ld());
                        EXPECT_LT(gemm_residual(double(norm('M', minus(to_array(tB), ref))), alpha,
                                                norm('M', from_triangle(A, uplo, false)), norm('M', B), T(0), 0.0,
                                                order),
                                  10);
                    }
}

// garbage_triangle with its triangle's column j scaled by cond^(-j / (n - 1)): T D, D
// graded from 1 down to 1 / cond, so that T D's condition number is about cond.
template <typename T>
Array<T> graded_triangle(int64_t n, Uplo uplo, double cond) {
    Array<T> A = garbage_triangle<T>(n, uplo);
    for (int64_t j = 0; j < n; ++j) {
        const auto d = real_t<T>(std::pow(cond, -double(j) / double(std::max<int64_t>(n - 1, 1))));
        for (int64_t i = 0; i < n; ++i)
            if (uplo == Uplo::Lower ? i >= j : i <= j) A(i, j) *= d;
    }
    return A;
}

TYPED_TEST(Inversion, Trtri) {
    using T = TypeParam;
    std::vector<double> conditions = hard_conditions<T>();
    conditions.insert(conditions.begin(), 1.0);
    for (double cond : conditions)
        for (int64_t n : {1, 7, 16, 35, 67})
            for (Uplo uplo : uplos)
                for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                    if (diag == Diag::Unit && cond > 1) continue;  // a unit diagonal is not graded
                    SCOPED_TRACE(::testing::Message() << "n=" << n << " uplo=" << char(uplo) << " diag=" << char(diag)
                                                      << " cond=" << cond);
                    const Array<T> A = graded_triangle<T>(n, uplo, cond);
                    Matrix<T> tA = tiles_of(A, scales());
                    ASSERT_EQ(trtri(uplo, diag, tA), 0);
                    const Array<T> X = to_array(tA);
                    expect_other_triangle_kept(X, A, uplo);
                    const bool unit = diag == Diag::Unit;
                    EXPECT_LT(inverse_residual(from_triangle(A, uplo, false, unit), from_triangle(X, uplo, false, unit)),
                              60);
                }
}

TYPED_TEST(Inversion, Lauum) {
    using T = TypeParam;
    for (int64_t n : {1, 7, 16, 35, 67})
        for (Uplo uplo : uplos) {
            SCOPED_TRACE(::testing::Message() << "n=" << n << " uplo=" << char(uplo));
            // A real diagonal, as a Cholesky factor's: LAPACK's lauum reads no other.
            Array<T> A = garbage_triangle<T>(n, uplo);
            for (int64_t i = 0; i < n; ++i) A(i, i) = T(std::real(A(i, i)));
            Matrix<T> tA = tiles_of(A, scales());
            ASSERT_EQ(lauum(uplo, tA), 0);
            const Array<T> C = to_array(tA);
            expect_other_triangle_kept(C, A, uplo);
            Array<T> ref = A;
            blas::lauum(uplo, int(n), ref.data(), ref.ld());
            EXPECT_LT(gemm_residual(double(norm('M', minus(from_triangle(C, uplo, true), from_triangle(ref, uplo, true)))),
                                    T(1), norm('M', from_triangle(A, uplo, false)), 0.0, T(0), 0.0, n),
                      10);
        }
}

// potri on potrf's factor and poinv on the matrix itself, well- and ill-conditioned: each
// within LAPACK's bound, or within 10 times LAPACKE's own residual where that is larger.
TYPED_TEST(Inversion, PotriAndPoinv) {
    using T = TypeParam;
    for (int64_t n : {1, 7, 35, 77})
        for (double cond : {10.0, hard_conditions<T>()[0]})
            for (Uplo uplo : uplos) {
                SCOPED_TRACE(::testing::Message() << "n=" << n << " cond=" << cond << " uplo=" << char(uplo));
                const Array<T> A = spd_with_condition<T>(n, cond, rng());
                Array<T> lapacke = A;
                ASSERT_EQ(blas::potrf(uplo, int(n), lapacke.data(), lapacke.ld()), 0);
                Array<T> factor = lapacke;
                ASSERT_EQ(blas::potri(uplo, int(n), lapacke.data(), lapacke.ld()), 0);
                const double bound = std::max(60.0, 10 * inverse_residual(A, from_triangle(lapacke, uplo, true)));
                Matrix<T> tF = tiles_of(factor, scales()), tA = tiles_of(A, scales());
                ASSERT_EQ(potri(uplo, tF), 0);
                ASSERT_EQ(poinv(uplo, tA), 0);
                expect_other_triangle_kept(to_array(tF), factor, uplo);
                expect_other_triangle_kept(to_array(tA), A, uplo);
                EXPECT_LT(inverse_residual(A, from_triangle(to_array(tF), uplo, true)), bound);
                EXPECT_LT(inverse_residual(A, from_triangle(to_array(tA), uplo, true)), bound);
            }
}

// An exactly zero diagonal element inside a tile, at a tile's first column, and at the
// last: info is LAPACKE's trtri's, and potri's on such a factor.
TYPED_TEST(Inversion, ZeroDiagonalInfo) {
    using T = TypeParam;
    const int64_t n = 50;
    for (int64_t zero : {int64_t(4), int64_t(nb), 2 * int64_t(nb) - 1, n - 1})
        for (Uplo uplo : uplos) {
            SCOPED_TRACE(::testing::Message() << "zero at " << zero << " uplo=" << char(uplo));
            Array<T> A = garbage_triangle<T>(n, uplo);
            A(zero, zero) = T(0);
            Array<T> lapacke = A;
            const int expected = blas::trtri(uplo, Diag::NonUnit, int(n), lapacke.data(), lapacke.ld());
            ASSERT_EQ(expected, zero + 1);
            Matrix<T> tA = tiles_of(A, scales()), tF = tiles_of(A, scales());
            EXPECT_EQ(trtri(uplo, Diag::NonUnit, tA), expected);
            EXPECT_EQ(potri(uplo, tF), expected);
            // A unit diagonal is not read.
            Matrix<T> tU = tiles_of(A, scales());
            EXPECT_EQ(trtri(uplo, Diag::Unit, tU), 0);
        }
}

// A matrix that is not positive definite: poinv's info is potrf's.
TYPED_TEST(Inversion, PoinvNotPositiveDefinite) {
    using T = TypeParam;
    const int64_t n = 60;
    for (int64_t bad : {int64_t(3), int64_t(nb), n - 1})
        for (Uplo uplo : uplos) {
            SCOPED_TRACE(::testing::Message() << "bad at " << bad << " uplo=" << char(uplo));
            Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
            A(bad, bad) = T(-1);
            Array<T> lapacke = A;
            const int expected = blas::potrf(uplo, int(n), lapacke.data(), lapacke.ld());
            ASSERT_GT(expected, 0);
            Matrix<T> tA = tiles_of(A, scales());
            EXPECT_EQ(poinv(uplo, tA), expected);
        }
}

// getri on LAPACKE's factors and pivots, so that both invert the same ones: a random
// matrix (pivots across tiles) and an ill-conditioned one, within LAPACK's bound or 10
// times LAPACKE's getri's residual; tiled and LAPACK-layout forms.
TYPED_TEST(Inversion, Getri) {
    using T = TypeParam;
    for (int64_t n : {1, 7, 35, 77})
        for (double cond : {0.0, hard_conditions<T>()[0]}) {
            SCOPED_TRACE(::testing::Message() << "n=" << n << " cond=" << cond);
            const Array<T> A = cond > 0 ? spd_with_condition<T>(n, cond, rng()) : random_array<T>(n, n, Kind::General, rng());
            Array<T> factor = A;
            std::vector<int> ipiv(static_cast<size_t>(n));
            ASSERT_EQ(blas::getrf(int(n), int(n), factor.data(), factor.ld(), ipiv.data()), 0);
            Array<T> lapacke = factor;
            ASSERT_EQ(blas::getri(int(n), lapacke.data(), lapacke.ld(), ipiv.data()), 0);
            const double bound = std::max(60.0, 10 * inverse_residual(A, lapacke));
            Matrix<T> tF = tiles_of(factor, scales());
            const Pivots pivots(n, ipiv.data());
            ASSERT_EQ(getri(tF, pivots), 0);
            EXPECT_LT(inverse_residual(A, to_array(tF)), bound);
            Array<T> a = factor;
            ASSERT_EQ(getri(n, a.data(), a.ld(), ipiv.data()), 0);
            EXPECT_LT(inverse_residual(A, a), bound);
        }
}

// An exactly zero diagonal element of U inside a tile, at a tile's first and last
// columns: getri's info is LAPACKE's.
TYPED_TEST(Inversion, GetriSingularFactor) {
    using T = TypeParam;
    const int64_t n = 50;
    for (int64_t zero : {int64_t(4), int64_t(nb), 2 * int64_t(nb) - 1, n - 1}) {
        SCOPED_TRACE(::testing::Message() << "zero at " << zero);
        Array<T> factor = random_array<T>(n, n, Kind::General, rng());
        std::vector<int> ipiv(static_cast<size_t>(n));
        ASSERT_EQ(blas::getrf(int(n), int(n), factor.data(), factor.ld(), ipiv.data()), 0);
        factor(zero, zero) = T(0);
        Array<T> lapacke = factor;
        const int expected = blas::getri(int(n), lapacke.data(), lapacke.ld(), ipiv.data());
        ASSERT_EQ(expected, zero + 1);
        Matrix<T> tF = tiles_of(factor, scales());
        EXPECT_EQ(getri(tF, Pivots(n, ipiv.data())), expected);
    }
}

// getrf_async then getri_async on the same Pivots, with no wait between them.
TYPED_TEST(Inversion, GetrfThenGetriAsync) {
    using T = TypeParam;
    const int64_t n = 53;
    const Array<T> A = random_array<T>(n, n, Kind::General, rng());
    Matrix<T> tA = tiles_of(A, scales());
    Pivots ipiv(n);
    Request factor = getrf_async(tA, ipiv);
    Request inverse = getri_async(tA, ipiv);
    EXPECT_EQ(factor.wait(), 0);
    EXPECT_EQ(inverse.wait(), 0);
    EXPECT_LT(inverse_residual(A, to_array(tA)), 60);
}

// potrf_async then potri_async with no wait between them, and the LAPACK-layout forms.
TYPED_TEST(Inversion, AsyncChainAndLayout) {
    using T = TypeParam;
    const int64_t n = 45;
    for (Uplo uplo : uplos) {
        SCOPED_TRACE(::testing::Message() << "uplo=" << char(uplo));
        const Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
        Matrix<T> tA = tiles_of(A, scales());
        Request factor = potrf_async(uplo, tA);
        Request inverse = potri_async(uplo, tA);
        EXPECT_EQ(factor.wait(), 0);
        EXPECT_EQ(inverse.wait(), 0);
        EXPECT_LT(inverse_residual(A, from_triangle(to_array(tA), uplo, true)), 60);
        Array<T> a = A;
        ASSERT_EQ(poinv(uplo, n, a.data(), a.ld()), 0);
        EXPECT_LT(inverse_residual(A, from_triangle(a, uplo, true)), 60);
        Array<T> l = from_triangle(A, uplo, false), b = random_array<T>(n, 3, Kind::General, rng()), ref = b;
        for (int64_t i = 0; i < n; ++i) l(i, i) += T(double(n));
        Array<T> inv = l;
        ASSERT_EQ(trtri(uplo, Diag::NonUnit, n, inv.data(), inv.ld()), 0);
        EXPECT_LT(inverse_residual(from_triangle(l, uplo, false), from_triangle(inv, uplo, false)), 60);
        ASSERT_EQ(trmm(Side::Left, uplo, Op::NoTrans, Diag::NonUnit, n, 3, T(2), l.data(), l.ld(), b.data(), b.ld()), 0);
        blas::trmm(Side::Left, uplo, Op::NoTrans, Diag::NonUnit, int(n), 3, T(2), l.data(), l.ld(), ref.data(), ref.ld());
        EXPECT_LT(gemm_residual(double(norm('M', minus(b, ref))), T(2), norm('M', l), norm('M', ref), T(0), 0.0, n), 10);
    }
}

}  // namespace
}  // namespace grain::test
