// The mixed-precision solves (gesv_mixed, posv_mixed: LAPACK's dsgesv, dsposv, zcgesv,
// zcposv): double's backward error from a single-precision factorization, the fall-back
// and its reasons in iter, info, NaN inputs, the forms, and the conversions as tile tasks.
// Sizes that are and are not multiples of the tile size; under every split policy (the
// Recursive_* entries of ctest run this suite).
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common.hpp"

namespace grain::test {
namespace {

using testing::solve_residual;

template <typename T>
class Mixed : public ::testing::Test {};
using WorkingPrecisions = ::testing::Types<double, std::complex<double>>;
TYPED_TEST_SUITE(Mixed, WorkingPrecisions);

// What one solve gives: info, iter, X, and A and ipiv after it.
template <typename T>
struct Solved {
    int info = 0, iter = 0;
    Array<T> X, A;
    std::vector<int> ipiv;
};

// gesv_mixed, or posv_mixed on uplo (`cholesky`), through the tiled form.
template <typename T>
Solved<T> solve(bool cholesky, Uplo uplo, const Array<T>& A, const Array<T>& B) {
    Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales()), tX(B.m, B.n, scales());
    Pivots ipiv(A.n);
    Solved<T> s;
    s.info = cholesky ? posv_mixed(uplo, tA, tB, tX, s.iter) : gesv_mixed(tA, ipiv, tB, tX, s.iter);
    s.X = to_array(tX), s.A = to_array(tA);
    s.ipiv.assign(ipiv.data(), ipiv.data() + ipiv.size());
    const Array<T> after = to_array(tB);  // bit for bit: B may hold a NaN
    EXPECT_EQ(std::memcmp(after.data(), B.data(), sizeof(T) * B.a.size()), 0) << "B changed";
    return s;
}

// A general matrix of condition about `cond` (2-norm): spd_with_condition's with its rows
// reversed, so that partial pivoting interchanges rows.
template <typename T>
Array<T> general_with_condition(int64_t n, double cond, bool clustered = false) {
    Array<T> A = spd_with_condition<T>(n, cond, rng(), clustered);
    for (int64_t i = 0; i + 1 < n - i; ++i)
        for (int64_t j = 0; j < n; ++j) std::swap(A(i, j), A(n - 1 - i, j));
    return A;
}

// Well-conditioned systems: refined steps, not a double solve (a first single-precision
// solution never passes double's test past small orders), A and B unchanged, and each
// column's residual within LAPACK's test, which is below 1 in solve_residual's units
// (||r|| / (||A|| ||x|| n eps) <= 1 / sqrt(n)).
TYPED_TEST(Mixed, WellConditionedReachDoublesBackwardError) {
    using T = TypeParam;
    for (int64_t n : {1, 7, 16, 35, 67, 100})
        for (int64_t nrhs : {1, 3})
            for (bool cholesky : {false, true}) {
                const Array<T> A = cholesky ? spd_with_condition<T>(n, 100, rng())
                                            : random_array<T>(n, n, Kind::General, rng());
                const Array<T> B = random_array<T>(n, nrhs, Kind::General, rng());
                for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
                    if (!cholesky && uplo == Uplo::Upper) continue;
                    SCOPED_TRACE(::testing::Message() << "n=" << n << " nrhs=" << nrhs << " cholesky=" << cholesky
                                                      << " uplo=" << char(uplo));
                    const Solved<T> s = solve(cholesky, uplo, A, B);
                    EXPECT_EQ(s.info, 0);
                    EXPECT_LE(s.iter, 30);
                    if (n >= 35) {
                        EXPECT_GE(s.iter, 1) << "no refinement step: not a single-precision factorization";
                    }
                    // The test has a margin of sqrt(n) over rounding: at the smallest orders the
                    // last bit of b - A x may keep it from passing, as in LAPACK's.
                    if (n >= 16 || s.iter >= 0) {
                        EXPECT_GE(s.iter, 0);
                        EXPECT_EQ(s.A.a, A.a) << "A changed, with no fall-back";
                        EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, s.X, T(1), B), 1);
                    } else {
                        EXPECT_EQ(s.iter, -31);
                        EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, s.X, T(1), B), 60);
                    }
                }
            }
}

