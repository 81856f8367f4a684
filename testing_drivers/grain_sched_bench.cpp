// grain_sched_bench: compares StarPU schedulers on the independent-task scenarios of the
// DARTS paper (2D / randomized 2D / 3D products, Cholesky tasks, sparse 2D product) on
// simulated V100-like GPUs, with StarPU's SimGrid mode (a StarPU built --enable-simgrid).
//
//   grain_sched_bench --scenario 2d --gpus 2 --gpu-mem 500 --sched eager,dmda,dmdar --sizes 10:50:10
//
// Every task is one 960^3 SGEMM-equivalent kernel of a CUDA-only codelet that is never
// run: SimGrid advances the clock by the codelet's performance model (sim/codelets) and
// moves the tiles over the simulated bus (sim/bus). Tasks have no dependencies: each one
// reads its inputs (STARPU_R) and, with --outputs private (the default), writes a private
// output tile (STARPU_W) that no other task touches, so neither sequential consistency
// nor StarPU's run-time R/W exclusion orders them. For 3D that means one output tile per
// (i,j,k), for Cholesky one per task; they take GPU memory and go home when evicted. With
// --outputs none tasks only read, as in the DARTS paper's model ("we do not consider the
// output data of tasks").
//
// Each (scenario, scheduler, size) runs in its own process (this program started again
// with --run-one), so runs share no StarPU or SimGrid state.
#include <starpu.h>  // in SimGrid mode this renames main() to starpu_main()

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "grain/runtime.hpp"
#include "src/sched/darts_policy.hpp"
#include "testing_drivers/sched_scenarios.hpp"

#ifndef STARPU_SIMGRID
#error "grain_sched_bench needs a StarPU built with --enable-simgrid"
#endif
#ifndef GRAIN_SIM_DIR
#error "GRAIN_SIM_DIR (the sim/ folder with bus/ and codelets/45/) must be defined"
#endif

extern char** environ;

namespace {

using namespace grain::sched_bench;

struct Options {
    std::vector<std::string> scenarios{"2d"};
    std::vector<std::string> scheds{"eager", "dmda", "dmdar"};
    std::vector<int> sizes{10};
    int gpus = 2;
    int gpu_mem_mb = 500;
    int malloc_cost = 1;  // StarPU's default: simulated cudaMalloc/cudaFree costs
    unsigned seed = 1;
    bool outputs = true;  // --outputs private (true) or none
    std::string sim_dir = GRAIN_SIM_DIR;
    bool run_one = false;
};

// Errors are thrown to main(), which returns: exit() from starpu_main(), which runs in a
// SimGrid actor, aborts the process without running the atexit handlers.
struct Failure {
    int status;
};

[[noreturn]] void fail(const std::string& why) {
    std::fprintf(stderr, "grain_sched_bench: %s\n", why.c_str());
    throw Failure{1};
}

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr,
                 "grain_sched_bench: %s\n"
                 "usage: grain_sched_bench [--scenario 2d|2d-random|3d|cholesky|sparse[,...]] [--gpus 1|2|4]\n"
                 "         [--gpu-mem MB] [--sched eager,dmda,dmdar] [--sizes a,b,c | start:end:step]\n"
                 "         [--seed S] [--outputs private|none] [--malloc-cost 0|1] [--sim-dir DIR]\n",
                 why.c_str());
    throw Failure{2};
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t pos; (pos = s.find(sep, start)) != std::string::npos; start = pos + 1)
        parts.push_back(s.substr(start, pos - start));
    parts.push_back(s.substr(start));
    return parts;
}

int to_int(const std::string& s, const char* what) {
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end || v < 0 || v > 1000000) usage(std::string("bad ") + what + ": " + s);
    return int(v);
}

