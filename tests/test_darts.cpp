// DARTS (Algorithm 5) and LUF (Algorithm 6) on hand-made task and data sets, and the
// cores' rule of the darts policy on hand-made times, independent of StarPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <set>
#include <stdexcept>
#include <vector>

#include "src/sched/core_rule.hpp"
#include "src/sched/darts.hpp"

namespace grain::detail::sched {
namespace {

// The 2D product of the paper: task (i, j) reads block-row i of A and block-column j
// of B; data 0..n-1 are A's rows, n..2n-1 B's columns; tasks in row-major order.
Darts product_2d(int n, int gpus, DartsOptions options = {}) {
    Darts darts(gpus, 2 * n, options);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) darts.add_task({i, n + j});
    return darts;
}

// What Algorithm 5 computes, by brute force: for each data D not in memory of GPU k,
// the unprocessed tasks whose inputs are all in memory but D.
std::vector<int> free_counts(const Darts& darts, int k, const std::vector<std::vector<DataId>>& inputs,
                             const std::set<TaskId>& unprocessed) {
    std::vector<int> n(size_t(darts.data()), 0);
    for (TaskId t : unprocessed) {
        std::vector<DataId> missing;
        for (DataId d : inputs[size_t(t)])
            if (!darts.planned_in_memory(k, d)) missing.push_back(d);
        if (missing.size() == 1) ++n[size_t(missing[0])];
    }
    return n;
}

TEST(Darts, PicksTheDataThatFreesMostTasksAndPlansThemAll) {
    const int n = 6;
    Darts darts = product_2d(n, 1);
    std::vector<std::vector<DataId>> inputs;
    std::set<TaskId> unprocessed;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) inputs.push_back({i, n + j}), unprocessed.insert(TaskId(i * n + j));

    // Every task needs two loads: the first request takes a task (at random) and both
    // its inputs.
    const TaskId first = darts.pop(0);
    ASSERT_NE(first, no_task);
    unprocessed.erase(first);
    for (DataId d = 0; d < 2 * n; ++d)
        EXPECT_EQ(darts.planned_in_memory(0, d), d == inputs[size_t(first)][0] || d == inputs[size_t(first)][1]);

    while (!unprocessed.empty()) {
        const std::vector<int> before = free_counts(darts, 0, inputs, unprocessed);
        std::vector<char> was_in(size_t(2 * n));
        for (DataId d = 0; d < 2 * n; ++d) was_in[size_t(d)] = darts.planned_in_memory(0, d);
        const TaskId t = darts.pop(0);
        ASSERT_NE(t, no_task);
        // One data came in; it frees the most tasks; they are exactly what is planned
        // (plus the task handed out).
        std::vector<DataId> loaded;
        for (DataId d = 0; d < 2 * n; ++d)
            if (!was_in[size_t(d)] && darts.planned_in_memory(0, d)) loaded.push_back(d);
        ASSERT_EQ(loaded.size(), 1u);
        const int best = *std::max_element(before.begin(), before.end());
        EXPECT_EQ(before[size_t(loaded[0])], best);
        EXPECT_EQ(int(darts.planned(0).size()) + 1, best);
        unprocessed.erase(t);
        // The planned tasks are handed out next, without any other load.
        while (!darts.planned(0).empty()) {
            const TaskId next = darts.planned(0).front();
            EXPECT_EQ(darts.pop(0), next);
            unprocessed.erase(next);
        }
    }
    EXPECT_EQ(darts.pop(0), no_task);
    EXPECT_EQ(darts.buffer(0).size(), size_t(n * n));  // handed out, none finished
}

