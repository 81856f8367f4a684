#include "darts_policy.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core_rule.hpp"
#include "darts.hpp"
#include "src/base/starpu_sync.hpp"

namespace grain::detail::sched {

namespace {

struct Variant {
    const char* name;
    const char* description;
    DartsOptions options;
    bool luf;
    // A GPU task's write-only outputs are sent home asynchronously as soon as it ends, so
    // that evicting them later is a free drop instead of a synchronous write-back that
    // stalls the GPU's worker. Pays when outputs must leave the GPU anyway (the 2D
    // product); loses when they could stay (outputs left on the GPUs at the end are
    // never written back within the measured time: the 3D product).
    bool write_back;
};
const Variant variants[] = {
    {"darts", "DARTS with LUF eviction (grain)", {}, true, false},
    {"darts-lru", "DARTS with LRU eviction (grain)", {}, false, false},
    {"darts-3inputs", "DARTS, 3inputs variant, with LUF eviction (grain)", {true, false, 1}, true, false},
    {"darts-opti", "DARTS, OPTI variant, with LUF eviction (grain)", {false, true, 1}, true, false},
    {"darts-wb", "DARTS with LUF eviction, outputs written home as tasks end (grain)", {}, true, true},
};
constexpr size_t variant_count = sizeof(variants) / sizeof(variants[0]);

// Planned tasks whose inputs a GPU prefetches when it takes a task (GRAIN_DARTS_PREFETCH;
// 0: DARTS as published, planning only when a GPU has nothing planned). Simulated 2D
// product on 2 GPUs, N = 10..60: 16 was best of 0, 1, 2, 4, 8, 16, 32 (darts-wb at N = 30,
// 50, 60: of 2, 8, 16, 32, 64). The 4-GPU 3D product prefers 0 (doc/darts-notes.md). A
// planned task is withheld from the cores, so with CPU workers a GPU plans 4: on 15
// simulated cores and one V100-like GPU (19 configurations, doc/darts-notes.md) darts/dmdar
// has a geometric mean of 0.957 with 16 and 0.984 with 4.
size_t prefetch_tasks(bool cores) {
    const char* v = std::getenv("GRAIN_DARTS_PREFETCH");
    return v ? size_t(std::atol(v)) : cores ? 4 : 16;
}

// The CPU path (pop): how much later than a GPU a core may end a task the GPUs would run
// before the less urgent work, and how many such tasks a core looks past before it gives
// up. Simulated, 15 cores + one V100-like GPU (doc/darts-notes.md): with nb = 1024 (potrf
// and getrf_nopiv, n = 12288..20480) darts/dmdar is 0.86-1.02 without this rule
// (getrf_nopiv n = 12288: 0.86, the cores ran the panels) and 0.96-1.05 with core_delay
// from 1 to 16. With recursive tiles (--split lp, 8 configurations) the geometric mean of
// darts/dmdar is 0.91 with 2, 0.94 with 4, 0.98 with 8 and 0.93 with 16 (too low a delay
// leaves the GPU the smallest tiles); on 5 other lp configurations, 1.00 with 8 and 0.89
// with 4 (measured when only the more urgent work counted as ahead, see pop, and before the
// LP solved for new kinds, lp_split.cpp; with it, 16 gives the same mean as 8 on the 19).
// Since tiles a kernel is writing are no longer split (recursion.cpp), 16 is ahead: on the
// 27 configurations of scripts/bench-hybrid.sh, 1.033 (0.983-1.151) against 1.024
// (0.952-1.151), the ladder 2048,1024,512 at n = 8192 and 16384 gaining most.
constexpr double core_delay = 16;
constexpr size_t cpu_scan = 64;

// The policy's state, kept as the scheduling context's policy data.
struct State {
    Mutex mutex;
    std::unique_ptr<Darts> darts;  // null without GPUs: every task goes the CPU path
    bool luf = false;
    bool write_back = false;
    std::unordered_map<starpu_data_handle_t, DataId> data_ids;
    std::vector<starpu_data_handle_t> handles;      // per DataId
    std::vector<starpu_task*> tasks;                // per TaskId
    std::unordered_map<starpu_task*, TaskId> ids;   // tasks handed out to a GPU
    std::deque<starpu_task*> cpu_only;              // tasks no GPU can run
    // The CPU path for tasks DARTS holds: their expected durations (us) on a GPU and on
    // a core, the GPUs' expected work not done yet (tasks pushed to DARTS, neither
    // finished on a GPU nor taken by a core): handed out to a GPU, or waiting in DARTS
    // (by priority); and the tasks cores may take, by their time on a core.
    starpu_perfmodel_arch* gpu_arch = nullptr;
    starpu_perfmodel_arch* cpu_arch = nullptr;
    unsigned cpu_node = STARPU_MAIN_RAM;            // the cores' memory node
    std::vector<unsigned> gpu_nodes;                // the GPUs' memory nodes
    std::vector<double> gpu_us;                     // per TaskId; 0 once not the GPUs' work
    double handed_us = 0;
    // Per TaskId, the loads of the tiles it updates onto a GPU (load_us); their sum over
    // the GPUs' work not done yet (loads_us).
    std::vector<double> load_us;
    double loads_us = 0;
    // The work waiting in DARTS, per priority and in all: its expected durations, the
    // loads of the tiles it updates, how many tasks.
    struct Waiting {
        double us = 0, loads_us = 0;
        int tasks = 0;
    };
    std::map<int64_t, Waiting> waiting;
    double waiting_us = 0;
    int gpus = 0;
    size_t prefetch = 0;                            // prefetch_tasks
    // (time on a core, core_time_us; task); tasks a GPU took meanwhile leave when a core
    // reaches them.
    std::set<std::pair<double, TaskId>> cpu_candidates;
    std::vector<int> gpu_of_worker;                 // -1 for CPU workers
    std::vector<char> idle;                         // per worker: its last pop found nothing
    std::map<unsigned, int> gpu_of_node;            // memory node -> GPU index
    std::vector<std::vector<char>> resident;        // per GPU, per data: handed out there
    std::vector<std::vector<int>> in_use;           // per GPU, per data: tasks handed out there, not ended
    // Per GPU: the victims StarPU could not evict while making room for `refused_for`.
    std::vector<std::vector<DataId>> refused;
    std::vector<starpu_data_handle_t> refused_for;
    // Per GPU: the data prefetched there for its planned tasks, until they arrive
    // (bus_backlog_us); kept only for the cores' rule.
    std::vector<std::vector<DataId>> requested;
};

DataId data_id(State& s, starpu_data_handle_t h) {
    const auto it = s.data_ids.find(h);
    if (it != s.data_ids.end()) return it->second;
    const DataId d = s.darts->add_data();
    s.data_ids.emplace(h, d);
    s.handles.push_back(h);
    for (auto& r : s.resident) r.push_back(0);
    for (auto& u : s.in_use) u.push_back(0);
    return d;
}

bool runs_on(const starpu_task* task, uint32_t where) { return (task->cl->where & where) != 0; }

#ifdef STARPU_HAVE_VICTIM_SELECTOR
thread_local int victim_gpu = -1;  // the GPU of this thread's last select_victim

// LUF (Algorithm 6) picks the victim among the data DARTS handed out on that GPU and
// still allocated there; NULL leaves the choice to StarPU (e.g. data DARTS does not know).
// Every victim must be one StarPU can evict: otherwise StarPU falls back to LRU, which
// evicts behind DARTS's back, and DARTS plans on data that is gone. So data a task
// handed out there uses (outputs included) are no candidates, and a victim StarPU
// still cannot evict (a write-back in flight) comes back through victim_not_evicted,
// and the patched StarPU asks again. Simulated 2D product, 2 GPUs, darts-wb, N = 50,
// with the tie-break of Darts::luf_victim: without the callback, 183 of 2301 choices
// failed and StarPU ran 461 loads where DARTS planned 217; with it, 280 for 277.
starpu_data_handle_t select_victim(starpu_data_handle_t toload, unsigned node, enum starpu_is_prefetch is_prefetch,
                                   void* arg) {
    // Prefetches (the planned tasks' inputs) only use free memory: evicting for them
    // would throw out data the running and next tasks need.
    if (is_prefetch != STARPU_FETCH) return STARPU_DATA_NO_VICTIM;
    State& s = *static_cast<State*>(arg);
    std::lock_guard<Mutex> lock(s.mutex);
    const auto g = s.gpu_of_node.find(node);
    if (g == s.gpu_of_node.end() || !s.darts) return nullptr;
    const int k = g->second;
    victim_gpu = k;
    std::vector<DataId>& refused = s.refused[size_t(k)];
    if (s.refused_for[size_t(k)] != toload) refused.clear(), s.refused_for[size_t(k)] = toload;
    // Listed in the order the data were first pushed: LUF's last tie-break goes to the
    // first (see Darts::luf_victim for the others).
    std::vector<DataId> candidates;
    for (DataId d = 0; d < DataId(s.handles.size()); ++d) {
        if (!s.resident[size_t(k)][size_t(d)] || s.in_use[size_t(k)][size_t(d)] > 0 ||
            s.handles[size_t(d)] == toload || std::find(refused.begin(), refused.end(), d) != refused.end())
            continue;
        if (!starpu_data_test_if_allocated_on_node(s.handles[size_t(d)], node)) {
            s.resident[size_t(k)][size_t(d)] = 0;  // StarPU dropped it already
            continue;
        }
        candidates.push_back(d);
    }
    const DataId victim = s.darts->luf_victim(k, candidates);
    if (victim == no_data) return nullptr;
    s.darts->evicted(k, victim);
    s.resident[size_t(k)][size_t(victim)] = 0;
    return s.handles[size_t(victim)];
}

// StarPU could not evict the victim select_victim just named (same thread): DARTS
// takes it back, and the next choice for this load skips it.
void victim_not_evicted(starpu_data_handle_t victim, void* arg) {
    State& s = *static_cast<State*>(arg);
    std::lock_guard<Mutex> lock(s.mutex);
    const auto it = s.data_ids.find(victim);
    if (victim_gpu < 0 || !s.darts || it == s.data_ids.end()) return;
    const DataId d = it->second;
    s.darts->stayed(victim_gpu, d);
    s.resident[size_t(victim_gpu)][size_t(d)] = 1;
    s.refused[size_t(victim_gpu)].push_back(d);
}
#endif

void init(unsigned ctx, const Variant& v) {
    auto* s = new State;
    int gpus = 0;
    for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
        const bool gpu = starpu_worker_get_type(int(w)) == STARPU_CUDA_WORKER;
        s->gpu_of_worker.push_back(gpu ? gpus : -1);
        s->idle.push_back(1);
        if (gpu) {
            s->gpu_nodes.push_back(starpu_worker_get_memory_node(w));
            s->gpu_of_node[s->gpu_nodes.back()] = gpus++;
        }
        (gpu ? s->gpu_arch : s->cpu_arch) = starpu_worker_get_perf_archtype(int(w), ctx);
        if (!gpu) s->cpu_node = starpu_worker_get_memory_node(w);
    }
    s->gpus = gpus;
    s->prefetch = prefetch_tasks(gpus < int(s->gpu_of_worker.size()));
    if (gpus > 0) s->darts = std::make_unique<Darts>(gpus, 0, v.options);
    s->resident.resize(size_t(gpus));
    s->in_use.resize(size_t(gpus));
    s->refused.resize(size_t(gpus));
    s->refused_for.resize(size_t(gpus));
    s->requested.resize(size_t(gpus));
    s->write_back = v.write_back;
#ifdef STARPU_HAVE_VICTIM_SELECTOR
    s->luf = v.luf;
    if (s->luf) starpu_data_register_victim_selector(select_victim, victim_not_evicted, s);
#endif
    starpu_sched_ctx_set_policy_data(ctx, s);
}

void deinit(unsigned ctx) {
    auto* s = static_cast<State*>(starpu_sched_ctx_get_policy_data(ctx));
#ifdef STARPU_HAVE_VICTIM_SELECTOR
    if (s->luf) starpu_data_register_victim_selector(nullptr, nullptr, nullptr);
#endif
    delete s;
}

// A model's prediction in us; 0 when it has none.
double known_us(double us) { return std::isfinite(us) && us > 0 ? us : 0; }

// A task's expected duration on `arch` in us; 0 when unknown (no model, or no such worker).
double expected_us(starpu_task* task, starpu_perfmodel_arch* arch) {
    return arch ? known_us(starpu_task_expected_length(task, arch, 0)) : 0;
}

// A task's expected time on a core (us): its duration there plus the transfer of its data a
// GPU holds (tiles a GPU task wrote) back to the cores' memory, by StarPU's bus model; 0
// when no core can run it or its duration is unknown. A core fetches its data when it
// starts the task, where a GPU loads a planned task's inputs while it runs the previous
// ones, so the GPUs' durations count no transfer. Simulated, 15 cores + one V100-like GPU
// (19 configurations, doc/darts-notes.md): darts/dmdar 0.875-1.06 (geometric mean 0.984)
// without the transfer, 0.93-1.06 (0.993) with it; on 7 cores + GPU (6 other
// configurations) 0.983 without, 0.977 with: a gain within what any change in timing moves
// these runs, kept for the worst point (getrf_nopiv --split lp n = 10240, over --lp-period
// 40..60: 0.90 -> 0.92 of dmdar's mean). Counting the transfers to the GPU in its durations
// too made potrf --split lp n = 12288 and 18432 slower (2952 and 3270 GFlop/s, against 3132
// and 4902).
double core_time_us(const State& s, starpu_task* task) {
    const double us = runs_on(task, STARPU_CPU) ? expected_us(task, s.cpu_arch) : 0;
    return us > 0 ? us + known_us(starpu_task_expected_data_transfer_time(s.cpu_node, task)) : 0;
}

// The expected time (us) to load onto a GPU the tiles `task` updates (read and written)
// that no GPU holds, by StarPU's transfer model (the one core_time_us and dmdar use,
// which doubles a transfer's bus time per GPU for contention. Counting the bus time
// alone, the cores took fewer tiles: simulated, 15 cores + GPU, nb = 1024, getrf_nopiv
// n = 16384 and 20480, potrf n = 20480, one run each: 0.95-0.97x dmdar, against
// 0.96-1.00x; but potrf n = 8192 1.0x, against 0.90x). Its read-only inputs do not count:
// they are shared with the tasks around it (a panel that a whole row of updates reads),
// so summed per task one load would count many times, where the tile a task updates is
// its own. Only the cores' rule reads it: 0 without CPU workers.
double load_time_us(const State& s, starpu_task* task) {
    double us = 0;
    if (!s.cpu_arch) return us;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        const auto mode = STARPU_TASK_GET_MODE(task, i);
        if ((mode & STARPU_RW) != STARPU_RW) continue;
        double least = HUGE_VAL;  // s.gpu_nodes is not empty: the policy has a DARTS
        for (unsigned node : s.gpu_nodes)
            least = std::min(least, known_us(starpu_data_expected_transfer_time(STARPU_TASK_GET_HANDLE(task, i), node, mode)));
        us += least;
    }
    return us;
}

