// Splits of tiles whose only valid copy is on another memory node, with real data: an
// OpenCL device (pocl's, on the CPU, without a GPU) is that node. A codelet of the test
// doubles tiles there, so the host copies are stale.
// - Then grain factors the matrix with every task split. StarPU 1.3 partitions a tile in
//   host memory, so each split first brings the tile home; with our StarPU patch 07
//   (STARPU_HAVE_PARTITION_ON_DEVICE) a tile valid only there is cut there, by copies on
//   the device, and its pieces come home for the cores. Either way the factor is the one
//   of 2A, not of the stale A, and each tile's data crosses the bus once: the triangle's
//   for the splits, the others as the output of a synchronous call
//   (doc/notes/splits-on-gpus.md).
// - Sub-tiles doubled there are gathered where they are with the patch (copies into the
//   tile's buffer there), at home without it, before the whole tile is doubled again.
// Built against a StarPU with OpenCL: Debian's (no patch), and the patched one of
// scripts/build-starpu.sh --opencl (scripts/test.sh builds this test against both);
// skipped where no OpenCL device is found (scripts/install-deps.sh installs
// pocl-opencl-icd, and scripts/test.sh fails on that skip).
#include <CL/cl.h>
#include <starpu.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "common.hpp"
#include "recursion/tasks.hpp"

namespace grain::test {
namespace {

const char* const twice_source = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void twice(__global double* a, unsigned offset, unsigned rows, unsigned ld) {
    const size_t i = get_global_id(0), j = get_global_id(1);
    if (i < rows) a[offset + i + j * ld] *= 2;
}
)";

starpu_opencl_program program;

void twice(void* buffers[], void*) {
    const int devid = starpu_worker_get_devid(starpu_worker_get_id());
    cl_kernel kernel;
    cl_command_queue queue;
    if (starpu_opencl_load_kernel(&kernel, &queue, &program, "twice", devid) != CL_SUCCESS) std::abort();
    cl_mem a = reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(buffers[0]));
    const cl_uint offset = cl_uint(STARPU_MATRIX_GET_OFFSET(buffers[0]) / sizeof(double));
    const cl_uint rows = STARPU_MATRIX_GET_NX(buffers[0]), ld = STARPU_MATRIX_GET_LD(buffers[0]);
    const size_t global[2] = {rows, STARPU_MATRIX_GET_NY(buffers[0])};
    cl_int err = clSetKernelArg(kernel, 0, sizeof a, &a);
    err |= clSetKernelArg(kernel, 1, sizeof offset, &offset);
    err |= clSetKernelArg(kernel, 2, sizeof rows, &rows);
    err |= clSetKernelArg(kernel, 3, sizeof ld, &ld);
    err |= clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr);
    err |= clFinish(queue);
    starpu_opencl_release_kernel(kernel);
    if (err != CL_SUCCESS) std::abort();
}

// What moved between main memory and the OpenCL node since the last call.
struct OpenclBus {
    double home = 0, there = 0;  // bytes from the node to main memory, and to the node
    int64_t transfers_home = 0;
};

OpenclBus opencl_bus() {
    OpenclBus moved;
    for (int bus = 0; bus < starpu_bus_get_count(); ++bus) {
        starpu_profiling_bus_info info;
        if (starpu_bus_get_profiling_info(bus, &info) != 0) continue;
        const auto src = starpu_node_get_kind(unsigned(starpu_bus_get_src(bus)));
        const auto dst = starpu_node_get_kind(unsigned(starpu_bus_get_dst(bus)));
        if (src == STARPU_OPENCL_RAM && dst == STARPU_CPU_RAM) {
            moved.home += double(info.transferred_bytes);
            moved.transfers_home += info.transfer_count;
        }
        if (dst == STARPU_OPENCL_RAM) moved.there += double(info.transferred_bytes);
    }
    return moved;
}

// Whether tile (i, j)'s data are valid in main memory: the tile's, or, where a split cut
// it, all its sub-tiles'.
bool at_home(const detail::TileStorage<double>& s, int i, int j) {
    int allocated = 0, valid = 0, requested = 0;
    starpu_data_query_status(s.handle(i, j), STARPU_MAIN_RAM, &allocated, &valid, &requested);
    if (valid) return true;
    const detail::TileStorage<double>* parts = s.children(i, j);
    if (!parts) return false;
    for (int jj = 0; jj < parts->nt(); ++jj)
        for (int ii = 0; ii < parts->mt(); ++ii)
            if (!at_home(*parts, ii, jj)) return false;
    return true;
}

// Whether this StarPU splits and gathers tiles on the device that holds them.
bool splits_on_device() {
#ifdef STARPU_HAVE_PARTITION_ON_DEVICE
    const char* setting = std::getenv("STARPU_PARTITION_ON_DEVICE");
    return !setting || std::string(setting) != "0";
#else
    return false;
#endif
}

// One Runtime of 2 cores and the OpenCL device for the suite, with the test's codelet
// doubling a tile there.
class OpenclNode : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        ::setenv("GRAIN_NOPENCL", "1", 1);
        ::setenv("STARPU_OPENCL_ON_CPUS", "1", 1);  // StarPU takes only GPUs and accelerators otherwise
        RuntimeOptions options;
        options.ncpu = 2;
        options.split = "all";
        options.nancheck = 0;  // the splits, not the NaN scan, must be what brings the tiles home
        runtime = new Runtime(options);
        ::unsetenv("GRAIN_NOPENCL");
        if (starpu_opencl_worker_get_count() == 0) return;
        loaded = starpu_opencl_load_opencl_from_string(twice_source, &program, nullptr) == 0;
        starpu_codelet_init(&cl);
        cl.opencl_funcs[0] = twice;
        cl.nbuffers = 1;
        cl.modes[0] = STARPU_RW;
        cl.where = STARPU_OPENCL;
        starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    }
    static void TearDownTestSuite() {
        if (loaded) starpu_opencl_unload_opencl(&program);
        loaded = false;
        delete runtime;
        runtime = nullptr;
    }
    void SetUp() override {
        if (starpu_opencl_worker_get_count() == 0) GTEST_SKIP() << "no OpenCL device: the second memory node is missing";
        ASSERT_TRUE(loaded) << "the test's OpenCL program did not load";
        runtime->reset_statistics();
    }
    static void double_there(starpu_data_handle_t tile) { ASSERT_EQ(starpu_task_insert(&cl, STARPU_RW, tile, 0), 0); }

    static inline Runtime* runtime = nullptr;
    static inline starpu_codelet cl;
    static inline bool loaded = false;
};

