// Recursive tasks: ladders of tile scales, split policies, counters, and cleanliness.
// (Every routine's residuals under every policy and ladder: the Routines and Info
// suites, which ctest runs under GRAIN_TEST_SCALES and GRAIN_SPLIT.)
#include <starpu.h>

#include <map>

#include "algorithms/algorithms.hpp"
#include "common.hpp"
#include "lp/lp_split.hpp"
#include "recursion/counters.hpp"
#include "recursion/recursion.hpp"
#include "recursion/tasks.hpp"
#include "src/api/runtime_access.hpp"
#include "src/starpu/matrix_access.hpp"
#include "src/starpu/perf_models.hpp"
#include "src/starpu/tile_storage.hpp"

namespace grain::test {
namespace {

using testing::factor_residual;

// Sets a split policy for one test and puts the suite's back afterwards.
class SplitPolicy {
public:
    explicit SplitPolicy(const std::string& split) : saved_(test_runtime().split()) { test_runtime().set_split(split); }
    ~SplitPolicy() { test_runtime().set_split(saved_); }

private:
    std::string saved_;
};

TEST(Recursion, LadderOfScalesIsChecked) {
    EXPECT_NO_THROW(Matrix<double>(100, 70, std::vector<int>{64, 32, 16, 8}));
    for (const std::vector<int>& bad : std::vector<std::vector<int>>{
             {64, 48}, {64, 64}, {32, 64}, {64, 0}, {}, {256, 128, 64, 32, 16, 8, 4, 2, 1}}) {
        try {
            Matrix<double> A(100, 70, bad);
            ADD_FAILURE() << "accepted a bad ladder of " << bad.size() << " scales";
        } catch (const grain::invalid_argument& e) {
            EXPECT_EQ(e.argument(), "scales") << e.what();
        }
    }
    Matrix<double> A(64, 64, std::vector<int>{32, 16}), B(64, 64, std::vector<int>{32, 8}), C(64, 64, 32);
    try {
        gemm(Op::NoTrans, Op::NoTrans, 1.0, A, B, 0.0, C);
        ADD_FAILURE() << "accepted two ladders in one call";
    } catch (const grain::invalid_argument& e) {
        EXPECT_EQ(e.argument(), "B.scales") << e.what();
    }
}

TEST(Recursion, SplitPoliciesAreChecked) {
    const std::string before = test_runtime().split();
    for (const char* bad : {"some", "depth:", "depth:-1", "depth:1.5", "random:2", "random:0.5:x", "random"}) {
        try {
            test_runtime().set_split(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const grain::invalid_argument& e) {
            EXPECT_EQ(e.argument(), "split") << e.what();
        }
    }
    EXPECT_EQ(test_runtime().split(), before);  // unchanged by the failures
    // Not finite, or beyond what the policy can hold: refused, not read as some number.
    for (const char* bad : {"random:nan", "random:-nan", "random:inf", "depth:nan", "depth:inf", "depth:1e300",
                            "random:0.5:nan", "random:0.5:1e30", "random:0.5:-1"}) {
        EXPECT_THROW(test_runtime().set_split(bad), grain::invalid_argument) << bad;
    }
    for (const char* good : {"none", "all", "depth:0", "depth:2", "random:0.25", "random:1:7"})
        EXPECT_NO_THROW(test_runtime().set_split(good)) << good;
    test_runtime().set_split(before);
}

// gemm on n x n matrices with 2 levels and `all`: (n/b0)^3 splits, (n/b1)^3 leaf gemms.
TEST(Recursion, TaskCountsMatchTheAlgorithm) {
    const SplitPolicy all("all");
    const int n = 96, b0 = 32, b1 = 8;
    const Array<double> A = random_array<double>(n, n, Kind::General, rng());
    Matrix<double> tA = tiles_of(A, {b0, b1}), tB = tiles_of(A, {b0, b1}), tC(n, n, std::vector<int>{b0, b1});
    test_runtime().reset_statistics();
    ASSERT_EQ(gemm(Op::NoTrans, Op::Trans, 1.0, tA, tB, 0.0, tC), 0);
    const Statistics s = test_runtime().statistics();
    EXPECT_EQ(s.at("gemm", 0).submitted, 27);
    EXPECT_EQ(s.at("gemm", 0).split, 27);
    EXPECT_EQ(s.at("gemm", 1).submitted, 12 * 12 * 12);
    EXPECT_EQ(s.at("gemm", 1).finished, 12 * 12 * 12);
    EXPECT_EQ(s.at("", 1).finished, 12 * 12 * 12);  // nothing else ran
    EXPECT_EQ(s.at("", 0).finished, 0);
    const TaskCounts leaves = s.at("gemm", 1);
    EXPECT_EQ(leaves.ready, leaves.finished);
    EXPECT_EQ(leaves.started, leaves.finished);
}

// Cholesky with 3 levels: depth:1 runs every kernel at level 1, none at levels 0 and 2.
TEST(Recursion, DepthPolicyStopsAtItsLevel) {
    const SplitPolicy depth("depth:1");
    const int n = 64;
    const Array<double> A = random_array<double>(n, n, Kind::Spd, rng());
    Matrix<double> tA = tiles_of(A, {32, 16, 8});
    test_runtime().reset_statistics();
    ASSERT_EQ(potrf(Uplo::Lower, tA), 0);
    const Statistics s = test_runtime().statistics();
    EXPECT_EQ(s.at("", 0).finished, 0);
    EXPECT_EQ(s.at("", 2).submitted, 0);
    // 2 x 2 tiles: potrf, trsm, syrk, potrf, all split into 2 x 2 grids. A split potrf
    // gives potrf 2, trsm 1, syrk 1; the trsm gives trsm 4, gemm 2; the syrk gives
    // syrk 4, gemm 2.
    EXPECT_EQ(s.at("", 0).split, 4);
    EXPECT_EQ(s.at("potrf", 1).finished, 2 + 2);
    EXPECT_EQ(s.at("trsm", 1).finished, 1 + 4 + 1);
    EXPECT_EQ(s.at("syrk", 1).finished, 1 + 4 + 1);
    EXPECT_EQ(s.at("gemm", 1).finished, 2 + 2);
    EXPECT_LT(factor_residual(A, testing::cholesky_product(Uplo::Lower, to_array(tA))), 60);
}

// What one split creates, learned from the algorithms in counting mode (the LP's nch), in
// tasks on one sub-tile: a column task (a panel, laswp) on h sub-tiles counts as h.
TEST(Recursion, SplitChildrenAreCountedFromTheAlgorithms) {
    using detail::Kernel;
    struct Expected {
        Kernel parent;
        int nb, child_nb;
        Kernel kind;
        double count;
    };
    const Expected table[] = {
        {Kernel::Gemm, 32, 16, Kernel::Gemm, 8},          {Kernel::Gemm, 64, 16, Kernel::Gemm, 64},
        {Kernel::Potrf, 32, 16, Kernel::Potrf, 2},        {Kernel::Potrf, 32, 16, Kernel::Trsm, 1},
        {Kernel::Potrf, 32, 16, Kernel::Syrk, 1},         {Kernel::Potrf, 32, 16, Kernel::Gemm, 0},
        {Kernel::Trsm, 32, 16, Kernel::Trsm, 4},          {Kernel::Trsm, 32, 16, Kernel::Gemm, 2},
        {Kernel::Syrk, 32, 16, Kernel::Syrk, 4},          {Kernel::Syrk, 32, 16, Kernel::Gemm, 2},
        {Kernel::GetrfNopiv, 32, 16, Kernel::GetrfNopiv, 2}, {Kernel::GetrfNopiv, 32, 16, Kernel::Trsm, 2},
        {Kernel::GetrfNopiv, 32, 16, Kernel::Gemm, 1},
        // Panels of 2 and 1 sub-tiles; interchanges on the right column (2 sub-tiles) and
        // on the left one (1). In 4 x 4: panels of 4, 3, 2, 1; to the right of step k,
        // 3 - k columns of 4 - k; to the left, k columns of 4 - k.
        {Kernel::Getrf, 32, 16, Kernel::Getrf, 2 + 1},    {Kernel::Getrf, 32, 16, Kernel::Laswp, 2 + 1},
        {Kernel::Getrf, 32, 16, Kernel::Trsm, 1},         {Kernel::Getrf, 32, 16, Kernel::Gemm, 1},
        {Kernel::Getrf, 64, 16, Kernel::Getrf, 4 + 3 + 2 + 1}, {Kernel::Getrf, 64, 16, Kernel::Laswp, 20 + 10},
    };
    for (const Expected& e : table)
        EXPECT_DOUBLE_EQ(detail::split_children(e.parent, e.nb, e.child_nb, 'd')[size_t(e.kind)], e.count)
            << detail::kernel_name(e.parent) << " " << e.nb << "/" << e.child_nb << " -> " << detail::kernel_name(e.kind);
    EXPECT_EQ(detail::registered_tile_handles(), 0);  // counting registers nothing
}

// A call's column tasks weigh their height in tiles, whatever the width of their last
// tile column: an LU of a 100 x 33 matrix in tiles of 16 (7 x 3 tiles, the last column
// one wide) has panels of 7, 6 and 5 tiles.
TEST(Recursion, ColumnTasksWeighTheirHeight) {
    using detail::Kernel;
    detail::TileStorage<double> a(100, 33, {16}, nullptr, 100);  // no memory: counting only
    const detail::CountedTasks count = detail::count_tasks(
        [&](const detail::Context& ctx) { algorithms::getrf(ctx, detail::MatrixAccess::view(a), detail::PivotBlocks{}); });
    EXPECT_EQ(count.tasks[size_t(Kernel::Getrf)], 3);
    EXPECT_DOUBLE_EQ(count.tile_tasks[size_t(Kernel::Getrf)], 7 + 6 + 5);
    // To the right of steps 0 and 1: 2 columns of 7 tiles, 1 of 6; to the left of steps 1
    // and 2: 1 column of 6, 2 of 5.
    EXPECT_EQ(count.tasks[size_t(Kernel::Laswp)], 6);
    EXPECT_DOUBLE_EQ(count.tile_tasks[size_t(Kernel::Laswp)], 14 + 6 + 6 + 10);
    EXPECT_EQ(count.tasks[size_t(Kernel::Gemm)], count.tile_tasks[size_t(Kernel::Gemm)]);
}

// Sub-task priorities order first by their parents' priorities, then by their own.
TEST(Recursion, PrioritiesComposeDownTheLadder) {
    using detail::composed_priority;
    EXPECT_EQ(composed_priority(0, 7, 0, 1), 7);  // one level: the loop nest's priority
    EXPECT_EQ(composed_priority(0, -3, 0, 1), -3);
    const int levels = 3;
    const int64_t urgent = composed_priority(0, 6, 0, levels), later = composed_priority(0, 5, 0, levels);
    EXPECT_GT(urgent, later);
    // Whatever their own priorities, the sub-tasks of the urgent task come first...
    const int64_t urgent_child = composed_priority(urgent, -40, 1, levels);
    const int64_t later_child = composed_priority(later, 40, 1, levels);
    EXPECT_GT(urgent_child, later_child);
    // ... and so do their own sub-tasks, one level further down.
    EXPECT_GT(composed_priority(urgent_child, -40, 2, levels), composed_priority(later_child, 40, 2, levels));
    // Among siblings, their own priorities decide; an unsplit task sits with its siblings' sub-tasks.
    EXPECT_GT(composed_priority(urgent, 2, 1, levels), composed_priority(urgent, 1, 1, levels));
    EXPECT_GT(composed_priority(urgent, 1, 1, levels), urgent);
    // Priorities far out of range are clamped, not wrapped into another parent's range.
    EXPECT_GT(composed_priority(urgent, -1000000, 1, levels), later);
    // The deepest ladder stays within StarPU's int priorities.
    int64_t deepest = 0;
    for (int l = 0; l < 8; ++l) deepest = composed_priority(deepest, 1 << 20, l, 8);
    EXPECT_LT(deepest, int64_t(1) << 31);
}

// A long-running application does not grow: the policy keeps the last
// LpStatistics::history_limit solves, and running totals of them all.
TEST(Recursion, LpHistoryIsBounded) {
    const SplitPolicy lp("lp");
    const Array<double> A = random_array<double>(48, 48, Kind::Spd, rng());
    test_runtime().reset_statistics();
    const size_t limit = LpStatistics::history_limit;
    double kept_ms = 0;
    Statistics s;
    for (int call = 0; call < 20 * int(limit) && size_t(s.lp.solves) <= limit + 10; ++call) {
        Matrix<double> tA = tiles_of(A, {32, 16, 8});
        ASSERT_EQ(potrf(Uplo::Lower, tA), 0);
        if (call % 50 == 0) s = test_runtime().statistics();
    }
    s = test_runtime().statistics();
    ASSERT_GT(size_t(s.lp.solves), limit);
    EXPECT_EQ(s.lp.history.size(), limit);
    for (const LpSolve& solve : s.lp.history) kept_ms += solve.milliseconds;
    EXPECT_GE(s.lp.total_milliseconds, kept_ms);
    EXPECT_GE(s.lp.max_milliseconds, s.lp.history.back().milliseconds);
    for (size_t i = 1; i < s.lp.history.size(); ++i)  // the last ones, oldest first
        EXPECT_GE(s.lp.history[i].at, s.lp.history[i - 1].at);
    test_runtime().reset_statistics();
    EXPECT_TRUE(test_runtime().statistics().lp.history.empty());
}

// The lp policy solves at its first decision, then once per period of submitted
// tasks (at the first decision after it), and reports each solve.
TEST(Recursion, LpPolicySolvesEveryPeriod) {
    const SplitPolicy lp("lp");
    ASSERT_EQ(test_runtime().split(), "lp");
    const Array<double> A = random_array<double>(150, 150, Kind::Spd, rng());
    Matrix<double> tA = tiles_of(A, {64, 32, 16});
    test_runtime().reset_statistics();
    ASSERT_EQ(potrf(Uplo::Lower, tA), 0);
    EXPECT_LT(factor_residual(A, testing::cholesky_product(Uplo::Lower, to_array(tA))), 60);
    const Statistics s = test_runtime().statistics();
    const int64_t period = 50;  // the default
    ASSERT_EQ(s.lp.history.size(), size_t(s.lp.solves));
    ASSERT_GE(s.lp.solves, 2);
    EXPECT_EQ(s.lp.history[0].submitted, 1);  // the first task is a decision at level 0
    EXPECT_TRUE(s.lp.history[0].cause == "first" || s.lp.history[0].cause == "ladder") << s.lp.history[0].cause;
    // That first solve sees the whole call: its level-0 tasks not submitted yet are
    // pending work for the LP, not only the one being decided.
    for (size_t op = 0; op < s.operations.size(); ++op)
        EXPECT_EQ(s.lp.history[0].pending[op * size_t(s.lp.levels)], double(s.at(s.operations[op], 0).submitted))
            << s.operations[op];
    const bool gpus = starpu_cuda_worker_get_count() > 0;
    for (size_t i = 1; i < s.lp.history.size(); ++i) {
        const LpSolve& solve = s.lp.history[i];
        if (solve.cause == "new kind") {  // an early solve, with GPUs only
            EXPECT_TRUE(gpus);
        } else {
            // A period after the last solve, of either cause (a new kind's restarts the
            // count); a decision comes within the tasks one split of a level-1 tile creates
            // (at most 8), so not much later either.
            ASSERT_EQ(solve.cause, "period");
            const int64_t gap = solve.submitted - s.lp.history[i - 1].submitted;
            EXPECT_GE(gap, period);
            EXPECT_LE(gap, period + 8);
        }
    }
    EXPECT_EQ(s.lp.failures, 0);
    EXPECT_EQ(s.lp.levels, 3);
    int64_t submitted_kinds = 0;  // (operation, level) with tasks; one unit type here
    for (size_t op = 0; op < s.operations.size(); ++op)
        for (int l = 0; l < s.lp.levels; ++l) submitted_kinds += s.at(s.operations[op], l).submitted > 0;
    EXPECT_LE(s.lp.uncalibrated, submitted_kinds);
    double cpu_ms = 0;
    for (const LpSolve& solve : s.lp.history) {
        cpu_ms += solve.cpu_milliseconds;
        EXPECT_TRUE(solve.solved);
        EXPECT_GE(solve.milliseconds, 0);
        // The thread's CPU time within the solve's wall time (a clock mixed up, or a
        // unit, would be far off).
        EXPECT_GE(solve.cpu_milliseconds, 0);
        EXPECT_LE(solve.cpu_milliseconds, solve.milliseconds + 0.05);
        for (double r : solve.ratios) EXPECT_TRUE(r >= 0 && r <= 1) << r;
    }
    EXPECT_GT(cpu_ms, 0);
    EXPECT_GT(s.at("", 0).split + s.at("", 1).split, 0);  // 3 x 3 tiles cannot feed 2 workers 8 tasks each
}

// A routine call counts its top-level tasks before submitting them: the calls' work in
// flight, which the lp policy measures tasks against, adds up over calls submitted
// while others run, and starts anew with a call that finds none running.
TEST(Recursion, CallsInFlightAddUpTheirWork) {
    const SplitPolicy none("none");
    const detail::Counters& counters = detail::active_recursion("test").counters();
    const int n = 128;  // 2 x 2 tiles of 64
    const Array<double> A = random_array<double>(n, n, Kind::Spd, rng());
    Matrix<double> tA = tiles_of(A, {64, 32}), tB = tiles_of(A, {64, 32});
    const double potrf_flops = double(n) * n * n / 3;
    starpu_pause();  // the first call's tasks stay in flight while the second is submitted
    Request first = potrf_async(Uplo::Lower, tA);
    const double after_first = counters.call_flops;
    Request second = potrf_async(Uplo::Upper, tB);
    const double after_both = counters.call_flops;
    starpu_resume();
    ASSERT_EQ(first.wait(), 0);
    ASSERT_EQ(second.wait(), 0);
    EXPECT_DOUBLE_EQ(after_first, potrf_flops);
    EXPECT_DOUBLE_EQ(after_both, 2 * potrf_flops);
    // Nothing runs now. 100 x 100 on tiles of 64 counts as 2 x 2 full tiles, like 128.
    Matrix<double> tC = tiles_of(random_array<double>(100, 100, Kind::Spd, rng()), {64, 32});
    ASSERT_EQ(getrf_nopiv(tC), 0);
    EXPECT_DOUBLE_EQ(counters.call_flops, 2 * potrf_flops);
    // With one scale no task can be split: nothing is counted.
    Matrix<double> tD = tiles_of(A, {64});
    ASSERT_EQ(potrf(Uplo::Lower, tD), 0);
    EXPECT_DOUBLE_EQ(counters.call_flops, 2 * potrf_flops);
}

// On CPU cores, the lp policy splits a task carrying more than 1/(R x MinN) of the
// calls' work in flight (R workers, MinN = 16 tasks each) whatever its target, where
// neither the LP, nor the workers' need, nor the critical path would.
TEST(Recursion, LpPolicySplitsTasksTooCoarseForTheCalls) {
    test_runtime();
    if (starpu_cuda_worker_get_count() > 0) GTEST_SKIP() << "a rule for CPU cores alone";
    const auto policy = detail::make_lp_split(50);
    policy->started();  // as the runtime does: reads the models its durations come from
    detail::Counters counters;
    // 1000 gemms ready at level 0: the workers lack nothing, and the work ready beside
    // one of them is 999 times its own.
    detail::TaskCounters& gemms = counters.at(detail::Kernel::Gemm, 0);
    gemms.submitted = 1000;
    gemms.ready = 1000;
    const std::vector<int> ladder{512, 256};
    const detail::TaskSite site{detail::Kernel::Gemm, 0, 2, 0, 0, &ladder, 'd', nullptr, false};
    const double share = detail::kernel_flops(detail::Kernel::Gemm, 512) * starpu_cpu_worker_get_count() * 16;
    EXPECT_FALSE(policy->split(site, counters));  // no call counted
    counters.call_flops = 2 * share;
    EXPECT_FALSE(policy->split(site, counters));
    counters.call_flops = share / 2;
    EXPECT_TRUE(policy->split(site, counters));
}

// A panel (a column task) carries its whole column's work: the same rule weighs a panel
// of four tiles at four tiles' LU, where a one-tile panel of the same call stays whole.
TEST(Recursion, LpPolicyWeighsAPanelByItsColumn) {
    test_runtime();
    if (starpu_cuda_worker_get_count() > 0) GTEST_SKIP() << "a rule for CPU cores alone";
    using detail::Kernel;
    const std::vector<int> ladder{512, 256};
    const double share = starpu_cpu_worker_get_count() * 16;  // the call's work over one task's
    const double one_tile = detail::kernel_flops(Kernel::Getrf, 512, 512, 512);
    const double column = detail::kernel_flops(Kernel::Getrf, 4 * 512, 512, 512);
    ASSERT_GT(column, 3 * one_tile);
    for (const int height : {1, 4}) {
        const auto policy = detail::make_lp_split(50);
        policy->started();
        detail::Counters counters;
        detail::TaskCounters& gemms = counters.at(Kernel::Gemm, 0);  // the workers lack nothing
        gemms.submitted = 1000;
        gemms.ready = 1000;
        counters.call_flops = share * 2 * one_tile;  // a one-tile panel is half too coarse
        detail::TaskSite site{Kernel::Getrf, 0, 2, 0, 0, &ladder, 'd', nullptr, false};
        site.height = height;
        EXPECT_EQ(policy->split(site, counters), height == 4) << "height " << height;
    }
}

// Below its target, a task is split only while the workers lack ready tasks: fewer than
// 8 each (half the LP's MinN of 16 tasks each, which sets the target here).
TEST(Recursion, LpPolicySplitsBelowTargetOnlyWhileWorkersLackTasks) {
    test_runtime();
    if (starpu_cuda_worker_get_count() > 0) GTEST_SKIP() << "a rule for CPU cores alone";
    const int cores = int(starpu_cpu_worker_get_count());
    const std::vector<int> ladder{512, 256};
    const detail::TaskSite site{detail::Kernel::Gemm, 0, 2, 0, 0, &ladder, 'd', nullptr, false};
    // `ready` gemms at level 0, all ready, none started: fewer than the 16 per core the
    // LP wants executed, so it splits some (target > 0: a split once the decisions'
    // credit reaches one); more than one per core, so the critical path splits none; no
    // call counted, so the calls' work splits none. Whether one of `ready` decisions
    // splits (the counters stay, so the LP does not solve again):
    auto splits_one = [&](int ready) {
        const auto policy = detail::make_lp_split(50);
        policy->started();
        detail::Counters counters;
        detail::TaskCounters& gemms = counters.at(detail::Kernel::Gemm, 0);
        gemms.submitted = ready;
        gemms.ready = ready;
        for (int decision = 0; decision < ready; ++decision)
            if (policy->split(site, counters)) return true;
        return false;
    };
    EXPECT_TRUE(splits_one(6 * cores));
    EXPECT_TRUE(splits_one(8 * cores - 1));
    EXPECT_FALSE(splits_one(8 * cores));
    EXPECT_FALSE(splits_one(12 * cores));
}

// Many runs in one process: no handle or plan is left behind.
TEST(Recursion, ManyRunsLeaveNothingBehind) {
    for (int run = 0; run < 40; ++run) {
        const SplitPolicy random("random:0.5:" + std::to_string(run));
        const Array<double> A = random_array<double>(70, 70, Kind::Spd, rng());
        const Array<double> B = random_array<double>(70, 3, Kind::General, rng());
        {
            Matrix<double> tA = tiles_of(A, {32, 16, 8}), tB = tiles_of(B, {32, 16, 8});
            ASSERT_EQ(posv(Uplo::Upper, tA, tB), 0);
            EXPECT_LT(testing::solve_residual(Side::Left, Op::NoTrans, A, to_array(tB), 1.0, B), 60);
            EXPECT_GT(detail::live_partition_plans(), 0);
        }
        EXPECT_EQ(detail::registered_tile_handles(), 0);
        EXPECT_EQ(detail::live_partition_plans(), 0);
    }
    starpu_task_wait_for_all();
    EXPECT_EQ(starpu_task_nsubmitted(), 0);
}

// A tile read by split and unsplit tasks alike, and written by both in turn.
TEST(Recursion, TilesSharedBySplitAndUnsplitTasks) {
    for (int seed = 0; seed < 20; ++seed) {
        const SplitPolicy random("random:0.5:" + std::to_string(seed));
        const Array<double> A = random_array<double>(48, 48, Kind::General, rng());
        const Array<double> B = random_array<double>(48, 48, Kind::General, rng());
        Matrix<double> tA = tiles_of(A, {16, 8, 4}), tB = tiles_of(B, {16, 8, 4});
        Matrix<double> tC(48, 48, std::vector<int>{16, 8, 4});
        Request first = gemm_async(Op::NoTrans, Op::NoTrans, 1.0, tA, tB, 0.0, tC);
        Request second = gemm_async(Op::Trans, Op::NoTrans, -1.0, tA, tB, 1.0, tC);  // C = A B - A^T B
        EXPECT_EQ(first.wait(), 0);
        EXPECT_EQ(second.wait(), 0);
        Array<double> ref(48, 48);
        blas::gemm(Op::NoTrans, Op::NoTrans, 48, 48, 48, 1.0, A.data(), 48, B.data(), 48, 0.0, ref.data(), 48);
        blas::gemm(Op::Trans, Op::NoTrans, 48, 48, 48, -1.0, A.data(), 48, B.data(), 48, 1.0, ref.data(), 48);
        const double error = testing::norm('M', testing::minus(to_array(tC), ref));
        EXPECT_LT(testing::gemm_residual(error, 1.0, testing::norm('M', A), testing::norm('M', B), 1.0, 0.0, 96), 10)
            << "seed " << seed;
    }
}

// The trace: every kernel task that ran appears once, on the worker that ran it (as
// StarPU's per-worker profiling counts them), with its kernel, level and times.
TEST(Recursion, TraceRecordsEveryKernelOnItsWorker) {
    const SplitPolicy random("random:0.5:7");
    Runtime& runtime = test_runtime();
    const Array<double> A = random_array<double>(150, 150, Kind::Spd, rng());
    Matrix<double> tA = tiles_of(A, {64, 32, 16});
    runtime.set_trace(true);
    runtime.reset_statistics();
    const int workers = int(starpu_worker_get_count());
    starpu_profiling_worker_info info;
    for (int w = 0; w < workers; ++w) starpu_profiling_worker_get_info(w, &info);  // resets them
    ASSERT_EQ(potrf_async(Uplo::Lower, tA).wait(), 0);  // the _async form: no NaN-check tasks
    starpu_task_wait_for_all();
    const std::vector<TaskRecord> trace = runtime.trace();
    const Statistics s = runtime.statistics();
    std::vector<int> ran(size_t(workers), 0);
    for (int w = 0; w < workers; ++w) {
        ASSERT_EQ(starpu_profiling_worker_get_info(w, &info), 0);
        ran[size_t(w)] = info.executed_tasks;
    }
    runtime.set_trace(false);
    ASSERT_FALSE(trace.empty());
    std::vector<int> recorded(size_t(workers), 0);
    std::map<std::pair<std::string, int>, int64_t> per_kind;
    const std::vector<int> scales{64, 32, 16};
    for (const TaskRecord& r : trace) {
        ASSERT_GE(r.worker, 0);
        ASSERT_LT(r.worker, workers);
        ++recorded[size_t(r.worker)];
        EXPECT_EQ(r.gpu, starpu_worker_get_type(r.worker) == STARPU_CUDA_WORKER);
        ++per_kind[{r.operation, r.level}];
        ASSERT_GE(r.level, 0);
        ASSERT_LT(r.level, 3);
        EXPECT_GT(r.rows, 0);
        EXPECT_LE(r.rows, scales[size_t(r.level)]);
        EXPECT_LE(r.cols, scales[size_t(r.level)]);
        EXPECT_LE(r.submit_us, r.start_us);
        EXPECT_LE(r.start_us, r.end_us);
        if (!r.gpu) {
            EXPECT_EQ(r.bytes_loaded, 0);  // every tile lives in host memory
        }
    }
    EXPECT_EQ(recorded, ran);
    for (size_t op = 0; op < s.operations.size(); ++op)
        for (int l = 0; l < s.levels(); ++l) {
            const int64_t finished = s.counts[op][size_t(l)].finished;
            const auto it = per_kind.find({s.operations[op], l});
            EXPECT_EQ(it == per_kind.end() ? 0 : it->second, finished) << s.operations[op] << " level " << l;
        }
    EXPECT_TRUE(runtime.trace().empty());  // off: nothing kept
}

}  // namespace
}  // namespace grain::test
