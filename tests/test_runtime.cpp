// The Runtime's life cycle (a process of its own: no global runtime here).
#include <starpu.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <string>
#include <vector>

#include "common.hpp"
#include "src/starpu/tile_storage.hpp"

namespace grain::test {
namespace {

TEST(Runtime, CreatedAndDestroyedTwice) {
    for (int round = 0; round < 2; ++round) {
        SCOPED_TRACE(round);
        RuntimeOptions options;
        options.ncpu = 2;
        Runtime runtime(options);
        EXPECT_TRUE(Runtime::active());
        EXPECT_EQ(runtime.ncpu(), 2);
        EXPECT_EQ(runtime.ngpu(), visible_gpus());
        const Array<double> A = random_array<double>(50, 50, Kind::Spd, rng());
        Matrix<double> tA = tiles_of(A, nb);
        EXPECT_EQ(potrf(Uplo::Lower, tA), 0);
        EXPECT_LT(testing::factor_residual(A, testing::cholesky_product(Uplo::Lower, to_array(tA))), 60);
    }
    EXPECT_FALSE(Runtime::active());
    EXPECT_EQ(detail::registered_tile_handles(), 0);
}

// More GPUs than visible is an error naming where the number came from, and leaves no
// runtime behind (in a build without CUDA kernels, any GPU is an invalid argument).
TEST(Runtime, MoreGpusThanVisible) {
    ::setenv("GRAIN_NGPU", std::to_string(visible_gpus() + 1).c_str(), 1);
    try {
        Runtime runtime;
        ADD_FAILURE() << "a runtime started with more GPUs than visible";
    } catch (const grain::invalid_argument& e) {
        EXPECT_FALSE(Runtime::has_cuda());
        EXPECT_EQ(e.argument(), "GRAIN_NGPU");
    } catch (const grain::runtime_error& e) {
        EXPECT_TRUE(Runtime::has_cuda());
        EXPECT_NE(std::string(e.what()).find("GRAIN_NGPU"), std::string::npos) << e.what();
    }
    ::unsetenv("GRAIN_NGPU");
    EXPECT_FALSE(Runtime::active());
    Runtime runtime;  // and the next one starts
    EXPECT_TRUE(Runtime::active());
}

// The GPU memory limit reaches StarPU through its variable for starpu_init only: the
// caller's environment is left as it was.
TEST(Runtime, GpuMemoryLimitLeavesEnvironment) {
    ::setenv("STARPU_LIMIT_CUDA_MEM", "123", 1);
    {
        RuntimeOptions options;
        options.gpu_memory = 64;
        Runtime runtime(options);
        EXPECT_EQ(runtime.gpu_memory(), 64);
        EXPECT_STREQ(std::getenv("STARPU_LIMIT_CUDA_MEM"), "123");
    }
    {
        Runtime runtime;  // from the variable
        EXPECT_EQ(runtime.gpu_memory(), 123);
    }
    ::unsetenv("STARPU_LIMIT_CUDA_MEM");
    Runtime runtime;
    EXPECT_EQ(runtime.gpu_memory(), -1);
    EXPECT_EQ(std::getenv("STARPU_LIMIT_CUDA_MEM"), nullptr);
}

// The workers per GPU reach StarPU through its variable for starpu_init only, as the
// module loading does CUDA: the caller's environment is left as it was. Out of range,
// from the option or a variable, they are refused before StarPU starts.
TEST(Runtime, GpuWorkersLeaveEnvironment) {
    ::setenv("STARPU_NWORKER_PER_CUDA", "3", 1);
    {
        Runtime runtime;  // from the variable
        if (runtime.ngpu() == 0) {
            EXPECT_EQ(runtime.gpu_workers(), 3);
        } else {
            EXPECT_EQ(runtime.gpu_workers() * runtime.ngpu(), int(starpu_cuda_worker_get_count()));
        }
        EXPECT_STREQ(std::getenv("STARPU_NWORKER_PER_CUDA"), "3");
        EXPECT_EQ(std::getenv("CUDA_MODULE_LOADING"), nullptr);
    }
    ::unsetenv("STARPU_NWORKER_PER_CUDA");
    {
        RuntimeOptions options;
        options.gpu_workers = 2;
        Runtime runtime(options);
        if (runtime.ngpu() == 0) {
            EXPECT_EQ(runtime.gpu_workers(), 2);
        }
        EXPECT_EQ(std::getenv("STARPU_NWORKER_PER_CUDA"), nullptr);
    }
    for (const int workers : {0, -2, 9}) {
        RuntimeOptions bad;
        bad.gpu_workers = workers;
        EXPECT_THROW(Runtime{bad}, grain::invalid_argument) << workers;
    }
    ::setenv("GRAIN_GPU_WORKERS", "9", 1);
    try {
        Runtime runtime;
        ADD_FAILURE() << "a runtime started with 9 workers per GPU";
    } catch (const grain::invalid_argument& e) {
        EXPECT_EQ(e.argument(), "GRAIN_GPU_WORKERS");
    }
    ::unsetenv("GRAIN_GPU_WORKERS");
    EXPECT_FALSE(Runtime::active());
}

// One GPU that may use 32 MiB, against the 72 MB matrices of factor_3000.
RuntimeOptions one_small_gpu() {
    RuntimeOptions options;
    options.ngpu = 1;
    options.gpu_memory = 32;
    return options;
}

// A Cholesky factorization of a random SPD matrix of order 3000 on the given tile
// scales, checked by its residual.
void factor_3000(const std::vector<int>& scales) {
    const Array<double> A = random_array<double>(3000, 3000, Kind::Spd, rng());
    Matrix<double> tA = tiles_of(A, scales);
    EXPECT_EQ(potrf(Uplo::Lower, tA), 0);
    EXPECT_LT(testing::factor_residual(A, testing::cholesky_product(Uplo::Lower, to_array(tA))), 60);
}

// Tasks the first GPU ran since profiling was enabled.
int gpu_executed_tasks() {
    starpu_profiling_worker_info info;
    if (starpu_profiling_worker_get_info(starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0), &info) != 0) return -1;
    return info.executed_tasks;
}

// A Cholesky factorization of a matrix larger than the GPU memory StarPU may use:
// the GPU takes part (it runs tasks) and the result is right.
TEST(Runtime, FactorizationLargerThanGpuMemory) {
    if (visible_gpus() == 0) GTEST_SKIP() << "no CUDA device visible: GPU tests skipped";
    Runtime runtime(one_small_gpu());
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    factor_3000({500});
    EXPECT_GT(gpu_executed_tasks(), 0);
}

// grain's DARTS policies on a GPU with recursive tasks: sub-tile tasks wait in DARTS
// while their partition is already being undone (their inputs are prefetched per task),
// and a second factorization runs after the first one's handles were unregistered
// (LUF must not name them). GPU memory is limited so that LUF chooses victims.
TEST(Runtime, DartsPoliciesWithRecursiveTasks) {
    if (visible_gpus() == 0) GTEST_SKIP() << "no CUDA device visible: GPU tests skipped";
    for (const char* sched : {"darts", "darts-lru", "darts-wb"}) {
        SCOPED_TRACE(sched);
        RuntimeOptions options = one_small_gpu();
        options.sched = sched;
        options.split = "random:0.5:7";
        Runtime runtime(options);
        starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
        for (int round = 0; round < 2; ++round) {
            SCOPED_TRACE(round);
            factor_3000({500, 250, 125});
        }
        EXPECT_GT(runtime.statistics().at("", 2).submitted, 0);  // tasks were split twice
        EXPECT_GT(gpu_executed_tasks(), 0);
    }
}

// grain's DARTS policy on CPU workers alone (no GPU test above runs here): every task
// goes the cores' path, and each push wakes one core, not all of them. The factorization
// must end, be right, and run on both cores. (A version that woke no core at all also
// ended, later: this checks the results and the spread, not the wake-ups themselves.)
TEST(Runtime, DartsOnCoresAlone) {
    RuntimeOptions options;
    options.ncpu = 2;
    options.ngpu = 0;
    options.sched = "darts";
    options.split = "random:0.5:7";
    Runtime runtime(options);
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    factor_3000({250, 125});
    for (int w = 0; w < 2; ++w) {
        starpu_profiling_worker_info info;
        ASSERT_EQ(starpu_profiling_worker_get_info(starpu_worker_get_by_type(STARPU_CPU_WORKER, w), &info), 0);
        EXPECT_GT(info.executed_tasks, 0) << "CPU worker " << w;
    }
}

TEST(Runtime, RoutinesNeedARuntime) {
    Matrix<double> A(10, 10, 4);
    EXPECT_THROW(potrf(Uplo::Lower, A), grain::runtime_error);
}

// A matrix that outlives its runtime keeps its data (the runtime unregistered its
// tiles, bringing them home), and works with the next runtime.
TEST(Runtime, MatrixOutlivesRuntime) {
    const Array<double> A = random_array<double>(40, 40, Kind::Spd, rng());
    std::unique_ptr<Matrix<double>> tA;
    {
        Runtime runtime;
        tA = std::make_unique<Matrix<double>>(tiles_of(A, nb));
        Request request = potrf_async(Uplo::Lower, *tA);
        EXPECT_EQ(request.wait(), 0);
    }
    EXPECT_EQ(detail::registered_tile_handles(), 0);
    const Array<double> factored = to_array(*tA);
    EXPECT_LT(testing::factor_residual(A, testing::cholesky_product(Uplo::Lower, factored)), 60);
    Runtime again;
    const Array<double> B = random_array<double>(40, 2, Kind::General, rng());
    Matrix<double> tB = tiles_of(B, nb);
    EXPECT_EQ(potrs(Uplo::Lower, *tA, tB), 0);
    EXPECT_LT(testing::solve_residual(Side::Left, Op::NoTrans, A, to_array(tB), 1.0, B), 60);
}

TEST(Runtime, EnvironmentChoosesWorkersAndScheduler) {
    ::setenv("GRAIN_NCPU", "1", 1);
    ::setenv("GRAIN_SCHED", "eager", 1);
    {
        Runtime runtime;
        EXPECT_EQ(runtime.ncpu(), 1);
        EXPECT_EQ(runtime.sched(), "eager");
        RuntimeOptions explicit_options;
        (void)explicit_options;
    }
    {
        RuntimeOptions options;  // options win over the environment
        options.ncpu = 2;
        options.sched = "prio";
        Runtime runtime(options);
        EXPECT_EQ(runtime.ncpu(), 2);
        EXPECT_EQ(runtime.sched(), "prio");
    }
    ::setenv("GRAIN_NCPU", "two", 1);
    EXPECT_THROW(Runtime(), grain::invalid_argument);
    ::unsetenv("GRAIN_NCPU");
    ::unsetenv("GRAIN_SCHED");
}

// Every integer setting read from the environment refuses a value that does not parse,
// naming its variable, before StarPU starts (a Runtime can be made right after).
TEST(Runtime, BadSettingsInTheEnvironmentAreRefusedByName) {
    const struct {
        const char* variable;
        const char* value;
        const char* sched;
    } cases[] = {{"GRAIN_WINDOW", "12x", "prio"},      {"GRAIN_LP_PERIOD", "-3", "prio"},
                 {"GRAIN_GPU_MEMORY", "lots", "prio"}, {"GRAIN_DARTS_PREFETCH", "abc", "darts"},
                 {"GRAIN_DARTS_PREFETCH", "-1", "darts"}, {"GRAIN_NANCHECK", "2", "prio"},
                 {"GRAIN_NANCHECK", "yes", "prio"},      {"GRAIN_DARTS_SEED", "-2", "darts"},
                 {"GRAIN_DARTS_SEED", "1e3", "darts-opti-3inputs"}};
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(c.variable) + "=" + c.value);
        ::setenv(c.variable, c.value, 1);
        RuntimeOptions options;
        options.sched = c.sched;
        try {
            Runtime runtime(options);
            ADD_FAILURE() << "accepted";
        } catch (const grain::invalid_argument& e) {
            EXPECT_EQ(e.argument(), c.variable);
        }
        ::unsetenv(c.variable);
        EXPECT_FALSE(Runtime::active());
        Runtime runtime(options);  // StarPU was left down: it starts again
        EXPECT_TRUE(Runtime::active());
    }
}