std::vector<int> parse_sizes(const std::string& s) {
    std::vector<int> sizes;
    const auto range = split(s, ':');
    if (range.size() == 3) {
        const int start = to_int(range[0], "size"), end = to_int(range[1], "size"), step = to_int(range[2], "step");
        if (step <= 0) usage("--sizes step must be positive");
        for (int n = start; n <= end; n += step) sizes.push_back(n);
    } else {
        for (const auto& part : split(s, ',')) sizes.push_back(to_int(part, "size"));
    }
    for (int n : sizes)
        if (n <= 0) usage("sizes must be positive");
    if (sizes.empty()) usage("empty --sizes");
    return sizes;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--log=", 0) == 0 || arg.rfind("--cfg=", 0) == 0) continue;  // SimGrid's, if it left them
        if (arg == "--run-one") {
            o.run_one = true;
            continue;
        }
        if (i + 1 >= argc) usage("missing value after " + arg);
        const std::string value = argv[++i];
        if (arg == "--scenario") o.scenarios = split(value, ',');
        else if (arg == "--sched") o.scheds = split(value, ',');
        else if (arg == "--sizes") o.sizes = parse_sizes(value);
        else if (arg == "--gpus") o.gpus = to_int(value, "--gpus");
        else if (arg == "--gpu-mem") o.gpu_mem_mb = to_int(value, "--gpu-mem");
        else if (arg == "--seed") o.seed = unsigned(to_int(value, "--seed"));
        else if (arg == "--malloc-cost") o.malloc_cost = to_int(value, "--malloc-cost");
        else if (arg == "--outputs") {
            if (value != "private" && value != "none") usage("--outputs must be private or none");
            o.outputs = value == "private";
        }
        else if (arg == "--sim-dir") o.sim_dir = value;
        else usage("unknown option " + arg);
    }
    if (o.gpus != 1 && o.gpus != 2 && o.gpus != 4) usage("--gpus must be 1, 2 or 4 (the platforms in sim/)");
    if (o.gpu_mem_mb <= 0) usage("--gpu-mem must be positive");
    // StarPU falls back to its default policy on an unknown name: refuse it here instead.
    for (const auto& name : o.scheds)
        if (!grain::Runtime::is_sched_policy(name)) usage("unknown scheduler " + name);
    for (const auto& s : o.scenarios)
        if (s != "2d" && s != "2d-random" && s != "3d" && s != "cholesky" && s != "sparse")
            usage("unknown scenario " + s);
    return o;
}

// ---- environment, set before StarPU's own main() starts SimGrid ----
//
// In SimGrid mode, libstarpu's main() loads the platform file (named after
// STARPU_HOSTNAME, under STARPU_PERF_MODEL_DIR/bus) before it calls our starpu_main(),
// so these two variables must be set before main(). A constructor runs early enough;
// glibc passes it argc and argv. The models are read from a temporary copy of sim/ so
// that StarPU never writes into the repository; child processes inherit the copy.
const char* const copy_owner_var = "GRAIN_SCHED_BENCH_COPY_OWNER";  // set by the process owning the copy
// A plain array: our constructor may run before the dynamic initializers of this file.
char model_copy[64];  // removed at exit by the process that made it

void remove_model_copy() {
    std::error_code ignored;
    if (model_copy[0]) std::filesystem::remove_all(model_copy, ignored);
}

__attribute__((constructor)) void set_simulation_environment(int argc, char** argv, char**) {
    int gpus = 2;
    std::string sim_dir = GRAIN_SIM_DIR;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--gpus")) gpus = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--sim-dir")) sim_dir = argv[i + 1];
    }
    const std::string host = "grain-v100-" + std::to_string(gpus) + "gpu";
    setenv("STARPU_HOSTNAME", host.c_str(), 1);
    if (!getenv(copy_owner_var)) {  // the first process: make the copy
        char dir[] = "/tmp/grain-sched-bench-XXXXXX";
        if (!mkdtemp(dir)) {
            std::perror("mkdtemp");
            std::exit(1);
        }
        std::error_code err;
        for (const char* sub : {"bus", "codelets"}) {
            std::filesystem::copy(std::filesystem::path(sim_dir) / sub, std::filesystem::path(dir) / sub,
                                  std::filesystem::copy_options::recursive, err);
            if (err) {
                std::fprintf(stderr, "grain_sched_bench: cannot copy %s/%s: %s (see --sim-dir)\n", sim_dir.c_str(),
                             sub, err.message().c_str());
                std::filesystem::remove_all(dir, err);
                std::exit(1);
            }
        }
        std::snprintf(model_copy, sizeof model_copy, "%s", dir);
        std::atexit(remove_model_copy);
        setenv(copy_owner_var, std::to_string(getpid()).c_str(), 1);
        setenv("STARPU_PERF_MODEL_DIR", dir, 1);
        setenv("STARPU_HOME", dir, 1);  // nothing else of StarPU's goes to ~/.starpu
    }
    const std::string platform = std::string(getenv("STARPU_PERF_MODEL_DIR")) + "/bus/" + host + ".platform.v4.xml";
    if (access(platform.c_str(), R_OK) != 0) {  // SimGrid would throw an uncaught exception
        std::fprintf(stderr, "grain_sched_bench: no platform file %s (sim/ has 1, 2 and 4 GPUs)\n", platform.c_str());
        std::exit(1);
    }
}

