// The automatic granularity: the ladder of tile scales of a call whose caller gives none.
//
// Each kind of unit (CPU cores, GPUs) gets the tile side that minimizes an estimate of the
// call's time on its workers alone: step by step, the longer of the step's work shared
// among them and the chain of tile kernels the next step waits for, plus what each task
// costs its worker. Larger tiles run their kernels faster and cost fewer tasks; smaller
// ones shorten the chains, which decide the last steps. On cores alone the ladder is that
// one tile; with GPUs it halves from the GPUs' tile down to the cores', and lp splits.
#include <starpu.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "granularity.hpp"
#include "granularity_tuning.hpp"
#include "grain/errors.hpp"
#include "grain/routines.hpp"
#include "grain/runtime.hpp"
#include "lp/lp_tuning.hpp"
#include "src/base/constants.hpp"
#include "src/base/kernel_table.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/base/simulation.hpp"
#include "src/starpu/codelets.hpp"
#include "src/starpu/perf_models.hpp"

namespace grain {

namespace detail {

namespace {

namespace tuning = granularity_tuning;

// One kind of unit as the choice sees it.
struct Unit {
    int workers;
    int worker;  // the one whose history models are asked; -1: no Runtime, priors only
    double rate, half_tile, task_seconds;
    int smallest_tile, largest_tile;
    // Seconds per byte of a tile's move between two of the workers (through the host, as
    // StarPU 1.3 moves a tile between GPUs): 0 where they share memory, as cores do, or
    // where there is one.
    double move_seconds_per_byte = 0;
};

// Seconds of each kernel on one worker of a unit, on any tile side: the kernel's prior (a
// rate growing with the tile, granularity_tuning.hpp), corrected by what its history says
// of that prior on the candidate sides it has history for, else by what gemm's says (the
// machine's speed). The history decides how fast each kernel runs here, the prior's
// shape how that changes with the tile: a model keys its history by tile size alone, so
// each size's mixes calls of other shapes and leading dimensions, and taken as it is it
// would set a size with history apart from its neighbours without.
class Prices {
public:
    Prices(const Unit& unit, char precision, std::vector<int> sides)
        : unit_(unit), precision_(precision), sides_(std::move(sides)) {
        std::array<double, kernel_count> log_sum{}, count{};
        for (auto& h : has_history_) h.assign(sides_.size(), false);
        if (unit.worker >= 0)
            for (size_t i = 0; i < sides_.size(); ++i) {
                const KernelFootprints footprints = tile_footprints(sides_[i]);
                for (size_t k = 0; k < kernel_count; ++k) {
                    const double measured = history_duration(Kernel(k), precision, footprints[k], unit.worker);
                    if (std::isnan(measured)) continue;
                    has_history_[k][i] = true;
                    log_sum[k] += std::log(measured / prior(Kernel(k), sides_[i]));
                    count[k] += 1;
                }
            }
        const size_t gemm = size_t(Kernel::Gemm);
        for (size_t k = 0; k < kernel_count; ++k) {
            const size_t from = count[k] > 0 ? k : gemm;
            correction_[k] = count[from] > 0 ? std::exp(log_sum[from] / count[from]) : 1;
        }
    }
    const std::vector<int>& sides() const { return sides_; }
    bool has_history(Kernel kernel, size_t side) const { return has_history_[size_t(kernel)][side]; }
    double seconds(Kernel kernel, double nb) const { return prior(kernel, nb) * correction_[size_t(kernel)]; }
    // The seconds of one tile's move from a worker to another.
    double move(double nb) const {
        const double bytes = nb * nb * with_precision(precision_, [](auto z) { return double(sizeof(z)); });
        return bytes * unit_.move_seconds_per_byte;
    }

private:
    double prior(Kernel kernel, double side) const {
        const double h = unit_.half_tile;
        const double rate = unit_.rate * side * side / (side * side + h * h);
        return kernel_work(kernel, side) *
               with_precision(precision_, [](auto z) { return scalar_traits<decltype(z)>::flop_weight; }) / rate;
    }