// GRAIN_NANCHECK turns the NaN check off; RuntimeOptions::nancheck wins over it.
TEST(Runtime, NanCheckFollowsItsSetting) {
    EXPECT_TRUE(Runtime().nancheck());
    ::setenv("GRAIN_NANCHECK", "0", 1);
    {
        Runtime runtime;
        EXPECT_FALSE(runtime.nancheck());
        std::vector<double> a{std::nan(""), 0, 0, 1};  // 2 x 2, NaN in the lower triangle
        EXPECT_GE(potrf(Uplo::Lower, 2, a.data(), 2), 0);  // not refused
        runtime.set_nancheck(true);
        a = {std::nan(""), 0, 0, 1};
        EXPECT_EQ(potrf(Uplo::Lower, 2, a.data(), 2), -3);
    }
    {
        RuntimeOptions options;
        options.nancheck = 1;
        EXPECT_TRUE(Runtime(options).nancheck());
    }
    ::unsetenv("GRAIN_NANCHECK");
    RuntimeOptions bad;
    bad.nancheck = 2;
    EXPECT_THROW(Runtime{bad}, grain::invalid_argument);
}

// RuntimeOptions::distributed: no launcher started this suite, so a Runtime is one
// process (no MPI call); 1 needs a build with StarPU-MPI; other values and a GRAIN_MPI
// that does not parse are refused before StarPU starts.
TEST(Runtime, DistributedFollowsItsSetting) {
    {
        Runtime runtime;
        EXPECT_EQ(Runtime::ranks(), 1);
        EXPECT_EQ(Runtime::rank(), 0);
    }
    RuntimeOptions bad;
    bad.distributed = 2;
    EXPECT_THROW(Runtime{bad}, grain::invalid_argument);
    ::setenv("GRAIN_MPI", "yes", 1);
    EXPECT_THROW(Runtime{}, grain::invalid_argument);
    ::setenv("GRAIN_MPI", "0", 1);
    EXPECT_NO_THROW(Runtime{});
    ::unsetenv("GRAIN_MPI");
    if (!Runtime::distributed_build()) {
        RuntimeOptions on;
        on.distributed = 1;
        EXPECT_THROW(Runtime{on}, grain::invalid_argument);
    }
    EXPECT_FALSE(Runtime::active());
}

