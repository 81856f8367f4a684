#include "lp_split.hpp"

#include <starpu.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <deque>

#include "durations.hpp"
#include "granularity_lp.hpp"
#include "recursion/tasks.hpp"
#include "lp_tuning.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/starpu/codelets.hpp"
#include "src/starpu/perf_models.hpp"

namespace grain::detail {

namespace {

constexpr int kinds = int(kernel_count);
// The processing-unit types of the LP: CPU cores, and GPUs where there are any.
struct Unit {
    starpu_worker_archtype type;
    double estimated_flops;  // of one worker
    double min_tasks;        // MinN
};
constexpr Unit cpu_unit{STARPU_CPU_WORKER, lp_tuning::cpu_estimated_flops, lp_tuning::tasks_per_worker};
constexpr Unit cuda_unit{STARPU_CUDA_WORKER, lp_tuning::cuda_estimated_flops, lp_tuning::tasks_per_gpu};

// The calling thread's CPU time: a solve's cost to the machine, where its wall time also
// counts the scheduler ticks in which the thread waited for a core busy with tasks.
double thread_cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

class LpSplit final : public SplitPolicy {
public:
    explicit LpSplit(int period) : period_(period), start_(std::chrono::steady_clock::now()) {}

    // Warms GLPK up before any task runs (the Runtime has read the kernels' models): a
    // process's first solve of a full-sized problem costs milliseconds, a warm solve a
    // tenth of one. It solves the problem a four-scale ladder starts with, then
    // one task of each type alone (as a run's first decision sees it), and forgets them
    // (doc/results/tuning-history.md#lp-warm-up).
    void started() override {
        learn_ladder(4, {4096, 2048, 1024, 512}, scalar_traits<double>::letter);
        update_durations(Counters{});
        for (int t = 0; t < kinds; ++t) inputs_.pending[size_t(t * levels_)] = 4;
        lp_.solve(inputs_);
        for (int t = 0; t < kinds; ++t) {
            std::fill(inputs_.pending.begin(), inputs_.pending.end(), 0);
            inputs_.pending[size_t(t * levels_)] = 1;
            lp_.solve(inputs_);
        }
        levels_ = 0;  // the first decision learns the run's ladder
        stats_ = LpStatistics{};
        history_.clear();
        start_ = std::chrono::steady_clock::now();
    }

    // Solves at the first decision (after a reset too), then at the first decision after
    // `period` more tasks were submitted, split or not, at any level, as the slides count
    // them (doc/results/tuning-history.md#lp-period). With GPUs, also at the first decision on
    // a kind the last solve had no task of: its ratios say nothing of that kind, and the
    // workers' need, counted in cores, would split the GPUs' large tiles; on cores alone
    // the need still decides (#lp-solve-on-new-kind).
    bool split(const TaskSite& site, const Counters& counters) override {
        if (!site.scales) return false;
        const bool new_ladder =
            site.levels != levels_ || *site.scales != scales_ || site.precision != precision_;
        const int64_t submitted = int64_t(submitted_tasks(counters));
        const char* cause = new_ladder                                              ? "ladder"
                            : stats_.solves == 0                                    ? "first"
                            : submitted < solved_at_                                ? "restart"
                            : submitted - solved_at_ >= period_                     ? "period"
                            : units_.size() > 1 && !known_[kind(int(site.op), site.level)] ? "new kind"
                                                                                    : nullptr;
        if (cause) solve(counters, cause, new_ladder ? &site : nullptr);
        const size_t k = kind(int(site.op), site.level);
        if (too_coarse_for_the_calls(site, counters) || longer_than_the_rest(site, counters)) return true;
        // The kind's target as a running credit: each decision adds it (up to 1), a split
        // spends 1. It carries over solves: counted from each solve, the first decision
        // after one split at any target above 0, and with GPUs solves come every few
        // decisions of a kind (doc/results/2026-11-27-sim-h100-darts-vs-dmdar-windows.md).
        // Where the last solve had no task of
        // this kind, it has no ratio for it: the workers' need decides alone (with GPUs,
        // only after a failed solve, see above).
        if (known_[k]) credit_[k] = std::min(1.0, credit_[k] + targets_[k]);
        const bool below_target = !known_[k] || credit_[k] >= 1 - 1e-9;
        if (!below_target || !workers_lack_tasks(counters)) return false;
        if (!critical_path_allows(site, counters)) return false;
        if (known_[k]) credit_[k] -= 1;
        return true;
    }