// Condition 1e9, half the spectrum at 1e-9: beyond single precision (1e9 eps_single >> 1),
// whose rounding leaves those eigenvalues noise of either sign. The single factorization
// fails (an indefinite matrix for Cholesky) or the refinement diverges; the solve falls
// back to double's, iter says why (-3, -31, or -2 once a residual overflows), A holds
// double's factors, and X is accurate.
TYPED_TEST(Mixed, IllConditionedFallsBackAccurately) {
    using T = TypeParam;
    for (int64_t n : {35, 67})
        for (bool cholesky : {false, true}) {
            SCOPED_TRACE(::testing::Message() << "n=" << n << " cholesky=" << cholesky);
            const Array<T> A = cholesky ? spd_with_condition<T>(n, 1e9, rng(), true)
                                        : general_with_condition<T>(n, 1e9, true);
            const Array<T> B = random_array<T>(n, 2, Kind::General, rng());
            const Solved<T> s = solve(cholesky, Uplo::Lower, A, B);
            EXPECT_EQ(s.info, 0);
            EXPECT_TRUE(s.iter == -2 || s.iter == -3 || s.iter == -31) << "iter " << s.iter;
            EXPECT_NE(s.A.a, A.a) << "no factors in A after the fall-back";
            EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, s.X, T(1), B), 60);
        }
}

// An element beyond single precision's range (A well-conditioned in double): iter -2, and
// double's solve. posv_mixed reads its triangle only: such elements in the other one
// change nothing.
TYPED_TEST(Mixed, OverflowInSinglePrecisionFallsBack) {
    using T = TypeParam;
    const int64_t n = 40;
    const double big = 1e39;  // float's largest is 3.4e38
    Array<T> A = random_array<T>(n, n, Kind::General, rng());
    for (int64_t i = 0; i < n; ++i) A(i, i) = T(big);
    const Array<T> B = random_array<T>(n, 1, Kind::General, rng());
    const Solved<T> s = solve(false, Uplo::Lower, A, B);
    EXPECT_EQ(s.info, 0);
    EXPECT_EQ(s.iter, -2);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, s.X, T(1), B), 60);

    Array<T> P = spd_with_condition<T>(n, 10, rng());
    const Array<T> full = P;
    for (int64_t j = 1; j < n; ++j)
        for (int64_t i = 0; i < j; ++i) P(i, j) = T(big);  // above the diagonal
    const Solved<T> lower = solve(true, Uplo::Lower, P, B);
    EXPECT_EQ(lower.info, 0);
    EXPECT_GE(lower.iter, 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, full, lower.X, T(1), B), 1);
    const Solved<T> upper = solve(true, Uplo::Upper, P, B);
    EXPECT_EQ(upper.iter, -2);
}

