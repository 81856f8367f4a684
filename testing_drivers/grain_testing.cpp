// grain_testing: times grain routines, checks their residuals, and compares them
// with the threaded vendor BLAS/LAPACK in the same process. One table of operations.
// Its parts, under testing/: the command line (options), the routines' runs (runners),
// their flop counts (flops) and what it prints (output).
#include <grain/grain.hpp>
#include <starpu.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "testing_drivers/checks.hpp"
#include "testing_drivers/testing/flops.hpp"
#include "testing_drivers/testing/memory.hpp"
#include "testing_drivers/testing/options.hpp"
#include "testing_drivers/testing/output.hpp"
#include "testing_drivers/testing/runners.hpp"
#include "testing_drivers/testing/scalapack.hpp"
#include "testing_drivers/testing/workers.hpp"
#ifdef GRAIN_USE_CUDA
#include "testing_drivers/vendor_gpu.hpp"
#endif

namespace {

// SimGrid's MPI runs the simulated processes in this one.
#ifdef STARPU_SIMGRID
constexpr bool simulated_nodes = true;
#else
constexpr bool simulated_nodes = false;
#endif

using namespace grain::testing::driver;

grain::RuntimeOptions runtime_options(const Options& options) {
    grain::RuntimeOptions r;
    r.ncpu = options.threads;
    r.ngpu = options.gpus;
    r.gpu_workers = options.gpu_workers;
    r.gpu_memory = options.gpu_memory;
    r.cpu_tile_limit = options.cpu_tile_limit;
    r.sched = options.sched;
    r.gpu_math = options.gpu_math;
    r.split = options.split;
    r.window = options.window;
    r.lp_period = options.lp_period;
    return r;
}

// A process's own file: FILE on rank 0, FILE.rankR on rank R.
std::string of_rank(const std::string& path, const std::string& rank) {
    return path.empty() || rank.empty() || rank == "0" ? path : path + ".rank" + rank;
}

// ... under mpirun, where the launcher's variables say which rank before the Runtime starts.
std::string per_process(const std::string& path) {
    const char* rank = nullptr;
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
        if (!rank) rank = std::getenv(name);
    return of_rank(path, rank ? rank : "");
}

// Runs every case niter times, one row each; whether every checked run passed.
bool run_all(const Options& options, const Operation& operation, std::vector<Case> cases, CsvFile& lp_stats,
             CsvFile& trace) {
    const auto start = std::chrono::steady_clock::now();
    grain::Runtime runtime(runtime_options(options));
    [[maybe_unused]] const double start_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Distributed runs: every process runs every case, and rank 0 alone prints.
    const int ranks = grain::Runtime::ranks();
    if (options.grid_p * options.grid_q != ranks)
        throw grain::invalid_argument("grain_testing", "-P x -Q",
                                      std::to_string(options.grid_p) + " x " + std::to_string(options.grid_q),
                                      "must equal the processes of the run, " + std::to_string(ranks) +
                                          (ranks == 1 ? " (start it under mpirun for more)" : ""));
    std::optional<grain::Distribution> grid;
    if (ranks > 1) grid = grain::Distribution::block_cyclic(options.grid_p, options.grid_q);
    choose_scales(operation, cases, grid.has_value());
    // Simulated nodes share one process and its stdout: there the table alone keeps to
    // rank 0 (Table::row).
    if (!simulated_nodes && grain::Runtime::rank() > 0 && !std::freopen("/dev/null", "w", stdout))
        throw std::runtime_error("grain_testing: cannot silence the output of rank " +
                                 std::to_string(grain::Runtime::rank()));
    // Distributed runs: the vendor is ScaLAPACK on the same grid, for the operations it has
    // (gemm, potrf, getrf; testing/scalapack.hpp), else nan.
    Options run_options = options;
    if (grid) run_options.vendor = false, run_options.scalapack = options.vendor && scalapack::available();
    std::vector<std::function<void()>> gathers;
    // Simulated nodes are one process: each rank opened FILE, and learns its rank only now.
    if (simulated_nodes && grain::Runtime::rank() > 0) {
        lp_stats.reopen(of_rank(options.lp_stats, std::to_string(grain::Runtime::rank())));
        trace.reopen(of_rank(options.trace, std::to_string(grain::Runtime::rank())));
    }
    if (trace.open()) runtime.set_trace(true);
    if (options.pinned && (runtime.ngpu() == 0 || grid))
        throw grain::invalid_argument("grain_testing", "--pinned", "given",
                                      grid ? "pins the host arrays of a run on one process; this run is distributed"
                                           : "pins host arrays for GPU transfers; this run has no GPU");
    if (options.pinned)
        std::printf("# --pinned: the arrays are pinned before grain's clock starts, as the vendor's are\n");
    if (runtime.ngpu() > 0) starpu_profiling_status_set(STARPU_PROFILING_ENABLE);  // bus byte counts
    const WorkersPaused paused;  // until the runtime ends; see WorkersRunning
    // The GPUs' FP64 peak, for the rates as fractions of it (GPU runs of a CUDA build).
    std::optional<double> peak;
#ifdef GRAIN_USE_CUDA
    if (runtime.ngpu() > 0) {
        const std::string name = grain::testing::gpu::device_name();
        peak = fp64_peak_gflops(name);
        std::printf("# GPU 0: %s, FP64 peak on tensor cores %.0f GFlop/s (nan: not in the driver's table); "
                    "%d StarPU workers (streams) per GPU; the Runtime started in %.3f s (CUDA_MODULE_LOADING=%s)\n",
                    name.c_str(), *peak, runtime.gpu_workers(), start_seconds,
                    std::getenv("CUDA_MODULE_LOADING") ? std::getenv("CUDA_MODULE_LOADING") : "EAGER, grain's default");
    }
#endif
    const int levels = grain::testing::driver::levels(cases);
    const Table table(options.human, columns(options, operation, levels, peak.has_value()));

    grain::testing::Random rng(options.seed);
    size_t runs = 0;  // at most max_values cases of at most INT_MAX runs each
    if (__builtin_mul_overflow(cases.size(), size_t(options.niter), &runs))
        throw std::length_error("grain_testing: too many runs");
    size_t done = 0;
    bool all_passed = true;
    Progress progress;
    if (options.warmup && !cases.empty()) {
        // CUDA loads a library's kernel when it first runs (tens of ms for cuBLAS's first
        // trsm on an H200), and StarPU allocates GPU buffers on first use: a process's first
        // run pays both, the next ones neither. Its own generator leaves the timed runs'
        // matrices as they are without --warmup.
        progress.start(std::string("warm-up run (") + operation.name + " " + cases[0].precision +
                       " n=" + std::to_string(cases[0].n) + ")");
        grain::testing::Random warm_rng(options.seed + 2);
        Options warm = run_options;
        warm.check = false;
        double setup_seconds = 0;
        run_case(operation, Run{warm, cases[0], warm_rng, runtime, runtime.ncpu(), grid ? &*grid : nullptr, &gathers,
                                &setup_seconds});
    }
    for (const Case& c : cases) {
        for (int iter = 0; iter < options.niter; ++iter, ++done) {
            progress.start("run " + std::to_string(done + 1) + " of " + std::to_string(runs) + " (" +
                           operation.name + " " + c.precision + " n=" + std::to_string(c.n) +
                           " nb=" + std::to_string(c.scales[0]) + ")");
            double setup_seconds = 0;
            Result res = run_case(operation, Run{run_options, c, rng, runtime, runtime.ncpu(), grid ? &*grid : nullptr,
                                                 &gathers, &setup_seconds});
            if (grid && options.vendor && !(res.vendor_time > 0)) res.vendor_time = std::nan("");
            const bool ok = !options.check || passed(operation, res);
            all_passed = all_passed && ok;
            write_lp_stats(lp_stats, done, res.statistics);
            write_trace(trace, done, res.trace, res.statistics);
            table.row(row_cells(options, operation, c, levels, iter, res, runtime, ok, peak));
            print_details(options, c, res, runtime);
        }
    }
    return all_passed;
}

}  // namespace

