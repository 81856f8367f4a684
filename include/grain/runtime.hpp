#pragma once
// grain::Runtime: RAII owner of the StarPU runtime. Exactly one may be alive at a
// time (StarPU is a per-process runtime); grain routines need one.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "statistics.hpp"

namespace grain {

struct RuntimeOptions {
    /// Number of CPU workers; -1: GRAIN_NCPU, else STARPU_NCPU, else StarPU's default.
    int ncpu = -1;
    /// Number of GPU (CUDA) workers; -1: GRAIN_NGPU, else STARPU_NCUDA, else every GPU
    /// visible (none in a build without CUDA kernels, where a positive value is rejected).
    int ngpu = -1;
    /// StarPU workers per GPU, each with its own CUDA stream, so that the kernels of that
    /// many tasks run on a GPU at once and transfers overlap them (1 to 8); -1:
    /// GRAIN_GPU_WORKERS, else STARPU_NWORKER_PER_CUDA, else 1.
    int gpu_workers = -1;
    /// GPU memory StarPU may use on each GPU, in MiB; -1: GRAIN_GPU_MEMORY, else
    /// STARPU_LIMIT_CUDA_MEM, else all of it.
    int gpu_memory = -1;
    /// StarPU scheduling policy, one Runtime::is_sched_policy accepts; empty: GRAIN_SCHED,
    /// else STARPU_SCHED, else "prio". Any other name throws grain::invalid_argument.
    std::string sched;
    /// Split policy of the recursive tasks (for matrices with several tile scales):
    /// "none", "all", "depth:D" (split down to level D), "random:P[:SEED]" (split each
    /// task with probability P), "lp" (ratios from a linear program re-solved every
    /// lp_period submitted tasks). Empty: GRAIN_SPLIT, else "lp", which splits only tasks
    /// of matrices with several scales (automatic_scales gives them beside GPUs).
    std::string split;
    /// Submission window: the submitting thread waits while this many kernel tasks are
    /// in flight, so that split decisions see the machine's state. 0: unbounded;
    /// -1: GRAIN_WINDOW, else 32 per CPU worker (twice the ready tasks the lp policy
    /// wants per worker, so that its LP can find them without splitting) and 128 per GPU
    /// (so that several GPUs have independent tasks to choose from).
    int window = -1;
    /// Split policy "lp": tasks submitted (split or not) between two solves of the
    /// granularity LP.
    /// -1: GRAIN_LP_PERIOD, else 50.
    int lp_period = -1;
    /// NaN check of the LAPACK-level routines (potrf, potrs, posv, getrf_nopiv,
    /// getrs_nopiv, gesv_nopiv), as LAPACKE's: 1 checks the input matrices first, and a
    /// NaN returns -(the array's position in the routine's LAPACK-layout form) with the
    /// inputs untouched; 0 does not check. -1: GRAIN_NANCHECK, else 1.
    int nancheck = -1;
    /// Largest tile side (rows or columns) a CPU worker runs while GPUs run too; larger
    /// tiles go to the GPUs only. A core takes thousands of times longer than a GPU on a
    /// large tile, and StarPU's dmda policies would also make the cores calibrate every
    /// such size first. Without GPUs the cores run every tile. 0: no limit.
    /// -1: GRAIN_CPU_TILE_LIMIT, else 1024.
    int cpu_tile_limit = -1;
    /// Several processes (StarPU-MPI): 1 starts StarPU through StarPU-MPI, which needs a
    /// build with it (GRAIN_USE_MPI); 0 does not, and makes no MPI call. -1: GRAIN_MPI,
    /// else 1 when an MPI launcher (mpirun) started the process and the build has it.
    int distributed = -1;
    /// The GPUs' arithmetic in products of single-precision tiles (gemm on float and
    /// complex<float>): "fp32" (IEEE single), or through tensor cores, inputs rounded to
    /// "tf32", "bf16" or "fp16" and sums kept in single (cuBLAS's compute types). Faster,
    /// and less accurate: meant for the low-precision factorization of gesv_mixed and
    /// posv_mixed, which under these three refine by GMRES preconditioned by the factors
    /// (classical steps stop converging), and under "fp16" scale A and B by powers of two
    /// into FP16's range. Cores compute in IEEE single whatever it says.
    /// Empty: GRAIN_GPU_MATH, else "fp32".
    std::string gpu_math;
};

namespace detail {
class Recursion;
}

class Runtime {
public:
    Runtime();
    explicit Runtime(const RuntimeOptions& options);
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    int ncpu() const { return ncpu_; }
    int ngpu() const { return ngpu_; }  ///< GPUs, not their workers
    int gpu_workers() const { return gpu_workers_; }
    /// Whether this build of grain has GPU kernels.
    static bool has_cuda();
    /// The names RuntimeOptions::sched takes: grain's DARTS policies and placements
    /// (doc/scheduling.md), then StarPU's.
    static std::vector<std::string> sched_policies();
    /// Whether RuntimeOptions::sched takes `name`: one of sched_policies(), or a
    /// placement with its parameter ("dada:0.5", "owner-load:0.2", "owner-cyclic:2x2").
    static bool is_sched_policy(const std::string& name);
    /// GPU memory limit per GPU in MiB, -1 for none.
    int gpu_memory() const { return gpu_memory_; }
    const std::string& sched() const { return sched_; }

    /// The split policy and the window, changeable between routine calls.
    void set_split(const std::string& split);
    const std::string& split() const;
    void set_window(int window);
    int window() const;
    /// The NaN check (RuntimeOptions::nancheck), changeable between routine calls.
    void set_nancheck(bool on);
    bool nancheck() const;
    /// RuntimeOptions::gpu_math, changeable between routine calls.
    void set_gpu_math(const std::string& math);
    std::string gpu_math() const;
    /// RuntimeOptions::cpu_tile_limit as resolved (0: no limit).
    int cpu_tile_limit() const;

    /// Task counts per operation and level since the start or the last reset.
    Statistics statistics() const;
    /// Resets the statistics, and the trace.
    void reset_statistics();
    /// Tracing: while on, every kernel task that runs is recorded (StarPU's profiling is
    /// on). trace() gives those that ended since tracing started or the last reset.
    void set_trace(bool on);
    std::vector<TaskRecord> trace() const;

    /// This process's rank among the processes an MPI launcher (mpirun) started, and
    /// their number: a Runtime started under a launcher in a build with StarPU-MPI runs
    /// through StarPU-MPI (0 and 1 otherwise, and when no Runtime is alive).
    static int rank();
    static int ranks();
    /// Whether this build of grain has StarPU-MPI (distributed matrices).
    static bool distributed_build();

    /// Whether a Runtime is alive in this process.
    static bool active();

    /// Lets the next Runtime constructed while this one is alive take its place, where it
    /// would otherwise be refused: that constructor calls `end` first (on its own thread),
    /// which must destroy this Runtime. For a library that starts a Runtime of its own
    /// for its calls, as libgrain_lapack does, under a program that may make its own.
    void yield_to_next(std::function<void()> end);

private:
    int ncpu_ = 0;
    int ngpu_ = 0;
    int gpu_workers_ = 1;
    int gpu_memory_ = -1;
    std::string sched_;
    int saved_blas_threads_ = 1;
    std::unique_ptr<detail::Recursion> recursion_;
};

}  // namespace grain