// Task t enters (sign 1) or leaves (-1) the GPUs' work waiting in DARTS.
void count_waiting(State& s, TaskId t, int sign) {
    const int64_t p = s.darts->priority(t);
    auto& w = s.waiting[p];
    w.us += sign * s.gpu_us[size_t(t)], s.waiting_us += sign * s.gpu_us[size_t(t)];
    w.loads_us += sign * s.load_us[size_t(t)];
    if ((w.tasks += sign) == 0) s.waiting.erase(p);
}

// Task t is no longer the GPUs' work: a core took it, or it finished on a GPU.
void leave_backlog(State& s, TaskId t, bool handed_out) {
    if (handed_out) s.handed_us = std::max(0.0, s.handed_us - s.gpu_us[size_t(t)]);  // max: rounding
    else count_waiting(s, t, -1);
    s.loads_us = std::max(0.0, s.loads_us - s.load_us[size_t(t)]);  // max: rounding
    s.load_us[size_t(t)] = 0;
    s.gpu_us[size_t(t)] = 0;
}

// The bytes of the data requested for GPU k that are still to come; the others leave the
// list (bus_backlog_us).
double requested_bytes(State& s, int k) {
    auto& r = s.requested[size_t(k)];
    const int node = int(s.gpu_nodes[size_t(k)]);
    double bytes = 0;
    r.erase(std::remove_if(r.begin(), r.end(),
                           [&](DataId d) {
                               starpu_data_handle_t h = s.handles[size_t(d)];
                               if (!h) return true;
                               int allocated = 0, valid = 0, asked = 0;
                               starpu_data_query_status(h, node, &allocated, &valid, &asked);
                               if (valid || !asked) return true;
                               bytes += double(starpu_data_get_size(h));
                               return false;
                           }),
            r.end());
    return bytes;
}

