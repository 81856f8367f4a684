#pragma once
// Task counts per operation and level, as the recursion layer sees them live.
#include <cstdint>
#include <string>
#include <vector>

namespace grain {

struct TaskCounts {
    int64_t submitted = 0;  ///< tile tasks the algorithms submitted (split or not)
    int64_t split = 0;      ///< of which split into sub-tile tasks
    int64_t ready = 0;      ///< kernels whose inputs became ready
    int64_t started = 0;    ///< kernels a worker started
    int64_t finished = 0;   ///< kernels that ran to completion
};

/// One solve of the granularity LP (split policy "lp").
struct LpSolve {
    double at = 0;                ///< seconds since the policy started or was reset
    double starpu_us = 0;         ///< when, on StarPU's clock (TaskRecord's; simulated in a simulation)
    int64_t submitted = 0;        ///< tasks submitted by then (split or not, every level)
    double milliseconds = 0;      ///< building the model and glp_simplex (wall time)
    double cpu_milliseconds = 0;  ///< the same on the submitting thread's CPU clock: without the
                                  ///< time the thread waited for a core that was running tasks
    bool solved = false;
    std::vector<double> pending;  ///< its inputs: pending tasks, [operation * levels + level]
    std::vector<double> ratios;   ///< its targets: split ratios, same indexing
    /// Why then: "first" (after a start or a reset), "ladder" (a new ladder or precision),
    /// "restart" (the task counters started anew), "period" (lp_period tasks since the
    /// last), "new kind" (with GPUs: a kind the last solve had no task of).
    std::string cause;
};

struct LpStatistics {
    int64_t solves = 0;        ///< LP solves
    int64_t failures = 0;      ///< solves GLPK could not complete (the last good ratios were kept)
    int64_t uncalibrated = 0;  ///< durations the last solve estimated from flop counts (no history
                               ///< yet), among the (operation, level, unit type) the run submitted
    int levels = 0;            ///< of the ladder the ratios are for
    std::vector<double> ratios;     ///< the last targets, [operation * levels + level]
    double total_milliseconds = 0;      ///< every solve's wall time, summed
    double total_cpu_milliseconds = 0;  ///< every solve's CPU time, summed
    double max_milliseconds = 0;        ///< the longest solve
    /// The last solves, oldest first: at most history_limit, so that a long-running
    /// application does not grow. The first kept is solve number solves - history.size().
    std::vector<LpSolve> history;
    static constexpr size_t history_limit = 1000;
};

/// One kernel task that ran, recorded while the Runtime traces (Runtime::set_trace).
/// Times are in microseconds since StarPU started (simulated time in a simulated run).
struct TaskRecord {
    int worker = 0;              ///< StarPU's worker id
    bool gpu = false;            ///< a CUDA worker, else a CPU core
    const char* operation = "";  ///< the kernel, e.g. "gemm" (a static string)
    int level = 0;               ///< in the ladder of tile scales
    int rows = 0, cols = 0;      ///< of its output tile
    int priority = 0;
    double submit_us = 0, start_us = 0, end_us = 0;
    /// Bytes of its inputs that were not valid on the worker's memory node when the
    /// worker took the task: what it still had to load (its write-only outputs
    /// excluded). Under a scheduler that prefetches (dmda*, darts), loads issued before
    /// the pop are not counted; under eager the sum is the bus's.
    int64_t bytes_loaded = 0;
};

struct Statistics {
    std::vector<std::string> operations;        ///< e.g. "gemm", "potrf"
    std::vector<std::vector<TaskCounts>> counts;  ///< [operation][level]
    LpStatistics lp;                            ///< empty unless the split policy is "lp"
    /// Tasks left whole because their output tile was valid only on a GPU when they
    /// were submitted, or was being written by a kernel (with GPUs: the tile will most
    /// likely be on a GPU; a split would move it through host memory).
    int64_t kept_whole_on_gpu = 0;

    int levels() const { return counts.empty() ? 0 : int(counts[0].size()); }
    /// One operation (by name) at one level; all operations with an empty name.
    TaskCounts at(const std::string& operation, int level) const;
};

}  // namespace grain
