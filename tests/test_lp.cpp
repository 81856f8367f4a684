// The granularity LP alone, on hand-built inputs with known answers, including the
// illustrative example of the granularity-steering slides.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "lp/durations.hpp"
#include "lp/granularity_lp.hpp"
#include "src/base/kernel_table.hpp"

namespace grain::lp {
namespace {

// Inputs builder: T types, L levels, R unit types, everything zero.
Inputs blank(int types, int levels, int units) {
    Inputs in;
    in.shape = {types, levels, units};
    in.pending.assign(size_t(types * levels), 0);
    in.children.assign(size_t(types * types * levels), 0);
    in.duration.assign(size_t(types * levels * units), 0);
    in.workers.assign(size_t(units), 1);
    in.available.assign(size_t(units), 1);
    in.min_tasks.assign(size_t(units), 0);
    return in;
}

double& pending(Inputs& in, int t, int l) { return in.pending[size_t(t * in.shape.levels + l)]; }
double& children(Inputs& in, int t, int p, int l) {
    return in.children[size_t((t * in.shape.types + p) * in.shape.levels + l)];
}
double& duration(Inputs& in, int t, int l, int u) {
    return in.duration[size_t((t * in.shape.levels + l) * in.shape.units + u)];
}
double executed(const Inputs& in, const Solution& s, int t, int l, int u) {
    return s.executed[size_t((t * in.shape.levels + l) * in.shape.units + u)];
}
double ratio(const Inputs& in, const Solution& s, int t, int l) { return s.ratio[size_t(t * in.shape.levels + l)]; }

TEST(Lp, OneTypeOneLevelSharesTheWork) {
    Inputs in = blank(1, 1, 1);
    pending(in, 0, 0) = 10;
    duration(in, 0, 0, 0) = 1;
    in.workers[0] = 2;
    GranularityLp lp;
    const Solution s = lp.solve(in);
    ASSERT_TRUE(s.solved);
    EXPECT_NEAR(s.makespan, 5, 1e-9);  // 10 one-second tasks on 2 workers
    EXPECT_NEAR(executed(in, s, 0, 0, 0), 10, 1e-9);
    EXPECT_EQ(ratio(in, s, 0, 0), 0);
}

// Two workers that are only half available take twice as long.
TEST(Lp, AvailabilityScalesTheMakespan) {
    Inputs in = blank(1, 1, 1);
    pending(in, 0, 0) = 10;
    duration(in, 0, 0, 0) = 1;
    in.workers[0] = 2;
    in.available[0] = 0.5;
    GranularityLp lp;
    EXPECT_NEAR(lp.solve(in).makespan, 10, 1e-9);
}

// A minimum of tasks per worker forces splits when there are fewer pending tasks:
// one task, 4 workers wanting 2 tasks each, a split making 8 children.
TEST(Lp, MinimumWorkForcesSplits) {
    Inputs in = blank(1, 2, 1);
    pending(in, 0, 0) = 1;
    children(in, 0, 0, 1) = 8;
    duration(in, 0, 0, 0) = 8;
    duration(in, 0, 1, 0) = 1;
    in.workers[0] = 4;
    in.min_tasks[0] = 2;
    GranularityLp lp;
    const Solution s = lp.solve(in);
    ASSERT_TRUE(s.solved);
    EXPECT_NEAR(ratio(in, s, 0, 0), 1, 1e-9);  // the task is split
    EXPECT_NEAR(executed(in, s, 0, 1, 0), 8, 1e-9);
    EXPECT_NEAR(s.makespan, 2, 1e-9);
    EXPECT_EQ(ratio(in, s, 0, 1), 0);  // never at the last level
}

// The minimum is met with tasks that exist: here one large task of type 0, while type 1
// (nothing pending) would be almost free to run. The LP must split the large task, not
// count phantom kernels of type 1 (the model with >= in (1) did, and never split).
TEST(Lp, MinimumWorkIsMetByRealTasksOnly) {
    Inputs in = blank(2, 2, 1);
    pending(in, 0, 0) = 1;
    children(in, 0, 0, 1) = 8;
    duration(in, 0, 0, 0) = 8, duration(in, 0, 1, 0) = 1.2;
    duration(in, 1, 0, 0) = 1e-6, duration(in, 1, 1, 0) = 1e-6;
    in.workers[0] = 4;
    in.min_tasks[0] = 2;
    GranularityLp lp;
    const Solution s = lp.solve(in);
    ASSERT_TRUE(s.solved);
    EXPECT_NEAR(ratio(in, s, 0, 0), 1, 1e-9);
    EXPECT_NEAR(executed(in, s, 0, 1, 0), 8, 1e-9);
    EXPECT_NEAR(executed(in, s, 1, 0, 0) + executed(in, s, 1, 1, 0), 0, 1e-9);
}

// More tasks wanted than the pending work can give even split to the last level: the
// minimum shrinks to what it can give (everything split), and the LP stays feasible.
// A type whose split creates nothing cannot be split away.
TEST(Lp, MinimumWorkBeyondWhatSplittingGivesStaysFeasible) {
    Inputs in = blank(2, 3, 1);
    pending(in, 0, 0) = 1;
    children(in, 0, 0, 1) = 4, children(in, 0, 0, 2) = 4;  // 16 kernels at the last level
    pending(in, 1, 1) = 3;  // no children: must run
    for (int t = 0; t < 2; ++t)
        for (int l = 0; l < 3; ++l) duration(in, t, l, 0) = 1;
    in.workers[0] = 16;
    in.min_tasks[0] = 8;  // 128 wanted, 19 possible
    GranularityLp lp;
    const Solution s = lp.solve(in);
    ASSERT_TRUE(s.solved);
    EXPECT_NEAR(ratio(in, s, 0, 0), 1, 1e-9);
    EXPECT_NEAR(ratio(in, s, 0, 1), 1, 1e-9);
    EXPECT_NEAR(executed(in, s, 0, 2, 0), 16, 1e-9);
    EXPECT_NEAR(executed(in, s, 1, 1, 0), 3, 1e-9);
    EXPECT_EQ(ratio(in, s, 1, 1), 0);
    EXPECT_EQ(lp.failures(), 0);
}

// The slides "Recursive tasks" (Morin et al.): GEMM, TRSM and SYRK tiles, one GPU about
// 380, 307 and 343 times as fast as one CPU core; a split makes 8 GEMMs, or 4 TRSMs + 2
// GEMMs, or 4 SYRKs + 2 GEMMs, of an eighth of the work each. GPUs lose efficiency on
// small tiles; CPU cores do not.
enum { GEMM, TRSM, SYRK, GPU = 0, CPU = 1 };

Inputs slides(double cores, double gemms, double trsms) {
    Inputs in = blank(3, 2, 2);
    const double gpu_over_core[] = {380, 307, 343};
    for (int t = GEMM; t <= SYRK; ++t) {
        duration(in, t, 0, GPU) = 1;
        duration(in, t, 1, GPU) = 1.0 / 8 * 3;  // small tiles: a third of the GPU's speed
        duration(in, t, 0, CPU) = gpu_over_core[t];
        duration(in, t, 1, CPU) = gpu_over_core[t] / 8 * 0.95;  // a little better in cache
    }
    children(in, GEMM, GEMM, 1) = 8;
    children(in, TRSM, TRSM, 1) = 4, children(in, GEMM, TRSM, 1) = 2;
    children(in, SYRK, SYRK, 1) = 4, children(in, GEMM, SYRK, 1) = 2;
    pending(in, GEMM, 0) = gemms;
    pending(in, TRSM, 0) = trsms;
    in.workers[GPU] = 2;
    in.workers[CPU] = cores;
    return in;
}

// GEMM work given to the CPUs, in top-level GEMMs.
double gemms_on_cpus(const Inputs& in, const Solution& s) {
    return executed(in, s, GEMM, 0, CPU) + executed(in, s, GEMM, 1, CPU) / 8;
}

TEST(Lp, TwoGpusAndOneCoreNeedHundredsOfGemmsBeforeTheCpuGetsOne) {
    GranularityLp lp;
    for (double gemms : {21.0, 100.0}) {
        const Inputs in = slides(1, gemms, 0);
        const Solution s = lp.solve(in);
        ASSERT_TRUE(s.solved);
        EXPECT_LT(gemms_on_cpus(in, s), 1) << gemms << " GEMMs";
    }
    const Inputs in = slides(1, 2000, 0);
    const Solution s = lp.solve(in);
    ASSERT_TRUE(s.solved);
    EXPECT_GT(gemms_on_cpus(in, s), 1);
}

TEST(Lp, TwoGpusAnd62CoresCanSplitOneOf21Gemms) {
    GranularityLp lp;
    const Inputs in = slides(62, 21, 0);
    const Solution s = lp.solve(in);
    ASSERT_TRUE(s.solved);
    EXPECT_GE(gemms_on_cpus(in, s), 1);
    EXPECT_GT(ratio(in, s, GEMM, 0), 0);  // given to the cores by splitting
    EXPECT_LT(ratio(in, s, GEMM, 0), 0.5);
}

TEST(Lp, PrefersSplittingTrsmOverGemm) {
    GranularityLp lp;
    const Inputs in = slides(62, 21, 21);
    const Solution s = lp.solve(in);
    ASSERT_TRUE(s.solved);
    EXPECT_GT(ratio(in, s, TRSM, 0), ratio(in, s, GEMM, 0));
    EXPECT_GT(ratio(in, s, TRSM, 0), 0);
}

// Cores that may not run top-level tiles (RuntimeOptions::cpu_tile_limit) get their
// share of the work only by splitting; cores that run nothing at all are asked for no
// task, and the problem stays feasible.
TEST(Lp, KindsAUnitCannotRunAreNotGivenToIt) {
    GranularityLp lp;
    Inputs in = slides(62, 100, 0);
    for (int t = GEMM; t <= SYRK; ++t)  // cores now prefer the large tiles
        duration(in, t, 1, CPU) = duration(in, t, 0, CPU) / 8 * 1.2;
    const Solution free = lp.solve(in);
    ASSERT_TRUE(free.solved);
    ASSERT_GT(executed(in, free, GEMM, 0, CPU), 1);  // else the test shows nothing
    in.runs.assign(in.duration.size(), true);
    for (int t = GEMM; t <= SYRK; ++t) in.runs[size_t((t * 2 + 0) * 2 + CPU)] = false;
    const Solution limited = lp.solve(in);
    ASSERT_TRUE(limited.solved);
    EXPECT_EQ(executed(in, limited, GEMM, 0, CPU), 0);
    EXPECT_GE(gemms_on_cpus(in, limited), 1);
    EXPECT_GT(ratio(in, limited, GEMM, 0), 0);
    EXPECT_GE(limited.makespan, free.makespan - 1e-9);
    in.min_tasks = {2, 16};
    for (int t = GEMM; t <= SYRK; ++t) in.runs[size_t((t * 2 + 1) * 2 + CPU)] = false;
    const Solution gpus_only = lp.solve(in);
    ASSERT_TRUE(gpus_only.solved);
    EXPECT_EQ(gemms_on_cpus(in, gpus_only), 0);
    EXPECT_NEAR(gpus_only.makespan, 100.0 / 2, 1e-6);  // 100 GEMMs of 1 s on 2 GPUs
    in.runs.assign(3, true);  // neither empty nor one per duration
    EXPECT_FALSE(lp.solve(in).solved);
}

TEST(Lp, DegenerateInputsGiveSaneAnswers) {
    GranularityLp lp;
    Inputs none = slides(62, 0, 0);  // nothing pending
    Solution s = lp.solve(none);
    ASSERT_TRUE(s.solved);
    EXPECT_NEAR(s.makespan, 0, 1e-12);
    for (double r : s.ratio) EXPECT_EQ(r, 0);

    Inputs one = slides(62, 1, 0);  // one task
    s = lp.solve(one);
    ASSERT_TRUE(s.solved);
    for (double r : s.ratio) EXPECT_TRUE(r >= 0 && r <= 1);

    Inputs single = blank(3, 1, 2);  // a single level: nothing can split
    pending(single, GEMM, 0) = 10;
    duration(single, GEMM, 0, GPU) = 1, duration(single, GEMM, 0, CPU) = 380;
    s = lp.solve(single);
    ASSERT_TRUE(s.solved);
    for (double r : s.ratio) EXPECT_EQ(r, 0);

    Inputs uncalibrated = slides(62, 21, 21);  // no timings at all yet
    for (double& d : uncalibrated.duration) d = 0;
    s = lp.solve(uncalibrated);
    ASSERT_TRUE(s.solved);
    for (double r : s.ratio) EXPECT_TRUE(std::isfinite(r) && r >= 0 && r <= 1);
    EXPECT_EQ(lp.failures(), 0);

    Inputs broken = slides(62, 21, 0);  // not a number: refused, counted
    broken.duration[0] = NAN;
    EXPECT_FALSE(lp.solve(broken).solved);
    broken = slides(62, 21, 0);
    broken.pending.pop_back();
    EXPECT_FALSE(lp.solve(broken).solved);
    EXPECT_EQ(lp.failures(), 2);
}

int failing_simplex(glp_prob*, const glp_smcp*) { return GLP_EFAIL; }

TEST(Lp, GlpkFailureIsCountedNotThrown) {
    GranularityLp lp(failing_simplex);
    const Solution s = lp.solve(slides(62, 21, 21));
    EXPECT_FALSE(s.solved);
    EXPECT_EQ(lp.failures(), 1);
    GranularityLp working;
    EXPECT_TRUE(working.solve(slides(62, 21, 21)).solved);  // the same inputs are fine
}

// The shape reuses one model, each solve starting from the last one's basis: solving
// other inputs of the same shape (the counts, the durations and the workers changing
// as in a run, through an empty problem), then another shape, gives the same answers
// as fresh models.
TEST(Lp, ReusedModelMatchesFreshOnes) {
    GranularityLp reused;
    int step = 0;
    for (double cores : {62.0, 1.0, 8.0})
        for (double gemms : {5.0, 21.0, 0.0, 300.0, 1.0}) {
            Inputs in = slides(cores, gemms, double(step % 3) * 7);
            duration(in, TRSM, 1, CPU) *= 1 + 0.1 * step++;
            GranularityLp fresh;
            const Solution expected = fresh.solve(in);
            const Solution got = reused.solve(in);
            ASSERT_TRUE(expected.solved && got.solved) << "step " << step;
            EXPECT_NEAR(got.makespan, expected.makespan, 1e-9 * (1 + expected.makespan)) << "step " << step;
            // A warm-started simplex meets bounds only to its tolerance; what comes out
            // must still be counts and ratios.
            for (double n : got.executed) EXPECT_GE(n, 0) << "step " << step;
            for (double n : got.split) EXPECT_GE(n, 0) << "step " << step;
            for (double r : got.ratio) EXPECT_TRUE(r >= 0 && r <= 1) << "step " << step << ": " << r;
        }
    Inputs small = blank(1, 1, 1);
    pending(small, 0, 0) = 3, duration(small, 0, 0, 0) = 1;
    EXPECT_NEAR(reused.solve(small).makespan, 3, 1e-9);
    EXPECT_EQ(reused.failures(), 0);
}

// A basis that GLPK cannot start from is replaced, and the solve goes on.
int unusable_basis_calls = 0;
int unusable_basis_first(glp_prob* problem, const glp_smcp* parm) {
    return ++unusable_basis_calls == 1 ? GLP_ESING : glp_simplex(problem, parm);
}

TEST(Lp, UnusableBasisIsReplaced) {
    GranularityLp lp(unusable_basis_first);
    const Inputs in = slides(62, 21, 21);
    const Solution s = lp.solve(in);
    ASSERT_TRUE(s.solved);
    EXPECT_EQ(unusable_basis_calls, 2);
    EXPECT_EQ(lp.failures(), 0);
    GranularityLp fresh;
    EXPECT_NEAR(s.makespan, fresh.solve(in).makespan, 1e-9 * (1 + s.makespan));
}


// The durations the lp policy prices from history (lp/durations.hpp), on a ladder of
// 1024, 512 and 256 on cores.
namespace pricing {
using grain::detail::Kernel;
const std::vector<int> ladder{1024, 512, 256};
constexpr double none = std::numeric_limits<double>::quiet_NaN();
std::vector<double> blank_history() { return std::vector<double>(grain::detail::kernel_count * ladder.size(), none); }
double& at(std::vector<double>& d, Kernel k, int level) { return d[size_t(k) * ladder.size() + size_t(level)]; }
double tile_flops(Kernel k, int level) { return grain::detail::kernel_flops(k, ladder[size_t(level)]); }
}  // namespace pricing

// What history measured is the price.
TEST(LpPricing, MeasuredDurationsAreKept) {
    using namespace pricing;
    std::vector<double> history = blank_history();
    at(history, Kernel::Gemm, 0) = 0.055, at(history, Kernel::Gemm, 2) = 0.00104;
    at(history, Kernel::Trtri, 2) = 0.0011;
    std::vector<double> priced = grain::detail::priced_durations(history, ladder, 30e9, true);
    EXPECT_EQ(at(priced, Kernel::Gemm, 0), 0.055);
    EXPECT_EQ(at(priced, Kernel::Gemm, 2), 0.00104);
    EXPECT_EQ(at(priced, Kernel::Trtri, 2), 0.0011);
}

// A coarse tile without history is priced at no worse than the best rate the unit
// showed at that size, not at its kernel's rate on small tiles: a trtri measured only
// at 256, at a fifth of gemm's rate, would otherwise look as slow per flop at 1024,
// be split every time, and never be measured whole.
TEST(LpPricing, CoarseTileWithoutHistoryIsPricedAtTheBestRateThere) {
    using namespace pricing;
    std::vector<double> history = blank_history();
    const double gemm_rate_1024 = 39e9, trtri_rate_256 = 5e9;
    at(history, Kernel::Gemm, 0) = tile_flops(Kernel::Gemm, 0) / gemm_rate_1024;
    at(history, Kernel::Gemm, 2) = tile_flops(Kernel::Gemm, 2) / 32e9;
    at(history, Kernel::Trtri, 2) = tile_flops(Kernel::Trtri, 2) / trtri_rate_256;
    std::vector<double> priced = grain::detail::priced_durations(history, ladder, 30e9, true);
    EXPECT_NEAR(at(priced, Kernel::Trtri, 0), tile_flops(Kernel::Trtri, 0) / gemm_rate_1024,
                1e-12 * at(priced, Kernel::Trtri, 0));
    // No kernel measured at 512: priced by work from the finest level with history.
    EXPECT_NEAR(at(priced, Kernel::Trtri, 1), tile_flops(Kernel::Trtri, 1) / trtri_rate_256,
                1e-12 * at(priced, Kernel::Trtri, 1));
    // A kernel faster than the best there keeps its own, lower price.
    at(history, Kernel::Gemm, 0) = tile_flops(Kernel::Gemm, 0) / 1e9;
    priced = grain::detail::priced_durations(history, ladder, 30e9, true);
    EXPECT_NEAR(at(priced, Kernel::Trtri, 0), tile_flops(Kernel::Trtri, 0) / trtri_rate_256,
                1e-12 * at(priced, Kernel::Trtri, 0));
}

// A panel's LU follows trsm's rate from level to level, from its last level with
// history; without any, on cores, it runs at trsm's, and on a GPU at the unit's default.
TEST(LpPricing, PanelFollowsTrsmAcrossLevels) {
    using namespace pricing;
    std::vector<double> history = blank_history();
    at(history, Kernel::Trsm, 0) = tile_flops(Kernel::Trsm, 0) / 32e9;
    at(history, Kernel::Trsm, 2) = tile_flops(Kernel::Trsm, 2) / 16e9;
    at(history, Kernel::Getrf, 2) = tile_flops(Kernel::Getrf, 2) / 4e9;
    std::vector<double> priced = grain::detail::priced_durations(history, ladder, 30e9, true);
    EXPECT_NEAR(at(priced, Kernel::Getrf, 0), tile_flops(Kernel::Getrf, 0) / 8e9, 1e-9 * at(priced, Kernel::Getrf, 0));
    at(history, Kernel::Getrf, 2) = none;
    priced = grain::detail::priced_durations(history, ladder, 30e9, true);
    EXPECT_NEAR(at(priced, Kernel::Getrf, 0), tile_flops(Kernel::Getrf, 0) / 32e9, 1e-9 * at(priced, Kernel::Getrf, 0));
    std::vector<double> gpu = blank_history();
    priced = grain::detail::priced_durations(gpu, ladder, 5e12, false);
    EXPECT_NEAR(at(priced, Kernel::Getrf, 0), tile_flops(Kernel::Getrf, 0) / 5e12, 1e-9 * at(priced, Kernel::Getrf, 0));
}

}  // namespace
}  // namespace grain::lp