// The time (us) the bus needs to bring the data prefetched for a GPU's planned tasks that
// are not there yet, the least over the GPUs: the loads of a task a GPU has not planned
// share the bus with those, and the GPU may wait with nothing to run (core_candidate).
// Drops the data that arrived, that no request brings any more, or that the policy
// forgot (freed). A prefetch that waits for free GPU memory stays queued in StarPU, and
// counted here. The bus's own time, by the bandwidth StarPU measured (bytes per us):
// starpu_data_expected_transfer_time doubles it per GPU for contention, and counts a
// load in flight as done.
double bus_backlog_us(State& s) {
    double least = HUGE_VAL;
    for (int k = 0; k < s.gpus; ++k) {
        const double bytes_per_us = starpu_transfer_bandwidth(s.cpu_node, s.gpu_nodes[size_t(k)]);  // MB/s
        least = std::min(least, bytes_per_us > 0 ? requested_bytes(s, k) / bytes_per_us : 0);
    }
    return least;
}

// A core takes a task DARTS has not handed out when, by the performance models, it
// would end it no later than the GPUs would: its time on a core (core_time_us, as the
// task entered the policy) is at most the GPUs' backlog plus its duration on a GPU. The
// backlog (per GPU) is the larger of the GPUs' work not done yet and the loads of the
// tiles that work updates (load_time_us): a GPU cannot run its tasks faster than the bus
// brings their tiles, and early in a factorization, when every tile of the trailing
// matrix crosses the bus, the bus is what bounds it. Simulated, 15 cores + one V100-like
// GPU, potrf n = 20480 nb = 1024: counting the work alone, the cores ran 18 of 1540
// tasks (dmdar: 103) and darts reached 0.95x dmdar; with the loads, 118 tasks and 0.99x.
// The shortest on a core first: cores run the small tiles while the GPUs are busy, and
// leave them the large ones. But the GPUs run the most urgent work first: a task is
// also left to them when a core would end it more than core_delay times later than a
// GPU would start it after the work handed out and the work waiting at least as urgent,
// plus its duration there (otherwise cores take a factorization's panel, and the GPUs
// wait). At least as urgent: among equally urgent tasks DARTS goes by data, so t may come
// last; counting only the more urgent work, the cores left the GPU almost all of a gemm,
// whose tasks share one priority (simulated, 15 cores + GPU, gemm --split lp n = 12288:
// cores busy 5 % of the run, 59 % under dmdar; darts/dmdar 0.92-0.96 -> 0.97-0.99 at
// n = 12288..16384). That slack holds while the GPUs are busy computing: a task that
// only the loads make worth taking (a core would end it after the GPUs' work) must end
// before the GPUs have loaded the tiles of the work at least as urgent, t's included.
// Otherwise, early in a factorization, a core took a panel's task that the GPU would
// run as soon as its tile arrived (simulated, potrf n = 8192 nb = 1024: a trsm, 25 ms on
// the core, with 4 ms of work ahead but 31 ms of loads; 0.90x dmdar, now 0.99x).
// Both bounds also take the bus's backlog (bus_backlog_us): the loads of a task a GPU has
// not planned share the bus with those asked for its planned tasks, and a core that ends
// the task before those are done takes it. Simulated, 15 cores + GPU, potrf n = 8192 on
// the ladder 2048,1024,512: the GPU took a 512 gemm and waited 9 ms for its tiles as the
// bus loaded those of the 2048 gemm it ran next (up to 96 MB), while three 512 syrk (3.4
// ms on a core, 30 us on the GPU) waited in DARTS and the cores idled; 0.955x dmdar, now
// 0.992x (the cores ran 81 of its 457 kernels, 56 before). Over the 27 configurations of
// scripts/bench-hybrid.sh, geometric mean 1.048 -> 1.049 and lowest 0.955 -> 0.992. The
// rule's arithmetic: core_rule.hpp.
// core_candidate returns the task a core takes now by this rule, or cpu_candidates.end();
// it drops the tasks a GPU took meanwhile.
std::set<std::pair<double, TaskId>>::iterator core_candidate(State& s) {
    if (!s.darts || s.cpu_candidates.empty()) return s.cpu_candidates.end();
    const double bus_us = bus_backlog_us(s);
    const double work_us = (s.handed_us + s.waiting_us) / s.gpus,
                 horizon_us = std::max({work_us, s.loads_us / s.gpus, bus_us});
    // (priority p, the work waiting with a priority of p or more and its loads), by
    // decreasing p; made once per call, when a candidate first needs it.
    struct AtLeast { int64_t priority; double us, loads_us; };
    std::vector<AtLeast> at_least;
    size_t scanned = 0;
    for (auto c = s.cpu_candidates.begin(); c != s.cpu_candidates.end() && scanned < cpu_scan;) {
        const auto [cpu_us, t] = *c;
        if (!s.darts->unprocessed(t)) {  // a GPU took it meanwhile (its gpu_us is 0 now)
            c = s.cpu_candidates.erase(c);
            continue;
        }
        if (cpu_us > horizon_us + s.gpu_us[size_t(t)]) break;
        if (at_least.empty()) {
            double us = 0, loads = 0;
            for (auto w = s.waiting.rbegin(); w != s.waiting.rend(); ++w)
                at_least.push_back({w->first, us += w->second.us, loads += w->second.loads_us});
        }
        // t waits in DARTS, so its priority is in `waiting`, and its own work is in the sum.
        const auto a = std::lower_bound(at_least.begin(), at_least.end(), s.darts->priority(t),
                                        [](const auto& e, int64_t p) { return e.priority > p; });
        CoreRuleTimes times;
        times.core_us = cpu_us;
        times.gpu_us = s.gpu_us[size_t(t)];
        times.work_us = work_us;
        times.ahead_us = (s.handed_us + std::max(0.0, a->us - times.gpu_us)) / s.gpus;
        // The loads handed out (all loads less those waiting, at_least's last sum), and
        // those waiting at least as urgent as t.
        times.ahead_loads_us = (s.loads_us - at_least.back().loads_us + a->loads_us) / s.gpus;
        times.bus_us = bus_us;
        if (core_takes(times, core_delay)) return c;
        ++c, ++scanned;
    }
    return s.cpu_candidates.end();
}

