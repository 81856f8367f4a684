#pragma once
// One StarPU codelet per (kernel, precision), built from the kernel table: each
// device's kernel, and a history-based performance model named grain_<letter><name>
// whose footprint is the tile's dimensions (so timings are kept apart per tile size).
#include <starpu.h>

#include "src/base/kernel_table.hpp"
#include "src/base/tile_args.hpp"  // every codelet's cl_arg

namespace grain::detail {

template <typename T>
starpu_codelet* codelet(Kernel kernel);

// The largest tile side a CPU worker runs while CUDA workers exist (0: any), for every
// codelet that has a CUDA kernel; the Runtime sets it (RuntimeOptions::cpu_tile_limit).
void set_cpu_tile_limit(int limit);
int cpu_tile_limit();

// The GPUs StarPU runs workers on (each has RuntimeOptions::gpu_workers of them); 0
// before it starts.
int gpu_count();

}  // namespace grain::detail