TEST(Darts, TiesGoToTheMostUsefulData) {
    // Data 0 and 1 each free one task alone; data 1 is read by three unprocessed tasks.
    Darts darts(1, 4);
    darts.add_task({0});
    const TaskId only1 = darts.add_task({1});
    darts.add_task({1, 2});
    darts.add_task({1, 3});
    EXPECT_EQ(darts.pop(0), only1);
    EXPECT_TRUE(darts.planned_in_memory(0, 1));
    EXPECT_FALSE(darts.planned_in_memory(0, 0));
    // OPTI stops at the first data that frees a task: data 0.
    Darts opti(1, 4, {false, true, 1});
    const TaskId first = opti.add_task({0});
    opti.add_task({1});
    opti.add_task({1, 2});
    EXPECT_EQ(opti.pop(0), first);
}

TEST(Darts, ThreeInputsLoadsTheDataThatCompletesMostTasks) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        SCOPED_TRACE(seed);
        Darts darts(1, 7, {true, false, seed});
        const TaskId alone = darts.add_task({0});
        const TaskId a = darts.add_task({0, 1, 2});
        const TaskId b = darts.add_task({0, 1, 3});
        darts.add_task({4, 5, 6});
        EXPECT_EQ(darts.pop(0), alone);  // data 0 frees it alone
        // No data frees a task alone now; data 1 completes two tasks with one more load each.
        const TaskId second = darts.pop(0);
        EXPECT_TRUE(second == a || second == b);
        EXPECT_TRUE(darts.planned_in_memory(0, 1));
        EXPECT_EQ(darts.pop(0), second == a ? b : a);  // then one load frees the other
    }
}

// OPTI with 3inputs (the paper's DARTS+LUF+OPTI-3inputs) stops the second search at the
// first data that completes a task with one more load, not the one that completes most.
TEST(Darts, OptiCutsTheThreeInputsSearchShortToo) {
    for (const bool opti : {false, true}) {
        SCOPED_TRACE(opti);
        Darts darts(1, 6, {true, opti, 1});
        const TaskId alone = darts.add_task({0});
        const TaskId a = darts.add_task({0, 1, 2});
        const TaskId b = darts.add_task({0, 3, 4});
        const TaskId c = darts.add_task({0, 3, 5});
        EXPECT_EQ(darts.pop(0), alone);
        // Data 1 completes task a with one more load; data 3 completes b and c.
        const TaskId second = darts.pop(0);
        if (opti)
            EXPECT_EQ(second, a);
        else
            EXPECT_TRUE(second == b || second == c);
    }
}

TEST(Darts, LufEvictsWhatTheFutureUsesLeast) {
    // After a few requests on a 2D product, the victim among the data in memory is one
    // no task of the buffer reads, read by the fewest planned tasks (Algorithm 6, by
    // brute force on what the scheduler shows).
    const int n = 5;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
        SCOPED_TRACE(seed);
        Darts darts = product_2d(n, 1, {false, false, seed});
        for (int i = 0; i < 3; ++i) darts.pop(0);
        auto reads = [&](TaskId t, DataId d) { return t / n == d || n + t % n == d; };
        auto users = [&](const std::deque<TaskId>& tasks, DataId d) {
            return int(std::count_if(tasks.begin(), tasks.end(), [&](TaskId t) { return reads(t, d); }));
        };
        std::vector<DataId> in_memory;
        for (DataId d = 0; d < 2 * n; ++d)
            if (darts.planned_in_memory(0, d)) in_memory.push_back(d);
        // The first task handed out is done: what only it read is free to go.
        darts.finished(0, darts.buffer(0).front());
        const DataId victim = darts.luf_victim(0, in_memory);
        const bool some_unbuffered = std::any_of(in_memory.begin(), in_memory.end(),
                                                 [&](DataId d) { return users(darts.buffer(0), d) == 0; });
        if (!some_unbuffered) {  // no Belady fallback: StarPU chooses (darts.cpp)
            EXPECT_EQ(victim, no_data);
            continue;
        }
        ASSERT_NE(victim, no_data);
        EXPECT_EQ(users(darts.buffer(0), victim), 0);
        for (DataId d : in_memory)
            if (users(darts.buffer(0), d) == 0) {
                EXPECT_LE(users(darts.planned(0), victim), users(darts.planned(0), d));
            }
    }
    Darts empty(1, 1);
    EXPECT_EQ(empty.luf_victim(0, {}), no_data);
}

