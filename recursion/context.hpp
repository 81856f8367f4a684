#pragma once
// What an algorithm submits with: the request its tasks belong to, the recursion
// layer, and where the view it works on sits (its level, and its first column and row
// in the view the routine was called on, so that info and pivots are global).
#include <array>
#include <cstdint>

#include "src/base/kernel_table.hpp"

namespace grain::detail {

struct RequestState;
class Recursion;

// What algorithms submit in counting mode, per kernel (Kernel order).
struct CountedTasks {
    std::array<int64_t, kernel_count> tasks{};
    // Their work in tasks of the kernel on one tile, the LP's kinds: a column task (a
    // panel, laswp) weighs its height in tiles, every other task 1, edge tiles as full
    // ones: a panel's and a laswp's times grow about as their heights, more slowly than a
    // panel's flops (doc/results/2026-11-29-getrf-lp-panels.md).
    std::array<double, kernel_count> tile_tasks{};
};

struct Context {
    RequestState* request;
    Recursion* recursion;
    int level = 0;
    int64_t col_offset = 0;
    // Counting mode: tasks are counted here, neither split nor submitted; used to learn
    // what a call and one split create.
    CountedTasks* counting = nullptr;
    // The priority of the task this view's algorithm refines (0 at the top): its
    // sub-tasks' priorities are this plus their own, weighted by level (tasks.cpp).
    int64_t priority_base = 0;
    // Where the view's first row is in the view the routine was called on (an LU's
    // pivots are global row indices), as col_offset is for columns.
    int64_t row_offset = 0;
    // The loop-nest priority of the top-level task this view's algorithm refines (a
    // task's place on the call's critical path: TaskSite::priority).
    int top_priority = 0;
};

}  // namespace grain::detail
