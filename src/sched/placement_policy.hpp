#pragma once
// The StarPU policies around the placements of placement.hpp ("xkaapi-heft", "dada[:A]",
// "dada-cp[:A]", "owner-random", "owner-load[:S]", "owner-cyclic[:PxQ]"). A pushed task
// joins the batch of tasks made ready since the last decision; the next worker to pop
// places the whole batch, each task into its worker's queue (a GPU's queue serves all the
// CUDA workers of that GPU), where tasks go by StarPU priority. Inputs of a task placed on
// a GPU are prefetched there at once. Durations come from StarPU's performance models (a
// kernel without history counts as 1 ms), transfers from its bus model, data locations
// from StarPU's copies. Eviction is StarPU's LRU.
#include <starpu.h>

#include <cstddef>
#include <string>

namespace grain::detail::sched {

// Points `conf` at the placement policy `name` (one parse_placement accepts); the policy
// structure lives as long as the process. Call before starpu_init.
void select_placement(starpu_conf& conf, const std::string& name);

// Whether a placement policy runs, and so keeps ids for the handles of its tasks until
// placement_forget; how many it keeps (tests).
bool placement_keeps_handles();
void placement_forget(const starpu_data_handle_t* handles, size_t count);
size_t placement_known_handles();

}  // namespace grain::detail::sched
