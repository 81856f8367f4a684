// StarPU's callbacks of the darts policies (darts_policy.hpp says what they do), and the
// GPUs' side: a GPU asks DARTS for its next task and loads the inputs of the tasks planned
// after it. The cores' side is darts_cores.cpp, eviction darts_luf.cpp, the wake-ups
// darts_wakes.hpp.
#include "darts_policy.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "darts_state.hpp"
#include "darts_tuning.hpp"
#include "darts_wakes.hpp"
#include "placement_policy.hpp"

namespace grain::detail::sched {

namespace policy {

namespace {

State& state_of(unsigned ctx) { return *static_cast<State*>(starpu_sched_ctx_get_policy_data(ctx)); }

// The id of data `h`, which DARTS and LUF learn here.
DataId data_id(State& s, starpu_data_handle_t h) {
    const auto it = s.gpu.data_ids.find(h);
    if (it != s.gpu.data_ids.end()) return it->second;
    const DataId d = s.gpu.darts->add_data();
    s.gpu.data_ids.emplace(h, d);
    s.gpu.handles.push_back(h);
    for (auto& r : s.luf.resident) r.push_back(0);
    for (auto& u : s.luf.in_use) u.push_back(0);
    return d;
}

// `task` goes to GPU k (-1: to a core): the data it writes are no longer valid on the
// other GPUs (Darts::written). Otherwise DARTS hands out a task that reads a tile a core
// updated as one that needs no load, and the GPU waits for the load it did not plan.
void written_on(State& s, starpu_task* task, int k) {
    for_each_data(s, task, [&](size_t d) { s.gpu.darts->written(k, DataId(d)); }, STARPU_W);
}

// `task`, which a GPU can run, enters DARTS: its id.
TaskId add_to_darts(State& s, starpu_task* task) {
    std::vector<DataId> inputs;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        // Written-only data need no load, but LUF must know them: with no future use they
        // are the first victims.
        const DataId d = data_id(s, STARPU_TASK_GET_HANDLE(task, i));
        if (!(STARPU_TASK_GET_MODE(task, i) & STARPU_R)) continue;
        s.gpu.darts->awaited(d, -1);  // counted by submitted, buffer by buffer
        if (std::find(inputs.begin(), inputs.end(), d) == inputs.end()) inputs.push_back(d);
    }
    const TaskId t = s.gpu.darts->add_task(inputs, task->priority);
    s.gpu.tasks.push_back(task);
    return t;
}

// The workers of context `ctx`, all idle.
void find_workers(Workers& w, unsigned ctx) {
    for (unsigned worker = 0; worker < starpu_worker_get_count(); ++worker) {
        const bool gpu = starpu_worker_get_type(int(worker)) == STARPU_CUDA_WORKER;
        w.gpu_of_worker.push_back(gpu ? w.gpus : -1);
        w.idle.push_back(1);
        if (gpu) {
            w.gpu_nodes.push_back(starpu_worker_get_memory_node(worker));
            w.gpu_of_node[w.gpu_nodes.back()] = w.gpus++;
        }
        (gpu ? w.gpu_arch : w.cpu_arch) = starpu_worker_get_perf_archtype(int(worker), ctx);
        if (!gpu && w.cpu_worker < 0) w.cpu_worker = int(worker), w.cpu_node = starpu_worker_get_memory_node(worker);
    }
}

// Plans GPU k's next tasks and loads their inputs while the task it took runs: otherwise
// a GPU picks its next data only once it has nothing left to run, and waits for the load.
// Prefetches only use free GPU memory (StarPU never evicts for them), so LUF still decides
// evictions. They are issued under the lock, per task: a planned task that LUF sends back
// to the pool could otherwise run and be freed on another GPU first; and
// starpu_data_prefetch_on_node (per handle) asserts that a handle is initialized, which
// StarPU stops saying of a partition's children as soon as their unpartition is
// submitted, while tasks on them may still wait here.
void prefetch_planned(State& s, int k, unsigned node) {
    s.gpu.darts->plan_ahead(k, s.gpu.prefetch);
    prune_bus_backlog(s, k);
    size_t ahead = 0;
    for (TaskId p : s.gpu.darts->planned(k)) {
        if (ahead++ == s.gpu.prefetch) break;
        starpu_task* task = s.gpu.tasks[size_t(p)];
        for_each_data(s, task, [&](size_t d) { s.luf.resident[size_t(k)][d] = 1; });
        starpu_prefetch_task_input_on_node(task, node);
        add_to_bus_backlog(s, k, task);
    }
}

// DARTS's next task for GPU k (worker `worker`), or null.
starpu_task* gpu_pop(State& s, int worker, int k, Wakes& wakes) {
    const TaskId t = s.gpu.darts->pop(k);
    if (t == no_task) return nullptr;
    starpu_task* task = s.gpu.tasks[size_t(t)];  // s.gpu.tasks may grow once unlocked
    s.gpu.ids[task] = t;
    written_on(s, task, k);
    track_handed_out(s, t);
    for_each_data(s, task, [&](size_t d) { s.luf.resident[size_t(k)][d] = 1, ++s.luf.in_use[size_t(k)][d]; });
    prefetch_planned(s, k, starpu_worker_get_memory_node(unsigned(worker)));
    // Less urgent work handed out counts ahead of a core's candidates: besides a push, the
    // one change that may give a core a task.
    if (core_may_take(s)) wakes.pick(s, false);
    return task;
}

// A core's next task: one no GPU can run, first come, first served; else one DARTS holds
// that the cores' rule gives it; or null.
starpu_task* core_pop(State& s, Wakes& wakes) {
    starpu_task* task = nullptr;
    if (!s.cores.cpu_only.empty()) {
        task = s.cores.cpu_only.front();
        s.cores.cpu_only.pop_front();
    } else {
        const TaskId t = take_for_core(s);
        if (t == no_task) return nullptr;
        task = s.gpu.tasks[size_t(t)];
    }
    if (s.gpu.darts) written_on(s, task, -1);
    if (!s.cores.cpu_only.empty() || core_may_take(s)) wakes.pick(s, false);
    return task;
}

// Sends the write-only outputs of a GPU task that ended home (Variant::write_back). Only
// write-only buffers: grain's own tasks update their tiles (STARPU_RW), and a later task
// on the tile would wait for such a copy. An asynchronous fetch, not a prefetch: StarPU
// serves fetch requests first.
void write_home(starpu_task* task) {
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        if (STARPU_TASK_GET_MODE(task, i) != STARPU_W) continue;
        starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
        const int home = starpu_data_get_home_node(h);
        if (home >= 0) starpu_data_fetch_on_node(h, unsigned(home), 1);
    }
}

}  // namespace

