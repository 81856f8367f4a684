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

// With GPUs, the share of the machine's flop rate under which the LP counts on the cores
// for no task and chooses the GPUs' tile sizes alone (lp_split.cpp, update_runs): 15
// cores fall under it beside an H200 or the H100 of sim/, not beside the V100-like GPU
// (doc/results/2026-11-28-sim-h200-lp.md).
constexpr double least_core_share = 0.02;

// What a task costs a GPU's worker beside its kernel, which the kernels' models leave
// out, added to the GPUs' durations where the LP chooses their tile sizes alone: the gap
// between a GPU's tasks on the H200 (doc/results/2026-11-28-h200-loan.md). Without it,
// the LP cut 2048 dgemms into eight 1024 ones whose kernels alone are faster.
constexpr double gpu_task_seconds = 30e-6;

// Flop rates (flop/s of one worker) for kernels without history yet: only ratios between
// durations matter to the LP, so rough figures do, except where a split's price hinges on
// one (a panel's against its calibrated children: lp_split.cpp, update_durations).
constexpr double cpu_estimated_flops = 30e9;
constexpr double cuda_estimated_flops = 5e12;

}  // namespace grain::detail::lp_tuning