TEST(Darts, LufTiesGoToTheDataTheFewestUnprocessedTasksRead) {
    // Nothing planned or buffered: every candidate is needed by no planned task. The
    // victim is then the data the fewest unprocessed tasks read, whatever the order.
    Darts darts(1, 3);
    darts.add_task({1});
    darts.add_task({1});
    darts.add_task({2});
    EXPECT_EQ(darts.luf_victim(0, {1, 2, 0}), 0);  // read by no task (an output, say)
    EXPECT_EQ(darts.luf_victim(0, {1, 2}), 2);
    EXPECT_EQ(darts.luf_victim(0, {2, 1}), 2);
    // Planned tasks still come first: once data 1 is loaded and its two tasks planned,
    // with one handed out and finished, data 1 stays for the other.
    const TaskId first = darts.pop(0);
    darts.finished(0, first);
    ASSERT_EQ(darts.planned(0).size(), 1u);
    EXPECT_EQ(darts.luf_victim(0, {1, 2}), 2);
    EXPECT_EQ(darts.luf_victim(0, {1, 0}), 0);
}

TEST(Darts, LufThenKeepsTheDataAwaitedTasksRead) {
    // Tasks that wait for their dependencies in the runtime are not DARTS's yet, but
    // they will read their data: among data no planned or unprocessed task reads, those
    // that fewer awaited tasks read go first.
    Darts darts(1, 4);
    darts.add_task({3});
    darts.awaited(1, 1);
    darts.awaited(1, 1);
    darts.awaited(2, 1);
    EXPECT_EQ(darts.luf_victim(0, {1, 2, 0}), 0);  // awaited by no task
    EXPECT_EQ(darts.luf_victim(0, {1, 2}), 2);
    EXPECT_EQ(darts.luf_victim(0, {2, 1}), 2);
    // An unprocessed task's data outweighs any number of awaited ones.
    EXPECT_EQ(darts.luf_victim(0, {3, 1}), 1);
    // The awaited task on data 2 arrives (the runtime pushes it): it reads 2, which is
    // then unprocessed data, and 1 goes first.
    darts.awaited(2, -1);
    darts.add_task({2});
    EXPECT_EQ(darts.luf_victim(0, {2, 1}), 1);
    // Once no task awaits data 1 either, it is like any unread data.
    darts.awaited(1, -1);
    darts.awaited(1, -1);
    EXPECT_EQ(darts.luf_victim(0, {1, 0}), 1);
    EXPECT_EQ(darts.luf_victim(0, {0, 1}), 0);
    EXPECT_THROW(darts.awaited(4, 1), std::invalid_argument);
}

TEST(Darts, DataThatStayedFreesItsTasksWithoutALoad) {
    // Data 0 is in memory, then named as a victim (evicted), but the runtime could not
    // evict it (stayed). A task reading it then needs no load and goes first, ahead of a
    // more urgent task that needs one; had data 0 stayed out, that task would go first.
    for (bool stayed : {true, false}) {
        SCOPED_TRACE(stayed);
        Darts darts(1, 2);
        const TaskId a = darts.add_task({0});
        ASSERT_EQ(darts.pop(0), a);
        darts.finished(0, a);
        darts.evicted(0, 0);
        EXPECT_FALSE(darts.planned_in_memory(0, 0));
        if (stayed) darts.stayed(0, 0);
        EXPECT_EQ(darts.planned_in_memory(0, 0), stayed);
        const TaskId b = darts.add_task({0}, 0);
        const TaskId urgent = darts.add_task({1}, 5);
        EXPECT_EQ(darts.pop(0), stayed ? b : urgent);
    }
}