void init(unsigned ctx, const Variant& v, std::optional<size_t> prefetch) {
    auto* s = new State;
    find_workers(s->workers, ctx);
    const int gpus = s->workers.gpus;
    const bool cores = gpus < int(s->workers.gpu_of_worker.size());
    s->gpu.prefetch = prefetch.value_or(cores ? tuning::prefetch_with_cores : tuning::prefetch_gpus_only);
    if (gpus > 0) s->gpu.darts = std::make_unique<Darts>(gpus, 0, v.options);
    s->gpu.write_back = v.write_back;
    s->cores.requested.resize(size_t(gpus));
    start_luf(*s, v.luf);
    starpu_sched_ctx_set_policy_data(ctx, s);
}

void deinit(unsigned ctx) {
    State* s = &state_of(ctx);
    stop_luf(*s);
    delete s;
}

// A task is submitted: until StarPU pushes it (its dependencies ended), DARTS counts it as
// awaited by the data it reads, so that LUF keeps those before data no task will read
// (Darts::luf_victim): in grain's routines most tasks are not ready yet, and the tiles they
// will update would look as useless as a finished panel.
void submitted(starpu_task* task) {
    State& s = state_of(task->sched_ctx);
    if (!task->cl || !runs_on(task, STARPU_CUDA)) return;  // StarPU's own tasks; no GPU's
    std::lock_guard<Mutex> lock(s.mutex);
    if (!s.gpu.darts) return;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i)
        if (STARPU_TASK_GET_MODE(task, i) & STARPU_R)
            s.gpu.darts->awaited(data_id(s, STARPU_TASK_GET_HANDLE(task, i)), 1);
}

