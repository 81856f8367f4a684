#pragma once
// grain's StarPU scheduling policies around DARTS (darts.hpp): "darts" (with LUF
// eviction where the StarPU build has the victim-selector hook, see
// scripts/starpu-patches/04-victim-selector.patch), "darts-lru" (DARTS with StarPU's
// LRU eviction), and the variants "darts-3inputs", "darts-opti",
// "darts-opti-3inputs" and "darts-wb" (with LUF).
//
// GPU (CUDA) workers ask DARTS for their tasks. CPU workers have their own path: they
// run the tasks that have no CUDA implementation (first come, first served), and take a
// task DARTS has neither planned nor handed out when, by the performance models, a core
// would end it no later than a GPU and not much later than a GPU would reach and run it
// (doc/scheduling.md, "CPU workers"; core_rule.hpp); shortest on a core first. So cores
// run small tiles while the GPUs are busy and leave them the large ones and the urgent
// ones (a factorization's panels).
#include <starpu.h>

#include <cstddef>
#include <string>
#include <vector>

namespace grain::detail::sched {

// Whether `name` is one of grain's DARTS policies.
bool is_darts_policy(const std::string& name);

// The names of grain's DARTS policies.
std::vector<std::string> darts_policy_names();

// Points `conf` at the scheduling policy `name`: one of grain's DARTS policies or
// placements (placement_policy.hpp; a policy structure that lives as long as the
// process), else StarPU's own policy of that
// name. `name` must outlive starpu_init. Returns what STARPU_SCHED must say during
// starpu_init ("": unset), since StarPU 1.3 lets that variable win over `conf` even with
// the precedence flag.
std::string select_policy(starpu_conf& conf, const std::string& name);

// Whether eviction is LUF's (the StarPU in use has the victim-selector hook).
bool darts_has_luf();

// Whether a DARTS policy runs with GPUs, or a placement policy runs, and so keeps the
// handles of the tasks it sees until forget_data.
bool keeps_handles();

// Handles about to be unregistered, with no task on them left to run: a DARTS policy in
// use forgets them (they leave its GPUs' planning, and LUF no longer names them as
// victims once StarPU frees them), as does a placement policy (their owners). Does
// nothing under other policies or without a
// running StarPU.
void forget_data(const starpu_data_handle_t* handles, size_t count);

// How many handles a DARTS or placement policy in use knows (0 under others): none once every
// matrix is gone (tests).
size_t known_handles();

}  // namespace grain::detail::sched
