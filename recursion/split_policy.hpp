#pragma once
// Split policies: whether a tile task runs its kernel or is split into the same
// algorithm on the tile's sub-tiles. The recursion layer asks; policies only answer.
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <starpu.h>

#include "counters.hpp"

namespace grain::detail {

// The task being submitted: its operation, its level (0 = largest tiles) out of
// `levels`, its output tile's coordinates in the grid of its level, the ladder of
// tile scales, its precision (scalar_traits' letter), its output tile's handle, whether a
// kernel writing that tile is in flight, and its top-level task's loop-nest priority.
struct TaskSite {
    Kernel op;
    int level;
    int levels;
    int i, j;
    const std::vector<int>* scales;
    char precision;
    starpu_data_handle_t output;
    bool output_written_in_flight;  // by a kernel submitted and not ended
    // Its top-level task's loop-nest priority (its own at level 0): in grain's algorithms
    // with a critical path, step k of S gets 2 (S - k), less the task's distance from the
    // diagonal; 0 where there is none.
    int priority = 0;
    // Tiles of its column, for a column kernel (an LU's panel): it does that many tiles'
    // work, where the LP's kinds are one tile's; for a QR update, tiles of each strip it
    // writes (it does height^2 tiles' work). 1 for every other task.
    int height = 1;
    // A `follows` kernel (laswp): whether the panel whose pivots it applies split into
    // sub-panels at the next scale.
    bool panel_split = false;
};

class SplitPolicy {
public:
    virtual ~SplitPolicy() = default;
    // Called only for tasks that can be split (level < levels - 1) and are not `follows`
    // kernels (the kernel table).
    virtual bool split(const TaskSite& site, const Counters& counters) = 0;
    // Adds what the policy measured to the statistics, and forgets it.
    virtual void report(Statistics&) const {}
    virtual void reset() {}
    // Called once StarPU runs, before any task: what the policy reads from StarPU can
    // be made ready here rather than inside a run.
    virtual void started() {}
};

// Policies that layers above this one add by name (the Runtime adds lp/'s "lp"), each
// made with the period of the lp policy.
using SplitPolicyMaker = std::unique_ptr<SplitPolicy> (*)(int lp_period);
using SplitPolicyRegistry = std::map<std::string, SplitPolicyMaker>;

// "none", "all", "depth:D", "random:P[:SEED]", or a name of `registered`; throws
// grain::invalid_argument naming `argument` for anything else.
std::unique_ptr<SplitPolicy> make_split_policy(const std::string& spec, const std::string& argument, int lp_period,
                                               const SplitPolicyRegistry& registered);

}  // namespace grain::detail
