// One grain::Runtime for the whole suite (StarPU starts once per process).
#include <gtest/gtest.h>

#include <grain/grain.hpp>
#include <memory>

#include "skip_status.hpp"

namespace {
std::unique_ptr<grain::Runtime> runtime;

class RuntimeEnvironment : public ::testing::Environment {
public:
    void SetUp() override { runtime = std::make_unique<grain::Runtime>(); }
    void TearDown() override { runtime.reset(); }
};
}  // namespace

namespace grain::test {
grain::Runtime& test_runtime() { return *runtime; }
}  // namespace grain::test

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new RuntimeEnvironment);
    return grain::test::run_all_tests_reporting_skips();
}