// Where the GPUs' products round to FP16 (RuntimeOptions::gpu_math), the solvers scale A
// and each right side by powers of two near 1 before narrowing, which the cores see too
// (they compute in IEEE single whatever the setting): a matrix beyond single's range
// (iter -2 unscaled) and right sides below its normal range then refine as any other.
TYPED_TEST(Mixed, Fp16MathScalesIntoSinglesRange) {
    using T = TypeParam;
    struct Math {  // the setting for this test only
        explicit Math(const char* m) { test_runtime().set_gpu_math(m); }
        ~Math() { test_runtime().set_gpu_math("fp32"); }
    };
    const int64_t n = 40;
    const Array<T> A = random_array<T>(n, n, Kind::General, rng()), P = spd_with_condition<T>(n, 10, rng());
    const Array<T> B = random_array<T>(n, 2, Kind::General, rng());
    const auto times = [](Array<T> M, int exponent) {
        for (T& e : M.a) e *= std::ldexp(1.0, exponent);
        return M;
    };
    const Array<T> huge_a = times(A, 130), huge_p = times(P, 130);  // beyond float's 3.4e38
    const Array<T> tiny = times(B, -140);  // below float's smallest normal, 1.2e-38
    EXPECT_EQ(solve(false, Uplo::Lower, huge_a, B).iter, -2);
    EXPECT_EQ(solve(true, Uplo::Lower, huge_p, B).iter, -2);
    const Math fp16("fp16");
    for (bool cholesky : {false, true})
        for (bool huge : {true, false}) {
            SCOPED_TRACE(::testing::Message() << "cholesky=" << cholesky << " huge=" << huge);
            const Array<T>& M = huge ? (cholesky ? huge_p : huge_a) : (cholesky ? P : A);
            const Array<T>& R = huge ? B : tiny;
            const Solved<T> s = solve(cholesky, Uplo::Lower, M, R);
            const int plain = solve(cholesky, Uplo::Lower, cholesky ? P : A, B).iter;
            EXPECT_EQ(s.info, 0);
            EXPECT_GE(s.iter, 1) << "not refined from single precision";
            EXPECT_GE(plain, 1);
            EXPECT_LE(s.iter, 2 * plain) << "scaled systems refine as unscaled ones do";
            EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, M, s.X, T(1), R), 1);
        }
}

// A general matrix of condition about 1e10 with only two small singular values: a random
// one times I - (1 - 1e-10) (u u^H + w w^H), u and w orthonormal. Single precision's factors
// err by their condition in those two directions only, where the classical step then
// diverges and GMRES needs one iteration each.
template <typename T>
Array<T> two_tiny_singular_values(int64_t n) {
    const Array<T> G = random_array<T>(n, n, Kind::General, rng());
    Array<T> U = random_array<T>(n, 2, Kind::General, rng());
    for (int64_t k = 0; k < 2; ++k) {  // Gram-Schmidt
        for (int64_t l = 0; l < k; ++l) {
            T d = 0;
            for (int64_t i = 0; i < n; ++i) d += detail::conj(U(i, l)) * U(i, k);
            for (int64_t i = 0; i < n; ++i) U(i, k) -= d * U(i, l);
        }
        double norm = 0;
        for (int64_t i = 0; i < n; ++i) norm += std::norm(U(i, k));
        for (int64_t i = 0; i < n; ++i) U(i, k) /= T(std::sqrt(norm));
    }
    Array<T> P(n, n);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            P(i, j) = (i == j ? T(1) : T(0)) - T(1 - 1e-10) * (U(i, 0) * detail::conj(U(j, 0)) +
                                                               U(i, 1) * detail::conj(U(j, 1)));
    Array<T> A(n, n);
    blas::gemm(Op::NoTrans, Op::NoTrans, int(n), int(n), int(n), T(1), G.data(), G.ld(), P.data(), P.ld(), T(0),
               A.data(), A.ld());
    return A;
}

