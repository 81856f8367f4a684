#pragma once
// The darts policies' tuning constants, in one place. Each says what it bounds and why it
// has its value; the measurements behind the values are in doc/notes/darts-notes.md.
#include <cstddef>
#include <limits>

namespace grain::detail::sched::tuning {

// How many planned tasks a GPU keeps ahead, prefetching their inputs into free memory,
// when it takes a task (tasks; GRAIN_DARTS_PREFETCH overrides both). Loads then overlap
// the running tasks, where DARTS as published plans only once a GPU has nothing left.
// Without CPU workers: deep enough for the memory-bound sets.
constexpr size_t prefetch_gpus_only = 16;
// With CPU workers: a planned task is withheld from the cores, so a GPU plans less ahead.
constexpr size_t prefetch_with_cores = 4;
// A prefetch may evict (LUF's victim, when no planned task reads it) only for the inputs of
// the next prefetch_evict_ahead planned tasks: their loads then overlap the running tasks
// instead of stalling the GPU when each starts (in the memory-bound sets the GPUs idled
// for those loads); deeper, prefetches take memory LUF keeps for reuse (the sparse set
// loads more when all 16 may evict).
constexpr size_t prefetch_evict_ahead = 4;
// The range of GRAIN_DARTS_PREFETCH (tasks): 0 is DARTS as published (planning only when
// a GPU has nothing planned, no prefetch); a depth beyond the tasks pending plans them all.
constexpr long prefetch_min = 0;
constexpr long prefetch_max = std::numeric_limits<long>::max();

// The cores' rule 3 (core_rule.hpp): a core leaves the GPUs a task when it would end it
// more than core_delay times later than a GPU would reach and run it (a ratio of times).
// Too low, and the cores leave the GPUs the smallest tiles; too high, and they take a
// factorization's panels while the GPUs wait for them.
constexpr double core_delay = 16;
// How many candidates (tasks) a core's pop looks past, shortest on a core first, before
// it gives up: bounds the work a core does under the policy's lock.
constexpr size_t core_scan = 64;

}  // namespace grain::detail::sched::tuning
