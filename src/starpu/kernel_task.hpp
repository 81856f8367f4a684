#pragma once
// Inserting one kernel task into StarPU: the bottom of the recursion, where a tile
// task that is not split becomes a StarPU task of the kernel table.
#include <starpu.h>

#include "src/base/kernel_table.hpp"
#include "src/base/tile_args.hpp"

namespace grain::detail {

// Submits the kernel on `handles` (its output tile last). args.request counts the task
// until it ends; args.counters (its kernel and level's) count it ready, started and
// finished; args.writers (the output tile's writers_in_flight) counts it until it ends.
// `built`: the task StarPU-MPI built on `handles` already (distributed matrices), else null.
template <typename T>
void insert_kernel(Kernel kernel, const TileArgs<T>& args, const starpu_data_handle_t* handles, int nhandles,
                   int priority, starpu_task* built = nullptr);

// Submits a task that does nothing but write `tile`: StarPU gathers a partitioned tile
// for it, as for any task on the whole tile, so the tasks submitted after it that write
// its sub-tiles partition it anew.
void submit_gather(starpu_data_handle_t tile);
// A task that writes its first buffer, a one-integer vector, once it may read the others:
// a token saying a process's inputs to a shared panel are ready (StarPU-MPI sends it).
starpu_codelet* ready_codelet();
// Submits a task that copies vector `block` (read) into `to`, on the request's count: a
// distributed factorization's pivots delivered where the block has no home.
void submit_copy_out(starpu_data_handle_t block, void* to, RequestState* request);

}  // namespace grain::detail
