#pragma once
// grain's StarPU scheduling policies around DARTS (darts.hpp): "darts" (with LUF
// eviction where the StarPU build has the victim-selector hook, see
// scripts/starpu-patches/04-victim-selector.patch), "darts-lru" (DARTS with StarPU's
// LRU eviction), and the variants "darts-3inputs" and "darts-opti" (with LUF).
//
// GPU (CUDA) workers ask DARTS for their tasks. CPU workers have their own path: they
// run the tasks that have no CUDA implementation (first come, first served), and take
// from the tasks DARTS has not handed out only those whose data is no larger than
// `cpu_max_bytes` (grain sets it to the tile size of the ladder's finer levels), so
// that they do not take the large tiles the GPUs should run.
#include <starpu.h>

#include <cstddef>
#include <string>

namespace grain::detail::sched {

// Whether `name` is one of grain's DARTS policies.
bool is_darts_policy(const std::string& name);

// The StarPU policy for `name` (one of the above); lives as long as the process.
starpu_sched_policy* darts_policy(const std::string& name);

// Whether eviction is LUF's (the StarPU in use has the victim-selector hook).
bool darts_has_luf();

// Largest task data (in bytes, its biggest handle) that CPU workers take from the
// GPUs' pool; 0: none (CPU workers run only CPU-only tasks). Set before starpu_init.
void set_darts_cpu_max_bytes(size_t bytes);

}  // namespace grain::detail::sched
