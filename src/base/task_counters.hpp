#pragma once
// The live counters of one (kernel, level): the submitting thread counts the tasks
// submitted and split, StarPU's callbacks on each kernel task the ready, started and
// finished ones; split policies read them.
#include <atomic>
#include <cstdint>

namespace grain::detail {

struct TaskCounters {
    std::atomic<int64_t> submitted{0}, split{0}, ready{0}, started{0}, finished{0};

    // Kernels submitted and not started yet.
    int64_t pending() const { return submitted - split - started; }
};

}  // namespace grain::detail