TEST(Darts, DataWrittenElsewhereLeavesTheGpus) {
    // Data 0 is planned in memory on both GPUs. Written on GPU 1, it stays there only;
    // written on a core, it is on neither. On GPU 1, a task that reads it then needs no
    // load and goes first; if it needs one, the more urgent task that needs one too goes
    // first.
    for (int writer : {1, -1}) {
        SCOPED_TRACE(writer);
        Darts darts(2, 2);
        for (int k = 0; k < 2; ++k) {
            const TaskId t = darts.add_task({0});
            ASSERT_EQ(darts.pop(k), t);
            darts.finished(k, t);
        }
        darts.written(writer, 0);
        EXPECT_FALSE(darts.planned_in_memory(0, 0));
        EXPECT_EQ(darts.planned_in_memory(1, 0), writer == 1);
        const TaskId reader = darts.add_task({0}, 0);
        const TaskId urgent = darts.add_task({1}, 5);
        EXPECT_EQ(darts.pop(1), writer == 1 ? reader : urgent);
    }
}

TEST(Darts, DataOnlyAnotherGpuHoldsComeLast) {
    // Data 0 is a tile GPU 0 wrote (its only copy); GPU 1 holds data 1. On GPU 1, the
    // more urgent task {0, 1} and the task {1, 2} are each freed by one load: GPU 1 loads
    // 2, and GPU 0 then takes {0, 1}. With nothing freed by one load, GPU 1 picks among
    // the most urgent tasks one that reads no data GPU 0 holds (over seeds: always), and
    // one that does when no other is left.
    auto setup = [](uint64_t seed) {
        Darts darts(2, 12, {false, false, seed});
        for (int k = 0; k < 2; ++k) {
            const TaskId t = darts.add_task({k});  // data 0 to GPU 0, data 1 to GPU 1
            EXPECT_EQ(darts.pop(k), t);
            darts.finished(k, t);
        }
        darts.written(0, 0);
        return darts;
    };
    Darts darts = setup(1);
    const TaskId chained = darts.add_task({0, 1}, 5), other = darts.add_task({1, 2}, 1);
    EXPECT_EQ(darts.pop(1), other);
    EXPECT_EQ(darts.pop(0), chained);

    for (uint64_t seed = 1; seed <= 16; ++seed) {
        Darts same = setup(seed);
        const TaskId held = same.add_task({0, 3, 4}, 2), clear = same.add_task({5, 6, 7}, 2);
        EXPECT_EQ(same.pop(1), clear);
        EXPECT_EQ(same.pop(1), held);  // the only one left
    }
}

TEST(Darts, LufNamesNoDataTheTaskBufferReads) {
    // Three single-input tasks handed out: every datum is read by the buffer, so LUF
    // names none (StarPU chooses; Algorithm 6's Belady line is left out, darts.cpp).
    Darts darts(1, 3);
    darts.add_task({0});
    darts.add_task({1});
    darts.add_task({2});
    std::vector<TaskId> order;
    for (int i = 0; i < 3; ++i) order.push_back(darts.pop(0));
    ASSERT_EQ(darts.buffer(0).size(), 3u);
    EXPECT_EQ(darts.luf_victim(0, {0, 1, 2}), no_data);
    darts.finished(0, order[0]);
    EXPECT_EQ(darts.luf_victim(0, {0, 1, 2}), DataId(order[0]));  // task i reads data i; no longer needed
}

