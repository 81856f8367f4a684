// Checks tests/skip_status.hpp itself (ctest entry SkipIsReported): a run with a skip
// and no failure exits 77, a run with a skip and a failure exits 1, a clean run 0.
#include "skip_status.hpp"

TEST(Probe, Passes) { EXPECT_EQ(1 + 1, 2); }
TEST(Probe, Skips) { GTEST_SKIP() << "the probe's skip"; }
TEST(Probe, DISABLED_Fails) { ADD_FAILURE() << "the probe's failure"; }

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return grain::test::run_all_tests_reporting_skips();
}
