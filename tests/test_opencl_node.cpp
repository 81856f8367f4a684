// Splits of tiles whose only valid copy is on another memory node, with real data: an
// OpenCL device (pocl's, on the CPU, without a GPU) is that node. A codelet of the test
// doubles every tile there, so the host copies are stale; then grain factors the matrix
// with every task split. StarPU 1.3 partitions a tile in host memory, so each split must
// first bring the tile home: the factor is the one of 2A, not of the stale A, and each
// tile crosses the bus once, the triangle's for the splits, the others as the output of
// a synchronous call (issue 48; doc/splits-on-gpus.md).
// Built against a StarPU with OpenCL (Debian's has it); skipped where no OpenCL device is
// found (scripts/install-deps.sh installs pocl-opencl-icd, and scripts/test.sh fails on
// that skip).
#include <CL/cl.h>
#include <starpu.h>

#include <cstdlib>
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

// Bytes moved from the OpenCL node to main memory, and to it, since the last call.
std::pair<double, double> opencl_bus_bytes() {
    double home = 0, there = 0;
    for (int bus = 0; bus < starpu_bus_get_count(); ++bus) {
        starpu_profiling_bus_info info;
        if (starpu_bus_get_profiling_info(bus, &info) != 0) continue;
        const auto src = starpu_node_get_kind(unsigned(starpu_bus_get_src(bus)));
        const auto dst = starpu_node_get_kind(unsigned(starpu_bus_get_dst(bus)));
        if (src == STARPU_OPENCL_RAM && dst == STARPU_CPU_RAM) home += double(info.transferred_bytes);
        if (dst == STARPU_OPENCL_RAM) there += double(info.transferred_bytes);
    }
    return {home, there};
}

TEST(OpenclNode, SplitsOfTilesValidOnlyThereFetchThemFirst) {
    ::setenv("GRAIN_NOPENCL", "1", 1);
    ::setenv("STARPU_OPENCL_ON_CPUS", "1", 1);  // StarPU takes only GPUs and accelerators otherwise
    RuntimeOptions options;
    options.ncpu = 2;
    options.split = "all";
    options.nancheck = 0;  // the splits, not the NaN scan, must be what brings the tiles home
    Runtime runtime(options);
    ::unsetenv("GRAIN_NOPENCL");
    if (starpu_opencl_worker_get_count() == 0) GTEST_SKIP() << "no OpenCL device: the second memory node is missing";
    ASSERT_EQ(starpu_opencl_load_opencl_from_string(twice_source, &program, nullptr), 0);
    starpu_codelet cl;
    starpu_codelet_init(&cl);
    cl.opencl_funcs[0] = twice;
    cl.nbuffers = 1;
    cl.modes[0] = STARPU_RW;
    cl.where = STARPU_OPENCL;

    // 300 is not a multiple of the scales: edge tiles of 44 and 108 (12 and 44 below).
    const int n = 300;
    const std::vector<int> ladder = {128, 64};
    const Array<double> A = random_array<double>(n, n, Kind::Spd, rng());
    Array<double> twice_A = A;
    for (double& x : twice_A.a) x *= 2;
    Matrix<double> tA = tiles_of(A, ladder);
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    double triangle_bytes = 0;
    for (int j = 0; j < tA.nt(); ++j)
        for (int i = 0; i < tA.mt(); ++i) {
            const auto tile = detail::tile(tA, i, j);
            ASSERT_EQ(starpu_task_insert(&cl, STARPU_RW, tile.handle(), 0), 0);
            if (i >= j) triangle_bytes += double(tile.grid->tile_rows(i)) * tile.grid->tile_cols(j) * sizeof(double);
        }
    starpu_task_wait_for_all();
    const auto uploaded = opencl_bus_bytes();
    EXPECT_EQ(uploaded.second, double(n) * n * sizeof(double));  // every tile went there once

    EXPECT_EQ(potrf(Uplo::Lower, tA), 0);
    const auto during = opencl_bus_bytes();
    EXPECT_GE(during.first, triangle_bytes);  // the triangle came home for the splits
    EXPECT_GT(runtime.statistics().at("", 0).split, 0);
    // A synchronous call also sends its output home as each tile is final (wont_use, an
    // idle-time copy): here the upper triangle, which potrf never touches, comes home on
    // its own, with no task and no acquire asking for it.
    bool home = false;
    for (int wait = 0; wait < 1000 && !home; ++wait) {
        home = true;
        for (int j = 0; j < tA.nt(); ++j)
            for (int i = 0; i < tA.mt(); ++i) {
                int allocated = 0, valid = 0, requested = 0;
                starpu_data_query_status(detail::tile(tA, i, j).handle(), STARPU_MAIN_RAM, &allocated, &valid,
                                         &requested);
                home = home && valid;
            }
        if (!home) starpu_usleep(10000);
    }
    EXPECT_TRUE(home) << "tiles still away 10 s after the call";
    const auto after = opencl_bus_bytes();
    EXPECT_EQ(during.first + after.first, double(n) * n * sizeof(double));  // every tile came home once
    EXPECT_EQ(during.second + after.second, 0);  // and nothing went back: no grain kernel runs there

    const Array<double> L = testing::cholesky_product(Uplo::Lower, to_array(tA));
    EXPECT_LT(testing::factor_residual(twice_A, L), 60);
    // The factor of the stale host copy would pass this one instead: it must fail.
    EXPECT_GT(testing::factor_residual(A, L), 1e6);
    starpu_opencl_unload_opencl(&program);
}

}  // namespace
}  // namespace grain::test