    const Unit& unit_;
    char precision_;
    std::vector<int> sides_;
    std::array<double, kernel_count> correction_{};
    std::array<std::vector<bool>, kernel_count> has_history_;
};

// One step of a call on a square of `tiles` tiles a side (fractional where the tile does
// not divide the order): its diagonal tile is `diagonal` of a tile wide (less than 1 on the
// edge), `trailing` tiles follow it. The tasks it submits, its work in seconds of one
// worker, and the chain of kernels the next step waits for. A product's step is one update
// of every output tile, its chain one update; a factorization's chain is its diagonal
// kernel, one solve and one update (the lookahead runs the rest beside the next step), the
// last of them on the edge tile where that is all that follows, and between workers that do
// not share memory the moves of the two tiles it hands on (the diagonal to the solve, the
// solve to the update), which the next step then waits for too.
struct Step {
    double tasks, work, chain;
    double diagonal_kernel = 0;  // where the chain starts
};

Step step_of(Workload workload, const Prices& prices, double nb, double tiles, double diagonal, double trailing) {
    const auto price = [&](Kernel kernel) { return prices.seconds(kernel, nb); };
    const double m = trailing, d = diagonal, gemm = price(Kernel::Gemm), trsm = price(Kernel::Trsm);
    const double next = std::min(1.0, m);  // the tile the chain's solve and update are on
    const double c = std::ceil(m), across = std::ceil(tiles);  // tiles, edge ones included
    const double moves = next > 0 ? 2 * prices.move(nb) : 0;
    switch (workload) {
        case Workload::Product: return {across * across, d * tiles * tiles * gemm, d * gemm};
        case Workload::Cholesky: {
            const double potrf = price(Kernel::Potrf) * d * d * d, syrk = price(Kernel::Syrk);
            return {1 + 2 * c + c * (c - 1) / 2, potrf + m * (trsm + syrk) + m * (m - 1) / 2 * gemm,
                    potrf + next * (trsm + syrk) + moves, potrf};
        }
        case Workload::Lu: {
            const double lu = price(Kernel::GetrfNopiv) * d * d * d;
            return {1 + 2 * c + c * c, lu + 2 * m * trsm + m * m * gemm, lu + next * (trsm + gemm) + moves, lu};
        }
        case Workload::PivotedLu: {
            // The panel is a column of (m + d) tiles, d wide; its history is of a one-tile
            // column, from which another is priced by its flops.
            const double panel = price(Kernel::Getrf) * kernel_flops(Kernel::Getrf, (m + d) * nb, d * nb, 0) /
                                 kernel_flops(Kernel::Getrf, nb);
            const double swaps = price(Kernel::Laswp) * (m + d);
            return {1 + 2 * c + c * c, panel + m * (swaps + trsm) + m * m * gemm,
                    panel + next * (swaps + trsm + gemm) + moves, panel};
        }
        case Workload::Qr: {
            // A flat tree: the panel is the diagonal tile's QR, then one triangle-on-tile QR
            // per tile under it, each row of the trailing matrix updated by both in turn;
            // the next panel follows its first tile's updates.
            const double qr = price(Kernel::Geqrt) * d * d * d, ts = price(Kernel::Tsqrt) * d * d;
            const double apply = price(Kernel::Gemqrt) * d, pair = price(Kernel::Tsmqrt) * d;
            return {1 + m + c + m * c, qr + m * ts + c * apply + m * c * pair,
                    qr + next * (ts + apply + pair) + moves, qr};
        }
    }
    return {0, 0, 0, 0};
}

// The estimated seconds of a call of order n on `unit`'s p workers with nb x nb tiles:
// step after step, the longer of the step's work shared among the workers and the chain
// the next step waits for, plus what each task costs its worker; the first diagonal kernel
// runs alone.
double estimated_seconds(Workload workload, int64_t n, const Unit& unit, const Prices& prices, int nb) {
    const double p = double(unit.workers), tiles = double(n) / double(nb);
    double seconds = 0, tasks = 0;
    for (double k = 0; k < tiles; ++k) {
        const Step step =
            step_of(workload, prices, nb, tiles, std::min(1.0, tiles - k), std::max(0.0, tiles - k - 1));
        seconds += std::max(step.work / p, step.chain) + (k == 0 ? (1 - 1 / p) * step.diagonal_kernel : 0);
        tasks += step.tasks;
    }
    return seconds + tasks * unit.task_seconds / p;
}

// The candidate side that cuts a call of order n into two tiles a side or more at the least
// estimated time per flop, each side priced on the multiple of it nearest n (-1 where none
// cuts). Where a side does not divide the order, its last steps are short, and priced on n
// itself neighbouring sides of nearly the same speed would take turns as the best.
int best_cut(Workload workload, int64_t n, const Unit& unit, const Prices& prices) {
    int best = -1;
    double least = std::numeric_limits<double>::infinity();
    for (int nb : prices.sides()) {
        if (2 * int64_t(nb) > n) break;
        const int64_t order = std::llround(double(n) / nb) * nb;
        const double seconds = estimated_seconds(workload, order, unit, prices, nb) / std::pow(double(order), 3);
        if (seconds < least) least = seconds, best = nb;
    }
    return best;
}

// The unit's tile for a call of order n: one tile of the whole order where it fits and
// its estimate is least; else the largest best cut of the orders of a geometric grid up to
// n, so that a larger call never gets a smaller tile.
int best_tile(Workload workload, int64_t n, const Unit& unit, char precision) {
    std::vector<int> sides;
    for (int nb : tuning::candidate_tiles)
        if (nb >= unit.smallest_tile && nb <= unit.largest_tile) sides.push_back(nb);
    if (sides.empty()) sides.push_back(unit.smallest_tile);
    const Prices prices(unit, precision, sides);
    // A simulated machine times each task from its models, and aborts on a tile they do
    // not hold: there, the candidate that divides the order, that gemm has history for and
    // whose estimate is least, where there is one.
    if (simulated) {
        int best = -1;
        double least = std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < sides.size() && sides[i] <= n; ++i) {
            if (n % sides[i] != 0 || !prices.has_history(Kernel::Gemm, i)) continue;
            const double seconds = estimated_seconds(workload, n, unit, prices, sides[i]);
            if (seconds < least) least = seconds, best = sides[i];
        }
        if (best > 0) return best;
    }
    const int cut = best_cut(workload, n, unit, prices);
    if (n <= unit.largest_tile &&
        (cut < 0 || estimated_seconds(workload, n, unit, prices, int(n)) <=
                        estimated_seconds(workload, n, unit, prices, cut)))
        return int(n);
    if (cut < 0) return sides.front();  // too small to cut in two, too large for one tile
    // Below the grid's first order the smallest candidate is the only cut.
    int tile = sides.front();
    for (int k = 1;; ++k) {
        const int64_t order = std::llround(2 * sides.front() * std::pow(2.0, double(k) / tuning::grid_per_doubling));
        if (order > n) break;
        tile = std::max(tile, best_cut(workload, order, unit, prices));
    }
    return tile;
}

// The units of the Runtime alive, with a worker of each to ask the models of; without one,
// this machine's cores, priced by their prior.
std::vector<Unit> machine_units(bool read_models) {
    const bool alive = Runtime::active() && starpu_is_initialized();
    const int cpus = alive ? int(starpu_cpu_worker_get_count())
                           : int(std::max(1u, std::thread::hardware_concurrency()));
    const int gpus = alive ? gpu_count() : 0;  // a GPU's several workers share its speed
    const int limit = alive && gpus > 0 && cpu_tile_limit() > 0 ? cpu_tile_limit() : tuning::cpu_largest_tile;
    const bool models = alive && read_models;
    std::vector<Unit> units{{cpus, models ? starpu_worker_get_by_type(STARPU_CPU_WORKER, 0) : -1,
                             tuning::cpu_rate, tuning::cpu_half_tile, tuning::cpu_task_seconds, 1,
                             std::min(limit, tuning::cpu_largest_tile)}};
    if (gpus > 0) {
        const int gpu = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
        units.push_back({gpus, models ? gpu : -1, tuning::cuda_rate, tuning::cuda_half_tile,
                         lp_tuning::gpu_task_seconds, tuning::cuda_smallest_tile, std::end(tuning::candidate_tiles)[-1]});
        // A move between GPUs is a copy to the host and one back, each at the bus's
        // calibrated bandwidth (MB/s).
        const double bandwidth =
            gpus > 1 ? starpu_transfer_bandwidth(STARPU_MAIN_RAM, starpu_worker_get_memory_node(unsigned(gpu))) : 0;
        if (bandwidth > 0) units.back().move_seconds_per_byte = 2 / (bandwidth * 1e6);
    }
    return units;
}

}  // namespace

std::vector<int> choose_scales(Workload workload, int64_t order, char precision, bool read_models) {
    if (order < 0) throw invalid_argument("grain::automatic_scales", "order", std::to_string(order), "must be >= 0");
    const int64_t n = std::max<int64_t>(order, 1);
    const std::vector<Unit> units = machine_units(read_models);
    const int cores_tile = best_tile(workload, n, units.front(), precision);
    if (units.size() == 1) return {cores_tile};
    // The GPUs' tile on top, halved down to the cores' (each scale divides the one above).
    std::vector<int> scales{best_tile(workload, n, units.back(), precision)};
    while (scales.back() > cores_tile && scales.back() % 2 == 0 && int(scales.size()) < max_levels)
        scales.push_back(scales.back() / 2);
    return scales;
}

}  // namespace detail

template <typename T>
std::vector<int> automatic_scales(Workload workload, int64_t order) {
    return detail::choose_scales(workload, order, detail::scalar_traits<T>::letter, true);
}

#define GRAIN_INSTANTIATE(T) template std::vector<int> automatic_scales<T>(Workload, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
