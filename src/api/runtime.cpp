#include "grain/runtime.hpp"

#include <starpu.h>

#include <algorithm>
#include <cblas.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "grain/errors.hpp"
#include "lp/lp_split.hpp"
#include "runtime_access.hpp"
#include "src/base/constants.hpp"
#include "src/base/env.hpp"
#include "src/starpu/distributed.hpp"
#include "src/sched/darts_policy.hpp"
#include "src/sched/placement.hpp"
#include "src/kernels/gpu_math.hpp"
#include "src/starpu/codelets.hpp"
#include "src/starpu/column_pins.hpp"
#include "src/starpu/handles.hpp"
#include "src/starpu/perf_models.hpp"
#include "src/starpu/preflight.hpp"
#ifdef GRAIN_USE_CUDA
#include "src/kernels/cuda.hpp"
#endif

namespace grain {

namespace {

// StarPU is one runtime per process; so is its grain::Runtime.
std::mutex runtime_mutex;
bool runtime_alive = false;
detail::Recursion* runtime_recursion = nullptr;  // the alive Runtime's
std::function<void()> runtime_end;               // the alive Runtime's, if it yields
std::atomic<bool> runtime_nancheck{true};        // the alive Runtime's nancheck

// Sets (or, given "", unsets) an environment variable for its lifetime, then puts
// back what was there.
class ScopedVariable {
public:
    ScopedVariable(const char* name, const std::string& value) : name_(name) {
        const char* old = std::getenv(name);
        had_ = old != nullptr;
        if (had_) old_ = old;
        if (value.empty()) unsetenv(name);
        else setenv(name, value.c_str(), 1);
    }
    ~ScopedVariable() {
        if (had_) setenv(name_, old_.c_str(), 1);
        else unsetenv(name_);
    }
    ScopedVariable(const ScopedVariable&) = delete;
    ScopedVariable& operator=(const ScopedVariable&) = delete;

private:
    const char* name_;
    bool had_ = false;
    std::string old_;
};

}  // namespace

namespace detail {

Recursion& active_recursion(const char* routine) {
    std::lock_guard<std::mutex> lock(runtime_mutex);
    if (!runtime_alive)
        throw runtime_error(std::string(routine) + ": no grain::Runtime is alive; create one first");
    return *runtime_recursion;
}

bool nan_check_on() { return runtime_nancheck.load(); }

}  // namespace detail

Runtime::Runtime() : Runtime(RuntimeOptions{}) {}

namespace {

// The options, resolved against the environment and checked before StarPU starts.
struct Settings {
    detail::Setting<int> ncpu, ngpu, gpu_workers, gpu_memory, window, lp_period, cpu_tile_limit, nopencl;
    bool nancheck;
    bool distributed;
    detail::Setting<std::string> sched, split, gpu_math;
};

void check_option(bool ok, const char* name, int value, const char* why) {
    if (!ok) throw invalid_argument("grain::Runtime", name, std::to_string(value), why);
}

// RuntimeOptions::gpu_math's names, in GpuMath's order.
constexpr const char* gpu_math_names[] = {"fp32", "tf32", "bf16", "fp16"};

detail::GpuMath parse_gpu_math(const char* who, const std::string& source, const std::string& name) {
    for (size_t i = 0; i < std::size(gpu_math_names); ++i)
        if (name == gpu_math_names[i]) return detail::GpuMath(i);
    throw invalid_argument(who, source, name, "must be fp32, tf32, bf16 or fp16");
}

bool resolve_distributed(const char* who, int option) {
    if (option < 0) {
        const auto v = detail::env_integer(who, {"GRAIN_MPI"}, 0, 1,
                                           "1 runs through StarPU-MPI (several processes), 0 does not");
        if (v) option = int(v->value);
    }
    if (option < 0) return detail::mpi::built() && detail::mpi::launched();
    if (option == 1 && !detail::mpi::built())
        throw invalid_argument(who, "distributed", "1",
                               "this build of grain has no StarPU-MPI (configure it with GRAIN_USE_MPI=ON)");
    return option == 1;
}

bool resolve_nancheck(const char* who, int option) {
    if (option >= 0) return option == 1;
    const auto v = detail::env_integer(who, {"GRAIN_NANCHECK"}, 0, 1,
                                       "1 checks the LAPACK-level routines' inputs for NaN, 0 does not");
    return !v || v->value == 1;
}

Settings resolve(const RuntimeOptions& o) {
    check_option(o.ncpu == -1 || o.ncpu > 0, "ncpu", o.ncpu, "must be positive, or -1 for the default");
    check_option(o.ngpu >= -1, "ngpu", o.ngpu, "must be >= 0, or -1 for the default");
    check_option(o.gpu_workers == -1 || (o.gpu_workers > 0 && o.gpu_workers <= detail::max_gpu_workers), "gpu_workers",
                 o.gpu_workers, "must be from 1 to 8, or -1 for the default");
    check_option(o.gpu_memory == -1 || o.gpu_memory > 0, "gpu_memory", o.gpu_memory,
                 "must be a positive number of MiB, or -1 for the default");
    check_option(o.window >= -1, "window", o.window, "must be >= 0, or -1 for the default");
    check_option(o.lp_period == -1 || o.lp_period > 0, "lp_period", o.lp_period,
                 "must be positive, or -1 for the default");
    check_option(o.cpu_tile_limit >= -1, "cpu_tile_limit", o.cpu_tile_limit,
                 "must be >= 0 (0: no limit), or -1 for the default");
    check_option(o.nancheck >= -1 && o.nancheck <= 1, "nancheck", o.nancheck,
                 "must be 1 (check inputs for NaN), 0 (do not), or -1 for the default");
    check_option(o.distributed >= -1 && o.distributed <= 1, "distributed", o.distributed,
                 "must be 1 (through StarPU-MPI), 0 (one process), or -1 for the default");
    using detail::resolve_count, detail::resolve_text;
    const char* who = "grain::Runtime";
    Settings s{resolve_count(who, o.ncpu, "ncpu", {"GRAIN_NCPU", "STARPU_NCPU"}, -1),
               resolve_count(who, o.ngpu, "ngpu", {"GRAIN_NGPU", "STARPU_NCUDA"}, -1),
               resolve_count(who, o.gpu_workers, "gpu_workers", {"GRAIN_GPU_WORKERS", "STARPU_NWORKER_PER_CUDA"}, 1),
               resolve_count(who, o.gpu_memory, "gpu_memory", {"GRAIN_GPU_MEMORY", "STARPU_LIMIT_CUDA_MEM"}, -1),
               resolve_count(who, o.window, "window", {"GRAIN_WINDOW"}, -1),  // -1: per worker started
               resolve_count(who, o.lp_period, "lp_period", {"GRAIN_LP_PERIOD"}, detail::default_lp_period),
               resolve_count(who, o.cpu_tile_limit, "cpu_tile_limit", {"GRAIN_CPU_TILE_LIMIT"},
                             detail::default_cpu_tile_limit),
               // grain has no OpenCL kernels: OpenCL workers run only an application's own
               // codelets. GRAIN_NOPENCL starts some, e.g. on pocl's CPU device as a second
               // memory node with real data for tests (tests/test_opencl_node.cpp).
               resolve_count(who, -1, "nopencl", {"GRAIN_NOPENCL"}, 0),
               resolve_nancheck(who, o.nancheck),
               resolve_distributed(who, o.distributed),
               resolve_text(o.sched, "sched", {"GRAIN_SCHED", "STARPU_SCHED"}, "prio"),
               resolve_text(o.split, "split", {"GRAIN_SPLIT"}, "lp"),
               resolve_text(o.gpu_math, "gpu_math", {"GRAIN_GPU_MATH"}, "fp32")};
    parse_gpu_math(who, s.gpu_math.source, s.gpu_math.value);  // checked before StarPU starts
    if (s.ncpu.value == 0) throw invalid_argument(who, s.ncpu.source, "0", "at least one CPU worker is needed");
    if (s.ngpu.value > 0 && !Runtime::has_cuda())
        throw invalid_argument(who, s.ngpu.source, std::to_string(s.ngpu.value),
                               "this build of grain has no GPU kernels (configure it with GRAIN_USE_CUDA=ON)");
    if (s.gpu_memory.value == 0) throw invalid_argument(who, s.gpu_memory.source, "0", "must be positive");
    if (s.gpu_workers.value < 1 || s.gpu_workers.value > detail::max_gpu_workers)
        throw invalid_argument(who, s.gpu_workers.source, std::to_string(s.gpu_workers.value), "must be from 1 to 8");
    if (s.lp_period.value == 0) throw invalid_argument(who, s.lp_period.source, "0", "must be positive");
    // StarPU would warn about a name it does not know and run its default policy instead.
    try {
        detail::sched::parse_placement(s.sched.value);
    } catch (const std::invalid_argument& e) {
        throw invalid_argument(who, s.sched.source, s.sched.value, e.what());
    }
    if (!Runtime::is_sched_policy(s.sched.value)) {
        const std::vector<std::string> policies = Runtime::sched_policies();
        std::string list;
        for (const std::string& name : policies) list += (list.empty() ? "" : ", ") + name;
        throw invalid_argument(who, s.sched.source, s.sched.value, "no such scheduling policy; one of " + list);
    }
    return s;
}

// Starts StarPU with the workers and the scheduling policy of `s`.
void start_starpu(const Settings& s) {
    // Where StarPU would abort, a runtime_error. Its default for the CPU workers is one
    // per core at most; an MPI build adds a progress thread.
    const int ncpu = s.ncpu.value > 0 ? s.ncpu.value : int(std::max(1u, std::thread::hardware_concurrency()));
    detail::check_starpu_can_start(ncpu + std::max(0, s.ngpu.value) * s.gpu_workers.value + s.nopencl.value +
                                       int(s.distributed),
                                   ncpu, s.nopencl.value > 0);
    struct starpu_conf conf;
    starpu_conf_init(&conf);
    // grain resolved the worker counts and the scheduler from its options and from
    // both GRAIN_* and STARPU_* variables already.
    conf.precedence_over_environment_variables = 1;
    conf.ncpus = s.ncpu.value;
    conf.ncuda = Runtime::has_cuda() ? s.ngpu.value : 0;
    conf.nopencl = s.nopencl.value;
    const std::string& sched = s.sched.value;
    // STARPU_SCHED says what grain resolved, for starpu_init only.
    const ScopedVariable sched_variable("STARPU_SCHED", detail::sched::select_policy(conf, sched));
    if (detail::sched::is_darts_policy(sched) && sched != "darts-lru" && !detail::sched::darts_has_luf())
        std::fprintf(stderr, "grain: this StarPU has no victim-selector hook: %s evicts with StarPU's LRU "
                             "(build StarPU with scripts/build-starpu.sh for LUF)\n", sched.c_str());
    // StarPU 1.3 reads its GPU memory limit from the environment only: set it for
    // starpu_init and put the caller's value back.
    const int limit = s.gpu_memory.value;
    const ScopedVariable limit_variable("STARPU_LIMIT_CUDA_MEM", limit > 0 ? std::to_string(limit) : "");
    // So are its workers per GPU, each with a stream of its own: kernels of several tasks
    // then share a GPU, and transfers overlap them.
    const ScopedVariable workers_variable("STARPU_NWORKER_PER_CUDA", std::to_string(s.gpu_workers.value));
    // CUDA loads a kernel's module when the kernel first runs, which made the first
    // tasks of a process many times slower than the next; loaded while StarPU starts
    // CUDA, no call pays for it. A caller's own CUDA_MODULE_LOADING is kept.
    const char* loading = std::getenv("CUDA_MODULE_LOADING");
    const ScopedVariable loading_variable("CUDA_MODULE_LOADING", loading ? loading : "EAGER");
    // Under an MPI launcher (in a build with StarPU-MPI), through StarPU-MPI
    // (RuntimeOptions::distributed).
    const int ret = detail::mpi::start(conf, s.distributed);
    if (ret != 0) throw runtime_error(std::string("grain::Runtime: starpu_init failed: ") + std::strerror(-ret));
    const int started = int(starpu_cpu_worker_get_count()), ngpu = detail::gpu_count();
    if (started == 0 || (s.ngpu.value > 0 && ngpu < s.ngpu.value)) {
        detail::mpi::stop();
        if (started == 0) throw runtime_error("grain::Runtime: StarPU started no CPU worker");
        throw runtime_error("grain::Runtime: " + s.ngpu.source + " asks for " + std::to_string(s.ngpu.value) +
                            " GPUs, StarPU started " + std::to_string(ngpu));
    }
}

}  // namespace

Runtime::Runtime(const RuntimeOptions& options) {
    const Settings settings = resolve(options);
    sched_ = settings.sched.value;
    // The split policies of the layers above the recursion: lp/'s.
    auto recursion = std::make_unique<detail::Recursion>("none", 0, settings.lp_period.value,
                                                         detail::SplitPolicyRegistry{{"lp", detail::make_lp_split}});
    recursion->set_split(settings.split.value, settings.split.source);  // checked before StarPU starts

    // A Runtime that yields ends first, outside the lock: its destructor takes it.
    std::function<void()> end;
    {
        const std::lock_guard<std::mutex> lock(runtime_mutex);
        end = std::exchange(runtime_end, nullptr);
    }
    if (end) end();

    std::lock_guard<std::mutex> lock(runtime_mutex);
    if (runtime_alive)
        throw runtime_error("grain::Runtime: another grain::Runtime is alive in this process (one at a time: "
                            "destroy it first)");
    start_starpu(settings);
    ncpu_ = static_cast<int>(starpu_cpu_worker_get_count());
    ngpu_ = detail::gpu_count();
    gpu_workers_ = ngpu_ > 0 ? int(starpu_cuda_worker_get_count()) / ngpu_ : settings.gpu_workers.value;
    gpu_memory_ = settings.gpu_memory.value;
    // The data layer asks the scheduling policy (a DARTS one keeps handles) through hooks.
    detail::open_handle_registry({detail::sched::keeps_handles, detail::sched::forget_data});
    // The lp policy and the automatic granularity ask the kernels' models by footprint,
    // which needs them read first.
    detail::load_history_models();
    recursion->started();
#ifdef GRAIN_USE_CUDA
    if (ngpu_ > 0) detail::cuda::start_workers();
#endif
    const int window = settings.window.value;
    recursion->set_window(window >= 0 ? window
                                      : detail::window_tasks_per_cpu * ncpu_ + detail::window_tasks_per_gpu * ngpu_);
    recursion_ = std::move(recursion);
    // Each task runs single-threaded BLAS, so that workers do not oversubscribe the
    // cores; OpenBLAS's thread count is process-wide, so it is restored at the end.
    saved_blas_threads_ = openblas_get_num_threads();
    openblas_set_num_threads(1);
    runtime_alive = true;
    runtime_recursion = recursion_.get();
    runtime_nancheck = settings.nancheck;
    detail::set_cpu_tile_limit(settings.cpu_tile_limit.value);
    detail::set_gpu_math(parse_gpu_math("grain::Runtime", "gpu_math", settings.gpu_math.value));
}

Runtime::~Runtime() {
    const std::vector<detail::HandleOwner*> owners = detail::take_handle_owners();
    starpu_task_wait_for_all();
    for (detail::HandleOwner* owner : owners) owner->runtime_ending();
    detail::unpin_caller_pins();  // grain::Pinned's, while the GPUs' contexts are there
#ifdef GRAIN_USE_CUDA
    if (ngpu_ > 0) detail::cuda::stop_workers();
#endif
    detail::mpi::stop();
    detail::set_cpu_tile_limit(0);
    detail::set_gpu_math(detail::GpuMath::Fp32);
    detail::close_handle_registry();
    openblas_set_num_threads(saved_blas_threads_);
    std::lock_guard<std::mutex> lock(runtime_mutex);
    runtime_alive = false;
    runtime_recursion = nullptr;
    runtime_end = nullptr;
}

void Runtime::yield_to_next(std::function<void()> end) {
    const std::lock_guard<std::mutex> lock(runtime_mutex);
    runtime_end = std::move(end);
}

void Runtime::set_split(const std::string& split) { recursion_->set_split(split, "split"); }
const std::string& Runtime::split() const { return recursion_->split(); }

void Runtime::set_window(int window) {
    if (window < 0) throw invalid_argument("grain::Runtime::set_window", "window", std::to_string(window), "must be >= 0");
    recursion_->set_window(window);
}
int Runtime::window() const { return recursion_->window(); }

void Runtime::set_nancheck(bool on) { runtime_nancheck = on; }
bool Runtime::nancheck() const { return runtime_nancheck.load(); }
int Runtime::cpu_tile_limit() const { return detail::cpu_tile_limit(); }

void Runtime::set_gpu_math(const std::string& math) {
    detail::set_gpu_math(parse_gpu_math("grain::Runtime::set_gpu_math", "math", math));
}
std::string Runtime::gpu_math() const { return gpu_math_names[size_t(detail::gpu_math())]; }

Statistics Runtime::statistics() const { return recursion_->statistics(); }
void Runtime::reset_statistics() { recursion_->reset_statistics(); }

void Runtime::set_trace(bool on) { recursion_->set_trace(on); }
std::vector<TaskRecord> Runtime::trace() const {
    const detail::TraceLog* log = recursion_->trace();
    return log ? log->records() : std::vector<TaskRecord>{};
}

bool Runtime::has_cuda() {
#if defined(GRAIN_USE_CUDA) || defined(STARPU_SIMGRID)  // simulated GPUs run no kernel
    return true;
#else
    return false;
#endif
}

std::vector<std::string> Runtime::sched_policies() {
    std::vector<std::string> names = detail::sched::darts_policy_names();
    for (const std::string& name : detail::sched::placement_names()) names.push_back(name);
    for (starpu_sched_policy** p = starpu_sched_get_predefined_policies(); *p; ++p) names.push_back((*p)->policy_name);
    return names;
}

bool Runtime::is_sched_policy(const std::string& name) {
    try {
        if (detail::sched::parse_placement(name)) return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
    const std::vector<std::string> names = sched_policies();
    return std::find(names.begin(), names.end(), name) != names.end();
}

int Runtime::rank() { return detail::mpi::rank(); }
int Runtime::ranks() { return detail::mpi::ranks(); }
bool Runtime::distributed_build() { return detail::mpi::built(); }

bool Runtime::active() {
    std::lock_guard<std::mutex> lock(runtime_mutex);
    return runtime_alive;
}

}  // namespace grain