// RuntimeOptions::cpu_tile_limit: 1024 by default, else GRAIN_CPU_TILE_LIMIT, the option
// winning over it. It binds the cores only while GPUs run: on the cores alone, a limit
// below the tile size still factors the matrix (StarPU would find no worker for a tile
// otherwise, and fail the task).
TEST(Runtime, CpuTileLimitFollowsItsSettingAndBindsOnlyWithGpus) {
    EXPECT_EQ(Runtime().cpu_tile_limit(), 1024);
    ::setenv("GRAIN_CPU_TILE_LIMIT", "16", 1);
    {
        RuntimeOptions options;
        options.ngpu = 0;
        Runtime runtime(options);
        EXPECT_EQ(runtime.cpu_tile_limit(), 16);
        const Array<double> A = random_array<double>(100, 100, Kind::Spd, rng());
        Matrix<double> tA = tiles_of(A, 50);
        EXPECT_EQ(potrf(Uplo::Lower, tA), 0);
        EXPECT_LT(testing::factor_residual(A, testing::cholesky_product(Uplo::Lower, to_array(tA))), 60);
    }
    {
        RuntimeOptions options;
        options.cpu_tile_limit = 0;
        EXPECT_EQ(Runtime(options).cpu_tile_limit(), 0);
    }
    ::setenv("GRAIN_CPU_TILE_LIMIT", "-3", 1);
    EXPECT_THROW(Runtime{}, grain::invalid_argument);
    ::unsetenv("GRAIN_CPU_TILE_LIMIT");
    RuntimeOptions bad;
    bad.cpu_tile_limit = -2;
    EXPECT_THROW(Runtime{bad}, grain::invalid_argument);
    EXPECT_FALSE(Runtime::active());
}

