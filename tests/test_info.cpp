// Numerical failures: info is the global column of the first failure, as LAPACKE
// reports it, wherever the failing tile is; and nothing is left behind.
#include <starpu.h>

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

}  // namespace
}  // namespace grain::test
