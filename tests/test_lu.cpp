// LU with partial pivoting (getrf, getrs, gesv) against LAPACKE on the same matrices:
// the pivots, the factors' residual, the solves, info on singular matrices, and the
// matrices that defeat getrf_nopiv. Sizes that are and are not multiples of the tile
// size; square, tall and wide.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "common.hpp"

namespace grain::test {
namespace {

using testing::factor_residual;
using testing::solve_residual;

template <typename T>
class Lu : public ::testing::Test {};
TYPED_TEST_SUITE(Lu, Precisions);

// Factors A with grain; checks the pivots and ||P A - L U||_1 / (||A||_1 n eps) < 60.
// Returns info.
template <typename T>
int factor_and_check(const Array<T>& A) {
    Matrix<T> tA = tiles_of(A, scales());
    Pivots ipiv(std::min(A.m, A.n));
    const int info = getrf(tA, ipiv);
    const std::vector<int> p(ipiv.data(), ipiv.data() + ipiv.size());
    for (int v : p) {
        EXPECT_GE(v, 1);
        EXPECT_LE(v, A.m);
    }
    if (info == 0) expect_lapacke_pivots(A, p);
    EXPECT_LT(factor_residual(permuted(A, p), testing::lu_product(to_array(tA))), 60);
    return info;
}

TYPED_TEST(Lu, PivotsAndFactorsMatchLapacke) {
    using T = TypeParam;
    const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {7, 7}, {16, 16}, {35, 20}, {20, 35},
                                                  {48, 48}, {67, 50}, {50, 67}, {100, 100}};
    for (auto [m, n] : shapes) {
        SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n);
        EXPECT_EQ(factor_and_check(random_array<T>(m, n, Kind::General, rng())), 0);
    }
}

// A matrix over a user's padded column-major array: the panels are the array's own
// columns (factored in place, where tiled storage is copied); the padding stays untouched.
TYPED_TEST(Lu, LapackLayoutInPlace) {
    using T = TypeParam;
    for (auto [m, n] : {std::pair<int64_t, int64_t>{67, 50}, {40, 40}}) {
        SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n);
        const Array<T> A = random_array<T>(m, n, Kind::General, rng());
        const int64_t lda = m + 3;
        std::vector<T> a(size_t(lda * n), T(7));
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) a[size_t(i + j * lda)] = A(i, j);
        std::vector<int> ipiv(static_cast<size_t>(std::min(m, n)));
        {
            Matrix<T> tA(m, n, scales(), a.data(), lda);
            Pivots p(std::min(m, n), ipiv.data());
            ASSERT_EQ(getrf(tA, p), 0);
        }
        Array<T> F(m, n);
        for (int64_t j = 0; j < n; ++j) {
            for (int64_t i = 0; i < m; ++i) F(i, j) = a[size_t(i + j * lda)];
            for (int64_t i = m; i < lda; ++i) EXPECT_EQ(a[size_t(i + j * lda)], T(7));
        }
        expect_lapacke_pivots(A, ipiv);
        EXPECT_LT(factor_residual(permuted(A, ipiv), testing::lu_product(F)), 60);
    }
}

// A zero at (0, 0), and a matrix whose leading pivots are tiny: getrf_nopiv fails on the
// first and loses all accuracy on the second.
TYPED_TEST(Lu, MatricesThatDefeatNoPivoting) {
    using T = TypeParam;
    for (int64_t n : {7, 35, 67}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n);
        Array<T> zero = random_array<T>(n, n, Kind::General, rng());
        zero(0, 0) = T(0);
        EXPECT_EQ(factor_and_check(zero), 0);
        Array<T> tiny = random_array<T>(n, n, Kind::General, rng());
        for (int64_t i = 0; i < n; ++i) tiny(i, i) *= T(1e-7);
        EXPECT_EQ(factor_and_check(tiny), 0);
    }
}

// info is LAPACKE's: a zero column inside a tile, at a tile boundary, and in a sub-tile
// (the suites run under --split all and ladders too).
TYPED_TEST(Lu, SingularInfoIsLapackes) {
    using T = TypeParam;
    const int64_t n = 50;
    for (int64_t column : {int64_t(5), int64_t(nb), int64_t(nb + 3), n - 1}) {
        SCOPED_TRACE(::testing::Message() << "zero column " << column);
        Array<T> A = random_array<T>(n, n, Kind::General, rng());
        for (int64_t i = 0; i < n; ++i) A(i, column) = T(0);
        Array<T> lapacke = A;
        std::vector<lapack_int> ipiv(static_cast<size_t>(n));
        const int expected = blas::getrf(int(n), int(n), lapacke.data(), lapacke.ld(), ipiv.data());
        ASSERT_EQ(expected, column + 1);
        EXPECT_EQ(factor_and_check(A), expected);
    }
}

