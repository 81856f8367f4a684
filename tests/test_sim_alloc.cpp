// GPU memory that StarPU keeps for small buffers must come back for large ones
// (scripts/starpu-patches/05-release-free-chunks.patch), on a simulated GPU.
//
// StarPU serves buffers of at most 4 MiB on a CUDA node from 32 MiB chunks and keeps up
// to 4 chunks that nothing uses. Without the patch, once small buffers have filled the
// node and been freed, those chunks stay allocated and a large buffer cannot be
// allocated at all: the 2D product of grain_sched_bench (3.5 MiB outputs, 14 MiB inputs)
// then ran with about 24 of its inputs on a 500 MiB GPU instead of 33.
//
// Run through scripts/sim-testing.sh --program (the simulated platform is read before main
// starts), with STARPU_LIMIT_CUDA_MEM=64 (testing_drivers/CMakeLists.txt).
#include <starpu.h>

#include <cstdio>
#include <vector>

#include "sim_check.hpp"

using grain::test::check;
using grain::test::checks_failed;

int main(int, char**) {
    if (starpu_init(nullptr) != 0 || starpu_cuda_worker_get_count() < 1) {
        std::printf("FAILED: no simulated CUDA worker\n");
        return 1;
    }
    const unsigned node = starpu_worker_get_memory_node(unsigned(starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0)));
    const starpu_ssize_t total = starpu_memory_get_total(node);
    std::printf("CUDA node %u: %zd MiB (STARPU_LIMIT_CUDA_MEM)\n", node, total >> 20);
    const size_t small = 3 << 20, large = size_t(total) / 2;

    // Fill the node with small buffers, then free them all.
    std::vector<uintptr_t> buffers;
    for (uintptr_t p; (p = starpu_malloc_on_node(node, small)) != 0;) buffers.push_back(p);
    check(buffers.size() >= 2 && starpu_memory_get_available(node) < starpu_ssize_t(small),
          "small buffers fill the node");
    check(starpu_malloc_on_node(node, large) == 0, "a large buffer does not fit while they are allocated");
    for (uintptr_t p : buffers) starpu_free_on_node(node, p, small);

    const uintptr_t big = starpu_malloc_on_node(node, large);
    check(big != 0, "once they are freed, a buffer of half the node fits");
    if (big) starpu_free_on_node(node, big, large);
    check(starpu_memory_get_available(node) == total, "all of the node is available at the end");

    starpu_shutdown();
    return checks_failed() ? 1 : 0;
}
