#pragma once
// CUDA tile kernels: StarPU cuda_funcs on cuBLAS (the products, cuda_blas.hpp) and
// cuSOLVER (the factorizations, cuda.cpp), on the worker's stream, in every precision.
// Built only with GRAIN_USE_CUDA.
#include "tile_kernels.hpp"

namespace grain::detail::cuda {

// The CUDA kernel of each table row, for each precision (GRAIN_FOR_EACH_PRECISION).
template <typename T>
kernels::KernelFunctions functions();

// After starpu_init / before starpu_shutdown: cuBLAS handles (StarPU's, one per CUDA
// worker) and grain's cuSOLVER handle, info word and workspace per CUDA worker.
void start_workers();
void stop_workers();

}  // namespace grain::detail::cuda