// getrs (no transpose, transpose and conjugate transpose: Trans again in real precisions)
// and gesv, on general matrices and on a matrix of condition
// about 1e8 (in double; eps^-1/2 in float) with its rows shuffled: the backward error is
// of LAPACKE's order.
TYPED_TEST(Lu, SolvesMatchLapackesBackwardError) {
    using T = TypeParam;
    for (int64_t n : {7, 35, 67}) {
        const double cond = hard_conditions<T>()[0];
        Array<T> hard = spd_with_condition<T>(n, cond, rng());
        for (int64_t i = 0; i + 1 < n; i += 2)
            for (int64_t j = 0; j < n; ++j) std::swap(hard(i, j), hard(n - 1 - i, j));
        for (const Array<T>& A : {random_array<T>(n, n, Kind::General, rng()), hard}) {
            const Array<T> B = random_array<T>(n, 3, Kind::General, rng());
            Array<T> lapacke = A, lapacke_x = B;
            std::vector<lapack_int> lp(static_cast<size_t>(n));
            ASSERT_EQ(blas::getrf(int(n), int(n), lapacke.data(), lapacke.ld(), lp.data()), 0);
            ASSERT_EQ(blas::getrs(Op::NoTrans, int(n), 3, lapacke.data(), lapacke.ld(), lp.data(), lapacke_x.data(), lapacke_x.ld()), 0);
            const double lapacke_error = solve_residual(Side::Left, Op::NoTrans, A, lapacke_x, T(1), B);
            for (Op trans : {Op::NoTrans, Op::Trans, Op::ConjTrans}) {
                SCOPED_TRACE(::testing::Message() << "n=" << n << " trans=" << char(trans));
                Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
                Pivots ipiv(n);
                ASSERT_EQ(getrf(tA, ipiv), 0);
                ASSERT_EQ(getrs(trans, tA, ipiv, tB), 0);
                EXPECT_LT(solve_residual(Side::Left, trans, A, to_array(tB), T(1), B), std::max(60.0, 10 * lapacke_error));
            }
            Matrix<T> sA = tiles_of(A, scales()), sB = tiles_of(B, scales());
            Pivots ipiv(n);
            ASSERT_EQ(gesv(sA, ipiv, sB), 0);
            EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(sB), T(1), B), std::max(60.0, 10 * lapacke_error));
        }
    }
}

// gesv leaves B untouched when A is singular; the LAPACK-layout forms agree with the
// tiled ones; the asynchronous chain needs no wait between the factorization and the solve.
TYPED_TEST(Lu, GesvOnSingularLapackLayoutAndAsyncChain) {
    using T = TypeParam;
    const int64_t n = 40;
    Array<T> S = random_array<T>(n, n, Kind::General, rng());
    for (int64_t i = 0; i < n; ++i) S(i, 20) = T(0);
    const Array<T> B = random_array<T>(n, 2, Kind::General, rng());
    Matrix<T> sA = tiles_of(S, scales()), sB = tiles_of(B, scales());
    Pivots sp(n);
    EXPECT_EQ(gesv(sA, sp, sB), 21);
    EXPECT_EQ(norm('1', testing::minus(to_array(sB), B)), T(0));

    const Array<T> A = random_array<T>(n, n, Kind::General, rng());
    Array<T> a = A, b = B;
    std::vector<int> ipiv(static_cast<size_t>(n));
    ASSERT_EQ(gesv(n, 2, a.data(), a.ld(), ipiv.data(), b.data(), b.ld()), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, b, T(1), B), 60);
    Array<T> b2 = B;
    ASSERT_EQ(getrs(Op::NoTrans, n, 2, a.data(), a.ld(), ipiv.data(), b2.data(), b2.ld()), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, b2, T(1), B), 60);

    Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
    Pivots p(n);
    Request factored = getrf_async(tA, p);
    Request solved = getrs_async(Op::NoTrans, tA, p, tB);
    EXPECT_EQ(solved.wait(), 0);
    EXPECT_EQ(factored.wait(), 0);
    EXPECT_EQ(std::vector<int>(p.data(), p.data() + n), ipiv);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(tB), T(1), B), 60);
}

