#pragma once
// What an algorithm submits with: the request its tasks belong to, the recursion
// layer, and where the view it works on sits (its level, and its first column and row
// in the view the routine was called on, so that info and pivots are global).
#include <cstdint>

namespace grain::detail {

struct RequestState;
class Recursion;

struct Context {
    RequestState* request;
    Recursion* recursion;
    int level = 0;
    int64_t col_offset = 0;
    // Counting mode: tasks are counted here per kernel (Kernel order), neither split
    // nor submitted; used to learn what one split creates.
    int64_t* counting = nullptr;
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
