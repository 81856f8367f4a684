#pragma once
// grain's fixed limits and defaults, each with its unit. The split and scheduling
// policies keep their tuning constants beside them (lp/lp_tuning.hpp,
// src/sched/darts_tuning.hpp); doc/results/ has the measurements behind them.
namespace grain::detail {

// The longest ladder of tile scales a matrix may have (levels).
constexpr int max_levels = 8;

// Bits of StarPU's int priority that composed task priorities use, shared out among
// the levels of a ladder (recursion/tasks.cpp): 30 keeps the sum within an int.
constexpr int priority_bits = 30;

// The largest tile size: StarPU 1.3 counts a tile's elements in 32 bits
// (starpu_matrix_data_register computes nx * ny in uint32_t), so nb * nb < 2^32.
constexpr int max_tile_size = 65535;

// The most tiles a matrix may have: tile indices and counts are ints.
constexpr long long max_tiles = 2147483647;

// Default submission window, in kernel tasks per CPU worker: twice the ready tasks the
// lp policy wants per worker (lp/lp_tuning.hpp), so that its LP finds them without
// splitting.
constexpr int window_tasks_per_cpu = 32;
// ... plus these per GPU: with several GPUs the cores' share held too few independent
// tasks for the GPUs to choose from (a gemm's window held fewer chains of updates of a
// tile than 4 GPUs need; doc/results/2026-11-28-sim-window-gpus.md).
constexpr int window_tasks_per_gpu = 128;

// The most StarPU workers (CUDA streams) a GPU may have (RuntimeOptions::gpu_workers).
constexpr int max_gpu_workers = 8;

// Default period of the lp split policy, in tasks submitted between two solves.
constexpr int default_lp_period = 50;

// Default largest tile side a core runs while GPUs run (RuntimeOptions::cpu_tile_limit).
// Beside a GPU of the H100 class a core takes thousands of times the GPU's time on a tile
// of 2048 or 4096, and the dmda policies would first make the cores calibrate each such
// size (doc/results/2026-11-26-h100-calibration-lost.md); 1024 still lets the cores help
// with flat tiles of about 1024.
constexpr int default_cpu_tile_limit = 1024;

// How long a grid being released sleeps between two looks at a tile's kernels still
// in their callbacks (microseconds).
constexpr int writers_poll_us = 10;

}  // namespace grain::detail
