#pragma once
// ctest shows one status per entry, and an entry runs many GoogleTests: a test that
// called GTEST_SKIP must not make its entry read "Passed". RUN_ALL_TESTS, then, when
// nothing failed but some test was skipped, the names of the skipped tests and exit
// code 77, which every entry declares as SKIP_RETURN_CODE (tests/CMakeLists.txt). A
// failure still exits 1: a skip never hides one.
#include <gtest/gtest.h>

#include <cstdio>

namespace grain::test {

constexpr int skipped_exit_code = 77;

inline int run_all_tests_reporting_skips() {
    const int failed = RUN_ALL_TESTS();
    const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
    if (failed != 0 || unit.skipped_test_count() == 0) return failed;
    std::printf("%d test(s) skipped:", unit.skipped_test_count());
    for (int s = 0; s < unit.total_test_suite_count(); ++s) {
        const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
        for (int t = 0; t < suite.total_test_count(); ++t)
            if (suite.GetTestInfo(t)->result()->Skipped())
                std::printf(" %s.%s", suite.name(), suite.GetTestInfo(t)->name());
    }
    std::printf("\n");
    return skipped_exit_code;
}

}  // namespace grain::test
