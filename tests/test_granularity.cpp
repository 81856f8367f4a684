// The automatic granularity: the ladders grain chooses when a call gives none, the Matrix
// built from its sizes only, and the LAPACK-layout forms without GRAIN_NB or GRAIN_SCALES.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common.hpp"
#include "src/api/checks.hpp"

namespace grain::test {
namespace {

using testing::solve_residual;

template <typename T>
class Granularity : public ::testing::Test {};
TYPED_TEST_SUITE(Granularity, Precisions);

const Workload workloads[] = {Workload::Product, Workload::Cholesky, Workload::Lu, Workload::PivotedLu, Workload::Qr};

// Every ladder is one Matrix takes (each scale divides the one above), its top tile is
// no larger than the call, one scale on cores alone and a ladder down from the GPUs' tile
// beside GPUs, and a larger call that is cut never gets smaller tiles (one that is one tile
// is its own regime: the first cut of a larger call is into far smaller tiles). The orders
// run densely, across the places where the tiles divide them and where they do not.
TYPED_TEST(Granularity, LaddersAreValidAndGrowWithTheCall) {
    using T = TypeParam;
    const bool gpus = test_runtime().ngpu() > 0;
    std::vector<int64_t> orders{0, 1, 2, 63, 100, 700, 1000, 4097, 20000, 100000};
    for (int64_t order = 3; order < 12000; order += 37) orders.push_back(order);
    std::sort(orders.begin(), orders.end());
    for (Workload w : workloads) {
        int previous = 0;
        for (int64_t order : orders) {
            SCOPED_TRACE(::testing::Message() << "workload " << char(w) << " order " << order);
            const std::vector<int> s = automatic_scales<T>(w, order);
            ASSERT_FALSE(s.empty());
            EXPECT_EQ(detail::ladder_problem(s), "");
            EXPECT_LE(int64_t(s.back()), std::max<int64_t>(order, 1));
            if (!gpus) {
                EXPECT_EQ(s.size(), 1u);
            }
            if (s.front() < order) {
                EXPECT_GE(s.front(), previous);
                previous = s.front();
            }
        }
    }
    expect_invalid("order", [] { automatic_scales<T>(Workload::Lu, -1); });
}

// A small call is one tile: cutting it would only add tasks.
TYPED_TEST(Granularity, ASmallCallIsOneTile) {
    using T = TypeParam;
    if (test_runtime().ngpu() > 0) GTEST_SKIP() << "beside GPUs the ladder starts at the GPUs' smallest tile";
    for (Workload w : workloads)
        for (int64_t order : {1, 17, 64}) EXPECT_EQ(automatic_scales<T>(w, order), std::vector<int>{int(order)});
}

// Matrix(m, n, workload) is on the ladder of its workload and largest dimension, so that a
// system's A and B of one call share their tiles: gesv and posv solve on them, on sizes
// that are not multiples of the tile and on an ill-conditioned matrix.
TYPED_TEST(Granularity, MatricesOfTheirSizesSolveTogether) {
    using T = TypeParam;
    for (int64_t n : {300, 1001}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n);
        Matrix<T> A(n, n, Workload::PivotedLu), B(n, 2, Workload::PivotedLu);
        EXPECT_EQ(A.scales(), automatic_scales<T>(Workload::PivotedLu, n));
        EXPECT_EQ(B.scales(), A.scales());
        const Array<T> a = random_array<T>(n, n, Kind::General, rng()), b = random_array<T>(n, 2, Kind::General, rng());
        A.from_lapack(a.data(), a.ld());
        B.from_lapack(b.data(), b.ld());
        Pivots ipiv(n);
        ASSERT_EQ(gesv(A, ipiv, B), 0);
        EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, a, to_array(B), T(1), b), 60);

        const Array<T> spd = spd_with_condition<T>(n, hard_conditions<T>()[0], rng());
        Matrix<T> S(n, n), X(n, 1);  // the default workload, Cholesky
        EXPECT_EQ(S.scales(), automatic_scales<T>(Workload::Cholesky, n));
        EXPECT_EQ(X.scales(), S.scales());
        S.from_lapack(spd.data(), spd.ld());
        X.from_lapack(b.data(), b.ld());
        ASSERT_EQ(posv(Uplo::Lower, S, X), 0);
        Array<T> b1(n, 1);
        for (int64_t i = 0; i < n; ++i) b1(i, 0) = b(i, 0);
        EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, spd, to_array(X), T(1), b1), 60);
    }
}

// Without GRAIN_NB and GRAIN_SCALES, a LAPACK-layout call tiles on automatic_scales: its
// potrf runs one diagonal task per tile of that size.
TYPED_TEST(Granularity, LapackLayoutFormsTileAutomatically) {
    using T = TypeParam;
    if (std::getenv("GRAIN_NB") || std::getenv("GRAIN_SCALES")) GTEST_SKIP() << "GRAIN_NB or GRAIN_SCALES is set";
    const std::string split = test_runtime().split();
    test_runtime().set_split("none");
    for (int64_t n : {200, 2500}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n);
        const Array<T> spd = spd_with_condition<T>(n, 10, rng());
        Array<T> a = spd;
        // Asked just before the call: the call's tasks add to the models the choice reads.
        const int nb = automatic_scales<T>(Workload::Cholesky, n).front();
        test_runtime().reset_statistics();
        ASSERT_EQ(potrf(Uplo::Lower, n, a.data(), a.ld()), 0);
        EXPECT_EQ(test_runtime().statistics().at("potrf", 0).finished, (n + nb - 1) / nb);
    }
    test_runtime().set_split(split);
}

}  // namespace
}  // namespace grain::test
