#pragma once
// The "lp" split policy. It solves the granularity LP at the first decision, then at the
// first decision after `period` more submitted tasks, and with GPUs at the first decision
// on a kind (type, level) the last solve gave no task; the LP's inputs are the pending
// and announced tasks per kind, the tasks one split creates (learned from the algorithms
// in counting mode) and the kernels' durations (StarPU history models, else scaled by
// work from a calibrated level, else flop-rate estimates, and no dearer than the
// unit's best measured rate at that tile size: lp/durations.hpp). Each decision adds its kind's
// target ratio to the kind's credit (at most 1), which carries over solves; a task is
// split when the credit reaches 1 (or the last solve gave its kind no task), the workers
// lack ready tasks and, with GPUs, the critical path allows it, and the split spends 1.
// On CPU cores alone a task is also split whatever its target when it is longer than the
// work that can run beside it or too coarse for the calls' work.
#include <memory>

#include "recursion/split_policy.hpp"

namespace grain::detail {

std::unique_ptr<SplitPolicy> make_lp_split(int period);

}  // namespace grain::detail