    void report(Statistics& s) const override {
        s.lp = stats_;
        s.lp.history.assign(history_.begin(), history_.end());
    }
    void reset() override {
        const int levels = stats_.levels;
        stats_ = LpStatistics{};
        history_.clear();
        stats_.levels = levels;
        stats_.ratios = targets_;
        start_ = std::chrono::steady_clock::now();
    }

private:
    // A new ladder (or precision): what one split creates, and where the kernels'
    // durations are in their models.
    void learn_ladder(int levels, const std::vector<int>& scales, char precision) {
        levels_ = levels;
        scales_ = scales;
        precision_ = precision;
        const size_t tl = size_t(kinds * levels_);
        targets_.assign(tl, 0);  // no split before the first solve
        known_.assign(tl, true);
        credit_.assign(tl, 0);
        units_ = {cpu_unit};
        if (starpu_cuda_worker_get_count() > 0) units_.push_back(cuda_unit);
        const int units = int(units_.size());
        inputs_ = lp::Inputs{};
        inputs_.shape = {kinds, levels_, units};
        inputs_.children.assign(size_t(kinds * kinds * levels_), 0);
        for (int l = 1; l < levels_; ++l)
            for (int p = 0; p < kinds; ++p) {
                const auto created = split_children(Kernel(p), scales_[size_t(l - 1)], scales_[size_t(l)], precision_);
                for (int t = 0; t < kinds; ++t)
                    inputs_.children[size_t((t * kinds + p) * levels_ + l)] = double(created[size_t(t)]);
            }
        inputs_.duration.assign(tl * size_t(units), std::nan(""));
        calibrated_.assign(tl * size_t(units), false);
        kernel_seconds_.assign(tl * size_t(units), std::nan(""));
        footprints_.clear();
        for (int l = 0; l < levels_; ++l) footprints_.push_back(tile_footprints(scales_[size_t(l)]));
        inputs_.pending.assign(tl, 0);
        // With GPUs, the cores' MinN is 0: (4) would otherwise split tiles for cores that
        // would take seconds on them, the scheduler gives those tiles to the GPUs (a core
        // takes a task only if it would end it no later than a GPU), and the next solve
        // splits more (doc/notes/splits-on-gpus.md).
        for (const Unit& u : units_) {
            inputs_.workers.push_back(double(starpu_worker_get_count_by_type(u.type)));
            inputs_.available.push_back(1);
            inputs_.min_tasks.push_back(u.type == STARPU_CPU_WORKER && units_.size() > 1 ? 0 : u.min_tasks);
        }
        stats_.levels = levels_;
        stats_.ratios = targets_;
    }

    // Durations per (type, level, unit type) on one worker of the type: the history
    // model's where it has one (a column kernel's: of a one-tile column, as the LP's
    // kinds are square tiles), else priced from the other levels and kernels
    // (durations.hpp). Models are asked by footprint (a hash lookup, no registration),
    // and only those of the types the run can submit: asking a model about a size it has
    // no history for makes StarPU measure the run's tasks of it
    // (doc/results/tuning-history.md#duration-queries). Counts in the statistics the
    // durations estimated for kinds the run has submitted.
    void update_durations(const Counters& counters) {
        stats_.uncalibrated = 0;
        const std::vector<bool> in_run = types_in_run(counters);
        const size_t units = units_.size();
        for (size_t u = 0; u < units; ++u) {
            const int worker = starpu_worker_get_by_type(units_[u].type, 0);
            auto at = [&](int t, int l) { return kind(t, l) * units + u; };
            std::vector<double> measured(size_t(kinds * levels_), std::nan(""));
            for (int t = 0; t < kinds; ++t)
                for (int l = 0; l < levels_; ++l)
                    if (calibrated_[at(t, l)])
                        measured[kind(t, l)] = kernel_seconds_[at(t, l)];
                    else if (in_run[size_t(t)])
                        measured[kind(t, l)] =
                            history_duration(Kernel(t), precision_, footprints_[size_t(l)][size_t(t)], worker);
            const std::vector<double> priced =
                priced_durations(measured, scales_, units_[u].estimated_flops, units_[u].type == STARPU_CPU_WORKER);
            for (int t = 0; t < kinds; ++t)
                for (int l = 0; l < levels_; ++l) {
                    calibrated_[at(t, l)] = !std::isnan(measured[kind(t, l)]);
                    if (!calibrated_[at(t, l)] && counters.at(Kernel(t), l).submitted > 0) ++stats_.uncalibrated;
                    kernel_seconds_[at(t, l)] = inputs_.duration[at(t, l)] = priced[kind(t, l)];
                }
        }
    }

