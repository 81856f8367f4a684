// With GPUs, a task is left whole when its output tile will be on a GPU
// (recursion/recursion.cpp, Recursion::decide), on a simulated core and GPU.
//
// StarPU 1.3 partitions a tile in host memory, so splitting a task whose tile a GPU holds
// moves the tile to the host and back. The tile's state when the task is submitted is not
// enough: it misses the tiles whose last kernel was submitted but has not run yet, and the
// split decision would depend on how far the submissions run ahead of the kernels. So a
// tile being written by a kernel counts as a GPU's.
//
// Each case submits asynchronously, so that no simulated time passes between the
// decisions: the kernels of an earlier call are still in flight.
//
// Run through scripts/sim-testing.sh --program --gpus 1 (testing_drivers/CMakeLists.txt).
#include <starpu.h>

#include <grain/grain.hpp>

#include "sim_check.hpp"

using grain::test::check;
using grain::test::checks_failed;

namespace {

const std::vector<int> ladder = {1024, 512};

// One gemm of 1024 x 1024 tiles into C under `split`, asynchronously.
grain::Request product(grain::Runtime& runtime, const std::string& split, const grain::Matrix<double>& A,
                       grain::Matrix<double>& C) {
    runtime.set_split(split);
    return grain::gemm_async(grain::Op::NoTrans, grain::Op::Trans, -1.0, A, A, 1.0, C);
}

}  // namespace

int main(int, char**) {
    grain::Runtime runtime(grain::test::one_core_one_gpu("dmdar"));
    if (!grain::test::has_its_gpu(runtime)) return 1;
    // The default submission window counts the GPU too (RuntimeOptions::window).
    check(runtime.window() == 32 * 1 + 128 * 1, "the default window is 32 tasks per core and 128 per GPU");
    grain::Matrix<double> A(1024, 1024, ladder), C(1024, 1024, ladder), D(1024, 1024, ladder);

    // A tile in host memory that no kernel is writing is split as the policy says.
    runtime.reset_statistics();
    grain::Request on_host = product(runtime, "all", A, D);
    check(runtime.statistics().at("gemm", 0).split == 1, "a gemm whose tile is in host memory is split");

    // A tile whose whole kernel is in flight is not, whatever the policy says.
    runtime.reset_statistics();
    grain::Request whole = product(runtime, "none", A, C);
    grain::Request after = product(runtime, "all", A, C);
    const grain::Statistics in_flight = runtime.statistics();
    check(in_flight.at("gemm", 0).submitted == 2 && in_flight.at("gemm", 0).split == 0,
          "a gemm on a tile a kernel is writing is left whole");
    check(in_flight.kept_whole_on_gpu == 1, "and counted as kept whole on a GPU");
    check(on_host.wait() == 0 && whole.wait() == 0 && after.wait() == 0, "the products end");

    // Once the kernels have ended, the tile is where they ran: here the GPU's (the
    // simulated GPU runs a 1024 gemm many times faster than the core), so the task
    // is still left whole. The split product above left D's tile in host memory, and a
    // kernel on its children does not count as a writer of the tile itself.
    runtime.reset_statistics();
    grain::Request gpu_tile = product(runtime, "all", A, C);
    grain::Request host_tile = product(runtime, "all", A, D);
    const grain::Statistics ended = runtime.statistics();
    check(ended.at("gemm", 0).split == 1 && ended.kept_whole_on_gpu == 1,
          "after the kernels, the GPU's tile is left whole and the host's is split");
    check(gpu_tile.wait() == 0 && host_tile.wait() == 0, "the last products end");
    return checks_failed() ? 1 : 0;
}