// Under a tensor-core math (RuntimeOptions::gpu_math tf32, bf16, fp16) each step's
// correction is GMRES's, preconditioned by the single-precision factors: it refines
// systems where the classical step falls back, to LAPACK's test (a general matrix of
// condition 1e10 above; an SPD one of condition 1e6, whose single Cholesky cannot break
// down); `iter` then counts the factors' applications.
//
// The general matrix is singular to single precision: its last pivot is rounding noise,
// which some orders of the splits' sums cancel to exactly zero. Single's LU then fails
// (iter -3) and double's solve is the answer, as LAPACK's; GMRES must have run in the
// other solves.
TYPED_TEST(Mixed, TensorCoreMathRefinesByGmres) {
    using T = TypeParam;
    struct Math {  // the setting for this test only
        explicit Math(const char* m) { test_runtime().set_gpu_math(m); }
        ~Math() { test_runtime().set_gpu_math("fp32"); }
    };
    int refined_general = 0;
    for (int64_t n : {67, 100})
        for (bool cholesky : {false, true}) {
            SCOPED_TRACE(::testing::Message() << "n=" << n << " cholesky=" << cholesky);
            const Array<T> A = cholesky ? spd_with_condition<T>(n, 1e6, rng()) : two_tiny_singular_values<T>(n);
            const Array<T> B = random_array<T>(n, 2, Kind::General, rng());
            if (!cholesky) {
                EXPECT_LT(solve(cholesky, Uplo::Lower, A, B).iter, 0) << "classical steps converged: no test";
            }
            for (const char* math : {"tf32", "fp16"}) {
                SCOPED_TRACE(math);
                const Math setting(math);
                const Solved<T> s = solve(cholesky, Uplo::Lower, A, B);
                EXPECT_EQ(s.info, 0);
                EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, s.X, T(1), B), 1);
                if (!cholesky && s.iter == -3) {
                    EXPECT_NE(s.A.a, A.a) << "no factors in A after the fall-back";
                    continue;
                }
                EXPECT_GE(s.iter, 2) << "not refined by GMRES";
                EXPECT_EQ(s.A.a, A.a) << "A changed: a fall-back";
                refined_general += !cholesky;
            }
        }
    EXPECT_GE(refined_general, 1) << "single's LU was singular in every solve: GMRES never ran";
}

// Singular (gesv) and not positive definite (posv) matrices: single precision fails
// (iter -3), then double's factorization, whose info is LAPACK's.
TYPED_TEST(Mixed, FailedFactorizationsReportLapacksInfo) {
    using T = TypeParam;
    const int64_t n = 40;
    Array<T> S = random_array<T>(n, n, Kind::General, rng());
    for (int64_t i = 0; i < n; ++i) S(i, 20) = T(0);
    const Array<T> B = random_array<T>(n, 2, Kind::General, rng());
    const Solved<T> singular = solve(false, Uplo::Lower, S, B);
    EXPECT_EQ(singular.info, 21);
    EXPECT_EQ(singular.iter, -3);

    Array<T> N = spd_with_condition<T>(n, 10, rng());
    N(17, 17) = T(-1);
    const Solved<T> indefinite = solve(true, Uplo::Lower, N, B);
    Array<T> lapacke = N;
    const int expected = blas::potrf(Uplo::Lower, int(n), lapacke.data(), lapacke.ld());
    EXPECT_GT(expected, 0);
    EXPECT_EQ(indefinite.info, expected);
    EXPECT_EQ(indefinite.iter, -3);
}

// NaN inputs: refused before anything runs, as LAPACKE's check: -3 (A) or -6 (B) for
// gesv_mixed, -4 or -6 for posv_mixed, which reads A's triangle only.
TYPED_TEST(Mixed, NanInputsAreRefused) {
    using T = TypeParam;
    const int64_t n = 20;
    const T nan = T(std::numeric_limits<double>::quiet_NaN());
    const Array<T> A = spd_with_condition<T>(n, 10, rng());
    const Array<T> B = random_array<T>(n, 1, Kind::General, rng());
    Array<T> An = A, Bn = B;
    An(15, 3) = nan;  // below the diagonal
    Bn(7, 0) = nan;
    EXPECT_EQ(solve(false, Uplo::Lower, An, B).info, -3);
    EXPECT_EQ(solve(false, Uplo::Lower, A, Bn).info, -6);
    EXPECT_EQ(solve(true, Uplo::Lower, An, B).info, -4);
    EXPECT_EQ(solve(true, Uplo::Lower, A, Bn).info, -6);
    const Solved<T> upper = solve(true, Uplo::Upper, An, B);  // the NaN is not read
    EXPECT_EQ(upper.info, 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, upper.X, T(1), B), 1);
}