    // While GPUs run, the cores run no tile over the limit (codelets.cpp): the LP must
    // not count on them for such tasks, or it leaves the tasks whole for cores that
    // never take them.
    //
    // Nor for any task where all the cores together run under lp_tuning::least_core_share
    // of the machine's flop rate (each unit's best rate over the kernels calibrated on
    // it): the area bound would still cut tiles for the work they can take, but what they
    // add does not pay for the splits (15 cores beside an H200:
    // doc/results/2026-11-28-sim-h200-lp.md). The LP then only chooses the GPUs' tile
    // sizes, from kernel times that leave out what each task costs its worker: it adds
    // lp_tuning::gpu_task_seconds to them, so that a tile is cut only where its children's
    // kernels gain more than their tasks cost.
    void update_runs() {
        const int limit = cpu_tile_limit();
        const size_t units = units_.size();
        inputs_.runs.assign(size_t(kinds * levels_) * units, true);
        if (units == 1) return;
        if (limit > 0)
            for (int t = 0; t < kinds; ++t)
                for (int l = 0; l < levels_; ++l) inputs_.runs[kind(t, l) * units] = scales_[size_t(l)] <= limit;
        if (core_share() >= lp_tuning::least_core_share) return;
        for (size_t k = 0; k < size_t(kinds * levels_); ++k) {
            inputs_.runs[k * units] = false;
            for (size_t u = 1; u < units; ++u) inputs_.duration[k * units + u] += lp_tuning::gpu_task_seconds;
        }
    }

    // The cores' share of the machine's flop rate: each unit's best rate over the kinds it
    // runs (inputs_.runs) with a calibrated kernel, times its workers.
    double core_share() const {
        const size_t units = units_.size();
        std::vector<double> rate(units, 0);
        for (int t = 0; t < kinds; ++t)
            for (int l = 0; l < levels_; ++l)
                for (size_t u = 0; u < units; ++u) {
                    const size_t at = kind(t, l) * units + u;
                    if (inputs_.runs[at] && calibrated_[at] && kernel_seconds_[at] > 0)
                        rate[u] = std::max(rate[u], kernel_flops(Kernel(t), scales_[size_t(l)]) / kernel_seconds_[at]);
                }
        double all = 0;
        for (size_t u = 0; u < units; ++u) all += inputs_.workers[u] * rate[u];
        return all > 0 ? inputs_.workers[0] * rate[0] / all : 1;
    }

    // The types submitted so far, and those their splits create.
    std::vector<bool> types_in_run(const Counters& counters) const {
        std::vector<bool> in(size_t(kinds), false);
        for (int t = 0; t < kinds; ++t)
            for (int l = 0; l < levels_; ++l) in[size_t(t)] = in[size_t(t)] || counters.at(Kernel(t), l).submitted > 0;
        for (bool grew = true; grew;) {
            grew = false;
            for (int p = 0; p < kinds; ++p) {
                if (!in[size_t(p)]) continue;
                for (int t = 0; t < kinds; ++t)
                    for (int l = 1; l < levels_; ++l)
                        if (!in[size_t(t)] && inputs_.children[size_t((t * kinds + p) * levels_ + l)] > 0)
                            in[size_t(t)] = grew = true;
            }
        }
        return in;
    }