// ---- codelets: CUDA only, simulated (the function pointer is never called) ----
std::atomic<long> executed{0};
void count_execution(void*) { ++executed; }  // the task callback

struct Codelet {
    starpu_perfmodel model{};
    starpu_codelet cl{};
    Codelet(const char* symbol, int ninputs, bool output) {
        model.type = STARPU_HISTORY_BASED;
        model.symbol = symbol;
        starpu_codelet_init(&cl);
        cl.where = STARPU_CUDA;
        cl.cuda_funcs[0] = (starpu_cuda_func_t)(uintptr_t)1;
        // Asynchronous, as grain's CUDA kernels are: a GPU worker then takes its next
        // task, and loads that task's data, while one runs (STARPU_CUDA_PIPELINE, 2).
        cl.cuda_flags[0] = STARPU_CUDA_ASYNC;
        cl.nbuffers = ninputs + (output ? 1 : 0);
        for (int b = 0; b < ninputs; ++b) cl.modes[b] = STARPU_R;
        if (output) cl.modes[ninputs] = STARPU_W;
        cl.model = &model;
        cl.name = symbol;
    }
};

struct Result {
    double time_s = 0;
    long long bytes_h2d = 0;
    long long loads = 0;
    long long evictions = 0;
};

struct Folded {
    void* ptr;
    size_t bytes;
};

void register_matrices(std::vector<starpu_data_handle_t>& handles, std::vector<Folded>& memory,
                       const std::vector<Shape>& shapes) {
    for (const Shape& shape : shapes) {
        void* ptr = nullptr;
        // Folded: every matrix maps the same physical page, so N^3 tiles cost nothing.
        if (starpu_malloc_flags(&ptr, size_t(shape.bytes()), STARPU_MALLOC_SIMULATION_FOLDED) != 0) {
            starpu_shutdown();
            fail("starpu_malloc_flags failed");
        }
        memory.push_back({ptr, size_t(shape.bytes())});
        starpu_data_handle_t h;
        starpu_matrix_data_register(&h, STARPU_MAIN_RAM, uintptr_t(ptr), uint32_t(shape.nx), uint32_t(shape.nx),
                                    uint32_t(shape.ny), sizeof(float));
        handles.push_back(h);
    }
}