TEST(Darts, EvictionReturnsPlannedTasksToOtherGpus) {
    // Tasks planned on GPU 0; evicting a data they read gives them back, and the two
    // GPUs then run every task once.
    const int n = 4;
    Darts darts = product_2d(n, 2, {false, false, 7});
    std::set<TaskId> handed;
    for (int i = 0; i < 3; ++i) handed.insert(darts.pop(0));  // the third plans two tasks, hands out one
    const size_t planned = darts.planned(0).size();
    ASSERT_GT(planned, 0u);
    const std::vector<TaskId> planned_tasks(darts.planned(0).begin(), darts.planned(0).end());
    // The data all planned tasks share is the one just loaded: evict it.
    DataId shared = no_data;
    for (DataId d = 0; d < 2 * n; ++d) {
        bool all = darts.planned_in_memory(0, d);
        for (TaskId t : planned_tasks) all = all && (t / n == d || n + t % n == d);
        if (all) shared = d;
    }
    ASSERT_NE(shared, no_data);
    const int64_t unprocessed = darts.unprocessed();
    darts.evicted(0, shared);
    EXPECT_FALSE(darts.planned_in_memory(0, shared));
    EXPECT_TRUE(darts.planned(0).empty());
    EXPECT_EQ(darts.unprocessed(), unprocessed + int64_t(planned));
    // Every task is still handed out exactly once over the two GPUs.
    for (int k = 0;; k = 1 - k) {
        const TaskId t = darts.pop(k);
        if (t == no_task && darts.pop(1 - k) == no_task) break;
        if (t != no_task) {
            EXPECT_TRUE(handed.insert(t).second) << "task " << t << " handed out twice";
        }
    }
    EXPECT_EQ(handed.size(), size_t(n * n));
}

// Two GPUs with room for a few data each, LUF choosing every eviction: every task runs
// exactly once, and the GPUs share the work.
TEST(Darts, EveryTaskOnceUnderMemoryPressure) {
    const int n = 12, capacity = 6;
    for (bool three : {false, true}) {
        Darts darts = product_2d(n, 2, {three, false, 3});
        std::vector<std::vector<DataId>> memory(2);  // data on each GPU, oldest first
        std::vector<int> ran(size_t(n * n), 0), per_gpu(2, 0);
        bool more = true;
        while (more) {
            more = false;
            for (int k = 0; k < 2; ++k) {
                const TaskId t = darts.pop(k);
                if (t == no_task) continue;
                more = true;
                ++ran[size_t(t)], ++per_gpu[size_t(k)];
                for (DataId d : {DataId(t / n), DataId(n + t % n)}) {
                    std::vector<DataId>& m = memory[size_t(k)];
                    if (std::find(m.begin(), m.end(), d) != m.end()) continue;
                    while (int(m.size()) >= capacity) {  // make room, LUF's way
                        std::vector<DataId> evictable;
                        for (DataId x : m)
                            if (x != DataId(t / n) && x != DataId(n + t % n)) evictable.push_back(x);
                        const DataId v = darts.luf_victim(k, evictable);
                        ASSERT_NE(v, no_data);
                        m.erase(std::find(m.begin(), m.end(), v));
                        darts.evicted(k, v);
                    }
                    m.push_back(d);
                }
                darts.finished(k, t);
            }
        }
        for (int c : ran) EXPECT_EQ(c, 1);
        EXPECT_GT(per_gpu[0], n * n / 4);
        EXPECT_GT(per_gpu[1], n * n / 4);
    }
}

// plan_ahead runs the planning step early: tasks get planned, none is handed out, and
// the GPU then pops exactly the planned tasks, in order, before planning again.
TEST(Darts, PlanAheadPlansWithoutHandingOut) {
    const int n = 5;
    Darts darts = product_2d(n, 2);
    ASSERT_NE(darts.pop(0), no_task);  // A_i and B_j in memory of GPU 0
    darts.plan_ahead(0, 6);
    const std::deque<TaskId> planned = darts.planned(0);
    EXPECT_GE(planned.size(), 6u);
    EXPECT_EQ(darts.buffer(0).size(), 1u);
    EXPECT_EQ(darts.unprocessed(), int64_t(n * n) - 1 - int64_t(planned.size()));
    for (TaskId t : planned) EXPECT_EQ(darts.pop(0), t);
    darts.plan_ahead(1, 1000);  // more than there is: plans every unprocessed task
    EXPECT_EQ(darts.unprocessed(), 0);
    std::set<TaskId> seen(darts.buffer(0).begin(), darts.buffer(0).end());
    for (TaskId t; (t = darts.pop(1)) != no_task;) EXPECT_TRUE(seen.insert(t).second);
    EXPECT_EQ(seen.size(), size_t(n * n));
}

