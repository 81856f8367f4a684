// The cores' path: which task DARTS holds (neither planned nor handed out) a core takes.
// A core takes one when, by the performance models, it would end it no later than the
// GPUs would (core_rule.hpp has the arithmetic, doc/scheduling.md "CPU workers" the rules); the
// shortest on a core first, so that cores run the small tiles while the GPUs are busy and
// leave them the large ones. The measurements behind each bound: doc/notes/darts-notes.md.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core_rule.hpp"
#include "darts_state.hpp"
#include "darts_tuning.hpp"

namespace grain::detail::sched::policy {

namespace {

// A model's prediction in us; 0 when it has none.
double known_us(double us) { return std::isfinite(us) && us > 0 ? us : 0; }

// A task's expected duration on `arch` in us; 0 when unknown (no model, or no such worker).
double expected_us(starpu_task* task, starpu_perfmodel_arch* arch) {
    return arch ? known_us(starpu_task_expected_length(task, arch, 0)) : 0;
}

// A task's expected time on a core (us); 0 when no core can run it (no CPU kernel, or a
// tile over RuntimeOptions::cpu_tile_limit) or its duration is unknown. Its duration there
// plus the transfer home of its data a GPU holds (tiles a GPU task wrote), by StarPU's bus
// model: a core fetches its data when it starts the task, where a GPU loads a planned
// task's inputs while it runs the previous ones, so the GPUs' durations count no transfer.
double core_time_us(const State& s, starpu_task* task) {
    const int core = s.workers.cpu_worker;
    const double us =
        core >= 0 && starpu_worker_can_execute_task(unsigned(core), task, 0) ? expected_us(task, s.workers.cpu_arch) : 0;
    return us > 0 ? us + known_us(starpu_task_expected_data_transfer_time(s.workers.cpu_node, task)) : 0;
}

// The expected time (us) to load onto a GPU the tiles `task` updates (read and written)
// that no GPU holds, by StarPU's transfer model (the one core_time_us and StarPU's dmda
// policies use). Read-only inputs do not count: shared with the tasks around it (a panel
// that a row of updates reads), one load would count many times, where the tile a task
// updates is its own. Only the cores' rule reads it: 0 without CPU workers.
double load_time_us(const State& s, starpu_task* task) {
    double us = 0;
    if (!s.workers.cpu_arch) return us;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        const auto mode = STARPU_TASK_GET_MODE(task, i);
        if ((mode & STARPU_RW) != STARPU_RW) continue;
        starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
        double least = HUGE_VAL;  // gpu_nodes is not empty: the policy has a DARTS
        for (unsigned node : s.workers.gpu_nodes)
            least = std::min(least, known_us(starpu_data_expected_transfer_time(h, node, mode)));
        us += least;
    }
    return us;
}

// Task t enters (sign 1) or leaves (-1) the GPUs' work waiting in DARTS.
void count_waiting(State& s, TaskId t, int sign) {
    CorePath& c = s.cores;
    const int64_t p = s.gpu.darts->priority(t);
    auto& w = c.waiting[p];
    w.us += sign * c.gpu_us[size_t(t)], c.waiting_us += sign * c.gpu_us[size_t(t)];
    w.loads_us += sign * c.load_us[size_t(t)];
    if ((w.tasks += sign) == 0) c.waiting.erase(p);
}

// The bytes of the data requested for GPU k that are still to come; the others (arrived,
// no longer asked for, or forgotten) leave the list.
double requested_bytes(State& s, int k) {
    auto& r = s.cores.requested[size_t(k)];
    const int node = int(s.workers.gpu_nodes[size_t(k)]);
    double bytes = 0;
    r.erase(std::remove_if(r.begin(), r.end(),
                           [&](DataId d) {
                               starpu_data_handle_t h = s.gpu.handles[size_t(d)];
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
// share the bus with those. The bus's own time, by the bandwidth StarPU measured:
// starpu_data_expected_transfer_time doubles it per GPU for contention, and counts a load
// in flight as done. A prefetch that waits for free GPU memory stays queued in StarPU, and
// counts here.
double bus_backlog_us(State& s) {
    double least = HUGE_VAL;
    for (int k = 0; k < s.workers.gpus; ++k) {
        const unsigned node = s.workers.gpu_nodes[size_t(k)];
        const double bytes_per_us = starpu_transfer_bandwidth(s.workers.cpu_node, node);  // MB/s
        least = std::min(least, bytes_per_us > 0 ? requested_bytes(s, k) / bytes_per_us : 0);
    }
    return least;
}

// A priority p, and the work waiting in DARTS with a priority of p or more and its loads.
struct AtLeast {
    int64_t priority;
    double us, loads_us;
};

// AtLeast for each priority waiting, by decreasing priority.
std::vector<AtLeast> waiting_at_least(const CorePath& c) {
    std::vector<AtLeast> at_least;
    double us = 0, loads = 0;
    for (auto w = c.waiting.rbegin(); w != c.waiting.rend(); ++w)
        at_least.push_back({w->first, us += w->second.us, loads += w->second.loads_us});
    return at_least;
}

// The times the cores' rule weighs for candidate t, core_us on a core. The work ahead of
// t counts the work waiting at least as urgent, not only the more urgent: among equally
// urgent tasks DARTS goes by data, so t may come last.
CoreRuleTimes rule_times(const State& s, double core_us, TaskId t, double work_us, double bus_us,
                         const std::vector<AtLeast>& at_least) {
    const CorePath& c = s.cores;
    // t waits in DARTS, so its priority is in `waiting`, and its own work is in the sum.
    const auto a = std::lower_bound(at_least.begin(), at_least.end(), s.gpu.darts->priority(t),
                                    [](const AtLeast& e, int64_t p) { return e.priority > p; });
    CoreRuleTimes times;
    times.core_us = core_us;
    times.gpu_us = c.gpu_us[size_t(t)];
    times.work_us = work_us;
    times.ahead_us = (c.handed_us + std::max(0.0, a->us - times.gpu_us)) / s.workers.gpus;
    // The loads handed out (all loads less those waiting, at_least's last sum), and those
    // waiting at least as urgent as t.
    times.ahead_loads_us = (c.loads_us - at_least.back().loads_us + a->loads_us) / s.workers.gpus;
    times.bus_us = bus_us;
    return times;
}

// The candidate a core takes now by the cores' rule (core_takes), or candidates.end(); drops
// the candidates a GPU took meanwhile. Why the rule weighs what it does:
// - the loads of the tiles the GPUs' work updates, besides the work: a GPU cannot run its
//   tasks faster than the bus brings their tiles, and early in a factorization every tile
//   of the trailing matrix crosses the bus;
// - the bus's backlog: a task a GPU has not planned waits for the loads of the planned ones;
// - core_delay against the work ahead of t: the GPUs run the most urgent work first, and
//   a core that would end t much later than a GPU would reach it holds up the critical
//   path (a factorization's panels). A task that only the loads make worth taking must
//   end before the loads of the work ahead of it: the slack is for GPUs busy computing.
std::set<std::pair<double, TaskId>>::iterator core_candidate(State& s) {
    CorePath& c = s.cores;
    if (!s.gpu.darts || c.candidates.empty()) return c.candidates.end();
    const double bus_us = bus_backlog_us(s);
    const double work_us = (c.handed_us + c.waiting_us) / s.workers.gpus,
                 horizon_us = std::max({work_us, c.loads_us / s.workers.gpus, bus_us});
    std::vector<AtLeast> at_least;  // made once per call, when a candidate first needs it
    size_t scanned = 0;
    for (auto it = c.candidates.begin(); it != c.candidates.end() && scanned < tuning::core_scan;) {
        const auto [core_us, t] = *it;
        if (!s.gpu.darts->unprocessed(t)) {  // a GPU took it meanwhile (its gpu_us is 0 now)
            it = c.candidates.erase(it);
            continue;
        }
        if (core_us > horizon_us + c.gpu_us[size_t(t)]) break;
        if (at_least.empty()) at_least = waiting_at_least(c);
        if (core_takes(rule_times(s, core_us, t, work_us, bus_us, at_least), tuning::core_delay)) return it;
        ++it, ++scanned;
    }
    return c.candidates.end();
}

}  // namespace

bool track_pushed(State& s, TaskId t, starpu_task* task) {
    CorePath& c = s.cores;
    c.gpu_us.push_back(expected_us(task, s.workers.gpu_arch));
    c.load_us.push_back(load_time_us(s, task));
    c.loads_us += c.load_us.back();
    count_waiting(s, t, 1);
    const double on_core_us = core_time_us(s, task);
    if (on_core_us > 0) c.candidates.emplace(on_core_us, t);
    return core_may_take(s);
}

void track_handed_out(State& s, TaskId t) {
    count_waiting(s, t, -1);
    s.cores.handed_us += s.cores.gpu_us[size_t(t)];
}

void leave_backlog(State& s, TaskId t, bool handed_out) {
    CorePath& c = s.cores;
    if (handed_out) c.handed_us = std::max(0.0, c.handed_us - c.gpu_us[size_t(t)]);  // max: rounding
    else count_waiting(s, t, -1);
    c.loads_us = std::max(0.0, c.loads_us - c.load_us[size_t(t)]);  // max: rounding
    c.load_us[size_t(t)] = 0;
    c.gpu_us[size_t(t)] = 0;
}

bool core_may_take(State& s) { return core_candidate(s) != s.cores.candidates.end(); }

TaskId take_for_core(State& s) {
    const auto it = core_candidate(s);
    if (it == s.cores.candidates.end()) return no_task;
    const TaskId t = it->second;
    s.cores.candidates.erase(it);
    s.gpu.darts->take(t);
    leave_backlog(s, t, false);
    return t;
}

void prune_bus_backlog(State& s, int k) {
    if (s.workers.cpu_arch) requested_bytes(s, k);
}

void add_to_bus_backlog(State& s, int k, starpu_task* task) {
    if (!s.workers.cpu_arch) return;
    auto& r = s.cores.requested[size_t(k)];
    for_each_data(
        s, task, [&](size_t d) {
            if (std::find(r.begin(), r.end(), DataId(d)) == r.end()) r.push_back(DataId(d));
        },
        STARPU_R);
}

}  // namespace grain::detail::sched::policy
