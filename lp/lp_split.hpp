#pragma once
// The "lp" split policy: every `period` submitted tasks it re-solves the granularity LP
// with the pending tasks per (type, level), the tasks one split creates (learned from
// the algorithms in counting mode) and the kernels' durations (StarPU history models,
// else flop-rate estimates); then it splits a task while the observed split ratio of its
// (type, level) since the last solve is below the LP's target and the workers lack
// ready tasks.
#include <memory>

#include "recursion/split_policy.hpp"

namespace grain::detail {

std::unique_ptr<SplitPolicy> make_lp_split(int period);

}  // namespace grain::detail
