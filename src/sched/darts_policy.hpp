#pragma once
// grain's StarPU scheduling policies around DARTS (darts.hpp): "darts" (with LUF
// eviction where the StarPU build has the victim-selector hook, see
// scripts/starpu-patches/04-victim-selector.patch), "darts-lru" (DARTS with StarPU's
// LRU eviction), and the variants "darts-3inputs", "darts-opti" and "darts-wb" (with LUF).
//
// GPU (CUDA) workers ask DARTS for their tasks. CPU workers have their own path: they
// run the tasks that have no CUDA implementation (first come, first served), and take a
// task DARTS has not handed out when, by the performance models, a core would end it no
// later than a GPU: its duration on a core is at most the GPUs' work not done yet (per
// GPU) plus its duration on a GPU, and at most 8 times what a GPU needs to reach it (the
// work handed out and the work waiting at least as urgent) and run it; shortest on a core
// first. So cores run small tiles while the GPUs are busy and leave them the large ones
// and the urgent ones (a factorization's panels).
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

}  // namespace grain::detail::sched
