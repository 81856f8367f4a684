#pragma once
// Inserting one kernel task into StarPU: the bottom of the recursion, where a tile
// task that is not split becomes a StarPU task of the kernel table.
#include <starpu.h>

#include "codelets.hpp"
#include "recursion/context.hpp"

namespace grain::detail {

// Submits the kernel on `handles` (its output tile last); args.writers, the output
// tile's writers_in_flight, counts it until it ends.
template <typename T>
void insert_kernel(const Context& ctx, Kernel kernel, const TileArgs<T>& args, const starpu_data_handle_t* handles,
                   int nhandles, int priority);

}  // namespace grain::detail
