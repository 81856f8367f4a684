#pragma once
// The darts policies' state (the scheduling context's policy data), one part per concern,
// and what the policy's files share:
//   darts_variants.cpp  the variants and their starpu_sched_policy (select_policy)
//   darts_policy.cpp    StarPU's callbacks (push, pop, ...) and the GPUs' side
//   darts_luf.cpp       LUF's eviction hooks
//   darts_cores.cpp     the cores' path: which task DARTS holds a core may take
//   darts_wakes.hpp     which idle workers a push or a pop wakes
//   darts_tuning.hpp    the tuning constants
// Everything here is read and written under State::mutex.
#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "darts.hpp"
#include "src/base/starpu_sync.hpp"

namespace grain::detail::sched::policy {

struct Variant {
    const char* name;
    const char* description;
    DartsOptions options;
    bool luf;
    // A GPU task's write-only outputs are sent home as soon as it ends, so that evicting
    // them later is a free drop instead of a write-back that stalls the GPU's worker. Pays
    // when outputs must leave the GPU anyway (the 2D product); loses when they could stay
    // until the end (the 3D product).
    bool write_back;
};

// The workers StarPU started, and which of them are idle (darts_wakes.hpp).
struct Workers {
    int gpus = 0;
    std::vector<int> gpu_of_worker;       // per worker: its GPU, -1 for a core
    std::vector<unsigned> gpu_nodes;      // per GPU: its memory node
    std::map<unsigned, int> gpu_of_node;  // memory node -> GPU
    unsigned cpu_node = STARPU_MAIN_RAM;  // the cores' memory node
    int cpu_worker = -1;                  // a core, -1 without CPU workers
    starpu_perfmodel_arch* gpu_arch = nullptr;
    starpu_perfmodel_arch* cpu_arch = nullptr;  // null without CPU workers
    std::vector<char> idle;               // per worker: its last pop found nothing
};

// DARTS, and the StarPU objects behind its ids.
struct GpuPath {
    std::unique_ptr<Darts> darts;  // null without GPUs: every task goes the cores' way
    std::unordered_map<starpu_data_handle_t, DataId> data_ids;
    std::vector<starpu_data_handle_t> handles;     // per DataId; null once forgotten
    std::vector<starpu_task*> tasks;               // per TaskId
    std::unordered_map<starpu_task*, TaskId> ids;  // tasks handed out to a GPU, not ended
    size_t prefetch = 0;                           // planned tasks a GPU prefetches
    bool write_back = false;                       // Variant::write_back
};

// LUF's view of each GPU's memory (darts_luf.cpp).
struct Luf {
    bool on = false;                          // the victim selector is registered
    std::vector<std::vector<char>> resident;  // per GPU, per data: handed out there
    std::vector<std::vector<int>> in_use;     // per GPU, per data: tasks handed out there, not ended
    // Per GPU: the victims StarPU could not evict while making room for `refused_for`.
    std::vector<std::vector<DataId>> refused;
    std::vector<starpu_data_handle_t> refused_for;
};

// The cores' path (darts_cores.cpp). Times in us. The GPUs' work not done yet is the tasks
// pushed to DARTS, neither finished on a GPU nor taken by a core: handed out to a GPU, or
// waiting in DARTS.
struct CorePath {
    std::deque<starpu_task*> cpu_only;  // tasks no GPU can run
    std::vector<double> gpu_us;         // per TaskId: its duration on a GPU; 0 once not the GPUs' work
    std::vector<double> load_us;        // per TaskId: load_time_us; 0 likewise
    double handed_us = 0;               // gpu_us of the work handed out
    double loads_us = 0;                // load_us of all the GPUs' work
    // The work waiting in DARTS, per priority and in all: durations, loads, tasks.
    struct Waiting {
        double us = 0, loads_us = 0;
        int tasks = 0;
    };
    std::map<int64_t, Waiting> waiting;
    double waiting_us = 0;
    // (time on a core, task), shortest first; the tasks a GPU took meanwhile leave when a
    // core reaches them.
    std::set<std::pair<double, TaskId>> candidates;
    // Per GPU: the data prefetched there for its planned tasks, until they arrive
    // (bus_backlog_us).
    std::vector<std::vector<DataId>> requested;
};

struct State {
    Mutex mutex;
    Workers workers;
    GpuPath gpu;
    Luf luf;
    CorePath cores;
};

inline bool runs_on(const starpu_task* task, uint32_t where) { return (task->cl->where & where) != 0; }

// Calls f(d) for each data of `task` the policy knows (not forgotten), among the buffers
// whose access mode has a bit of `modes` (all buffers by default).
template <typename F>
void for_each_data(const State& s, starpu_task* task, F f, unsigned modes = ~0u) {
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        if (!(STARPU_TASK_GET_MODE(task, i) & modes)) continue;
        const auto it = s.gpu.data_ids.find(STARPU_TASK_GET_HANDLE(task, i));
        if (it != s.gpu.data_ids.end()) f(size_t(it->second));
    }
}

// StarPU's callbacks (darts_policy.cpp). `prefetch`: GRAIN_DARTS_PREFETCH if set.
void init(unsigned ctx, const Variant& v, std::optional<size_t> prefetch);
void deinit(unsigned ctx);
void submitted(starpu_task* task);
int push(starpu_task* task);
starpu_task* pop(unsigned ctx);
void post_exec(starpu_task* task, unsigned ctx);

// LUF (darts_luf.cpp): sized for the GPUs; with `luf`, StarPU asks it for the victims.
void start_luf(State& s, bool luf);
void stop_luf(State& s);

// The cores' path (darts_cores.cpp).
// Task t has entered DARTS: it joins the GPUs' work and, if a core can run it, the
// candidates. Whether a core may take a task now.
bool track_pushed(State& s, TaskId t, starpu_task* task);
// Task t was handed out to a GPU.
void track_handed_out(State& s, TaskId t);
// Task t is no longer the GPUs' work: it ended on a GPU (handed_out), or a core took it.
void leave_backlog(State& s, TaskId t, bool handed_out);
// Whether a core may take a task DARTS holds now (drops the candidates a GPU took).
bool core_may_take(State& s);
// The task DARTS holds that a core takes now, out of DARTS's hands; no_task if none.
TaskId take_for_core(State& s);
// The bus backlog of GPU k: drops the loads done (once per GPU pop, so that the list stays
// as short as the loads in flight); adds the inputs of `task`, prefetched there.
void prune_bus_backlog(State& s, int k);
void add_to_bus_backlog(State& s, int k, starpu_task* task);

}  // namespace grain::detail::sched::policy
