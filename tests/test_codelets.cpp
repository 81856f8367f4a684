// The kernel table: one codelet per (operation, precision), each with a history-based
// performance model whose footprint tells tile sizes apart.
#include <starpu.h>

#include <cmath>
#include <set>

#include "common.hpp"
#include "src/starpu/codelets.hpp"
#include "src/starpu/perf_models.hpp"
#include "recursion/tasks.hpp"

namespace grain::test {
namespace {

using detail::Kernel;

// f(codelet, task) on a task of `cl`, never submitted, with `handle` as every buffer.
template <typename F>
auto with_task(starpu_codelet* cl, starpu_data_handle_t handle, F f) {
    starpu_task* task = starpu_task_create();
    task->cl = cl;
    for (int i = 0; i < cl->nbuffers; ++i) task->handles[i] = handle;
    const auto result = f(cl, task);
    task->destroy = 0;
    starpu_task_destroy(task);
    return result;
}

// f(codelet, task) on a gemm task on tile (0, 0) of C.
template <typename F>
auto with_gemm_task(const Matrix<double>& C, F f) {
    return with_task(detail::codelet<double>(Kernel::Gemm), detail::tile(C, 0, 0).use(), f);
}

uint32_t gemm_footprint(const Matrix<double>& C) {
    // No architecture: the footprint of the task's data. (With one, StarPU 1.3 reads the
    // model's per-architecture state, which exists only once the model is loaded: a
    // crash on a CUDA worker's architecture seen on an H100.)
    return with_gemm_task(C, [](starpu_codelet* cl, starpu_task* task) {
        return starpu_task_footprint(cl->model, task, nullptr, 0);
    });
}

TEST(Codelets, FootprintsTellTileSizesApart) {
    Matrix<double> a(32, 32, 32), b(32, 32, 32), small(16, 16, 16), tall(32, 16, 32);
    EXPECT_EQ(gemm_footprint(a), gemm_footprint(b));
    EXPECT_NE(gemm_footprint(a), gemm_footprint(small));
    EXPECT_NE(gemm_footprint(tall), gemm_footprint(small));  // edge tiles have their own
}

// The footprints the LP computes from a tile size are those StarPU gives a task of each
// kernel, in either precision, on registered tiles of that size; a column kernel's, on a
// pivot block and a column of one such tile; a factor kernel's, on a T factor of its tile
// (an update's on whole tiles).
template <typename T>
void expect_starpu_footprints(int nb) {
    starpu_data_handle_t tile = nullptr, pivots = nullptr, factor = nullptr;
    starpu_matrix_data_register(&tile, -1, 0, uint32_t(nb), uint32_t(nb), uint32_t(nb), sizeof(T));  // no memory
    starpu_vector_data_register(&pivots, -1, 0, uint32_t(nb), sizeof(int));
    const uint32_t ib = uint32_t(detail::qr_inner_block(nb));
    starpu_matrix_data_register(&factor, -1, 0, ib, ib, uint32_t(nb), sizeof(T));
    const detail::KernelFootprints computed = detail::tile_footprints(nb);
    for (int k = 0; k < int(Kernel::Count); ++k) {
        starpu_codelet* cl = detail::codelet<T>(Kernel(k));
        const uint32_t starpus = with_task(cl, tile, [&](starpu_codelet* c, starpu_task* task) {
            if (detail::kernel_info(Kernel(k)).column) {
                task->nbuffers = 2;
                task->handles[0] = pivots;
                task->handles[1] = tile;
            }
            if (detail::kernel_info(Kernel(k)).applies) {  // variable buffers: a whole update's
                task->nbuffers = detail::kernel_info(Kernel(k)).nbuffers;
                for (int i = 1; i < task->nbuffers; ++i) task->handles[i] = tile;
            }
            if (detail::kernel_info(Kernel(k)).factor) task->handles[0] = factor;
            return starpu_task_footprint(c->model, task, nullptr, 0);
        });
        EXPECT_EQ(computed[size_t(k)], starpus) << cl->name << " on " << nb << " x " << nb << " tiles";
    }
    starpu_data_unregister_no_coherency(factor);
    starpu_data_unregister_no_coherency(pivots);
    starpu_data_unregister_no_coherency(tile);
}

TEST(Codelets, TileFootprintsAreWhatStarPUComputes) {
    for (int nb : {1, 36, 255, 256, 960, 4096}) {
        expect_starpu_footprints<double>(nb);
        expect_starpu_footprints<float>(nb);
    }
    EXPECT_NE(detail::tile_footprints(256)[size_t(Kernel::Gemm)], detail::tile_footprints(512)[size_t(Kernel::Gemm)]);
    // Kernels with as many buffers share a footprint (each has its own model).
    EXPECT_NE(detail::tile_footprints(256)[size_t(Kernel::Gemm)], detail::tile_footprints(256)[size_t(Kernel::Potrf)]);
    EXPECT_NE(detail::tile_footprints(256)[size_t(Kernel::Getrf)], detail::tile_footprints(256)[size_t(Kernel::Trsm)]);
}

// The LP asks the models by footprint, without a task: it must find what StarPU
// answers for a task on a real tile of that size.
TEST(Codelets, HistoryIsFoundByTileFootprint) {
    const int nb = 36;
    const int worker = starpu_worker_get_by_type(STARPU_CPU_WORKER, 0);
    Matrix<double> A(nb, nb, nb), C(nb, nb, nb);
    const detail::KernelFootprints footprints = detail::tile_footprints(nb);
    EXPECT_EQ(footprints[size_t(Kernel::Gemm)], gemm_footprint(C));
    EXPECT_NE(footprints[size_t(Kernel::Gemm)], detail::tile_footprints(nb + 1)[size_t(Kernel::Gemm)]);
    // Asking about a size without history makes StarPU measure this run's tasks (as it
    // does for the LP policy), so that the gemms below give it a history (10 measurements).
    detail::load_history_models();
    detail::history_duration(Kernel::Gemm, 'd', footprints[size_t(Kernel::Gemm)], worker);
    for (int i = 0; i < 20; ++i) ASSERT_EQ(gemm(Op::NoTrans, Op::Trans, 1.0, A, A, 0.0, C), 0);

    const double seconds = detail::history_duration(Kernel::Gemm, 'd', footprints[size_t(Kernel::Gemm)], worker);
    ASSERT_TRUE(std::isfinite(seconds) && seconds > 0) << seconds;
    const double expected = with_gemm_task(C, [&](starpu_codelet*, starpu_task* task) {
        return starpu_task_expected_length(task, starpu_worker_get_perf_archtype(worker, 0), 0);
    });
    EXPECT_DOUBLE_EQ(seconds, expected * 1e-6);
}

// A column kernel's, by the footprint of a column of one tile (with its pivot block): the
// LU's panel on a one-tile matrix is such a task.
TEST(Codelets, ColumnHistoryIsFoundByTileFootprint) {
    const int nb = 36;
    const int worker = starpu_worker_get_by_type(STARPU_CPU_WORKER, 0);
    const uint32_t footprint = detail::tile_footprints(nb)[size_t(Kernel::Getrf)];
    detail::load_history_models();
    detail::history_duration(Kernel::Getrf, 'd', footprint, worker);  // measures this run's panels
    const Array<double> A = random_array<double>(nb, nb, Kind::General, rng());
    for (int i = 0; i < 20; ++i) {
        Matrix<double> tA = tiles_of(A, {nb});
        Pivots p(nb);
        ASSERT_EQ(getrf(tA, p), 0);
    }
    const double seconds = detail::history_duration(Kernel::Getrf, 'd', footprint, worker);
    ASSERT_TRUE(std::isfinite(seconds) && seconds > 0) << seconds;
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
