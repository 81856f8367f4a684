#include "kernel_task.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "codelets.hpp"
#include "grain/errors.hpp"
#include "src/base/request_state.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/base/task_counters.hpp"

namespace grain::detail {

namespace {

// StarPU callbacks; their argument is the task's TileArgs (alive until the task ends).
template <typename T>
void task_ready(void* args) { ++static_cast<TileArgs<T>*>(args)->counters->ready; }
template <typename T>
void task_started(void* args) { ++static_cast<TileArgs<T>*>(args)->counters->started; }
template <typename T>
void task_done(void* args) {
    const auto* p = static_cast<TileArgs<T>*>(args);
    ++p->counters->finished;
    --*p->writers;  // before the request may end, and its tiles with it
    p->request->task_finished();
}

}  // namespace

template <typename T>
void insert_kernel(Kernel kernel, const TileArgs<T>& args, const starpu_data_handle_t* handles, int nhandles,
                   int priority) {
    starpu_task* task = starpu_task_create();
    task->cl = codelet<T>(kernel);
    for (int i = 0; i < nhandles; ++i) task->handles[i] = handles[i];
    // StarPU frees cl_arg with free() once the task is done.
    auto* arg = static_cast<TileArgs<T>*>(std::malloc(sizeof(TileArgs<T>)));
    if (!arg) throw std::bad_alloc();
    std::memcpy(static_cast<void*>(arg), &args, sizeof args);
    task->cl_arg = arg;
    task->cl_arg_size = sizeof args;
    task->cl_arg_free = 1;
    task->priority = priority;
    task->prologue_callback_func = task_ready<T>;
    task->prologue_callback_arg = arg;
    task->prologue_callback_pop_func = task_started<T>;
    task->prologue_callback_pop_arg = arg;
    task->callback_func = task_done<T>;
    task->callback_arg = arg;
    ++*arg->writers;
    arg->request->task_submitted();
    const int ret = starpu_task_submit(task);
    if (ret != 0) {
        --*arg->writers;
        arg->request->task_finished();
        starpu_task_destroy(task);
        throw runtime_error(std::string("grain: starpu_task_submit failed: ") + std::strerror(-ret));
    }
}

#define GRAIN_INSTANTIATE(T) \
    template void insert_kernel<T>(Kernel, const TileArgs<T>&, const starpu_data_handle_t*, int, int);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::detail
