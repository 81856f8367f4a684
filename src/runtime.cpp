#include "grain/runtime.hpp"

#include <starpu.h>

#include <cblas.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "grain/errors.hpp"
#include "recursion/recursion.hpp"
#include "sched/darts_policy.hpp"
#include "tile_storage.hpp"
#ifdef GRAIN_USE_CUDA
#include "kernels/cuda.hpp"
#endif

namespace grain {

namespace {

// StarPU is one runtime per process; so is its grain::Runtime.
std::mutex runtime_mutex;
bool runtime_alive = false;
detail::Recursion* runtime_recursion = nullptr;  // the alive Runtime's
std::set<detail::HandleOwner*> handle_owners;

// A setting and where it came from (an option or a variable), for error messages.
struct Setting {
    int value;
    std::string source;
};

// The option if given (>= 0), else the first of the variables that is set, else fallback.
Setting resolve(int option, const char* option_name, std::initializer_list<const char*> variables, int fallback) {
    if (option >= 0) return {option, option_name};
    for (const char* name : variables) {
        const char* text = std::getenv(name);
        if (!text || !*text) continue;
        char* end = nullptr;
        errno = 0;
        const long value = std::strtol(text, &end, 10);
        if (*end != '\0' || errno != 0 || value < 0 || value > 1 << 20)
            throw invalid_argument("grain::Runtime", name, text, "must be a non-negative integer");
        return {static_cast<int>(value), name};
    }
    return {fallback, option_name};
}

std::string env_string(std::initializer_list<const char*> names, const std::string& fallback) {
    for (const char* name : names) {
        const char* text = std::getenv(name);
        if (text && *text) return text;
    }
    return fallback;
}

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

void enlist_handle_owner(HandleOwner* owner) {
    std::lock_guard<std::mutex> lock(runtime_mutex);
    if (!runtime_alive)
        throw runtime_error("grain: no grain::Runtime is alive; create one before using grain routines");
    handle_owners.insert(owner);
}

Recursion& active_recursion(const char* routine) {
    std::lock_guard<std::mutex> lock(runtime_mutex);
    if (!runtime_alive)
        throw runtime_error(std::string(routine) + ": no grain::Runtime is alive; create one first");
    return *runtime_recursion;
}

void delist_handle_owner(HandleOwner* owner) {
    std::lock_guard<std::mutex> lock(runtime_mutex);
    handle_owners.erase(owner);
}

}  // namespace detail

Runtime::Runtime() : Runtime(RuntimeOptions{}) {}

Runtime::Runtime(const RuntimeOptions& options) {
    if (options.ncpu < -1 || options.ncpu == 0)
        throw invalid_argument("grain::Runtime", "ncpu", std::to_string(options.ncpu),
                               "must be positive, or -1 for the default");
    if (options.ngpu < -1)
        throw invalid_argument("grain::Runtime", "ngpu", std::to_string(options.ngpu),
                               "must be >= 0, or -1 for the default");
    const Setting ncpu = resolve(options.ncpu, "ncpu", {"GRAIN_NCPU", "STARPU_NCPU"}, -1);
    const Setting ngpu = resolve(options.ngpu, "ngpu", {"GRAIN_NGPU", "STARPU_NCUDA"}, -1);
    if (options.gpu_memory < -1 || options.gpu_memory == 0)
        throw invalid_argument("grain::Runtime", "gpu_memory", std::to_string(options.gpu_memory),
                               "must be a positive number of MiB, or -1 for the default");
    const Setting gpu_memory = resolve(options.gpu_memory, "gpu_memory", {"GRAIN_GPU_MEMORY", "STARPU_LIMIT_CUDA_MEM"}, -1);
    if (gpu_memory.value == 0) throw invalid_argument("grain::Runtime", gpu_memory.source, "0", "must be positive");
    sched_ = !options.sched.empty() ? options.sched : env_string({"GRAIN_SCHED", "STARPU_SCHED"}, "prio");
    if (ncpu.value == 0)
        throw invalid_argument("grain::Runtime", ncpu.source, "0", "at least one CPU worker is needed");
    if (ngpu.value > 0 && !has_cuda())
        throw invalid_argument("grain::Runtime", ngpu.source, std::to_string(ngpu.value),
                               "this build of grain has no GPU kernels (configure it with GRAIN_USE_CUDA=ON)");
    if (options.window < -1)
        throw invalid_argument("grain::Runtime", "window", std::to_string(options.window),
                               "must be >= 0, or -1 for the default");
    const std::string split_source = !options.split.empty() ? "split" : "GRAIN_SPLIT";
    const std::string split = !options.split.empty() ? options.split : env_string({"GRAIN_SPLIT"}, "none");
    if (options.lp_period < -1 || options.lp_period == 0)
        throw invalid_argument("grain::Runtime", "lp_period", std::to_string(options.lp_period),
                               "must be positive, or -1 for the default");
    const Setting lp_period = resolve(options.lp_period, "lp_period", {"GRAIN_LP_PERIOD"}, 50);
    if (lp_period.value == 0) throw invalid_argument("grain::Runtime", lp_period.source, "0", "must be positive");
    auto recursion = std::make_unique<detail::Recursion>("none", 0, lp_period.value);
    recursion->set_split(split, split_source);  // checked before StarPU starts

    std::lock_guard<std::mutex> lock(runtime_mutex);
    if (runtime_alive) throw runtime_error("grain::Runtime: another grain::Runtime is alive in this process");

    struct starpu_conf conf;
    starpu_conf_init(&conf);
    // grain resolved the worker counts and the scheduler from its options and from
    // both GRAIN_* and STARPU_* variables already.
    conf.precedence_over_environment_variables = 1;
    conf.ncpus = ncpu.value;
    conf.ncuda = has_cuda() ? ngpu.value : 0;
    conf.nopencl = 0;
    // STARPU_SCHED says what grain resolved, for starpu_init only.
    const ScopedVariable sched("STARPU_SCHED", detail::sched::select_policy(conf, sched_));
    if (detail::sched::is_darts_policy(sched_) && sched_ != "darts-lru" && !detail::sched::darts_has_luf())
        std::fprintf(stderr, "grain: this StarPU has no victim-selector hook: %s evicts with StarPU's LRU "
                             "(build StarPU with scripts/build-starpu.sh for LUF)\n", sched_.c_str());
    // StarPU 1.3 reads its GPU memory limit from the environment only: set it for
    // starpu_init and put the caller's value back.
    const ScopedVariable limit("STARPU_LIMIT_CUDA_MEM", gpu_memory.value > 0 ? std::to_string(gpu_memory.value) : "");
    const int ret = starpu_init(&conf);
    if (ret != 0)
        throw runtime_error(std::string("grain::Runtime: starpu_init failed: ") + std::strerror(-ret));
    ncpu_ = static_cast<int>(starpu_cpu_worker_get_count());
    ngpu_ = static_cast<int>(starpu_cuda_worker_get_count());
    if (ncpu_ == 0 || (ngpu.value > 0 && ngpu_ < ngpu.value)) {
        starpu_shutdown();
        if (ncpu_ == 0) throw runtime_error("grain::Runtime: StarPU started no CPU worker");
        throw runtime_error("grain::Runtime: " + ngpu.source + " asks for " + std::to_string(ngpu.value) +
                            " GPUs, StarPU started " + std::to_string(ngpu_));
    }
    gpu_memory_ = gpu_memory.value;
    recursion->started();
#ifdef GRAIN_USE_CUDA
    if (ngpu_ > 0) detail::cuda::start_workers();
#endif
    // Twice the ready tasks per worker the lp policy wants (MinN): with a window of as
    // many as it wants, its LP had to split to find them, whatever the machine
    // (dpotrf n=8192 on 2 cores: 0.95 of nb=512 with 16 per worker, 1.00 with 32).
    const Setting window = resolve(options.window, "window", {"GRAIN_WINDOW"}, 32 * ncpu_);
    recursion->set_window(window.value);
    recursion_ = std::move(recursion);
    // Each task runs single-threaded BLAS, so that workers do not oversubscribe the
    // cores; OpenBLAS's thread count is process-wide, so it is restored at the end.
    saved_blas_threads_ = openblas_get_num_threads();
    openblas_set_num_threads(1);
    runtime_alive = true;
    runtime_recursion = recursion_.get();
}

Runtime::~Runtime() {
    std::set<detail::HandleOwner*> owners;
    {
        std::lock_guard<std::mutex> lock(runtime_mutex);
        owners.swap(handle_owners);
    }
    starpu_task_wait_for_all();
    for (detail::HandleOwner* owner : owners) owner->runtime_ending();
#ifdef GRAIN_USE_CUDA
    if (ngpu_ > 0) detail::cuda::stop_workers();
#endif
    starpu_shutdown();
    openblas_set_num_threads(saved_blas_threads_);
    std::lock_guard<std::mutex> lock(runtime_mutex);
    runtime_alive = false;
    runtime_recursion = nullptr;
}

void Runtime::set_split(const std::string& split) { recursion_->set_split(split, "split"); }
const std::string& Runtime::split() const { return recursion_->split(); }

void Runtime::set_window(int window) {
    if (window < 0) throw invalid_argument("grain::Runtime::set_window", "window", std::to_string(window), "must be >= 0");
    recursion_->set_window(window);
}
int Runtime::window() const { return recursion_->window(); }

Statistics Runtime::statistics() const { return recursion_->statistics(); }
void Runtime::reset_statistics() { recursion_->reset_statistics(); }

bool Runtime::has_cuda() {
#if defined(GRAIN_USE_CUDA) || defined(STARPU_SIMGRID)  // simulated GPUs run no kernel
    return true;
#else
    return false;
#endif
}

bool Runtime::active() {
    std::lock_guard<std::mutex> lock(runtime_mutex);
    return runtime_alive;
}

}  // namespace grain
