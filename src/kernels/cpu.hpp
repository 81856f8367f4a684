#pragma once
// CPU tile kernels: StarPU cpu_funcs, one per operation, for T = float or double.
#include "tile_kernels.hpp"

namespace grain::detail::cpu {

GRAIN_DECLARE_TILE_KERNELS

}  // namespace grain::detail::cpu
