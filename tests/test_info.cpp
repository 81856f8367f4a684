// Numerical failures: info is the global column of the first failure, as LAPACKE
// reports it, wherever the failing tile is; and nothing is left behind.
#include "src/kernels/blas.hpp"  // LAPACKE, with grain's complex types
#include <starpu.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "common.hpp"
#include "src/starpu/tile_storage.hpp"

namespace grain::test {
namespace {

template <typename T>
class Info : public ::testing::Test {};
TYPED_TEST_SUITE(Info, Precisions);

// An SPD matrix whose leading minor of order `column` (1-based) is not positive.
template <typename T>
Array<T> not_spd_at(int64_t n, int64_t column) {
    Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
    A(column - 1, column - 1) = T(-1);
    return A;
}

TYPED_TEST(Info, PotrfMatchesLapacke) {
    using T = TypeParam;
    const int64_t n = 70;
    for (int64_t column : {1, 5, 16, 17, 38, 64, 70})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            SCOPED_TRACE(::testing::Message() << "column=" << column << " uplo=" << char(uplo));
            const Array<T> A = not_spd_at<T>(n, column);
            Array<T> lapack = A;
            const int expected = blas::potrf(uplo, int(n), lapack.data(), lapack.ld());
            ASSERT_EQ(expected, column);
            {
                Matrix<T> tA = tiles_of(A, scales());
                EXPECT_EQ(potrf(uplo, tA), expected);
            }
            Array<T> a = A;
            EXPECT_EQ(potrf(uplo, n, a.data(), a.ld()), expected);  // LAPACK layout
            starpu_task_wait_for_all();
            EXPECT_EQ(starpu_task_nsubmitted(), 0);
            EXPECT_EQ(detail::registered_tile_handles(), 0);
        }
}

// info is relative to the view the routine was given.
TYPED_TEST(Info, PotrfOnViewIsRelativeToTheView) {
    using T = TypeParam;
    const Array<T> A = not_spd_at<T>(64, 40);
    Matrix<T> tA = tiles_of(A, nb);
    Matrix<T> view = tA.sub(1, 3, 1, 3);
    EXPECT_EQ(potrf(Uplo::Lower, view), 40 - 16);
}

TYPED_TEST(Info, PosvLeavesBUntouchedOnFailure) {
    using T = TypeParam;
    const Array<T> A = not_spd_at<T>(50, 33);
    const Array<T> B = random_array<T>(50, 3, Kind::General, rng());
    Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
    EXPECT_EQ(posv(Uplo::Lower, tA, tB), 33);
    EXPECT_EQ(to_array(tB).a, B.a);
}

// A zero row and column make that pivot exactly zero, with or without pivoting.
TYPED_TEST(Info, GetrfNopivZeroPivotMatchesLapacke) {
    using T = TypeParam;
    const int64_t n = 60;
    for (int64_t column : {1, 16, 23, 60}) {
        SCOPED_TRACE(::testing::Message() << "column=" << column);
        Array<T> A = random_array<T>(n, n, Kind::DiagonallyDominant, rng());
        for (int64_t i = 0; i < n; ++i) A(i, column - 1) = A(column - 1, i) = T(0);
        Array<T> lapack = A;
        std::vector<lapack_int> ipiv(n);
        const int expected = blas::getrf(int(n), int(n), lapack.data(), lapack.ld(), ipiv.data());
        ASSERT_EQ(expected, column);
        Matrix<T> tA = tiles_of(A, scales());
        EXPECT_EQ(getrf_nopiv(tA), expected);
    }
}

// LAPACKE's high-level calls, which check their inputs for NaN (LAPACKE_NANCHECK).
#define GRAIN_LAPACKE_CHECKED(T, p)                                                              \
    int lapacke_potrf(Uplo uplo, Array<T>& A) {                                                  \
        return LAPACKE_##p##potrf(LAPACK_COL_MAJOR, char(uplo), int(A.m), A.data(), int(A.ld())); \
    }                                                                                            \
    int lapacke_getrf(Array<T>& A, lapack_int* ipiv) {                                           \
        return LAPACKE_##p##getrf(LAPACK_COL_MAJOR, int(A.m), int(A.n), A.data(), int(A.ld()), ipiv); \
    }
GRAIN_LAPACKE_CHECKED(float, s)
GRAIN_LAPACKE_CHECKED(double, d)
GRAIN_LAPACKE_CHECKED(std::complex<float>, c)
GRAIN_LAPACKE_CHECKED(std::complex<double>, z)
#undef GRAIN_LAPACKE_CHECKED

// A NaN; in complex precisions in the imaginary part only, which the check must read too.
template <typename T>
T a_nan() {
    const real_t<T> nan = std::numeric_limits<real_t<T>>::quiet_NaN();
    if constexpr (detail::scalar_traits<T>::is_complex)
        return T(0.5, nan);
    else
        return nan;
}

// Bit for bit, NaN included.
template <typename T>
bool same_bits(const Array<T>& x, const Array<T>& y) {
    return x.a.size() == y.a.size() && std::memcmp(x.a.data(), y.a.data(), sizeof(T) * x.a.size()) == 0;
}

// A NaN where the routine reads gives LAPACKE's info (less its layout argument: grain's
// LAPACK-layout forms have none), in the synchronous forms, before anything is written.
TYPED_TEST(Info, NanInAnInputIsRefusedUntouched) {
    using T = TypeParam;
    const T nan = a_nan<T>();
    const int64_t n = 45;  // not a multiple of the tile size
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (auto [i, j] : {std::pair<int64_t, int64_t>{0, 0}, {40, 3}, {44, 44}, {17, 16}}) {
            if (uplo == Uplo::Upper) std::swap(i, j);
            SCOPED_TRACE(::testing::Message() << "uplo=" << char(uplo) << " NaN at " << i << "," << j);
            Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
            A(i, j) = nan;
            Array<T> lapacke = A;
            const int expected = lapacke_potrf(uplo, lapacke) + 1;
            ASSERT_EQ(expected, -3);
            Array<T> a = A;
            EXPECT_EQ(potrf(uplo, n, a.data(), a.ld()), expected);
            EXPECT_TRUE(same_bits(a, A));
            Matrix<T> tA = tiles_of(A, scales());
            EXPECT_EQ(potrf(uplo, tA), expected);
            EXPECT_TRUE(same_bits(to_array(tA), A));
            // The _async forms do not check (doc/usage.md, "Errors").
            Matrix<T> unchecked = tiles_of(A, scales());
            EXPECT_GE(potrf_async(uplo, unchecked).wait(), 0);
            // The other triangle is not read: LAPACKE and grain both factor.
            Array<T> other = random_array<T>(n, n, Kind::Spd, rng());
            if (i != j) other(j, i) = nan;
            Array<T> other_lapacke = other;
            EXPECT_EQ(potrf(uplo, n, other.data(), other.ld()), lapacke_potrf(uplo, other_lapacke));
        }
    {  // getrf_nopiv reads every element
        Array<T> A = random_array<T>(n, 30, Kind::General, rng());
        A(44, 29) = nan;
        Array<T> lapacke = A;
        std::vector<lapack_int> ipiv(30);
        const int expected = lapacke_getrf(lapacke, ipiv.data()) + 1;
        ASSERT_EQ(expected, -3);
        Array<T> a = A;
        EXPECT_EQ(getrf_nopiv(n, 30, a.data(), a.ld()), expected);
        EXPECT_TRUE(same_bits(a, A));
        std::vector<int> grain_ipiv(30, -7);  // getrf (with pivoting) too, pivots untouched
        EXPECT_EQ(getrf(n, 30, a.data(), a.ld(), grain_ipiv.data()), expected);
        EXPECT_TRUE(same_bits(a, A));
        EXPECT_EQ(grain_ipiv, std::vector<int>(30, -7));
    }
    // The solvers: a NaN in B is refused before A is factored.
    const Array<T> spd = random_array<T>(n, n, Kind::Spd, rng());
    const Array<T> dominant = random_array<T>(n, n, Kind::DiagonallyDominant, rng());
    Array<T> B = random_array<T>(n, 3, Kind::General, rng());
    B(20, 2) = nan;
    const auto refused = [&](const Array<T>& A, int expected, auto solve) {
        Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
        EXPECT_EQ(solve(tA, tB), expected);
        EXPECT_TRUE(same_bits(to_array(tA), A));
        EXPECT_TRUE(same_bits(to_array(tB), B));
    };
    refused(spd, -6, [](Matrix<T>& A, Matrix<T>& X) { return posv(Uplo::Lower, A, X); });
    refused(spd, -6, [](Matrix<T>& A, Matrix<T>& X) { return potrs(Uplo::Lower, A, X); });
    refused(dominant, -5, [](Matrix<T>& A, Matrix<T>& X) { return gesv_nopiv(A, X); });
    refused(dominant, -5, [](Matrix<T>& A, Matrix<T>& X) { return getrs_nopiv(A, X); });
    const auto pivoted_gesv = [n](Matrix<T>& A, Matrix<T>& X) {
        Pivots p(n);
        return gesv(A, p, X);
    };
    const auto pivoted_getrs = [n](Matrix<T>& A, Matrix<T>& X) {
        Pivots p(n);
        return getrs(Op::NoTrans, A, p, X);
    };
    refused(dominant, -6, pivoted_gesv);
    refused(dominant, -7, pivoted_getrs);
    B(20, 2) = T(1);
    Array<T> bad_a = dominant;
    bad_a(3, 30) = nan;
    refused(bad_a, -3, [](Matrix<T>& A, Matrix<T>& X) { return gesv_nopiv(A, X); });
    refused(bad_a, -3, pivoted_gesv);
    refused(bad_a, -4, pivoted_getrs);
}

// Inf is not checked, as in LAPACKE; with the check off, a NaN goes through.
TYPED_TEST(Info, OnlyNanIsCheckedAndTheCheckCanBeOff) {
    using T = TypeParam;
    const int64_t n = 37;
    Array<T> A = random_array<T>(n, n, Kind::DiagonallyDominant, rng());
    A(5, 9) = T(std::numeric_limits<real_t<T>>::infinity());
    Matrix<T> tA = tiles_of(A, scales());
    EXPECT_GE(getrf_nopiv(tA), 0);
    A(5, 9) = a_nan<T>();
    Runtime& runtime = test_runtime();
    runtime.set_nancheck(false);
    Matrix<T> unchecked = tiles_of(A, scales());
    const int info = getrf_nopiv(unchecked);
    runtime.set_nancheck(true);
    EXPECT_GE(info, 0);
    EXPECT_FALSE(same_bits(to_array(unchecked), A));  // factored, NaN and all
}

}  // namespace
}  // namespace grain::test