// What the victim selector asks before a prefetch may evict: how many planned tasks read a
// data, and the rank of the first of them in plannedTasks_k (its size when none does).
TEST(Darts, PlannedUsersAndTheFirstPlannedUse) {
    Darts darts(1, 5);
    const std::vector<std::vector<DataId>> inputs = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
    ASSERT_EQ(darts.pop(0), darts.add_task(inputs[0]));  // 0 and 1 in memory, handed out
    for (size_t t = 1; t < inputs.size(); ++t) darts.add_task(inputs[t]);
    darts.plan_ahead(0, 10);
    const auto check = [&] {
        const std::deque<TaskId>& planned = darts.planned(0);
        for (DataId d = 0; d < 5; ++d) {
            int users = 0;
            size_t first = planned.size();
            for (size_t i = 0; i < planned.size(); ++i) {
                const std::vector<DataId>& in = inputs[size_t(planned[i])];
                if (std::find(in.begin(), in.end(), d) == in.end()) continue;
                if (users++ == 0) first = i;
            }
            EXPECT_EQ(darts.planned_users(0, d), users) << "data " << d;
            EXPECT_EQ(darts.first_planned_use(0, d), first) << "data " << d;
        }
    };
    ASSERT_EQ(darts.planned(0).size(), 3u);
    check();
    EXPECT_EQ(darts.first_planned_use(0, 4), 3u);  // read by no task
    ASSERT_NE(darts.pop(0), no_task);              // the first planned task leaves the plan
    ASSERT_EQ(darts.planned(0).size(), 2u);
    check();
}

// With several GPUs, plan_ahead plans ahead only tasks a single load frees: a task that
// needs several loads waits until the GPU has nothing planned, and pop then picks it.
// With one GPU it is planned ahead like any other.
TEST(Darts, PlanAheadLeavesTasksThatNeedSeveralLoadsOnSeveralGpus) {
    Darts darts(2, 5);
    const TaskId first = darts.add_task({0, 1});
    ASSERT_EQ(darts.pop(0), first);               // data 0 and 1 now planned on GPU 0
    const TaskId freed = darts.add_task({0, 2});  // loading 2 frees it
    const TaskId two_loads = darts.add_task({3, 4});
    darts.plan_ahead(0, 10);
    EXPECT_EQ(darts.planned(0), std::deque<TaskId>{freed});
    EXPECT_EQ(darts.unprocessed(), 1);
    EXPECT_FALSE(darts.unprocessed(first));  // handed out
    EXPECT_FALSE(darts.unprocessed(freed));  // planned
    EXPECT_TRUE(darts.unprocessed(two_loads));
    EXPECT_FALSE(darts.unprocessed(no_task));
    EXPECT_EQ(darts.pop(0), freed);
    EXPECT_EQ(darts.pop(0), two_loads);
    EXPECT_EQ(darts.pop(0), no_task);
}

TEST(Darts, PlanAheadPlansTasksThatNeedSeveralLoadsOnOneGpu) {
    Darts darts(1, 5);
    ASSERT_EQ(darts.pop(0), darts.add_task({0, 1}));
    darts.add_task({0, 2});
    darts.add_task({3, 4});
    darts.plan_ahead(0, 10);
    EXPECT_EQ(darts.planned(0).size(), 2u);
    EXPECT_EQ(darts.unprocessed(), 0);
}