int push(starpu_task* task) {
    State& s = state_of(task->sched_ctx);
    starpu_worker_relax_on();
    s.mutex.lock();
    starpu_worker_relax_off();
    Wakes wakes;
    if (!s.gpu.darts || !runs_on(task, STARPU_CUDA)) {
        s.cores.cpu_only.push_back(task);
        wakes.pick(s, false);
    } else {
        const TaskId t = add_to_darts(s, task);
        const bool for_cores = track_pushed(s, t, task);
        wakes.pick(s, true);
        if (for_cores) wakes.pick(s, false);
    }
    // Before the unlock: from then on a worker may pop, run and free the task.
    starpu_push_task_end(task);
    s.mutex.unlock();
    wakes.wake();
    return 0;
}

starpu_task* pop(unsigned ctx) {
    State& s = state_of(ctx);
    const int worker = starpu_worker_get_id_check();
    const int k = s.workers.gpu_of_worker[size_t(worker)];
    starpu_worker_relax_on();
    std::unique_lock<Mutex> lock(s.mutex);
    starpu_worker_relax_off();
    s.workers.idle[size_t(worker)] = 0;  // so that a core's pop does not pick itself to wake
    Wakes wakes;
    starpu_task* task = k >= 0 ? gpu_pop(s, worker, k, wakes) : core_pop(s, wakes);
    if (!task) s.workers.idle[size_t(worker)] = 1;
    lock.unlock();
    wakes.wake();
    return task;
}

void post_exec(starpu_task* task, unsigned ctx) {
    State& s = state_of(ctx);
    const int worker = starpu_worker_get_id();
    if (worker < 0 || s.workers.gpu_of_worker[size_t(worker)] < 0) return;
    if (s.gpu.write_back) write_home(task);
    std::lock_guard<Mutex> lock(s.mutex);
    const auto it = s.gpu.ids.find(task);
    if (it == s.gpu.ids.end()) return;
    const int k = s.workers.gpu_of_worker[size_t(worker)];
    s.gpu.darts->finished(k, it->second);
    for_each_data(s, task, [&](size_t d) { --s.luf.in_use[size_t(k)][d]; });  // counted by gpu_pop
    leave_backlog(s, it->second, true);
    s.gpu.ids.erase(it);
}

}  // namespace policy

namespace {

// The state of the darts policy StarPU runs with GPUs, if it does: null otherwise.
policy::State* running_darts() {
    constexpr unsigned global_ctx = 0;  // StarPU's initial context, the one grain uses
    if (!starpu_is_initialized()) return nullptr;
    const starpu_sched_policy* p = starpu_sched_ctx_get_sched_policy(global_ctx);
    if (!p || p->push_task != policy::push) return nullptr;
    auto* s = static_cast<policy::State*>(starpu_sched_ctx_get_policy_data(global_ctx));
    return s && s->gpu.darts ? s : nullptr;
}

}  // namespace

bool keeps_handles() { return running_darts() != nullptr || placement_keeps_handles(); }

void forget_data(const starpu_data_handle_t* handles, size_t count) {
    placement_forget(handles, count);
    policy::State* s = running_darts();
    if (!s) return;
    std::lock_guard<Mutex> lock(s->mutex);
    for (size_t i = 0; i < count; ++i) {
        const auto it = s->gpu.data_ids.find(handles[i]);
        if (it == s->gpu.data_ids.end()) continue;
        const DataId d = it->second;
        s->gpu.data_ids.erase(it);  // a later handle at the same address is new data
        s->gpu.handles[size_t(d)] = nullptr;
        for (int k = 0; k < s->gpu.darts->gpus(); ++k) {
            s->luf.resident[size_t(k)][size_t(d)] = 0;
            s->luf.in_use[size_t(k)][size_t(d)] = 0;
            s->gpu.darts->evicted(k, d);
        }
    }
}

size_t known_handles() {
    policy::State* s = running_darts();
    if (!s) return placement_known_handles();
    std::lock_guard<Mutex> lock(s->mutex);
    return s->gpu.data_ids.size();
}

}  // namespace grain::detail::sched