    // Solves the LP on the counters; learns `new_ladder`'s first (timed with the solve).
    void solve(const Counters& counters, const char* cause, const TaskSite* new_ladder = nullptr) {
        const auto t0 = std::chrono::steady_clock::now();
        const double starpu_t0 = starpu_timing_now();
        const double cpu0 = thread_cpu_ms();
        if (new_ladder) learn_ladder(new_ladder->levels, *new_ladder->scales, new_ladder->precision);
        solved_at_ = int64_t(submitted_tasks(counters));
        update_durations(counters);
        update_runs();
        for (int t = 0; t < kinds; ++t)
            for (int l = 0; l < levels_; ++l)
                inputs_.pending[kind(t, l)] = double(std::max<int64_t>(0, counters.at(Kernel(t), l).pending()) +
                                                     counters.announced(Kernel(t), l));
        const lp::Solution solution = lp_.solve(inputs_);
        if (solution.solved) {  // else keep the last good ratios
            targets_ = solution.ratio;
            for (size_t k = 0; k < known_.size(); ++k) {
                double tasks = solution.split[k];
                for (int u = 0; u < inputs_.shape.units; ++u) tasks += solution.executed[k * size_t(inputs_.shape.units) + size_t(u)];
                known_[k] = tasks > 0;
            }
        }
        const double cpu1 = thread_cpu_ms();
        const auto t1 = std::chrono::steady_clock::now();
        ++stats_.solves;
        stats_.failures = lp_.failures();
        stats_.ratios = targets_;
        const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
        stats_.total_milliseconds += ms;
        stats_.total_cpu_milliseconds += cpu1 - cpu0;
        stats_.max_milliseconds = std::max(stats_.max_milliseconds, ms);
        if (history_.size() == LpStatistics::history_limit) history_.pop_front();
        history_.push_back({std::chrono::duration<double>(t0 - start_).count(), starpu_t0, solved_at_, ms,
                            cpu1 - cpu0, solution.solved, inputs_.pending, targets_, cause});
    }

    // The critical path, which the LP does not see: on CPU cores alone, a task longer than
    // the work that can run beside it leaves cores idle while it runs (the last potrf of
    // a factorization; on many cores a gemm the next panel waits for), so it is split
    // whatever its target. While it runs, the other R - 1 cores need R - 1 times its
    // duration of work: the ready tasks not started, and half of the running ones'
    // (doc/results/tuning-history.md#critical-path-rule).
    bool longer_than_the_rest(const TaskSite& site, const Counters& counters) const {
        if (units_.size() != 1) return false;
        const double work = sum_over_kinds(counters, [&](const TaskCounters& c, size_t kind) {
            const double waiting = double(std::max<int64_t>(0, c.ready - c.started));
            const double running = double(std::max<int64_t>(0, c.started - c.finished));
            return (waiting + 0.5 * running) * inputs_.duration[kind];
        });
        return site_seconds(site) * (inputs_.workers[0] - 1) > work;
    }

    // The work of the task at `site`: its kind's on one tile, or for a column task (an
    // LU's panel) on its whole column, whose pivot search and updates span every tile of
    // it. Priced as one tile, a tall panel at a coarse ladder's top would stay whole and
    // hold back every update of its step. A strip of h sub-tiles that a QR update split
    // into meets reflectors h sub-tiles deep too: h^2 tiles' work.
    double site_flops(const TaskSite& site) const {
        const double nb = scales_[size_t(site.level)];
        const double depth = kernel_info(site.op).applies ? site.height * nb : nb;
        return kernel_flops(site.op, site.height * nb, nb, depth);
    }
    double site_seconds(const TaskSite& site) const {
        const double tile = kernel_flops(site.op, scales_[size_t(site.level)]);
        const double seconds = inputs_.duration[kind(int(site.op), site.level)];
        return tile > 0 ? seconds * site_flops(site) / tile : seconds;
    }

    // A task carrying more than 1/(R x MinN) of the work in flight (the calls' flops) is
    // split whatever its target: the call cannot give each of the R cores MinN tasks of
    // its size, and the critical-path rule misses it where the ready tasks are its own
    // predecessors (doc/results/tuning-history.md#calls-work-rule). Only flops enter:
    // durations would divide out. split() asks it first: it costs one product, that rule
    // a sum over the kinds.
    bool too_coarse_for_the_calls(const TaskSite& site, const Counters& counters) const {
        if (units_.size() != 1 || counters.call_flops <= 0) return false;
        return site_flops(site) * inputs_.workers[0] * cpu_unit.min_tasks > counters.call_flops;
    }