// The LAPACK-layout forms (padded arrays: the padding untouched) and the asynchronous
// ones, which refine on a thread of their request while this thread submits other work;
// the conversions ran as tile tasks.
TYPED_TEST(Mixed, LayoutAndAsyncForms) {
    using T = TypeParam;
    const int64_t n = 67, nrhs = 2, ld = n + 3;
    const Array<T> A = random_array<T>(n, n, Kind::General, rng());
    const Array<T> B = random_array<T>(n, nrhs, Kind::General, rng());
    std::vector<T> a(size_t(ld * n), T(7)), b(size_t(ld * nrhs), T(7)), x(size_t(ld * nrhs), T(7));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) a[size_t(i + j * ld)] = A(i, j);
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < n; ++i) b[size_t(i + j * ld)] = B(i, j);
    std::vector<int> ipiv(static_cast<size_t>(n));
    int iter = -100;
    ASSERT_EQ(gesv_mixed(n, nrhs, a.data(), ld, ipiv.data(), b.data(), ld, x.data(), ld, &iter), 0);
    EXPECT_GE(iter, 1);
    Array<T> X(n, nrhs);
    for (int64_t j = 0; j < nrhs; ++j) {
        for (int64_t i = 0; i < n; ++i) X(i, j) = x[size_t(i + j * ld)];
        for (int64_t i = n; i < ld; ++i) EXPECT_EQ(x[size_t(i + j * ld)], T(7));
    }
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, X, T(1), B), 1);
    EXPECT_THROW(gesv_mixed(n, nrhs, a.data(), ld, ipiv.data(), b.data(), ld, x.data(), ld, nullptr),
                 grain::invalid_argument);

    const Array<T> P = spd_with_condition<T>(n, 100, rng());
    Array<T> p = P, px(n, nrhs);
    iter = -100;
    ASSERT_EQ(posv_mixed(Uplo::Upper, n, nrhs, p.data(), p.ld(), B.data(), B.ld(), px.data(), px.ld(), &iter), 0);
    EXPECT_GE(iter, 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, P, px, T(1), B), 1);

    Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales()), tX(n, nrhs, scales());
    Matrix<T> sA = tiles_of(P, scales()), sX(n, nrhs, scales());
    Matrix<T> C(n, n, scales());
    Pivots pv(n);
    int gesv_iter = -100, posv_iter = -100;
    test_runtime().reset_statistics();
    Request lu = gesv_mixed_async(tA, pv, tB, tX, gesv_iter);
    Request cholesky = posv_mixed_async(Uplo::Lower, sA, tB, sX, posv_iter);
    EXPECT_EQ(gemm(Op::NoTrans, Op::NoTrans, T(1), tiles_of(A, scales()), tiles_of(P, scales()), T(0), C), 0);
    EXPECT_EQ(lu.wait(), 0);
    EXPECT_EQ(cholesky.wait(), 0);
    EXPECT_GE(gesv_iter, 1);
    EXPECT_GE(posv_iter, 0);
    EXPECT_GT(test_runtime().statistics().at("lag2", 0).finished, 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(tX), T(1), B), 1);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, P, to_array(sX), T(1), B), 1);
}

// Bad arguments throw, naming them, before anything runs.
TYPED_TEST(Mixed, BadArgumentsAreRefused) {
    using T = TypeParam;
    const int64_t n = 20;
    Matrix<T> A(n, n, scales()), B(n, 2, scales()), X(n, 3, scales()), Xm(n + 1, 2, scales()), R(n, n + 1, scales());
    Matrix<T> X2(n, 2, scales());
    Pivots ipiv(n), short_ipiv(n - 1);
    int iter = 0;
    expect_invalid("X.n", [&] { gesv_mixed(A, ipiv, B, X, iter); });
    expect_invalid("X.m", [&] { posv_mixed(Uplo::Lower, A, B, Xm, iter); });
    expect_invalid("A.n", [&] { gesv_mixed(R, ipiv, B, X, iter); });
    expect_invalid("ipiv.size()", [&] { gesv_mixed(A, short_ipiv, B, X2, iter); });
    expect_invalid("X", [&] { gesv_mixed(A, ipiv, B, B, iter); });
    expect_invalid("uplo", [&] { posv_mixed(Uplo('x'), A, B, B, iter); });
}

}  // namespace
}  // namespace grain::test
