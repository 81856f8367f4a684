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

}  // namespace grain::detail
