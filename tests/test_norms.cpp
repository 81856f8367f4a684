// lange in the four precisions, against LAPACKE's: every norm, shapes that are and are not
// multiples of the tile size, views, elements near overflow and underflow, NaN and
// infinity, empty matrices, the LAPACK-layout form and its argument checks.
#include <cmath>
#include <limits>
#include <tuple>

#include "common.hpp"
#include "src/starpu/codelets.hpp"

namespace grain::test {
namespace {

using testing::norm;

template <typename T>
class Norms : public ::testing::Test {};
TYPED_TEST_SUITE(Norms, Precisions);

const Norm norms[] = {Norm::Max, Norm::One, Norm::Inf, Norm::Frobenius};


// grain's norm against LAPACKE's, within the rounding of a sum of max(m, n) terms (and, for
// a norm that is itself subnormal, a few of the smallest subnormal's steps).
template <typename T>
void expect_lapacke_norms(const Array<T>& A, const Matrix<T>& tA) {
    using R = real_t<T>;
    const double unit = 4 * std::numeric_limits<R>::epsilon() * double(std::max<int64_t>({A.m, A.n, 1}));
    const double steps = 8 * double(std::numeric_limits<R>::denorm_min());
    for (Norm which : norms) {
        SCOPED_TRACE(::testing::Message() << "norm " << char(which));
        const double expected = double(norm(char(which), A));
        const double tiled = double(lange(which, tA));
        const double layout = double(lange(which, A.m, A.n, A.data(), A.ld()));
        EXPECT_NEAR(tiled, expected, unit * expected + steps);
        EXPECT_NEAR(layout, expected, unit * expected + steps);
    }
}

TYPED_TEST(Norms, AgreeWithLapacke) {
    using T = TypeParam;
    const std::tuple<int64_t, int64_t> shapes[] = {{1, 1}, {7, 5}, {16, 16}, {35, 20}, {48, 33}, {20, 67}, {1, 50}};
    for (auto [m, n] : shapes) {
        SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n);
        const Array<T> A = random_array<T>(m, n, Kind::General, rng());
        expect_lapacke_norms(A, tiles_of(A, scales()));
    }
}

TYPED_TEST(Norms, OfAView) {
    using T = TypeParam;
    const int64_t nb = scales().front();
    const Array<T> A = random_array<T>(3 * nb + 5, 4 * nb - 3, Kind::General, rng());
    const Matrix<T> tA = tiles_of(A, scales());
    // Tiles 1..3 x 2..3: from the second tile row and the third tile column, to the last
    // (partial) ones.
    const Matrix<T> view = tA.sub(1, 3, 2, 3);
    Array<T> part(view.m(), view.n());
    for (int64_t j = 0; j < part.n; ++j)
        for (int64_t i = 0; i < part.m; ++i) part(i, j) = A(i + tA.nb(), j + 2 * tA.nb());
    expect_lapacke_norms(part, view);
}

// Elements whose squares overflow, or underflow to zero: the Frobenius norm is scaled as
// LAPACK's lassq scales it.
TYPED_TEST(Norms, NearOverflowAndUnderflow) {
    using T = TypeParam;
    using R = real_t<T>;
    for (R scale : {std::numeric_limits<R>::max() / 64, std::numeric_limits<R>::min() * 64,
                    std::numeric_limits<R>::denorm_min() * 1024}) {
        SCOPED_TRACE(::testing::Message() << "scale " << scale);
        Array<T> A = random_array<T>(37, 29, Kind::General, rng());
        for (int64_t j = 0; j < A.n; ++j)
            for (int64_t i = 0; i < A.m; ++i) A(i, j) *= scale;
        const double frobenius = double(lange(Norm::Frobenius, tiles_of(A, scales())));
        EXPECT_TRUE(std::isfinite(frobenius) && frobenius > 0) << frobenius;
        expect_lapacke_norms(A, tiles_of(A, scales()));
    }
}

TYPED_TEST(Norms, NanAndInfinity) {
    using T = TypeParam;
    using R = real_t<T>;
    const R nan = std::numeric_limits<R>::quiet_NaN(), inf = std::numeric_limits<R>::infinity();
    for (auto [i, j] : {std::pair<int64_t, int64_t>{0, 0}, {20, 3}, {34, 40}}) {
        Array<T> A = random_array<T>(35, 41, Kind::General, rng());
        A(i, j) = T(inf);
        for (Norm which : norms) EXPECT_EQ(double(lange(which, tiles_of(A, scales()))), double(inf)) << char(which);
        A(34 - i, 40 - j) = T(nan);  // NaN wins over infinity, wherever each is
        for (Norm which : norms) EXPECT_TRUE(std::isnan(lange(which, tiles_of(A, scales())))) << char(which);
    }
}

TYPED_TEST(Norms, EmptyIsZero) {
    using T = TypeParam;
    for (auto [m, n] : {std::pair<int64_t, int64_t>{0, 5}, {5, 0}, {0, 0}}) {
        const Array<T> A(m, n);
        for (Norm which : norms) {
            EXPECT_EQ(double(lange(which, tiles_of(A, scales()))), 0.0);
            EXPECT_EQ(double(lange(which, m, n, A.data(), std::max<int64_t>(m, 1))), 0.0);
        }
    }
}

TYPED_TEST(Norms, RefusesBadArguments) {
    using T = TypeParam;
    const Array<T> A = random_array<T>(9, 9, Kind::General, rng());
    expect_invalid("norm", [&] { lange(Norm('X'), tiles_of(A, scales())); });
    expect_invalid("lda", [&] { lange(Norm::Max, 9, 9, A.data(), 8); });
    expect_invalid("m", [&] { lange(Norm::Max, -1, 9, A.data(), 9); });
    // LAPACK's other letters for the same norms.
    EXPECT_EQ(lange(Norm('1'), 9, 9, A.data(), 9), lange(Norm::One, 9, 9, A.data(), 9));
    EXPECT_EQ(lange(Norm('e'), 9, 9, A.data(), 9), lange(Norm::Frobenius, 9, 9, A.data(), 9));
}

// The kernel table's row: the cores run it (no CUDA kernel), whole.
TYPED_TEST(Norms, KernelRunsOnCoresWhole) {
    using T = TypeParam;
    EXPECT_EQ(detail::codelet<T>(detail::Kernel::Lange)->cuda_funcs[0], nullptr);
    EXPECT_FALSE(detail::kernel_info(detail::Kernel::Lange).splits);
}

}  // namespace
}  // namespace grain::test
