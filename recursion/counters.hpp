#pragma once
// Live task counters per (operation, level), updated by the submitting thread and by
// StarPU's task callbacks (ready, started, finished), read by split policies.
#include <array>
#include <atomic>
#include <cstdint>

#include "grain/statistics.hpp"
#include "src/codelets.hpp"
#include "src/tile_storage.hpp"

namespace grain::detail {

struct TaskCounters {
    std::atomic<int64_t> submitted{0}, split{0}, ready{0}, started{0}, finished{0};

    // Kernels submitted and not started yet.
    int64_t pending() const { return submitted - split - started; }
};

class Counters {
public:
    TaskCounters& at(Kernel op, int level) { return slots_[size_t(op)][size_t(level)]; }
    const TaskCounters& at(Kernel op, int level) const { return slots_[size_t(op)][size_t(level)]; }
    void reset();
    Statistics snapshot(int levels) const;
    // Kernels submitted and not finished, over every operation and level.
    int64_t in_flight() const;

    // The flops of the routine calls submitted since the last one that found no kernel
    // in flight: the work a task's size is measured against. Not a statistic, so
    // reset() keeps it. Written and read by the submitting thread.
    double call_flops = 0;

private:
    std::array<std::array<TaskCounters, max_levels>, size_t(Kernel::Count)> slots_;
};

const char* kernel_name(Kernel op);

}  // namespace grain::detail