TEST_F(OpenclNode, SplitsOfTilesValidOnlyThereFetchThemFirst) {
    // 300 is not a multiple of the scales: edge tiles of 44 and 108 (12 and 44 below).
    const int n = 300;
    const std::vector<int> ladder = {128, 64};
    const Array<double> A = random_array<double>(n, n, Kind::Spd, rng());
    Array<double> twice_A = A;
    for (double& x : twice_A.a) x *= 2;
    Matrix<double> tA = tiles_of(A, ladder);
    double triangle_bytes = 0;
    for (int j = 0; j < tA.nt(); ++j)
        for (int i = 0; i < tA.mt(); ++i) {
            const auto tile = detail::tile(tA, i, j);
            double_there(tile.use());
            if (i >= j) triangle_bytes += double(tile.grid->tile_rows(i)) * tile.grid->tile_cols(j) * sizeof(double);
        }
    starpu_task_wait_for_all();
    const OpenclBus uploaded = opencl_bus();
    EXPECT_EQ(uploaded.there, double(n) * n * sizeof(double));  // every tile went there once

    EXPECT_EQ(potrf(Uplo::Lower, tA), 0);
    const OpenclBus during = opencl_bus();
    EXPECT_GE(during.home, triangle_bytes);  // the triangle came home for the splits
    EXPECT_GT(runtime->statistics().at("", 0).split, 0);
    // A synchronous call also sends its output home as each tile, or sub-tile, is final:
    // here the upper triangle, which potrf never touches, comes home on its own, with no
    // task and no acquire of the test asking for it.
    bool home = false;
    for (int wait = 0; wait < 1000 && !home; ++wait) {
        home = true;
        for (int j = 0; j < tA.nt(); ++j)
            for (int i = 0; i < tA.mt(); ++i) home = home && at_home(*detail::tile(tA, i, j).grid, i, j);
        if (!home) starpu_usleep(10000);
    }
    EXPECT_TRUE(home) << "tiles still away 10 s after the call";
    // A tile is valid at home as soon as a gathering of its pieces there starts (its
    // write needs no transfer): the pieces still on their way come with that task.
    starpu_task_wait_for_all();
    const OpenclBus after = opencl_bus();
    EXPECT_EQ(during.home + after.home, double(n) * n * sizeof(double));  // every tile came home once
    EXPECT_EQ(during.there + after.there, 0);  // and nothing went back: no grain kernel runs there
    // Whole, or cut there and its pieces home one by one.
    const int64_t tiles = int64_t(tA.mt()) * tA.nt();
    if (splits_on_device())
        EXPECT_GT(during.transfers_home + after.transfers_home, tiles);
    else
        EXPECT_EQ(during.transfers_home + after.transfers_home, tiles);

    const Array<double> factor = to_array(tA);
    // potrf leaves the upper triangle as it was: the doubled values, home from the device.
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < j; ++i) ASSERT_EQ(factor(i, j), twice_A(i, j)) << "at (" << i << ", " << j << ")";
    const Array<double> L = testing::cholesky_product(Uplo::Lower, factor);
    EXPECT_LT(testing::factor_residual(twice_A, L), 60);
    // The factor of the stale host copy would pass this one instead: it must fail.
    EXPECT_GT(testing::factor_residual(A, L), 1e6);
}

TEST_F(OpenclNode, SubTilesAreGatheredWhereTheyAre) {
    const int n = 300;
    const std::vector<int> ladder = {128, 64};
    const Array<double> A = random_array<double>(n, n, Kind::General, rng());
    Matrix<double> tA = tiles_of(A, ladder);
    const auto corner = detail::tile(tA, 0, 0);
    const Matrix<double> parts = corner.split();
    const double corner_bytes = 128.0 * 128 * sizeof(double);
    opencl_bus();
    // Tile (0, 0) is cut in host memory, where it is, and its four pieces doubled there.
    for (int j = 0; j < parts.nt(); ++j)
        for (int i = 0; i < parts.mt(); ++i) double_there(detail::tile(parts, i, j).use());
    starpu_task_wait_for_all();
    EXPECT_EQ(opencl_bus().there, corner_bytes);

    // Doubling the whole tile there gathers its pieces first: there with the patch, by
    // copies on the device, with nothing crossing the bus; at home without it, the pieces
    // coming home and the tile going back.
    double_there(corner.use());
    starpu_task_wait_for_all();
    const OpenclBus gathered = opencl_bus();
    const double expected = splits_on_device() ? 0 : corner_bytes;
    EXPECT_EQ(gathered.home, expected);
    EXPECT_EQ(gathered.there, expected);

    const Array<double> B = to_array(tA);  // the tile comes home for it
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            ASSERT_EQ(B(i, j), (i < 128 && j < 128 ? 4 : 1) * A(i, j)) << "at (" << i << ", " << j << ")";
}

}  // namespace
}  // namespace grain::test
