#pragma once
// CPU tile kernels on CBLAS and LAPACKE (single-threaded BLAS inside each task).
#include "tile_kernels.hpp"

namespace grain::detail::cpu {

// The CPU kernel of each table row, for each precision (GRAIN_FOR_EACH_PRECISION).
template <typename T>
kernels::KernelFunctions functions();

}  // namespace grain::detail::cpu
