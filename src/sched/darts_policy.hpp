#pragma once
// grain's StarPU scheduling policies around DARTS (darts.hpp): "darts" (with LUF
// eviction where the StarPU build has the victim-selector hook, see
// scripts/starpu-patches/04-victim-selector.patch), "darts-lru" (DARTS with StarPU's
// LRU eviction), and the variants "darts-3inputs", "darts-opti" and "darts-wb" (with LUF).
//
// GPU (CUDA) workers ask DARTS for their tasks. CPU workers have their own path: they
// run the tasks that have no CUDA implementation (first come, first served), and take
// from the tasks DARTS has not handed out only those whose data is no larger than
// `cpu_max_bytes` (set_darts_cpu_max_bytes; 0 by default: none), so that they do not
// take the large tiles the GPUs should run.
#include <starpu.h>

#include <cstddef>
#include <string>

namespace grain::detail::sched {

// Whether `name` is one of grain's DARTS policies.
bool is_darts_policy(const std::string& name);

// Points `conf` at the scheduling policy `name`: one of grain's DARTS policies (a
// policy structure that lives as long as the process), else StarPU's own policy of that
// name. `name` must outlive starpu_init. Returns what STARPU_SCHED must say during
// starpu_init ("": unset), since StarPU 1.3 lets that variable win over `conf` even with
// the precedence flag.
std::string select_policy(starpu_conf& conf, const std::string& name);

// Whether eviction is LUF's (the StarPU in use has the victim-selector hook).
bool darts_has_luf();

// Handles about to be unregistered: a DARTS policy in use forgets them (they leave its
// GPUs' planning, and LUF no longer names them as victims once StarPU frees them).
// Does nothing under other policies or without a running StarPU.
void forget_data(const starpu_data_handle_t* handles, size_t count);

// Largest task data (in bytes, its biggest handle) that CPU workers take from the
// GPUs' pool; 0: none (CPU workers run only CPU-only tasks). Set before starpu_init.
void set_darts_cpu_max_bytes(size_t bytes);

}  // namespace grain::detail::sched
