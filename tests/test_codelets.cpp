// The kernel table: one codelet per (operation, precision), each with a history-based
// performance model whose footprint tells tile sizes apart.
#include <starpu.h>

#include <set>

#include "common.hpp"
#include "src/codelets.hpp"
#include "recursion/tasks.hpp"

namespace grain::test {
namespace {

using detail::Kernel;

uint32_t gemm_footprint(const Matrix<double>& C) {
    starpu_codelet* cl = detail::codelet<double>(Kernel::Gemm);
    starpu_task* task = starpu_task_create();
    task->cl = cl;
    for (int i = 0; i < 3; ++i) task->handles[i] = detail::tile(C, 0, 0).handle();
    // No architecture: the footprint of the task's data. (With one, StarPU 1.3 reads the
    // model's per-architecture state, which exists only once the model is loaded: a
    // crash on a CUDA worker's architecture seen on an H100.)
    const uint32_t footprint = starpu_task_footprint(cl->model, task, nullptr, 0);
    task->destroy = 0;
    starpu_task_destroy(task);
    return footprint;
}

TEST(Codelets, FootprintsTellTileSizesApart) {
    Matrix<double> a(32, 32, 32), b(32, 32, 32), small(16, 16, 16), tall(32, 16, 32);
    EXPECT_EQ(gemm_footprint(a), gemm_footprint(b));
    EXPECT_NE(gemm_footprint(a), gemm_footprint(small));
    EXPECT_NE(gemm_footprint(tall), gemm_footprint(small));  // edge tiles have their own
}

TEST(Codelets, OneHistoryModelPerOperationAndPrecision) {
    std::set<std::string> symbols;
    for (int k = 0; k < int(Kernel::Count); ++k)
        for (starpu_codelet* cl : {detail::codelet<float>(Kernel(k)), detail::codelet<double>(Kernel(k))}) {
            ASSERT_NE(cl->model, nullptr);
            EXPECT_EQ(cl->model->type, STARPU_HISTORY_BASED);
            symbols.insert(cl->model->symbol);
        }
    EXPECT_EQ(symbols.size(), 2u * size_t(Kernel::Count));
    EXPECT_EQ(symbols.count("grain_dgemm"), 1u);
    EXPECT_EQ(symbols.count("grain_spotrf"), 1u);
}

}  // namespace
}  // namespace grain::test
