#pragma once
// A task of a variable count of buffers (a codelet with STARPU_VARIABLE_NBUFFERS): its
// handles and their modes, past STARPU_NMAXBUFS in arrays StarPU frees with the task.
#include <starpu.h>

#include <cstdlib>
#include <new>

namespace grain::detail {

// Sets task's `count` buffers, handles[i] in mode_of(i). std::bad_alloc where the arrays
// cannot be had; destroying the task (destroy = 0, starpu_task_destroy) frees what was.
template <typename ModeOf>
void set_task_buffers(starpu_task* task, const starpu_data_handle_t* handles, int count, ModeOf mode_of) {
    task->nbuffers = count;
    if (count > STARPU_NMAXBUFS) {
        task->dyn_handles = static_cast<starpu_data_handle_t*>(std::malloc(sizeof(starpu_data_handle_t) * size_t(count)));
        task->dyn_modes = static_cast<starpu_data_access_mode*>(std::malloc(sizeof(starpu_data_access_mode) * size_t(count)));
        if (!task->dyn_handles || !task->dyn_modes) throw std::bad_alloc();
    }
    for (int i = 0; i < count; ++i) {
        STARPU_TASK_SET_HANDLE(task, handles[i], i);
        STARPU_TASK_SET_MODE(task, mode_of(i), i);
    }
}

}  // namespace grain::detail