// One (scenario, scheduler, size) in this process: starpu_init .. starpu_shutdown.
Result run_one(const Options& o, const Scenario& s) {
    setenv("STARPU_LIMIT_CUDA_MEM", std::to_string(o.gpu_mem_mb).c_str(), 1);  // MiB
    setenv("STARPU_SIMGRID_CUDA_MALLOC_COST", std::to_string(o.malloc_cost).c_str(), 1);
    starpu_conf conf;
    starpu_conf_init(&conf);
    const std::string starpu_sched = grain::detail::sched::select_policy(conf, o.scheds[0]);
    if (starpu_sched.empty()) unsetenv("STARPU_SCHED");
    else setenv("STARPU_SCHED", starpu_sched.c_str(), 1);
    conf.ncpus = 0;
    conf.ncuda = o.gpus;
    conf.nopencl = 0;
    if (starpu_init(&conf) != 0) fail("starpu_init failed");
    if (int(starpu_cuda_worker_get_count()) != o.gpus) {
        const unsigned count = starpu_cuda_worker_get_count();
        starpu_shutdown();
        fail(std::to_string(count) + " CUDA workers, wanted " + std::to_string(o.gpus));
    }

    Codelet gemm3_cl("grain_sim_gemm", 2, o.outputs), potrf_cl("grain_sim_potrf", 1, o.outputs),
        trsm_cl("grain_sim_trsm", 2, o.outputs), syrk_cl("grain_sim_syrk", 2, o.outputs),
        gemm4_cl("grain_sim_gemm", 3, o.outputs);
    gemm4_cl.cl.model = &gemm3_cl.model;  // one model per symbol; the footprint tells them apart
    starpu_codelet* codelets[] = {&gemm3_cl.cl, &potrf_cl.cl, &trsm_cl.cl, &syrk_cl.cl, &gemm4_cl.cl};

    std::vector<starpu_data_handle_t> inputs, outputs;
    std::vector<Folded> memory;
    register_matrices(inputs, memory, s.inputs);
    if (o.outputs) register_matrices(outputs, memory, std::vector<Shape>(s.tasks.size()));

    std::vector<starpu_task*> tasks;
    for (size_t t = 0; t < s.tasks.size(); ++t) {
        starpu_task* task = starpu_task_create();
        task->cl = codelets[s.tasks[t].kind];
        int b = 0;
        for (int d : s.tasks[t].inputs) task->handles[b++] = inputs[size_t(d)];
        if (o.outputs) task->handles[b] = outputs[t];
        task->callback_func = count_execution;
        task->flops = s.task_flops;
        task->detach = 1;
        tasks.push_back(task);
    }
    // A task whose footprint has no model entry would stop the simulation deep inside
    // StarPU; check one task of each kind against the models first.
    const int worker = starpu_worker_get_by_type(STARPU_CUDA_WORKER, 0);
    starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(worker, STARPU_NMAX_SCHED_CTXS);
    bool checked[5] = {};
    for (size_t t = 0; t < tasks.size(); ++t) {
        const Kind k = s.tasks[t].kind;
        if (checked[k]) continue;
        checked[k] = true;
        if (std::isnan(starpu_task_expected_length(tasks[t], arch, 0))) {
            char footprint[16];
            std::snprintf(footprint, sizeof footprint, "%08x", starpu_task_data_footprint(tasks[t]));
            const std::string symbol = tasks[t]->cl->model->symbol;
            starpu_shutdown();
            fail("model " + symbol + " has no entry for footprint " + footprint + " (regenerate sim/)");
        }
    }

    starpu_profiling_bus_info bus;
    for (int id = 0; id < starpu_bus_get_count(); ++id) starpu_bus_get_profiling_info(id, &bus);  // reset
    executed = 0;
    const double start_us = starpu_timing_now();
    for (starpu_task* task : tasks)
        if (starpu_task_submit(task) != 0) {
            starpu_shutdown();
            fail("starpu_task_submit failed");
        }
    starpu_task_wait_for_all();
    // Before unregistering: unregister writes the outputs back to RAM.
    const double end_us = starpu_timing_now();

    Result r;
    r.time_s = (end_us - start_us) * 1e-6;
    for (int id = 0; id < starpu_bus_get_count(); ++id) {
        starpu_bus_get_profiling_info(id, &bus);
        const int src = starpu_bus_get_src(id), dst = starpu_bus_get_dst(id);
        if (starpu_node_get_kind(unsigned(dst)) != STARPU_CUDA_RAM) continue;
        r.loads += bus.transfer_count;
        if (starpu_node_get_kind(unsigned(src)) == STARPU_CPU_RAM) r.bytes_h2d += bus.transferred_bytes;
    }
    // StarPU 1.3.10 does not count evictions (memalloc.c keeps no such counter outside
    // --enable-memory-stats builds), so deduce them from what is left on the GPUs: inputs
    // are only read, so a replica leaves a GPU only by eviction, and every load makes one
    // replica: input evictions = loads - input replicas still on a GPU. Outputs are
    // written once on one GPU and never loaded: output evictions = tasks - output
    // replicas still on a GPU (none without outputs).
    long long resident = 0;
    for (unsigned node = 0; node < starpu_memory_nodes_get_count(); ++node) {
        if (starpu_node_get_kind(node) != STARPU_CUDA_RAM) continue;
        for (auto h : inputs) resident += starpu_data_is_on_node(h, node);
        for (auto h : outputs) resident += starpu_data_is_on_node(h, node);
    }
    r.evictions = r.loads + (long long)outputs.size() - resident;

    // Outputs first: that frees GPU memory, in which prefetches a scheduler issued for
    // tasks that then ran elsewhere can complete. Such a prefetch keeps its input busy
    // (unregistering it waits) and is retried only by its GPU's worker, which SimGrid
    // lets sleep with requests pending: wake the workers before unregistering inputs.
    for (auto h : outputs) starpu_data_unregister(h);
    starpu_wake_all_blocked_workers();
    for (auto h : inputs) starpu_data_unregister(h);
    for (const Folded& m : memory) starpu_free_flags(m.ptr, m.bytes, STARPU_MALLOC_SIMULATION_FOLDED);
    starpu_shutdown();
    return r;
}