// Worker wake-ups. A worker whose pop found nothing is idle (State::idle) until a push or a
// pop picks it to wake: the GPUs for any task DARTS holds, one core (as StarPU's eager
// does) when a core has a task to take: a task no GPU can run, or a candidate that passes
// core_candidate after a push or a GPU's pop; a core that takes a task picks the next while
// there is more. A busy worker is never woken: it pops again when its task ends. This
// policy used to wake every core at every push. On a real H100, darts ran getrf_nopiv n =
// 16384 nb = 1024 at 4900-6300 GFlop/s with 15 cores and 10300-10800 with one, though the
// 15 ran none of its kernels (dmdar: 6900-9300 and 10700-11900; runs after the first in a
// process). The likely cause, read in StarPU's code: the pushes of the tasks a GPU task
// releases run on that GPU's worker, which waits for each core in a pop (StarPU's worker
// lock) to wake it, and each woken core takes the policy's lock to find nothing. Simulated
// with the policy's time charged (STARPU_SIMGRID_SCHED_COST=1; 15 cores + GPU, 7
// configurations, doc/darts-notes.md): darts/dmdar 0.51 then, 1.03 now. On the H100 again
// (2026-11-26, with the later rules): 1.08-1.63 by the means over five cases (README).
struct Wakes {
    std::vector<int> workers;
    // Picks the idle workers of this kind (GPUs, or one core); under the policy's lock.
    void pick(State& s, bool gpus) {
        for (size_t w = 0; w < s.idle.size(); ++w)
            if (s.idle[w] && (s.gpu_of_worker[w] >= 0) == gpus) {
                s.idle[w] = 0;
                workers.push_back(int(w));
                if (!gpus) return;
            }
    }
    // Once the policy's lock is released.
    void wake() const {
        for (int w : workers) starpu_wake_worker_relax_light(w);
    }
};

