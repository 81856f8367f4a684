#pragma once
// The tuning constants of the "lp" split policy (lp_split.cpp), in one place. The
// measurements that chose them are in doc/results/tuning-history.md.
namespace grain::detail::lp_tuning {

// MinN of the CPU cores: the least number of tasks (per CPU worker) the LP must cut the
// pending work into.
constexpr double tasks_per_worker = 16;

// Ready tasks not started (per CPU worker) below which the workers "lack tasks": a task
// of a kind below its target, or of a kind the last solve gave no ratio for, is then
// split. Half of MinN: MinN is what the pending work is cut into, this is how much of it
// must be ready at once.
constexpr double ready_tasks_per_worker = 8;

// MinN of the GPUs: two tasks keep one running while the next one's data loads.
constexpr double tasks_per_gpu = 2;

// Flop rates (flop/s of one worker) for kernels without history yet: only ratios between
// durations matter to the LP, so rough figures do.
constexpr double cpu_estimated_flops = 30e9;
constexpr double cuda_estimated_flops = 5e12;

}  // namespace grain::detail::lp_tuning
