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
#include "src/base/trace_log.hpp"
#include "task_buffers.hpp"

namespace grain::detail {

namespace {

// StarPU callbacks; their argument is the task's TileArgs (alive until the task ends).
template <typename T>
void task_ready(void* args) { ++static_cast<TileArgs<T>*>(args)->counters->ready; }
// A worker took the task (its pop, before its data is fetched): while tracing, the bytes
// of its inputs not valid on the worker's memory node are what it will load.
template <typename T>
void task_started(void* args) {
    auto* p = static_cast<TileArgs<T>*>(args);
    ++p->counters->started;
    if (!p->trace) return;
    const int worker = starpu_worker_get_id();
    if (worker < 0) return;
    const unsigned node = starpu_worker_get_memory_node(unsigned(worker));
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(p->task); ++i) {
        starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(p->task, i);
        if ((STARPU_TASK_GET_MODE(p->task, i) & STARPU_R) && !starpu_data_is_on_node(h, node))
            p->bytes_loaded += int64_t(starpu_data_get_size(h));
    }
}

double microseconds(const timespec& t) { return double(t.tv_sec) * 1e6 + double(t.tv_nsec) * 1e-3; }

// The record of a task that ran, from StarPU's profiling information (on while tracing).
template <typename T>
void trace_task(const TileArgs<T>& p) {
    const starpu_task* task = p.task;
    const starpu_profiling_task_info* info = task->profiling_info;
    if (!info) return;  // submitted before tracing started
    TaskRecord r;
    r.worker = info->workerid;
    r.gpu = starpu_worker_get_type(info->workerid) == STARPU_CUDA_WORKER;
    r.operation = kernel_name(p.kernel);
    r.level = p.level;
    starpu_data_handle_t out = STARPU_TASK_GET_HANDLE(task, STARPU_TASK_GET_NBUFFERS(task) - 1);
    r.rows = int(starpu_matrix_get_nx(out));
    r.cols = int(starpu_matrix_get_ny(out));
    r.priority = task->priority;
    r.submit_us = microseconds(info->submit_time);
    r.start_us = microseconds(info->start_time);
    r.end_us = microseconds(info->end_time);
    r.bytes_loaded = p.bytes_loaded;
    p.trace->add(r);
}

template <typename T>
void task_done(void* args) {
    const auto* p = static_cast<TileArgs<T>*>(args);
    ++p->counters->finished;
    if (p->trace) trace_task(*p);
    --*p->writers;  // before the request may end, and its tiles with it
    p->request->task_finished();
}

}  // namespace

template <typename T>
void insert_kernel(Kernel kernel, const TileArgs<T>& args, const starpu_data_handle_t* handles, int nhandles,
                   int priority, starpu_task* built) {
    starpu_task* task = built ? built : starpu_task_create();
    task->cl = codelet<T>(kernel);
    const KernelInfo& info = kernel_info(kernel);
    if (built) {
        // StarPU-MPI set its buffers.
    } else if (info.column || info.applies) {
        // A pivot block and a column of tiles, or a factor, reflectors and the tiles or strips
        // they update: the task gives its buffers' count and modes (the table's last for
        // the tiles).
        const int fixed = info.column ? 1 : 2;
        try {
            set_task_buffers(task, handles, nhandles,
                             [&](int i) { return info.modes[size_t(i < fixed ? i : info.nbuffers - 1)]; });
        } catch (const std::bad_alloc&) {
            task->destroy = 0;  // as below; the clean-up frees what was allocated
            starpu_task_destroy(task);
            throw;
        }
    } else {
        for (int i = 0; i < nhandles; ++i) task->handles[i] = handles[i];
    }
    // StarPU frees cl_arg with free() once the task is done.
    auto* arg = static_cast<TileArgs<T>*>(std::malloc(sizeof(TileArgs<T>)));
    if (!arg) {
        task->destroy = 0;
        starpu_task_destroy(task);
        throw std::bad_alloc();
    }
    std::memcpy(static_cast<void*>(arg), &args, sizeof args);
    arg->task = task;
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
    // One allocation, freed as cl_arg (a task StarPU-MPI built frees every argument).
    task->callback_arg_free = task->prologue_callback_arg_free = task->prologue_callback_pop_arg_free = 0;
    ++*arg->writers;
    arg->request->task_submitted();
    const int ret = starpu_task_submit(task);
    if (ret != 0) {
        --*arg->writers;
        arg->request->task_finished();
        task->destroy = 0;  // StarPU asserts on destroying a detached, self-destroying task
        starpu_task_destroy(task);
        throw runtime_error(std::string("grain: starpu_task_submit failed: ") + std::strerror(-ret));
    }
}

#define GRAIN_INSTANTIATE(T) \
    template void insert_kernel<T>(Kernel, const TileArgs<T>&, const starpu_data_handle_t*, int, int, starpu_task*);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

void submit_gather(starpu_data_handle_t tile) {
    // No computation part: StarPU only orders it after the tile's tasks and gathers it.
    static starpu_codelet gather = [] {
        starpu_codelet cl{};
        cl.where = STARPU_NOWHERE;
        cl.nbuffers = 1;
        cl.modes[0] = STARPU_RW;
        cl.name = "grain_gather";
        return cl;
    }();
    starpu_task* task = starpu_task_create();
    task->cl = &gather;
    task->handles[0] = tile;
    const int ret = starpu_task_submit(task);
    if (ret != 0) throw runtime_error("grain: starpu_task_submit failed (" + std::string(std::strerror(-ret)) + ")");
}

starpu_codelet* ready_codelet() {
    static starpu_codelet ready = [] {
        starpu_codelet cl{};
        cl.where = STARPU_CPU;
        cl.cpu_funcs[0] = [](void* buffers[], void*) {
            *reinterpret_cast<int*>(STARPU_VECTOR_GET_PTR(buffers[0])) = 1;
        };
        cl.nbuffers = STARPU_VARIABLE_NBUFFERS;
        cl.name = "grain_ready";
        return cl;
    }();
    return &ready;
}

namespace {

void copy_out(void* buffers[], void* to) {
    std::memcpy(to, reinterpret_cast<const void*>(STARPU_VECTOR_GET_PTR(buffers[0])),
                size_t(STARPU_VECTOR_GET_NX(buffers[0])) * STARPU_VECTOR_GET_ELEMSIZE(buffers[0]));
}

void copied_out(void* request) { static_cast<RequestState*>(request)->task_finished(); }

}  // namespace

void submit_copy_out(starpu_data_handle_t block, void* to, RequestState* request) {
    static starpu_codelet copy = [] {
        starpu_codelet cl{};
        cl.cpu_funcs[0] = copy_out;
        cl.nbuffers = 1;
        cl.modes[0] = STARPU_R;
        cl.name = "grain_copy_out";
        return cl;
    }();
    starpu_task* task = starpu_task_create();
    task->cl = &copy;
    task->handles[0] = block;
    task->cl_arg = to;
    task->callback_func = copied_out;
    task->callback_arg = request;
    request->task_submitted();
    const int ret = starpu_task_submit(task);
    if (ret != 0) {
        request->task_finished();
        task->destroy = 0;
        starpu_task_destroy(task);
        throw runtime_error("grain: starpu_task_submit failed (" + std::string(std::strerror(-ret)) + ")");
    }
}

}  // namespace grain::detail
