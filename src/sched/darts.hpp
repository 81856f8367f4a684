#pragma once
// DARTS (Data-Aware Reactive Task Scheduling) and its LUF eviction (Least Used in the
// Future), after "Memory-Aware Scheduling of Tasks Sharing Data on Multiple GPUs with
// Dynamic Runtime Systems" (IPDPS 2022), Algorithms 5 and 6, independent of StarPU:
// tasks and data are dense integer ids, GPUs are 0..gpus-1.
//
// Per GPU k it keeps dataNotInMem_k (the data DARTS has not planned on k, initially all),
// plannedTasks_k (tasks allocated to k, not yet handed out) and taskBuffer_k (tasks handed
// out to k and not finished). All GPUs share the unprocessed tasks. Counts are kept
// incrementally, so a request scans the data (never all the tasks):
//   missing[k][T]   inputs of T in dataNotInMem_k
//   freed[k][D]     the unprocessed tasks whose only input in dataNotInMem_k is D, as
//                   (priority, count) in increasing priority: n(D) is the sum of the
//                   counts (one pair when all tasks share a priority, as in the paper's sets)
//   pair_with[k][D] unprocessed tasks with two inputs in dataNotInMem_k, one being D
//                   (the 3inputs variant)
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace grain::detail::sched {

using TaskId = int32_t;
using DataId = int32_t;
constexpr TaskId no_task = -1;
constexpr DataId no_data = -1;

struct DartsOptions {
    // When no data frees a task alone, pick the data that frees the most tasks with one
    // more load (tasks with 3+ inputs), instead of a random one of the most urgent.
    bool three_inputs = false;
    // Stop at the first data that frees a task instead of looking for the best one (and,
    // with three_inputs, at the first that completes a task with one more load).
    bool opti = false;
    uint64_t seed = 1;  // ties are broken at random, reproducibly
};

class Darts {
public:
    Darts(int gpus, int data, DartsOptions options = {});

    // A new data (id data() before the call), in no GPU's memory.
    DataId add_data();

    // A new unprocessed task reading `inputs` (distinct data ids < data()), of the given
    // priority (larger first among tasks that need no load).
    TaskId add_task(const std::vector<DataId>& inputs, int64_t priority = 0);

    // Algorithm 5: the next task for GPU k (it enters taskBuffer_k), or no_task when
    // nothing is planned on k and no task is unprocessed. An unprocessed task that needs
    // no load on k and is more urgent than the next planned one goes first.
    TaskId pop(int k);
    // Runs Algorithm 5's planning step (what pop does when plannedTasks_k is empty)
    // until at least `tasks` tasks are planned on k, none is unprocessed, or (with several
    // GPUs) only tasks that need several loads are left while k has some planned:
    // the data a GPU will need next is then known while it still has work, so it can
    // load early.
    void plan_ahead(int k, size_t tasks);
    // Takes unprocessed task t out of DARTS's hands (another worker runs it); false if
    // it is no longer unprocessed.
    bool take(TaskId t);
    // Task t, handed out to GPU k, has finished: it leaves taskBuffer_k.
    void finished(int k, TaskId t);

    // Algorithm 6: the data to evict from GPU k among `in_memory` (the data on k that
    // can be evicted), or no_data if none is free of the task buffer (no Belady step). Does not change the state.
    // Ties between data needed by as few planned tasks go to the data the fewest
    // unprocessed tasks read (Algorithm 6 leaves them open), then the fewest awaited
    // tasks, then to the first listed.
    DataId luf_victim(int k, const std::vector<DataId>& in_memory) const;
    // A task that will read d is awaited (sign +1: the runtime has it, waiting for its
    // dependencies; Algorithm 5 knows every task from the start) or no longer is (-1: it
    // was added, or will not be).
    void awaited(DataId d, int sign);
    // Data d left GPU k: tasks planned on k that read it go back to the unprocessed
    // tasks, and d is in dataNotInMem_k again (LUF's lines 8-9).
    void evicted(int k, DataId d);
    // Data d was written on GPU k, or on another worker (k = -1: a core): the runtime
    // invalidates its copies on the other GPUs, which lose it as through evicted. Tasks
    // on data that unfinished tasks write are not ready, so no task is planned on d then:
    // what changes is that the next tasks reading d count its load on those GPUs, and
    // that they choose d last while k holds its only copy (the next update of a tile
    // stays where the last one ran).
    void written(int k, DataId d);
    // Data d, passed to evicted, could not leave GPU k after all (the runtime could not
    // evict it): it leaves dataNotInMem_k again. The tasks evicted sent back stay
    // unprocessed.
    void stayed(int k, DataId d);

    // Observers (tests, statistics).
    int gpus() const { return int(gpus_.size()); }
    int data() const { return int(users_.size()); }
    bool planned_in_memory(int k, DataId d) const { return !gpus_[size_t(k)].not_in_mem[size_t(d)]; }
    // Tasks in plannedTasks_k that read d, and the rank there of the first of them
    // (planned(k).size() if none).
    int planned_users(int k, DataId d) const { return gpus_[size_t(k)].planned_users[size_t(d)]; }
    size_t first_planned_use(int k, DataId d) const;
    const std::deque<TaskId>& planned(int k) const { return gpus_[size_t(k)].planned; }
    const std::deque<TaskId>& buffer(int k) const { return gpus_[size_t(k)].buffer; }
    int64_t unprocessed() const { return pool_size_; }
    bool unprocessed(TaskId t) const { return t >= 0 && t < TaskId(inputs_.size()) && in_pool(t); }
    int64_t priority(TaskId t) const { return priority_[size_t(t)]; }
    int64_t decisions() const { return decisions_; }  // planning steps run

private:
    struct Gpu {
        std::vector<char> not_in_mem;        // per data: in dataNotInMem_k
        std::vector<int> missing;            // per task
        std::vector<std::vector<std::pair<int64_t, int>>> freed;  // per data
        std::vector<int> pair_with;          // per data (three_inputs)
        std::vector<int> buffer_users;       // per data: tasks in taskBuffer_k reading it
        std::vector<int> planned_users;      // per data: tasks in plannedTasks_k reading it
        std::set<std::pair<int64_t, TaskId>> loaded;  // unprocessed tasks with no input to load: (-priority, t)
        std::deque<TaskId> planned, buffer;
    };

    // The unprocessed tasks (pool_), by priority: removal by id costs a lookup among the
    // priorities.
    void pool_add(TaskId t);
    void pool_remove(TaskId t);
    bool in_pool(TaskId t) const { return pool_index_[size_t(t)] >= 0; }
    // A task enters or leaves the unprocessed set: the per-GPU counts follow.
    void count_task(TaskId t, int sign);
    void count_task_on(Gpu& g, TaskId t, int sign);
    // d leaves (or re-enters) dataNotInMem_k.
    void set_in_memory(Gpu& g, DataId d, bool in_memory);
    void plan(Gpu& g, TaskId t, int sign);  // enter / leave plannedTasks_k
    TaskId hand_out(Gpu& g, TaskId t);      // into taskBuffer_k
    // Lines 4-13: plan tasks; false if none is unprocessed, or if every unprocessed
    // task needs several loads and !may_pick.
    bool fill(Gpu& g, bool may_pick);

    // Among data with the largest score (then the most unprocessed users, then the
    // largest urgency), one at random.
    template <typename Score, typename Urgency>
    DataId best_data(const Gpu& g, Score score, Urgency urgency, bool first_positive);

    std::vector<std::vector<DataId>> inputs_;  // per task
    std::vector<int64_t> priority_;            // per task
    std::vector<std::vector<TaskId>> users_;   // per data
    std::vector<int> unprocessed_users_;       // per data
    std::vector<int> awaited_users_;           // per data
    // Per data: the GPU that wrote it while it has the only copy (until the data leaves it,
    // or another GPU plans to load it, through host memory), else -1.
    std::vector<int> held_by_;
    int index(const Gpu& g) const { return int(&g - gpus_.data()); }
    bool held_elsewhere(const Gpu& g, DataId d) const { return held_by_[size_t(d)] >= 0 && held_by_[size_t(d)] != index(g); }
    // The unprocessed tasks by priority, the most urgent first; pool_index_ is a task's
    // index in its priority's list (-1 when not unprocessed).
    std::map<int64_t, std::vector<TaskId>, std::greater<>> pool_;
    std::vector<int64_t> pool_index_;
    int64_t pool_size_ = 0;
    std::vector<Gpu> gpus_;
    DartsOptions options_;
    std::mt19937_64 random_;
    int64_t decisions_ = 0;
};

}  // namespace grain::detail::sched