// Tasks submitted as their dependencies end (grain's routines) may find all their inputs
// already planned on a GPU: they need no load, so they go before any data choice, the
// highest priority first. Only on that GPU: another one still picks data as Algorithm 5.
TEST(Darts, TasksWithNothingToLoadGoFirstByPriority) {
    Darts darts(2, 4);
    const TaskId first = darts.add_task({0, 1});
    ASSERT_EQ(darts.pop(0), first);  // data 0 and 1 now planned on GPU 0
    const TaskId low = darts.add_task({0}, 1);
    const TaskId high = darts.add_task({0, 1}, 5);
    const TaskId alone = darts.add_task({2}, 9);  // needs a load, whatever its priority
    std::set<TaskId> freed_by_3;
    for (int i = 0; i < 3; ++i) freed_by_3.insert(darts.add_task({3}));  // data 3 frees three
    EXPECT_EQ(darts.pop(0), high);
    EXPECT_EQ(darts.pop(0), low);
    EXPECT_EQ(freed_by_3.count(darts.pop(0)), 1u);  // then Algorithm 5: data 3
    EXPECT_TRUE(darts.planned_in_memory(0, 3));
    EXPECT_EQ(darts.pop(1), alone);                // GPU 1 has nothing in memory
    EXPECT_FALSE(darts.planned_in_memory(1, 0));
}

// A task that needs no load and is more urgent than the next planned task goes before
// it (a task released by the one just run, often on the critical path); one as urgent
// or less waits behind the planned tasks.
TEST(Darts, UrgentTaskWithNothingToLoadGoesBeforeThePlannedOnes) {
    Darts darts(1, 4);
    const TaskId first = darts.add_task({0}, 5);
    ASSERT_EQ(darts.pop(0), first);  // data 0 planned on GPU 0
    const TaskId a = darts.add_task({0, 1}, 1), b = darts.add_task({0, 2}, 1);
    darts.plan_ahead(0, 2);
    ASSERT_EQ(darts.planned(0).size(), 2u);
    const TaskId urgent = darts.add_task({0}, 4);
    const TaskId as_urgent = darts.add_task({0}, 1);
    EXPECT_EQ(darts.pop(0), urgent);
    EXPECT_EQ(darts.planned(0).size(), 2u);  // still planned, in their order
    const TaskId next = darts.planned(0).front();
    EXPECT_TRUE(next == a || next == b);
    EXPECT_EQ(darts.pop(0), next);
    EXPECT_EQ(darts.pop(0), next == a ? b : a);
    EXPECT_EQ(darts.pop(0), as_urgent);
    EXPECT_EQ(darts.pop(0), no_task);
}

// Among data that free as many tasks, with as many users, Algorithm 5 picks at random;
// here the one that frees the most urgent task goes first (all-zero priorities, as in
// the paper's sets, leave it random).
TEST(Darts, TiesGoToTheDataThatFreesTheMostUrgentTask) {
    const std::vector<int64_t> priorities = {3, -2, 7, 0, 5, 1, -4, 6};
    Darts darts(1, int(priorities.size()));
    for (size_t d = 0; d < priorities.size(); ++d) darts.add_task({DataId(d)}, priorities[d]);
    std::vector<int64_t> order;
    for (TaskId t; (t = darts.pop(0)) != no_task;) order.push_back(priorities[size_t(t)]);
    std::vector<int64_t> expected = priorities;
    std::sort(expected.rbegin(), expected.rend());
    EXPECT_EQ(order, expected);
}

// When no data frees a task alone, Algorithm 5 takes a task at random; here one of the
// most urgent (all-zero priorities, as in the paper's sets, leave it random among all).
TEST(Darts, WithNothingFreedTheMostUrgentTaskGoesFirst) {
    const std::vector<int64_t> priorities = {3, -2, 7, 0, 5, 7, -4, 6};
    Darts darts(1, 2 * int(priorities.size()));
    for (size_t t = 0; t < priorities.size(); ++t) darts.add_task({DataId(2 * t), DataId(2 * t + 1)}, priorities[t]);
    std::vector<int64_t> order;
    for (TaskId t; (t = darts.pop(0)) != no_task;) order.push_back(priorities[size_t(t)]);
    std::vector<int64_t> expected = priorities;
    std::sort(expected.rbegin(), expected.rend());
    EXPECT_EQ(order, expected);

    // Among equally urgent tasks the pick stays random: over seeds, each comes first.
    std::set<TaskId> firsts;
    for (uint64_t seed = 1; seed <= 32; ++seed) {
        Darts same(1, 6, {false, false, seed});
        for (DataId d = 0; d < 6; d += 2) same.add_task({d, d + 1}, 2);
        same.add_task({0, 5}, 1);
        firsts.insert(same.pop(0));
    }
    EXPECT_EQ(firsts, (std::set<TaskId>{0, 1, 2}));
}

