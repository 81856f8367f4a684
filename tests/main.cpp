// One grain::Runtime for the whole suite (StarPU starts once per process).
#include <gtest/gtest.h>

#include <grain/grain.hpp>
#include <memory>

namespace {
class RuntimeEnvironment : public ::testing::Environment {
public:
    void SetUp() override { runtime_ = std::make_unique<grain::Runtime>(); }
    void TearDown() override { runtime_.reset(); }

private:
    std::unique_ptr<grain::Runtime> runtime_;
};
}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new RuntimeEnvironment);
    return RUN_ALL_TESTS();
}