// A task is submitted: until StarPU pushes it (its dependencies ended), DARTS counts it
// as awaited by the data it reads, so that LUF keeps those before data no task will read
// (Darts::luf_victim): in grain's routines most tasks are not ready yet, and the tiles
// they will update looked as useless as a finished panel. Simulated, 15 cores + one
// V100-like GPU limited to 1024 MB, ladder 2048,1024,512, n = 16384, mean over the five
// windows of scripts/bench-hybrid.sh: potrf 3526 -> 3877 GFlop/s, getrf_nopiv 3983 -> 4229
// (dmdar 3709 and 4414). Data now get their ids at submission, which changes DARTS's ties
// elsewhere too: over the 27 configurations there, geometric mean of darts/dmdar 1.013 ->
// 1.024, lowest 0.902 -> 0.952.
void submitted(starpu_task* task) {
    auto& s = *static_cast<State*>(starpu_sched_ctx_get_policy_data(task->sched_ctx));
    if (!task->cl || !runs_on(task, STARPU_CUDA)) return;  // StarPU's own tasks; no GPU's
    std::lock_guard<Mutex> lock(s.mutex);
    if (!s.darts) return;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i)
        if (STARPU_TASK_GET_MODE(task, i) & STARPU_R) s.darts->awaited(data_id(s, STARPU_TASK_GET_HANDLE(task, i)), 1);
}

