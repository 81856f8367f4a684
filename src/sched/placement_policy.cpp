// StarPU's callbacks of the placement policies (placement_policy.hpp says what they do).
#include "placement_policy.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "placement.hpp"
#include "src/base/starpu_sync.hpp"

namespace grain::detail::sched {

namespace {

constexpr double unknown_us = 1000;  // a kernel without history: the order of a tile's time

struct State {
    Mutex mutex;
    std::unique_ptr<Placement> placement;
    int gpus = 0;
    // The placement's workers (GPUs, then cores) as queues; a GPU's serves its CUDA workers.
    std::vector<int> queue_of_worker;               // per StarPU worker
    std::vector<std::vector<int>> workers_of_queue;
    std::vector<unsigned> node_of_queue;            // memory node
    std::vector<starpu_perfmodel_arch*> arch_of_queue;
    std::vector<std::map<std::pair<int64_t, uint64_t>, starpu_task*>> queues;  // by (-priority, arrival)
    uint64_t arrivals = 0;
    std::vector<char> idle;                         // per StarPU worker: its last pop found nothing
    std::vector<starpu_task*> batch;                // pushed, not placed yet
    std::unordered_map<starpu_data_handle_t, DataId> ids;
    std::vector<DataId> free_ids;
    DataId next_id = 0;
};

// The placement select_placement chose, for the next init.
PlacementSpec selected;
std::string selected_name;

State& state_of(unsigned ctx) { return *static_cast<State*>(starpu_sched_ctx_get_policy_data(ctx)); }

DataId id_of(State& s, starpu_data_handle_t h) {
    const auto it = s.ids.find(h);
    if (it != s.ids.end()) return it->second;
    DataId d = s.next_id;
    if (!s.free_ids.empty()) d = s.free_ids.back(), s.free_ids.pop_back();
    else ++s.next_id;
    s.ids.emplace(h, d);
    return d;
}

void init(unsigned ctx) {
    auto* s = new State;
    const unsigned workers = starpu_worker_get_count();
    std::map<unsigned, int> gpu_of_node;
    for (unsigned w = 0; w < workers; ++w)
        if (starpu_worker_get_type(int(w)) == STARPU_CUDA_WORKER) gpu_of_node.emplace(starpu_worker_get_memory_node(w), 0);
    for (auto& [node, g] : gpu_of_node) {
        g = s->gpus++;
        s->node_of_queue.push_back(node);
    }
    s->workers_of_queue.resize(size_t(s->gpus));
    s->arch_of_queue.resize(size_t(s->gpus), nullptr);
    for (unsigned w = 0; w < workers; ++w) {
        int q = -1;
        if (starpu_worker_get_type(int(w)) == STARPU_CUDA_WORKER) {
            q = gpu_of_node[starpu_worker_get_memory_node(w)];
        } else if (starpu_worker_get_type(int(w)) == STARPU_CPU_WORKER) {
            q = int(s->workers_of_queue.size());
            s->workers_of_queue.emplace_back();
            s->node_of_queue.push_back(starpu_worker_get_memory_node(w));
            s->arch_of_queue.push_back(nullptr);
        }
        s->queue_of_worker.push_back(q);
        s->idle.push_back(1);
        if (q < 0) continue;  // a worker the placements do not use (OpenCL)
        s->workers_of_queue[size_t(q)].push_back(int(w));
        s->arch_of_queue[size_t(q)] = starpu_worker_get_perf_archtype(int(w), ctx);
    }
    s->queues.resize(s->workers_of_queue.size());
    PlacementMachine machine{s->gpus, int(s->workers_of_queue.size()) - s->gpus, 1e4};
    if (s->gpus > 0) {
        const double mbps = starpu_transfer_bandwidth(STARPU_MAIN_RAM, s->node_of_queue[0]);  // MB/s: bytes/us
        if (mbps > 0 && std::isfinite(mbps)) machine.bytes_per_us = mbps;
    }
    s->placement = std::make_unique<Placement>(selected, machine);
    starpu_sched_ctx_set_policy_data(ctx, s);
}

void deinit(unsigned ctx) { delete &state_of(ctx); }

// Task's predicted time on queue q's workers: infinite if they cannot run it.
double expected_us(const State& s, starpu_task* task, int q) {
    const int worker = s.workers_of_queue[size_t(q)].front();
    if (!starpu_worker_can_execute_task(unsigned(worker), task, 0)) return std::numeric_limits<double>::infinity();
    const double us = starpu_task_expected_length(task, s.arch_of_queue[size_t(q)], 0);
    return std::isfinite(us) && us > 0 ? us : unknown_us;
}

// The task as the placement sees it: its data (sizes, valid copies, tile coordinates) and
// its times on a core and on a GPU.
PlacedTask describe(State& s, starpu_task* task) {
    PlacedTask t{uint64_t(reinterpret_cast<uintptr_t>(task)), {}, std::numeric_limits<double>::infinity(),
                 std::numeric_limits<double>::infinity(), task->priority};
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
        const auto mode = STARPU_TASK_GET_MODE(task, i);
        Access a{id_of(s, h), double(starpu_data_get_size(h)), (mode & STARPU_R) != 0, (mode & STARPU_W) != 0, 0};
        if (starpu_data_is_on_node(h, STARPU_MAIN_RAM)) a.valid |= 1u;
        for (int g = 0; g < s.gpus; ++g)
            if (starpu_data_is_on_node(h, s.node_of_queue[size_t(g)])) a.valid |= 1u << (1 + g);
        int coords[2];
        if (starpu_data_get_coordinates_array(h, 2, coords) == 2) a.row = coords[0], a.col = coords[1];
        t.data.push_back(a);
    }
    if (s.gpus > 0) t.gpu_us = expected_us(s, task, 0);
    if (int(s.queues.size()) > s.gpus) t.cpu_us = expected_us(s, task, s.gpus);
    return t;
}

// Places the batch: each task into its worker's queue, a GPU's inputs prefetched; the idle
// workers of the queues that got tasks join `wake`.
void place_batch(State& s, std::vector<int>& wake) {
    std::vector<PlacedTask> described;
    for (starpu_task* task : s.batch) described.push_back(describe(s, task));
    std::vector<int> queue;
    try {
        queue = s.placement->place(described);
    } catch (const std::exception& e) {
        // StarPU pushed a task that some worker can run, so this is grain's own error; a
        // callback cannot report it.
        std::fprintf(stderr, "grain: internal error in the %s policy: %s\n", selected_name.c_str(), e.what());
        std::abort();
    }
    for (size_t i = 0; i < s.batch.size(); ++i) {
        const int q = queue[i];
        starpu_task* task = s.batch[i];
        s.queues[size_t(q)].emplace(std::make_pair(-int64_t(task->priority), s.arrivals++), task);
        if (q < s.gpus) starpu_prefetch_task_input_on_node(task, s.node_of_queue[size_t(q)]);
        for (int w : s.workers_of_queue[size_t(q)])
            if (s.idle[size_t(w)]) {
                s.idle[size_t(w)] = 0;
                wake.push_back(w);
                break;
            }
    }
    s.batch.clear();
}

int push(starpu_task* task) {
    State& s = state_of(task->sched_ctx);
    int wake = -1;
    starpu_worker_relax_on();
    s.mutex.lock();
    starpu_worker_relax_off();
    s.batch.push_back(task);
    // One idle worker comes to place the batch (and whoever gets its tasks).
    for (size_t w = 0; w < s.idle.size() && wake < 0; ++w)
        if (s.idle[w] && s.queue_of_worker[w] >= 0) s.idle[w] = 0, wake = int(w);
    // Before the unlock: from then on a worker may pop, run and free the task.
    starpu_push_task_end(task);
    s.mutex.unlock();
    if (wake >= 0) starpu_wake_worker_relax_light(wake);
    return 0;
}

starpu_task* pop(unsigned ctx) {
    State& s = state_of(ctx);
    const int worker = starpu_worker_get_id_check();
    const int q = s.queue_of_worker[size_t(worker)];
    if (q < 0) return nullptr;
    std::vector<int> wake;
    starpu_worker_relax_on();
    std::unique_lock<Mutex> lock(s.mutex);
    starpu_worker_relax_off();
    s.idle[size_t(worker)] = 0;
    if (!s.batch.empty()) place_batch(s, wake);
    starpu_task* task = nullptr;
    auto& mine = s.queues[size_t(q)];
    if (!mine.empty()) {
        task = mine.begin()->second;
        mine.erase(mine.begin());
    } else {
        s.idle[size_t(worker)] = 1;
    }
    lock.unlock();
    for (int w : wake)
        if (w != worker) starpu_wake_worker_relax_light(w);
    return task;
}

void post_exec(starpu_task* task, unsigned ctx) {
    State& s = state_of(ctx);
    std::lock_guard<Mutex> lock(s.mutex);
    s.placement->finished(uint64_t(reinterpret_cast<uintptr_t>(task)));
}

starpu_sched_policy make_policy() {
    starpu_sched_policy p{};
    p.init_sched = init;
    p.deinit_sched = deinit;
    p.push_task = push;
    p.pop_task = pop;
    p.post_exec_hook = post_exec;
    p.policy_name = "grain-placement";
    p.policy_description = "a placement of the XKaapi or PaRSEC papers (grain)";
    p.worker_type = STARPU_WORKER_LIST;
    return p;
}

starpu_sched_policy policy = make_policy();

// The state of the placement policy StarPU runs, if it does: null otherwise.
State* running() {
    constexpr unsigned global_ctx = 0;  // StarPU's initial context, the one grain uses
    if (!starpu_is_initialized()) return nullptr;
    const starpu_sched_policy* p = starpu_sched_ctx_get_sched_policy(global_ctx);
    if (!p || p->push_task != push) return nullptr;
    return static_cast<State*>(starpu_sched_ctx_get_policy_data(global_ctx));
}

}  // namespace

void select_placement(starpu_conf& conf, const std::string& name) {
    selected = *parse_placement(name);
    selected_name = name;
    conf.sched_policy = &policy;
    conf.sched_policy_name = nullptr;
}

bool placement_keeps_handles() { return running() != nullptr; }

void placement_forget(const starpu_data_handle_t* handles, size_t count) {
    State* s = running();
    if (!s) return;
    std::lock_guard<Mutex> lock(s->mutex);
    for (size_t i = 0; i < count; ++i) {
        const auto it = s->ids.find(handles[i]);
        if (it == s->ids.end()) continue;
        s->placement->forget(it->second);
        s->free_ids.push_back(it->second);
        s->ids.erase(it);
    }
}

size_t placement_known_handles() {
    State* s = running();
    if (!s) return 0;
    std::lock_guard<Mutex> lock(s->mutex);
    return s->ids.size();
}

}  // namespace grain::detail::sched