// Under --split all on a three-scale ladder, every panel splits into the same LU on its
// column's sub-tiles (whose panels split again), every laswp with it, and the factors and
// pivots are still LAPACKE's: the pivots compose across levels.
TYPED_TEST(Lu, PanelsSplitIntoTheSameLu) {
    using T = TypeParam;
    const std::string saved = test_runtime().split();
    test_runtime().set_split("all");
    const int64_t m = 75, n = 60;  // 3 x 3 tiles of 32 (the last ones partial), steps of 16 and 8 below
    const Array<T> A = random_array<T>(m, n, Kind::General, rng());
    Matrix<T> tA(m, n, {32, 16, 8});
    tA.from_lapack(A.data(), A.ld());
    Pivots ipiv(n);
    test_runtime().reset_statistics();
    const int info = getrf(tA, ipiv);
    const Statistics s = test_runtime().statistics();
    test_runtime().set_split(saved);
    ASSERT_EQ(info, 0);
    EXPECT_EQ(s.at("getrf", 0).submitted, 2);  // min(3, 2) steps
    EXPECT_EQ(s.at("getrf", 0).split, 2);
    EXPECT_EQ(s.at("getrf", 1).split, s.at("getrf", 1).submitted);
    EXPECT_GT(s.at("getrf", 2).finished, 0);
    EXPECT_EQ(s.at("getrf", 0).finished + s.at("getrf", 1).finished, 0);
    EXPECT_GT(s.at("laswp", 0).submitted, 0);
    EXPECT_EQ(s.at("laswp", 0).split, s.at("laswp", 0).submitted);
    EXPECT_EQ(s.at("laswp", 1).split, s.at("laswp", 1).submitted);
    EXPECT_EQ(s.at("laswp", 0).finished + s.at("laswp", 1).finished, 0);
    EXPECT_GT(s.at("laswp", 2).finished, 0);
    const std::vector<int> p(ipiv.data(), ipiv.data() + n);
    expect_lapacke_pivots(A, p);
    EXPECT_LT(factor_residual(permuted(A, p), testing::lu_product(to_array(tA))), 60);
}

// Row interchanges split exactly where their panel did, whatever the policy says of
// other tasks: under depth:1 the top-level panels split and their interchanges with
// them, the panels one level down run whole and so do theirs. The solves that reuse
// the pivots (P B, and P^T X in reverse, on B's ladder) split the same way, and give
// LAPACKE's backward error, on an ill-conditioned matrix too.
TYPED_TEST(Lu, InterchangesSplitWithTheirPanel) {
    using T = TypeParam;
    const std::string saved = test_runtime().split();
    test_runtime().set_split("depth:1");
    const int64_t n = 75;  // 3 x 3 tiles of 32, the last partial
    const Array<T> hard = spd_with_condition<T>(n, hard_conditions<T>()[0], rng());
    for (const Array<T>& A : {random_array<T>(n, n, Kind::General, rng()), hard}) {
        const Array<T> B = random_array<T>(n, 2, Kind::General, rng());
        Matrix<T> tA(n, n, {32, 16, 8});
        tA.from_lapack(A.data(), A.ld());
        Pivots ipiv(n);
        test_runtime().reset_statistics();
        ASSERT_EQ(getrf(tA, ipiv), 0);
        const Statistics s = test_runtime().statistics();
        EXPECT_EQ(s.at("getrf", 0).split, s.at("getrf", 0).submitted);
        EXPECT_EQ(s.at("getrf", 1).split, 0);
        EXPECT_GT(s.at("laswp", 0).submitted, 0);
        EXPECT_EQ(s.at("laswp", 0).split, s.at("laswp", 0).submitted);
        EXPECT_GT(s.at("laswp", 1).finished, 0);
        EXPECT_EQ(s.at("laswp", 1).split, 0);
        expect_lapacke_pivots(A, std::vector<int>(ipiv.data(), ipiv.data() + n));
        for (Op trans : {Op::NoTrans, Op::Trans}) {
            Matrix<T> tB(n, 2, {32, 16, 8});
            tB.from_lapack(B.data(), B.ld());
            test_runtime().reset_statistics();
            ASSERT_EQ(getrs(trans, tA, ipiv, tB), 0);
            EXPECT_EQ(test_runtime().statistics().at("laswp", 0).split, 3);  // one per step
            Array<T> lapacke = A, x = B;
            std::vector<lapack_int> lp(static_cast<size_t>(n));
            ASSERT_EQ(blas::getrf(int(n), int(n), lapacke.data(), lapacke.ld(), lp.data()), 0);
            ASSERT_EQ(blas::getrs(trans, int(n), 2, lapacke.data(), lapacke.ld(), lp.data(), x.data(), x.ld()), 0);
            EXPECT_LT(solve_residual(Side::Left, trans, A, to_array(tB), T(1), B),
                      std::max(60.0, 10 * solve_residual(Side::Left, trans, A, x, T(1), B)));
        }
    }
    test_runtime().set_split(saved);
}

TYPED_TEST(Lu, BadArgumentsAreRefused) {
    using T = TypeParam;
    Matrix<T> A(20, 30, nb), B(20, 2, nb), C(30, 2, nb);
    Pivots wrong(19), right(20);
    EXPECT_THROW(getrf(A, wrong), grain::invalid_argument);
    EXPECT_THROW(getrs(Op::NoTrans, A, right, B), grain::invalid_argument);  // A not square
    Matrix<T> S(30, 30, nb);
    Pivots p30(30);
    EXPECT_THROW(getrs(Op::NoTrans, S, p30, B), grain::invalid_argument);  // B.m != n
    EXPECT_THROW(Pivots(-1), grain::invalid_argument);
    EXPECT_THROW(Pivots(3, nullptr), grain::invalid_argument);
}

}  // namespace
}  // namespace grain::test