int push(starpu_task* task) {
    auto& s = *static_cast<State*>(starpu_sched_ctx_get_policy_data(task->sched_ctx));
    starpu_worker_relax_on();
    s.mutex.lock();
    starpu_worker_relax_off();
    bool for_gpus = false, for_cpus = true;
    if (!s.darts || !runs_on(task, STARPU_CUDA)) {
        s.cpu_only.push_back(task);
    } else {
        std::vector<DataId> inputs;
        for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
            starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
            // Written-only data need no load, but LUF must know them: with no future
            // use they are the first victims.
            const DataId d = data_id(s, h);
            if (!(STARPU_TASK_GET_MODE(task, i) & STARPU_R)) continue;
            s.darts->awaited(d, -1);  // counted by submitted, buffer by buffer
            if (std::find(inputs.begin(), inputs.end(), d) == inputs.end()) inputs.push_back(d);
        }
        const TaskId t = s.darts->add_task(inputs, task->priority);
        s.tasks.push_back(task);
        for_gpus = true;
        s.gpu_us.push_back(expected_us(task, s.gpu_arch));
        s.load_us.push_back(load_time_us(s, task));
        s.loads_us += s.load_us.back();
        count_waiting(s, t, 1);
        const double on_core_us = core_time_us(s, task);
        if (on_core_us > 0) s.cpu_candidates.emplace(on_core_us, t);
        for_cpus = core_candidate(s) != s.cpu_candidates.end();
    }
    Wakes wakes;
    if (for_gpus) wakes.pick(s, true);
    if (for_cpus) wakes.pick(s, false);
    s.mutex.unlock();
    starpu_push_task_end(task);
    wakes.wake();
    return 0;
}

// Calls f(d) for each data of `task` the policy knows (not forgotten), among the buffers
// whose access mode has a bit of `modes` (all buffers by default).
template <typename F>
void for_each_data(const State& s, starpu_task* task, F f, unsigned modes = ~0u) {
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        if (!(STARPU_TASK_GET_MODE(task, i) & modes)) continue;
        const auto it = s.data_ids.find(STARPU_TASK_GET_HANDLE(task, i));
        if (it != s.data_ids.end()) f(size_t(it->second));
    }
}

// Marks task t's data as handed to GPU k (LUF's candidates there).
void hand_to_gpu(State& s, int k, TaskId t) {
    for_each_data(s, s.tasks[size_t(t)], [&](size_t d) { s.resident[size_t(k)][d] = 1; });
}

