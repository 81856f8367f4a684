// With GPUs, a task whose output tile a GPU holds is split there when its sub-tasks are for
// the GPUs only (over the cores' tile limit), where StarPU splits and gathers tiles on the
// device (patch 07 of scripts/starpu-patches); with STARPU_PARTITION_ON_DEVICE=0, StarPU's
// own behaviour, it is left whole (recursion/recursion.cpp, Recursion::decide), on a
// simulated core and GPU. The simulation moves no data: the data's correctness is the
// OpenclNode test's; this one checks the decisions and the bus.
//
// Run through scripts/sim-testing.sh --program --gpus 1 (testing_drivers/CMakeLists.txt),
// once with each setting of STARPU_PARTITION_ON_DEVICE.
#include <starpu.h>

#include <cstdlib>
#include <cstring>
#include <utility>

#include <grain/grain.hpp>

#include "sim_check.hpp"

using grain::test::check;
using grain::test::checks_failed;

namespace {

// Bytes moved to and from the GPU since the last call.
std::pair<double, double> gpu_bus_bytes() {
    double to = 0, from = 0;
    for (int bus = 0; bus < starpu_bus_get_count(); ++bus) {
        starpu_profiling_bus_info info;
        if (starpu_bus_get_profiling_info(bus, &info) != 0) continue;
        if (starpu_node_get_kind(unsigned(starpu_bus_get_dst(bus))) == STARPU_CUDA_RAM) to += double(info.transferred_bytes);
        if (starpu_node_get_kind(unsigned(starpu_bus_get_src(bus))) == STARPU_CUDA_RAM) from += double(info.transferred_bytes);
    }
    return {to, from};
}

}  // namespace

int main(int, char**) {
    const char* setting = std::getenv("STARPU_PARTITION_ON_DEVICE");
    const bool on_device = !setting || std::strcmp(setting, "0") != 0;
    grain::RuntimeOptions options = grain::test::one_core_one_gpu("dmdar");
    options.cpu_tile_limit = 256;  // the core takes no 512 sub-tile: they are the GPU's
    grain::Runtime runtime(options);
    if (!grain::test::has_its_gpu(runtime)) return 1;
    const std::vector<int> ladder = {1024, 512};
    grain::Matrix<double> A(1024, 1024, ladder), C(1024, 1024, ladder);
    const double tile_bytes = 1024.0 * 1024 * sizeof(double);
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);

    // C's tile, computed on the GPU (the core takes no 1024 tile either), is valid there only.
    runtime.set_split("none");
    check(grain::gemm_async(grain::Op::NoTrans, grain::Op::Trans, -1.0, A, A, 1.0, C).wait() == 0,
          "a whole product on the GPU");
    gpu_bus_bytes();

    runtime.reset_statistics();
    runtime.set_split("all");
    check(grain::gemm_async(grain::Op::NoTrans, grain::Op::Trans, -1.0, A, A, 1.0, C).wait() == 0,
          "a product split as the policy says");
    const grain::Statistics split = runtime.statistics();
    const auto [to, from] = gpu_bus_bytes();
    if (on_device) {
        check(split.at("gemm", 0).split == 1 && split.kept_whole_on_gpu == 0,
              "on the device: the gemm on the GPU's tile is split");
        // A, read, is split in host memory (valid there too): its sub-tiles go up once.
        check(from == 0 && to == tile_bytes, "C's tile never left the GPU; A's sub-tiles went up once");
    } else {
        check(split.at("gemm", 0).split == 0 && split.kept_whole_on_gpu == 1,
              "in host memory: the gemm on the GPU's tile is left whole");
        check(from == 0 && to == 0, "and nothing moved");
    }

    // A whole task on C next gathers its sub-tiles: on the GPU, where they all are.
    runtime.reset_statistics();
    runtime.set_split("none");
    check(grain::gemm_async(grain::Op::NoTrans, grain::Op::Trans, -1.0, A, A, 1.0, C).wait() == 0,
          "a whole product after the split one");
    const auto [to_after, from_after] = gpu_bus_bytes();
    check(from_after == 0 && to_after == 0, "C's sub-tiles were gathered where they are: nothing moved");
    return checks_failed() ? 1 : 0;
}
