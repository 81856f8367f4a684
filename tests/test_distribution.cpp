// grain::Distribution: each placement's owners by its formula, the same owners from equal
// parameters (every rank must agree), every rank used, and bad parameters refused.
#include <gtest/gtest.h>

#include <grain/distribution.hpp>
#include <grain/errors.hpp>

#include <vector>

namespace grain::test {
namespace {

// How many of the tiles of an mt x nt grid each rank owns.
std::vector<int> counts(const Distribution& d, int mt, int nt) {
    std::vector<int> c(size_t(d.ranks()), 0);
    for (int i = 0; i < mt; ++i)
        for (int j = 0; j < nt; ++j) ++c[size_t(d.rank(i, j))];
    return c;
}

TEST(Distribution, BlockCyclicIsChameleonsRowMajorGrid) {
    const Distribution d = Distribution::block_cyclic(2, 3);
    EXPECT_EQ(d.ranks(), 6);
    EXPECT_EQ(d.p(), 2);
    EXPECT_EQ(d.q(), 3);
    for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 10; ++j) EXPECT_EQ(d.rank(i, j), (i % 2) * 3 + j % 3) << i << "," << j;
    // A 4 x 6 grid of tiles: each rank owns 4 of the 24.
    EXPECT_EQ(counts(d, 4, 6), std::vector<int>(6, 4));
}

TEST(Distribution, OneDimensional) {
    const Distribution r = Distribution::rows(3), c = Distribution::columns(3);
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 7; ++j) {
            EXPECT_EQ(r.rank(i, j), i % 3);
            EXPECT_EQ(c.rank(i, j), j % 3);
        }
    EXPECT_EQ(r.p(), 3);
    EXPECT_EQ(c.q(), 3);
}

TEST(Distribution, RandomIsTheSameForOneSeedAndUsesEveryRank) {
    const Distribution a = Distribution::random(4, 42), b = Distribution::random(4, 42), other = Distribution::random(4, 43);
    int differ = 0;
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j < 20; ++j) {
            EXPECT_EQ(a.rank(i, j), b.rank(i, j));
            differ += a.rank(i, j) != other.rank(i, j);
        }
    EXPECT_GT(differ, 100);  // another seed, another placement (3 in 4 tiles differ, on average)
    for (int c : counts(a, 20, 20)) {  // 100 tiles each on average
        EXPECT_GT(c, 60);
        EXPECT_LT(c, 140);
    }
}

TEST(Distribution, CustomIsTheUsersFunctionChecked) {
    const Distribution d = Distribution::custom(2, [](int64_t i, int64_t j) { return int((i + j) % 2); });
    EXPECT_EQ(d.rank(3, 4), 1);
    EXPECT_EQ(d.rank(3, 5), 0);
    const Distribution bad = Distribution::custom(2, [](int64_t i, int64_t) { return int(i); });
    EXPECT_EQ(bad.rank(1, 0), 1);
    try {
        bad.rank(2, 0);
        ADD_FAILURE() << "rank 2 of 2 accepted";
    } catch (const grain::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("rank_of(2, 0)"), std::string::npos) << e.what();
    }
}

TEST(Distribution, BadParametersAreRefused) {
    EXPECT_THROW(Distribution::block_cyclic(0, 2), grain::invalid_argument);
    EXPECT_THROW(Distribution::block_cyclic(2, -1), grain::invalid_argument);
    EXPECT_THROW(Distribution::block_cyclic(65536, 65536), grain::invalid_argument);
    EXPECT_THROW(Distribution::rows(0), grain::invalid_argument);
    EXPECT_THROW(Distribution::columns(-3), grain::invalid_argument);
    EXPECT_THROW(Distribution::random(0, 1), grain::invalid_argument);
    EXPECT_THROW(Distribution::custom(2, nullptr), grain::invalid_argument);
    EXPECT_THROW(Distribution::rows(2).rank(-1, 0), grain::invalid_argument);
}

}  // namespace
}  // namespace grain::test
