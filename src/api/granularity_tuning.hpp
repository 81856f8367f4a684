#pragma once
// The tuning constants of the automatic granularity (granularity.cpp), in one place. The
// measurements that chose them are in doc/results/ (2026-12-02-automatic-granularity.md).
namespace grain::detail::granularity_tuning {

// Every kernel is priced at a rate that grows with its tile side nb as
// rate * nb^2 / (nb^2 + half_tile^2), which its history corrects (granularity.cpp). On
// cores, half_tile fits grain's dgemm on 2 cores at n = 8192, in place on the caller's
// array: 256 at 0.81 and 512 at 0.92 of 1024's GFlop/s (the prior says 0.74 and 0.93),
// where OpenBLAS's kernel alone runs as fast at 512 as at 1024. On GPUs, split tiles of
// 512-2048 ran at 1-12 TFlop/s on an H200.
constexpr double cpu_rate = 45e9;  // flop/s of one core on large tiles
constexpr double cpu_half_tile = 160;
constexpr double cuda_rate = 50e12;
constexpr double cuda_half_tile = 4096;

// What a task costs a core beside its kernel (StarPU's and grain's work to submit,
// schedule and end it): an estimate of the order of a GPU's (lp_tuning::gpu_task_seconds,
// measured), under 2 % of a 256 tile's gemm.
constexpr double cpu_task_seconds = 20e-6;

// The tile sides the choice is made among: multiples of 64 in steps of about 1.4, each
// that is even halving into another (the ladders of GPUs halve down to the cores' tile).
constexpr int candidate_tiles[] = {64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192};
// The orders of the grid a call's tile is chosen on (granularity.cpp), per doubling: finer
// than the candidates' steps.
constexpr int grid_per_doubling = 8;
constexpr int cpu_largest_tile = 1024;  // with no GPU (beside GPUs: the cpu_tile_limit)
constexpr int cuda_smallest_tile = 512;

}  // namespace grain::detail::granularity_tuning