// RuntimeOptions::gpu_math: fp32 by default, else GRAIN_GPU_MATH, the option winning over
// it, changeable between calls; any other name is refused, the variable's by its name.
TEST(Runtime, GpuMathFollowsItsSetting) {
    EXPECT_EQ(Runtime().gpu_math(), "fp32");
    ::setenv("GRAIN_GPU_MATH", "bf16", 1);
    {
        Runtime runtime;
        EXPECT_EQ(runtime.gpu_math(), "bf16");
        runtime.set_gpu_math("fp16");
        EXPECT_EQ(runtime.gpu_math(), "fp16");
        EXPECT_THROW(runtime.set_gpu_math("fp64"), grain::invalid_argument);
        EXPECT_EQ(runtime.gpu_math(), "fp16");
    }
    {
        RuntimeOptions options;
        options.gpu_math = "tf32";
        EXPECT_EQ(Runtime(options).gpu_math(), "tf32");
    }
    ::setenv("GRAIN_GPU_MATH", "half", 1);
    try {
        Runtime runtime;
        ADD_FAILURE() << "GRAIN_GPU_MATH=half was accepted";
    } catch (const grain::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("GRAIN_GPU_MATH"), std::string::npos) << e.what();
    }
    ::unsetenv("GRAIN_GPU_MATH");
    RuntimeOptions bad;
    bad.gpu_math = "FP32";
    EXPECT_THROW(Runtime{bad}, grain::invalid_argument);
    EXPECT_EQ(Runtime().gpu_math(), "fp32");  // nothing of the last Runtime's setting stays
    EXPECT_FALSE(Runtime::active());
}

