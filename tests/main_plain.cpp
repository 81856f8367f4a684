// main() of the suites without a shared Runtime: skips are reported as skips.
#include "skip_status.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return grain::test::run_all_tests_reporting_skips();
}