// The cores' rule, with the darts policy's core_delay (16). Times in us: a 512 syrk
// (3400 on a core, 30 on a GPU) and a 1024 trsm of a panel (25000 on a core, 500 on a GPU).
constexpr double delay = 16;

TEST(CoreRule, CoresTakeWhatTheGpusWouldEndLater) {
    CoreRuleTimes t;
    t.core_us = 3400, t.gpu_us = 30;
    t.work_us = t.ahead_us = 5000;  // the GPU ends its work after a core would end the task
    EXPECT_TRUE(core_takes(t, delay));
    t.work_us = t.ahead_us = 2000;  // before
    EXPECT_FALSE(core_takes(t, delay));
}

TEST(CoreRule, TheGpusKeepTheUrgentWorkTheyWouldReachSoon) {
    CoreRuleTimes t;
    t.core_us = 3400, t.gpu_us = 30;
    t.work_us = 100000;  // much less urgent work waits: a core would still end the task first,
    t.ahead_us = 100;    // but a GPU starts it in 0.1 ms
    EXPECT_FALSE(core_takes(t, delay));
    t.ahead_us = 1000;  // 16 x (1000 + 30) >= 3400
    EXPECT_TRUE(core_takes(t, delay));
}

TEST(CoreRule, LoadsCountOnlyForTheWorkAtLeastAsUrgent) {
    CoreRuleTimes t;
    t.core_us = 25000, t.gpu_us = 500;
    t.work_us = t.ahead_us = 4000;
    t.ahead_loads_us = 2000;  // the GPU has the panel's tile soon: it keeps the trsm
    EXPECT_FALSE(core_takes(t, delay));
    t.ahead_loads_us = 31000;  // the panel's tile comes after 31 ms of loads
    EXPECT_TRUE(core_takes(t, delay));
}

TEST(CoreRule, CoresTakeWhatAGpuCouldNotStartBeforeThePlannedLoads) {
    // A GPU with little work, whose bus brings the 96 MB of a planned 2048 gemm (8 ms).
    CoreRuleTimes t;
    t.core_us = 3400, t.gpu_us = 30;
    t.work_us = t.ahead_us = 100;
    EXPECT_FALSE(core_takes(t, delay));
    t.bus_us = 8000;
    EXPECT_TRUE(core_takes(t, delay));
    t.bus_us = 2000;  // a core would end it after the loads
    EXPECT_FALSE(core_takes(t, delay));
}

TEST(Darts, DataAddedLater) {
    Darts darts(1, 0);
    EXPECT_EQ(darts.add_data(), 0);
    EXPECT_EQ(darts.add_data(), 1);
    const TaskId t = darts.add_task({1});
    EXPECT_EQ(darts.pop(0), t);
    EXPECT_TRUE(darts.planned_in_memory(0, 1));
    EXPECT_FALSE(darts.planned_in_memory(0, 0));
}

TEST(Darts, BadInputsAreRejected) {
    EXPECT_THROW(Darts(0, 4), std::invalid_argument);
    Darts darts(1, 2);
    EXPECT_THROW(darts.add_task({2}), std::invalid_argument);
    EXPECT_THROW(darts.add_task({1, 1}), std::invalid_argument);
}

}  // namespace
}  // namespace grain::detail::sched