// A scheduler name neither StarPU nor grain has is refused, from the option or from a
// variable, listing the valid names, before StarPU starts (which would warn and run its
// default policy instead).
TEST(Runtime, UnknownSchedulerIsRefusedListingTheValidOnes) {
    const std::vector<std::string> names = Runtime::sched_policies();
    for (const char* name : {"prio", "eager", "dmdar", "darts", "darts-lru"})
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    for (const bool from_variable : {false, true}) {
        SCOPED_TRACE(from_variable ? "GRAIN_SCHED" : "sched");
        RuntimeOptions options;
        if (from_variable) ::setenv("GRAIN_SCHED", "nosuch", 1);
        else options.sched = "nosuch";
        try {
            Runtime runtime(options);
            ADD_FAILURE() << "accepted";
        } catch (const grain::invalid_argument& e) {
            EXPECT_EQ(e.argument(), from_variable ? "GRAIN_SCHED" : "sched");
            for (const char* listed : {"nosuch", "prio", "dmdar", "darts-wb"})
                EXPECT_NE(std::string(e.what()).find(listed), std::string::npos) << e.what();
        }
        ::unsetenv("GRAIN_SCHED");
        EXPECT_FALSE(Runtime::active());
    }
    Runtime runtime;  // StarPU was left down: it starts again
    EXPECT_TRUE(Runtime::active());
}

// A placement takes its parameter in the name; a bad one is refused, saying why, before
// StarPU starts; a good one is a valid name.
TEST(Runtime, PlacementParametersAreChecked) {
    for (const char* name : {"dada:0.3", "dada-cp", "owner-load:inf", "owner-cyclic:1x2", "xkaapi-heft"})
        EXPECT_TRUE(Runtime::is_sched_policy(name)) << name;
    for (const char* name : {"dada:1.5", "owner-cyclic:2", "owner-load:x", "xkaapi-heft:1"}) {
        EXPECT_FALSE(Runtime::is_sched_policy(name)) << name;
        RuntimeOptions options;
        options.sched = name;
        try {
            Runtime runtime(options);
            ADD_FAILURE() << name << " accepted";
        } catch (const grain::invalid_argument& e) {
            EXPECT_EQ(e.argument(), "sched");
            EXPECT_EQ(std::string(e.what()).find("no such scheduling policy"), std::string::npos) << e.what();
        }
        EXPECT_FALSE(Runtime::active());
    }
}

// Sets the variables for its lifetime (nullptr unsets one), then puts back what was there.
class Environment {
public:
    explicit Environment(std::vector<std::pair<const char*, const char*>> values) {
        for (const auto& [name, value] : values) {
            const char* old = std::getenv(name);
            saved_.push_back({name, old != nullptr, old ? old : ""});
            if (value) ::setenv(name, value, 1);
            else ::unsetenv(name);
        }
    }
    ~Environment() {
        for (const Saved& s : saved_) {
            if (s.had) ::setenv(s.name, s.value.c_str(), 1);
            else ::unsetenv(s.name);
        }
    }

private:
    struct Saved {
        const char* name;
        bool had;
        std::string value;
    };
    std::vector<Saved> saved_;
};