// The inputs of `task`, prefetched onto GPU k, join its bus backlog.
void prefetched(State& s, int k, starpu_task* task) {
    auto& r = s.requested[size_t(k)];
    for_each_data(
        s, task, [&](size_t d) {
            if (std::find(r.begin(), r.end(), DataId(d)) == r.end()) r.push_back(DataId(d));
        },
        STARPU_R);
}

// `task` goes to GPU k (-1: to a core): the data it writes are no longer valid on the
// other GPUs (Darts::written). Otherwise DARTS counts a tile a core updated as still on
// a GPU: it hands out a task that reads it as one that needs no load (those go first,
// the most urgent first), its load starts only then, and the GPU waits for it instead of
// running the tasks whose tiles it holds meanwhile. Simulated, 15 cores + one V100-like
// GPU, getrf_nopiv n = 20480 nb = 1024: the GPU was idle 115 ms of 932, 22 ms of it
// after the first 400 ms, mostly waiting for panels the cores had solved; now 86 ms of
// 905, 2.5 after 400 (dmdar: 108 of 923, 0.1). Over the five windows of
// scripts/bench-hybrid.sh: 6171 -> 6302 GFlop/s, dmdar 6292.
void written_on(State& s, starpu_task* task, int k) {
    for_each_data(s, task, [&](size_t d) { s.darts->written(k, DataId(d)); }, STARPU_W);
}

starpu_task* pop(unsigned ctx) {
    auto& s = *static_cast<State*>(starpu_sched_ctx_get_policy_data(ctx));
    const int worker = starpu_worker_get_id_check();
    const int k = s.gpu_of_worker[size_t(worker)];
    starpu_worker_relax_on();
    std::unique_lock<Mutex> lock(s.mutex);
    starpu_worker_relax_off();
    if (k >= 0) {
        const TaskId t = s.darts->pop(k);
        if (t == no_task) {
            s.idle[size_t(worker)] = 1;
            return nullptr;
        }
        s.idle[size_t(worker)] = 0;
        starpu_task* task = s.tasks[size_t(t)];  // s.tasks may grow once unlocked
        s.ids[task] = t;
        written_on(s, task, k);
        count_waiting(s, t, -1);
        s.handed_us += s.gpu_us[size_t(t)];
        for_each_data(s, task, [&](size_t d) { s.resident[size_t(k)][d] = 1, ++s.in_use[size_t(k)][d]; });
        // Plan the next tasks now and load their inputs while this one runs: otherwise
        // a GPU picks its next data only once it has nothing left to run, and waits for
        // the load. Prefetches only use free GPU memory (StarPU never evicts for them:
        // select_victim answers them without locking), so LUF still decides evictions.
        // They are issued under the lock, per task: a planned task that LUF sends back
        // to the pool could otherwise run and be freed on another GPU first; and
        // starpu_data_prefetch_on_node (per handle) asserts that a handle is initialized,
        // which StarPU stops saying of a partition's children as soon as their
        // unpartition is submitted, while tasks on them may still wait here (seen on a
        // GPU with recursive potrf).
        s.darts->plan_ahead(k, s.prefetch);
        const unsigned node = starpu_worker_get_memory_node(unsigned(worker));
        size_t ahead = 0;
        // The bus backlog first drops the loads done, so that it stays as short as those
        // in flight (the cores' rule prunes it only when a core looks for a task).
        if (s.cpu_arch) requested_bytes(s, k);
        for (TaskId p : s.darts->planned(k)) {
            if (ahead++ == s.prefetch) break;
            hand_to_gpu(s, k, p);
            starpu_prefetch_task_input_on_node(s.tasks[size_t(p)], node);
            if (s.cpu_arch) prefetched(s, k, s.tasks[size_t(p)]);
        }
        // Less urgent work handed out counts ahead of a core's candidates (core_candidate):
        // besides a push, the one change that may give a core a task.
        Wakes wakes;
        if (core_candidate(s) != s.cpu_candidates.end()) wakes.pick(s, false);
        lock.unlock();
        wakes.wake();
        return task;
    }
    starpu_task* task = nullptr;
    if (!s.cpu_only.empty()) {
        task = s.cpu_only.front();
        s.cpu_only.pop_front();
        if (s.darts) written_on(s, task, -1);
    } else {
        const auto c = core_candidate(s);
        if (c == s.cpu_candidates.end()) {
            s.idle[size_t(worker)] = 1;
            return nullptr;
        }
        const TaskId t = c->second;
        s.cpu_candidates.erase(c);
        s.darts->take(t);
        leave_backlog(s, t, false);
        task = s.tasks[size_t(t)];
        written_on(s, task, -1);
    }
    s.idle[size_t(worker)] = 0;
    Wakes wakes;
    if (!s.cpu_only.empty() || core_candidate(s) != s.cpu_candidates.end()) wakes.pick(s, false);
    lock.unlock();
    wakes.wake();
    return task;
}

