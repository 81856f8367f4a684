#include "darts.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

namespace grain::detail::sched {

Darts::Darts(int gpus, int data, DartsOptions options)
    : users_(size_t(data)), unprocessed_users_(size_t(data), 0), awaited_users_(size_t(data), 0),
      held_by_(size_t(data), -1), gpus_(size_t(gpus)), options_(options), random_(options.seed) {
    if (gpus < 1 || data < 0) throw std::invalid_argument("grain::detail::sched::Darts: needs gpus >= 1 and data >= 0");
    for (Gpu& g : gpus_) {
        g.not_in_mem.assign(size_t(data), 1);  // initially, all data
        g.freed.resize(size_t(data));
        g.pair_with.assign(size_t(data), 0);
        g.buffer_users.assign(size_t(data), 0);
        g.planned_users.assign(size_t(data), 0);
    }
}

DataId Darts::add_data() {
    users_.emplace_back();
    unprocessed_users_.push_back(0);
    awaited_users_.push_back(0);
    held_by_.push_back(-1);
    for (Gpu& g : gpus_) {
        g.not_in_mem.push_back(1);
        g.freed.emplace_back();
        g.pair_with.push_back(0);
        g.buffer_users.push_back(0);
        g.planned_users.push_back(0);
    }
    return DataId(users_.size() - 1);
}

TaskId Darts::add_task(const std::vector<DataId>& inputs, int64_t priority) {
    const TaskId t = TaskId(inputs_.size());
    for (DataId d : inputs)
        if (d < 0 || d >= data() || std::count(inputs.begin(), inputs.end(), d) > 1)
            throw std::invalid_argument("grain::detail::sched::Darts::add_task: bad input " + std::to_string(d));
    inputs_.push_back(inputs);
    priority_.push_back(priority);
    pool_index_.push_back(-1);
    for (DataId d : inputs) users_[size_t(d)].push_back(t);
    for (Gpu& g : gpus_) {
        int missing = 0;
        for (DataId d : inputs) missing += g.not_in_mem[size_t(d)];
        g.missing.push_back(missing);
    }
    pool_add(t);
    return t;
}

void Darts::pool_add(TaskId t) {
    std::vector<TaskId>& same = pool_[priority_[size_t(t)]];
    pool_index_[size_t(t)] = int64_t(same.size());
    same.push_back(t);
    ++pool_size_;
    count_task(t, +1);
}

void Darts::pool_remove(TaskId t) {
    count_task(t, -1);
    const auto same = pool_.find(priority_[size_t(t)]);
    std::vector<TaskId>& tasks = same->second;
    const int64_t i = pool_index_[size_t(t)];
    tasks[size_t(i)] = tasks.back();
    pool_index_[size_t(tasks.back())] = i;
    tasks.pop_back();
    if (tasks.empty()) pool_.erase(same);
    --pool_size_;
    pool_index_[size_t(t)] = -1;
}

void Darts::count_task(TaskId t, int sign) {
    for (DataId d : inputs_[size_t(t)]) unprocessed_users_[size_t(d)] += sign;
    for (Gpu& g : gpus_) count_task_on(g, t, sign);
}

void Darts::count_task_on(Gpu& g, TaskId t, int sign) {
    const int missing = g.missing[size_t(t)];
    if (missing == 0) {
        if (sign > 0) g.loaded.emplace(-priority_[size_t(t)], t);
        else g.loaded.erase({-priority_[size_t(t)], t});
        return;
    }
    if (missing != 1 && !(missing == 2 && options_.three_inputs)) return;
    for (DataId d : inputs_[size_t(t)]) {
        if (!g.not_in_mem[size_t(d)]) continue;
        if (missing == 2) {
            g.pair_with[size_t(d)] += sign;
            continue;
        }
        auto& freed = g.freed[size_t(d)];
        const int64_t p = priority_[size_t(t)];
        auto it = std::lower_bound(freed.begin(), freed.end(), std::make_pair(p, 0));
        if (sign > 0) {
            if (it == freed.end() || it->first != p) it = freed.insert(it, {p, 0});
            ++it->second;
        } else if (--it->second == 0) {
            freed.erase(it);
        }
    }
}

void Darts::set_in_memory(Gpu& g, DataId d, bool in_memory) {
    if (!g.not_in_mem[size_t(d)] == in_memory) return;
    if (in_memory && held_by_[size_t(d)] != index(g)) held_by_[size_t(d)] = -1;  // it will come through host memory
    const std::vector<TaskId>& users = users_[size_t(d)];
    for (TaskId t : users)
        if (in_pool(t)) count_task_on(g, t, -1);
    g.not_in_mem[size_t(d)] = !in_memory;
    for (TaskId t : users) {
        g.missing[size_t(t)] += in_memory ? -1 : 1;
        if (in_pool(t)) count_task_on(g, t, +1);
    }
}

void Darts::plan(Gpu& g, TaskId t, int sign) {
    for (DataId d : inputs_[size_t(t)]) g.planned_users[size_t(d)] += sign;
    if (sign > 0) g.planned.push_back(t);
}

TaskId Darts::hand_out(Gpu& g, TaskId t) {
    g.buffer.push_back(t);
    for (DataId d : inputs_[size_t(t)]) ++g.buffer_users[size_t(d)];
    return t;
}

template <typename Score, typename Urgency>
DataId Darts::best_data(const Gpu& g, Score score, Urgency urgency, bool first_positive) {
    DataId best = no_data;
    int best_score = 0, best_users = 0, ties = 0;
    int64_t best_urgency = 0;
    for (DataId d = 0; d < data(); ++d) {
        if (!g.not_in_mem[size_t(d)]) continue;
        const int s = score(d);
        if (s <= 0) continue;
        if (first_positive) return d;
        const int users = unprocessed_users_[size_t(d)];
        const int64_t u = urgency(d);
        if (best == no_data || s > best_score || (s == best_score && users > best_users) ||
            (s == best_score && users == best_users && u > best_urgency)) {
            best = d, best_score = s, best_users = users, best_urgency = u, ties = 1;
        } else if (s == best_score && users == best_users && u == best_urgency) {
            // Reservoir sampling: each of the tied data is kept with equal probability.
            if (std::uniform_int_distribution<int>(0, ties++)(random_) == 0) best = d;
        }
    }
    return best;
}

bool Darts::fill(Gpu& g, bool may_pick) {
    if (pool_.empty()) return false;
    ++decisions_;
    // A task whose inputs are all planned here needs no load: it goes first, the most
    // urgent first (tasks submitted as their dependencies end arrive so; in Algorithm 5,
    // where all tasks are known at the start, a load plans all the tasks it frees).
    if (!g.loaded.empty()) {
        const TaskId t = g.loaded.begin()->second;
        pool_remove(t);
        plan(g, t, +1);
        return true;
    }
    // Lines 4-11: the data whose load frees the most tasks; plan them all. Ties, which
    // Algorithm 5 breaks at random, go first to the data that frees the most urgent
    // task: all tasks have priority 0 in the paper's sets, but in a factorization the
    // critical path waits otherwise.
    // Data whose only copy another GPU wrote come last: loading one here costs its trip
    // home first, and takes a chain of updates of one tile (a gemm's) away from the GPU
    // that runs it (doc/results/2026-11-28-sim-window-gpus.md).
    // A second scan only if such a datum would have freed a task: in a trailing update
    // no datum frees one, and the scan is the planning step's cost.
    auto frees = [&](DataId d) {
        int n = 0;
        for (const auto& [priority, count] : g.freed[size_t(d)]) n += count;
        return n;
    };
    auto urgency = [&](DataId d) { return g.freed[size_t(d)].back().first; };
    bool held_frees = false;
    DataId best = best_data(
        g,
        [&](DataId d) {
            if (!held_elsewhere(g, d)) return frees(d);
            held_frees = held_frees || frees(d) > 0;
            return 0;
        },
        urgency, options_.opti);
    if (best == no_data && held_frees) best = best_data(g, frees, urgency, options_.opti);
    if (best != no_data) {
        std::vector<TaskId> freed;
        for (TaskId t : users_[size_t(best)])
            if (in_pool(t) && g.missing[size_t(t)] == 1) freed.push_back(t);
        for (TaskId t : freed) {
            pool_remove(t);
            plan(g, t, +1);
        }
        set_in_memory(g, best, true);
        return true;
    }
    // Lines 12-13: a task that needs several loads; with three_inputs, one of those
    // freed by the data that completes the most tasks with one more load (with opti too,
    // the first data that completes one: OPTI cuts both searches short). Otherwise a
    // random one of the most urgent (Algorithm 5: of all; the paper's sets have one
    // priority): in a factorization's trailing update no data frees a task alone, and a
    // pick among all its tasks would leave the one on the critical path to chance.
    if (!may_pick) return false;
    TaskId t = no_task;
    if (options_.three_inputs) {
        const DataId d = best_data(
            g, [&](DataId x) { return g.pair_with[size_t(x)]; }, [](DataId) { return int64_t(0); }, options_.opti);
        if (d != no_data)
            for (TaskId u : users_[size_t(d)])
                if (in_pool(u) && g.missing[size_t(u)] == 2) {
                    t = u;
                    break;
                }
    }
    if (t == no_task) {
        // The same: among them, one reading no data only another GPU holds, if any (one GPU
        // holds nothing another would load).
        const std::vector<TaskId>& urgent = pool_.begin()->second;
        auto here = [&](TaskId u) {
            return std::none_of(inputs_[size_t(u)].begin(), inputs_[size_t(u)].end(),
                                [&](DataId d) { return held_elsewhere(g, d); });
        };
        const size_t eligible = gpus() == 1 ? urgent.size() : size_t(std::count_if(urgent.begin(), urgent.end(), here));
        if (eligible == 0 || eligible == urgent.size()) {
            t = urgent[std::uniform_int_distribution<size_t>(0, urgent.size() - 1)(random_)];
        } else {
            size_t r = std::uniform_int_distribution<size_t>(0, eligible - 1)(random_);
            for (TaskId u : urgent)
                if (here(u) && r-- == 0) {
                    t = u;
                    break;
                }
        }
    }
    pool_remove(t);
    plan(g, t, +1);
    for (DataId d : inputs_[size_t(t)]) set_in_memory(g, d, true);
    return true;
}

TaskId Darts::pop(int k) {
    Gpu& g = gpus_.at(size_t(k));
    // A task that needs no load and is more urgent than the next planned one goes before
    // it: the planned tasks (plan_ahead) wait in the order their data were chosen, while a
    // task released by the one a GPU just ran often lies on the critical path. Equal
    // priorities (the paper's sets) keep Algorithm 5's order.
    if (!g.loaded.empty() && !g.planned.empty() &&
        priority_[size_t(g.loaded.begin()->second)] > priority_[size_t(g.planned.front())]) {
        const TaskId t = g.loaded.begin()->second;
        pool_remove(t);
        return hand_out(g, t);
    }
    if (g.planned.empty() && !fill(g, true)) return no_task;
    const TaskId t = g.planned.front();
    g.planned.pop_front();
    plan(g, t, -1);
    return hand_out(g, t);
}

void Darts::plan_ahead(int k, size_t tasks) {
    Gpu& g = gpus_.at(size_t(k));
    // With several GPUs, ahead of need only tasks that need no load or whose load frees
    // them: a task with several inputs to load (lines 12-13) waits until k has nothing
    // planned. Picked early, it loads data another GPU may load too, on the bus they
    // share. A single GPU loads nothing twice, and gains from loading such a task's
    // inputs early.
    while (g.planned.size() < tasks && fill(g, gpus() == 1 || g.planned.empty())) {
    }
}

bool Darts::take(TaskId t) {
    if (!unprocessed(t)) return false;
    pool_remove(t);
    return true;
}

void Darts::finished(int k, TaskId t) {
    Gpu& g = gpus_.at(size_t(k));
    const auto it = std::find(g.buffer.begin(), g.buffer.end(), t);
    if (it == g.buffer.end()) return;
    g.buffer.erase(it);
    for (DataId d : inputs_[size_t(t)]) --g.buffer_users[size_t(d)];
}

size_t Darts::first_planned_use(int k, DataId d) const {
    const std::deque<TaskId>& planned = gpus_.at(size_t(k)).planned;
    const auto reads = [&](TaskId t) {
        const std::vector<DataId>& in = inputs_[size_t(t)];
        return std::find(in.begin(), in.end(), d) != in.end();
    };
    return size_t(std::find_if(planned.begin(), planned.end(), reads) - planned.begin());
}

DataId Darts::luf_victim(int k, const std::vector<DataId>& in_memory) const {
    const Gpu& g = gpus_.at(size_t(k));
    // Lines 4-5: not needed by the task buffer, and needed by the fewest planned tasks.
    // Ties: read by the fewest unprocessed tasks (outputs and used-up inputs first: in
    // the 2D product they are most of the data, and a GPU then keeps the panels it will
    // read again), then by the fewest awaited ones, then the first listed.
    const auto key = [&](DataId d) {
        return std::make_tuple(g.planned_users[size_t(d)], unprocessed_users_[size_t(d)], awaited_users_[size_t(d)]);
    };
    // Algorithm 6's line 7 (Belady on the task buffer, when every datum is used by it)
    // is left out: the StarPU policy never offers data a task handed out uses (StarPU
    // must not evict it), so that case cannot arise there; no victim lets StarPU choose.
    DataId victim = no_data;
    for (DataId d : in_memory)
        if (g.buffer_users[size_t(d)] == 0 && (victim == no_data || key(d) < key(victim))) victim = d;
    return victim;
}

void Darts::awaited(DataId d, int sign) {
    if (d < 0 || d >= data())
        throw std::invalid_argument("grain::detail::sched::Darts::awaited: bad data " + std::to_string(d));
    awaited_users_[size_t(d)] += sign;
}

void Darts::evicted(int k, DataId d) {
    Gpu& g = gpus_.at(size_t(k));
    if (g.not_in_mem[size_t(d)]) return;
    std::deque<TaskId> kept;
    for (TaskId t : g.planned) {
        const std::vector<DataId>& in = inputs_[size_t(t)];
        if (std::find(in.begin(), in.end(), d) == in.end()) {
            kept.push_back(t);
            continue;
        }
        plan(g, t, -1);
        pool_add(t);
    }
    g.planned.swap(kept);
    set_in_memory(g, d, false);
    if (held_by_[size_t(d)] == k) held_by_[size_t(d)] = -1;  // written back on its way out
}

void Darts::written(int k, DataId d) {
    for (int j = 0; j < gpus(); ++j)
        if (j != k) evicted(j, d);
    held_by_[size_t(d)] = k;
}

void Darts::stayed(int k, DataId d) { set_in_memory(gpus_.at(size_t(k)), d, true); }

}  // namespace grain::detail::sched
