#pragma once
// Live task counters per (operation, level), updated by the submitting thread and by
// StarPU's task callbacks (ready, started, finished), read by split policies.
#include <array>
#include <atomic>
#include <cstdint>

#include "grain/statistics.hpp"
#include "src/base/constants.hpp"
#include "src/base/kernel_table.hpp"
#include "src/base/task_counters.hpp"

namespace grain::detail {

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

    // Tasks the routine calls announced (begin_call) and have not submitted yet, per
    // operation and level: the work a split policy knows is coming, which the submitted
    // counters do not show yet. Not a statistic either. Written and read by the
    // submitting thread.
    int64_t announced(Kernel op, int level) const { return announced_[size_t(op)][size_t(level)]; }
    void announce(Kernel op, int level, int64_t tasks) { announced_[size_t(op)][size_t(level)] += tasks; }
    void submitted(Kernel op, int level) {
        int64_t& a = announced_[size_t(op)][size_t(level)];
        if (a > 0) --a;
    }

private:
    std::array<std::array<TaskCounters, max_levels>, kernel_count> slots_;
    std::array<std::array<int64_t, max_levels>, kernel_count> announced_{};
};

}  // namespace grain::detail