void post_exec(starpu_task* task, unsigned ctx) {
    auto& s = *static_cast<State*>(starpu_sched_ctx_get_policy_data(ctx));
    const int worker = starpu_worker_get_id();
    if (worker < 0 || s.gpu_of_worker[size_t(worker)] < 0) return;
    // Only write-only buffers: grain's own tasks update their tiles (STARPU_RW), and
    // a later task on the tile would wait for such a copy. An asynchronous fetch, not
    // a prefetch (StarPU serves fetch requests first): as a prefetch the simulated 2D
    // product on 2 GPUs ran at 17155 and 19064 GFlop/s (N = 30, 60), as a fetch 19576
    // and 20738.
    if (s.write_back)
        for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
            if (STARPU_TASK_GET_MODE(task, i) != STARPU_W) continue;
            starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
            const int home = starpu_data_get_home_node(h);
            if (home >= 0) starpu_data_fetch_on_node(h, unsigned(home), 1);
        }
    std::lock_guard<Mutex> lock(s.mutex);
    const auto it = s.ids.find(task);
    if (it == s.ids.end()) return;
    const int k = s.gpu_of_worker[size_t(worker)];
    s.darts->finished(k, it->second);
    for_each_data(s, task, [&](size_t d) { --s.in_use[size_t(k)][d]; });  // counted by pop
    leave_backlog(s, it->second, true);
    s.ids.erase(it);
}

// StarPU's init_sched gets only the context: one instantiation per variant.
template <size_t V>
void init_variant(unsigned ctx) { init(ctx, variants[V]); }

template <size_t V>
starpu_sched_policy make_policy() {
    starpu_sched_policy p{};
    p.init_sched = init_variant<V>;
    p.deinit_sched = deinit;
    p.submit_hook = submitted;
    p.push_task = push;
    p.pop_task = pop;
    p.post_exec_hook = post_exec;
    p.policy_name = variants[V].name;
    p.policy_description = variants[V].description;
    p.worker_type = STARPU_WORKER_LIST;
    return p;
}

// One policy per entry of `variants`.
template <size_t... V>
std::array<starpu_sched_policy, sizeof...(V)> make_policies(std::index_sequence<V...>) {
    return {make_policy<V>()...};
}

}  // namespace

bool is_darts_policy(const std::string& name) {
    return std::any_of(std::begin(variants), std::end(variants), [&](const Variant& v) { return name == v.name; });
}

std::string select_policy(starpu_conf& conf, const std::string& name) {
    static std::array<starpu_sched_policy, variant_count> policies =
        make_policies(std::make_index_sequence<variant_count>());
    conf.sched_policy = nullptr;
    conf.sched_policy_name = name.c_str();
    for (size_t v = 0; v < variant_count; ++v)
        if (name == variants[v].name) {
            conf.sched_policy = &policies[v];
            conf.sched_policy_name = nullptr;
            return "";
        }
    return name;
}

namespace {

// The state of the DARTS policy StarPU runs with GPUs, if it does: null otherwise.
State* running_darts() {
    constexpr unsigned global_ctx = 0;  // StarPU's initial context, the one grain uses
    if (!starpu_is_initialized()) return nullptr;
    const starpu_sched_policy* policy = starpu_sched_ctx_get_sched_policy(global_ctx);
    if (!policy || policy->push_task != push) return nullptr;
    auto* s = static_cast<State*>(starpu_sched_ctx_get_policy_data(global_ctx));
    return s && s->darts ? s : nullptr;
}

}  // namespace

bool keeps_handles() { return running_darts() != nullptr; }

void forget_data(const starpu_data_handle_t* handles, size_t count) {
    State* s = running_darts();
    if (!s) return;
    std::lock_guard<Mutex> lock(s->mutex);
    for (size_t i = 0; i < count; ++i) {
        const auto it = s->data_ids.find(handles[i]);
        if (it == s->data_ids.end()) continue;
        const DataId d = it->second;
        s->data_ids.erase(it);  // a later handle at the same address is new data
        s->handles[size_t(d)] = nullptr;
        for (int k = 0; k < s->darts->gpus(); ++k) {
            s->resident[size_t(k)][size_t(d)] = 0;
            s->in_use[size_t(k)][size_t(d)] = 0;
            s->darts->evicted(k, d);
        }
    }
}

size_t known_handles() {
    State* s = running_darts();
    if (!s) return 0;
    std::lock_guard<Mutex> lock(s->mutex);
    return s->data_ids.size();
}

bool darts_has_luf() {
#ifdef STARPU_HAVE_VICTIM_SELECTOR
    return true;
#else
    return false;
#endif
}

}  // namespace grain::detail::sched