// A StarPU home StarPU cannot write (it would abort the process in starpu_init) is a
// runtime_error naming where the path came from; the next Runtime starts.
TEST(Runtime, UnusableStarpuHomeIsARuntimeError) {
    const std::string root = ::testing::TempDir() + "grain-home-" + std::to_string(::getpid());
    const std::string file = root + "-file", blocked = root + "-blocked";
    std::fclose(std::fopen(file.c_str(), "w"));
    // A home whose models' bus directory is a file: the parents exist, it cannot.
    ASSERT_EQ(std::system(("mkdir -p " + blocked + "/.starpu/sampling && touch " + blocked +
                           "/.starpu/sampling/bus").c_str()), 0);
    for (const std::string& home : {std::string("/proc/grain-none"), file, std::string("/sys/kernel"), blocked}) {
        SCOPED_TRACE(home);
        const Environment env({{"STARPU_HOME", home.c_str()}, {"XDG_CACHE_HOME", nullptr},
                               {"STARPU_PERF_MODEL_DIR", nullptr}});
        try {
            Runtime runtime;
            ADD_FAILURE() << "a runtime started with STARPU_HOME=" << home;
        } catch (const grain::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("STARPU_HOME"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(home), std::string::npos) << e.what();
        }
        EXPECT_FALSE(Runtime::active());
    }
    {  // STARPU_PERF_MODEL_DIR comes first, and is named.
        const Environment env({{"STARPU_PERF_MODEL_DIR", file.c_str()}, {"XDG_CACHE_HOME", nullptr}});
        try {
            Runtime runtime;
            ADD_FAILURE() << "a runtime started with STARPU_PERF_MODEL_DIR a file";
        } catch (const grain::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("from STARPU_PERF_MODEL_DIR"), std::string::npos) << e.what();
        }
    }
    std::remove(file.c_str());
    EXPECT_EQ(std::system(("rm -rf " + blocked).c_str()), 0);
    Runtime runtime;
    EXPECT_TRUE(Runtime::active());
}

// The limits of the process under the sanitizers' shadow memory are not the program's.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool address_space_is_the_programs = false;
#else
constexpr bool address_space_is_the_programs = true;
#endif

// The address space the process maps now.
int64_t mapped_bytes() {
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
        std::fclose(f);
    }
    return int64_t(pages) * int64_t(sysconf(_SC_PAGESIZE));
}

// Sets the address-space limit (ulimit -v) to what the process maps now and `extra` more,
// for its lifetime.
class AddressSpaceLimit {
public:
    explicit AddressSpaceLimit(int64_t extra) {
        getrlimit(RLIMIT_AS, &saved_);
        rlimit tight = saved_;
        tight.rlim_cur = rlim_t(mapped_bytes() + extra);
        ok_ = setrlimit(RLIMIT_AS, &tight) == 0;
    }
    ~AddressSpaceLimit() { setrlimit(RLIMIT_AS, &saved_); }
    bool ok() const { return ok_; }

private:
    rlimit saved_{};
    bool ok_ = false;
};

// With too little address space, StarPU cannot create its workers (and OpenBLAS, in
// them, would retry its buffer forever): a runtime_error saying so, before StarPU starts.
TEST(RuntimeLimits, TightAddressSpaceIsARuntimeError) {
    if (!address_space_is_the_programs) GTEST_SKIP() << "under a sanitizer, the address space is its shadow's";
    {
        const AddressSpaceLimit limit(256 << 20);
        ASSERT_TRUE(limit.ok());
        try {
            Runtime runtime;
            ADD_FAILURE() << "a runtime started with 256 MiB of address space to spare";
        } catch (const grain::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("ulimit -v"), std::string::npos) << e.what();
        }
        EXPECT_FALSE(Runtime::active());
    }
    Runtime runtime;
    EXPECT_TRUE(Runtime::active());
}

// Pivots that cannot be allocated are a runtime_error, as a Matrix's storage.
TEST(RuntimeLimits, PivotsThatCannotBeAllocated) {
    if (!address_space_is_the_programs) GTEST_SKIP() << "under a sanitizer, the address space is its shadow's";
    const AddressSpaceLimit limit(256 << 20);
    ASSERT_TRUE(limit.ok());
    EXPECT_THROW(Pivots(int64_t(1) << 30), grain::runtime_error);  // 4 GiB
    EXPECT_THROW(Matrix<double>(int64_t(1) << 16, int64_t(1) << 16, 1024), grain::runtime_error);  // 32 GiB
}

}  // namespace
}  // namespace grain::test