    // The critical path with GPUs, which the LP does not see either: a split gives the
    // cores children a GPU runs tens of times faster. Where a factorization's panel goes to the
    // cores, each of its remaining top-level steps waits for a chain of such children:
    // 2 r of them for one split (r the ratio of the scales at its level: r sub-steps, each
    // a panel kernel and its update), times the sub-steps of the levels above (the product
    // of their ratios). The steps left are half the top-level task's loop-nest priority
    // (TaskSite::priority). So a task whose children the cores can run splits only if that
    // chain fits in the GPUs' remaining work: on the V100-like GPU no panel of n = 16384
    // splits, at 32768 the first steps' do (doc/notes/splits-on-gpus.md, "The critical
    // path with GPUs"). Children only the GPUs run (over the cores' tile limit) are the LP's to weigh.
    bool critical_path_allows(const TaskSite& site, const Counters& counters) const {
        const size_t units = units_.size();
        const size_t child = kind(int(site.op), site.level + 1);
        if (units < 2 || site.priority <= 0 || !inputs_.runs[child * units]) return true;
        double per_step = 2 * double(scales_[size_t(site.level)]) / double(scales_[size_t(site.level) + 1]);
        for (int l = 0; l < site.level; ++l) per_step *= double(scales_[size_t(l)]) / double(scales_[size_t(l) + 1]);
        const double chain = 0.5 * double(site.priority) * per_step * inputs_.duration[child * units];
        double gpu_work = 0;  // the pending and announced tasks, on one GPU each
        for (int t = 0; t < kinds; ++t)
            for (int l = 0; l < levels_; ++l)
                gpu_work += double(std::max<int64_t>(0, counters.at(Kernel(t), l).pending()) +
                                   counters.announced(Kernel(t), l)) *
                            inputs_.duration[kind(t, l) * units + 1];
        return chain <= gpu_work / inputs_.workers[1];
    }

    double submitted_tasks(const Counters& counters) const {
        return sum_over_kinds(counters, [](const TaskCounters& c, size_t) { return double(c.submitted); });
    }

    // Whether the ready tasks not yet started are fewer than the workers should have.
    bool workers_lack_tasks(const Counters& counters) const {
        const double waiting =
            sum_over_kinds(counters, [](const TaskCounters& c, size_t) { return double(c.ready - c.started); });
        return waiting < lp_tuning::ready_tasks_per_worker * inputs_.workers[0];
    }

    // The index of kind (type t, level l) in the per-kind vectors.
    size_t kind(int t, int l) const { return size_t(t * levels_ + l); }

    // f(counters, index of the kind) summed over the kinds (type, level) of the ladder.
    template <typename F>
    double sum_over_kinds(const Counters& counters, F f) const {
        double sum = 0;
        for (int t = 0; t < kinds; ++t)
            for (int l = 0; l < levels_; ++l) sum += f(counters.at(Kernel(t), l), kind(t, l));
        return sum;
    }

    int period_;
    int64_t solved_at_ = 0;  // tasks submitted at the last solve
    int levels_ = 0;
    std::vector<int> scales_;
    char precision_ = scalar_traits<double>::letter;
    lp::GranularityLp lp_;
    lp::Inputs inputs_;
    std::vector<Unit> units_;      // CPU, then CUDA where there are GPUs
    std::vector<double> kernel_seconds_;  // the kernels' own durations: inputs_.duration without lp_tuning::gpu_task_seconds
    std::vector<bool> calibrated_;  // per duration
    std::vector<KernelFootprints> footprints_;  // per level
    std::vector<double> targets_;
    std::vector<bool> known_;  // whether the last solve gave (type, level) any task
    std::vector<double> credit_;  // per (type, level): splits the targets allow now (split())
    LpStatistics stats_;                // its history stays empty: history_ holds the solves
    std::deque<LpSolve> history_;       // the last LpStatistics::history_limit solves
    std::chrono::steady_clock::time_point start_;
};

}  // namespace

std::unique_ptr<SplitPolicy> make_lp_split(int period) { return std::make_unique<LpSplit>(period); }

}  // namespace grain::detail