// Starts this program again for one configuration and copies its output row to ours.
bool run_child(const Options& o, const std::string& scenario, const std::string& sched, int n) {
    std::vector<std::string> args = {"/proc/self/exe", "--run-one",  "--scenario", scenario,
                                     "--sched",        sched,        "--sizes",    std::to_string(n),
                                     "--gpus",         std::to_string(o.gpus),     "--gpu-mem",
                                     std::to_string(o.gpu_mem_mb), "--seed",     std::to_string(o.seed),
                                     "--malloc-cost",  std::to_string(o.malloc_cost), "--sim-dir", o.sim_dir,
                                     "--outputs",      o.outputs ? "private" : "none",
                                     "--log=xbt_cfg.thres:warning"};  // SimGrid: no "Configuration change" lines
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), environ) != 0) {
        std::perror("posix_spawn");
        return false;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "grain_sched_bench: run %s/%s/%d failed (status %d)\n", scenario.c_str(), sched.c_str(),
                     n, status);
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) try {
    const Options o = parse(argc, argv);
    if (o.run_one) {
        const int n = o.sizes[0];
        const Scenario s = make_scenario(o.scenarios[0], n, o.seed);
        const Result r = run_one(o, s);
        std::printf("%s;%s;%d;%.1f;%.1f;%lld;%lld;%lld;%d;%zu;%ld;%.3f\n", o.scenarios[0].c_str(), o.scheds[0].c_str(),
                    o.gpus, working_set_mb(s), double(s.tasks.size()) * s.task_flops / r.time_s / 1e9, r.bytes_h2d,
                    r.loads, r.evictions, n, s.tasks.size(), executed.load(), r.time_s * 1e3);
        std::fflush(stdout);
        return executed.load() == long(s.tasks.size()) ? 0 : 3;
    }
    std::printf("# StarPU SimGrid, host grain-v100-%dgpu, models from %s, STARPU_LIMIT_CUDA_MEM=%d (MiB), "
                "STARPU_SIMGRID_CUDA_MALLOC_COST=%d, no CPU workers, seed %u, outputs %s\n",
                o.gpus, o.sim_dir.c_str(), o.gpu_mem_mb, o.malloc_cost, o.seed, o.outputs ? "private" : "none");
    std::printf("# time: simulated, first submit to starpu_task_wait_for_all; working set: distinct inputs "
                "(2D products: 960x3840 floats, else 960x960); evictions: deduced (see sim/README.md); executed: tasks counted by the callback\n");
    std::printf("scenario;sched;gpus;working_set_mb;gflops;bytes_h2d;loads;evictions;n;tasks;executed;time_ms\n");
    std::fflush(stdout);
    bool ok = true;
    for (const auto& scenario : o.scenarios)
        for (int n : o.sizes)
            for (const auto& sched : o.scheds) ok = run_child(o, scenario, sched, n) && ok;
    return ok ? 0 : 1;
} catch (const Failure& failure) {
    return failure.status;
}