// Exit codes: 0 every checked run passed, 1 a check failed or an error, 2 a bad
// command line or an argument grain rejects. What can be checked without StarPU is
// checked before it starts: the options, the memory the cases need, the --lp-stats and --trace files.
int main(int argc, char** argv) {
    Options options;
    const Operation* operation = nullptr;
    std::vector<Case> cases;
    std::unique_ptr<CsvFile> lp_stats, trace;
    try {
        options = parse(argc, argv);
        if (options.help) {
            std::fputs(usage(), stdout);
            return 0;
        }
        operation = &find_operation(options.op);
        for (const std::string& ignored : ignored_options(options))
            std::fprintf(stderr, "grain_testing: %s ignores %s\n", operation->name, ignored.c_str());
        cases = cases_of(options);
        check_memory(options, cases, available_memory());
        // Under mpirun, each process writes files of its own: FILE on rank 0, FILE.rankR on
        // rank R (the launcher's variables say which, before the Runtime starts).
        lp_stats = lp_stats_file(per_process(options.lp_stats));
        trace = trace_file(per_process(options.trace));
    } catch (const usage_error& e) {
        std::fprintf(stderr, "grain_testing: %s (see --help)\n", e.what());
        return 2;
    }
    try {
        const bool passed = run_all(options, *operation, cases, *lp_stats, *trace);
        lp_stats->close();
        trace->close();
        return passed ? 0 : 1;
    } catch (const grain::invalid_argument& e) {
        std::fprintf(stderr, "grain_testing: invalid argument: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "grain_testing: error: %s\n", e.what());
        return 1;
    }
}
