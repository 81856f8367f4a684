// The environment under random input: runs of tests/env_fuzz_child.cpp (a LAPACK call
// through libgrain_lapack, then a Runtime of its own and four routines) with random
// values of every GRAIN_* variable and StarPU homes it cannot use. Every run must end in
// right answers or grain's error (exit 0 or 3): never a signal, a hang, a wrong answer or
// another exception. GRAIN_ENV_FUZZ_SECONDS bounds it (default 40).
//
// The STARPU_* numbers are left out: StarPU aborts on some malformed ones (it reads them
// with starpu_get_env_number), which are StarPU's. grain checks those it reads itself
// (STARPU_NCPU, STARPU_NCUDA, STARPU_LIMIT_CUDA_MEM, STARPU_SCHED), and StarPU's home.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

// Every GRAIN_* variable, with values it takes.
const std::map<std::string, std::vector<std::string>> variables = {
    {"GRAIN_NCPU", {"1", "2"}},
    {"GRAIN_NGPU", {"0"}},
    {"GRAIN_GPU_MEMORY", {"16", "1024"}},
    {"GRAIN_WINDOW", {"0", "1", "64"}},
    {"GRAIN_LP_PERIOD", {"1", "50"}},
    {"GRAIN_CPU_TILE_LIMIT", {"0", "64"}},
    {"GRAIN_NOPENCL", {"0"}},
    {"GRAIN_NANCHECK", {"0", "1"}},
    {"GRAIN_GPU_MATH", {"fp32", "tf32", "bf16", "fp16"}},
    {"GRAIN_MPI", {"0"}},
    {"GRAIN_SCHED", {"prio", "eager", "dmdar", "darts", "darts-lru", "lws"}},
    {"GRAIN_SPLIT", {"none", "all", "lp", "depth:1", "random:0.5:3"}},
    {"GRAIN_NB", {"8", "16", "33"}},
    {"GRAIN_SCALES", {"32,16", "64,32,16,8", "16,8"}},
    {"GRAIN_PIN_COLUMNS", {"0", "1"}},
    {"GRAIN_DARTS_SEED", {"7"}},
    {"GRAIN_DARTS_PREFETCH", {"0", "4"}},
    {"GRAIN_LAPACK_MIN_N", {"0", "50", "1024"}},
    {"GRAIN_LAPACK_TRACE", {"0", "1"}}};

// Values of one variable or another, and invalid ones of every kind.
const std::vector<std::string> values = {
    "0", "1", "2", "3", "7", "16", "64", "100", "1024", "-1", "-0", "65536", "1048577", "2147483648",
    "99999999999999999999", "", " 1", "1 ", "1x", "x", "0x10", "1e3", "1.5", "+2", "\xff", ",", "lp", "all", "none",
    "depth:1", "depth:9", "random:0.5:7", "random:2", "random:x", "prio", "eager", "dmdar", "darts", "darts-lru",
    "nosuch", "32,16", "64,32,16,8", "16,8,4,2,1", "1024,333", "64,128", "512,256,128,64,32,16,8,4,2", "32,,16"};

// Every way StarPU's home can be unusable, and usable ones.
std::vector<std::string> homes(const std::string& scratch) {
    return {scratch + "/home", scratch + "/home", scratch + "/home", "/proc/grain-none", scratch + "/file",
            "/sys/kernel", scratch + "/blocked", "/dev/null"};
}

struct Outcome {
    bool started = false;
    bool exited = false;
    int status = 0;  // the exit code, or the signal
    bool hung = false;
};

Outcome run_child(const std::vector<std::string>& arguments, const std::vector<std::string>& environment,
                  const std::string& log) {
    std::vector<char*> argv, envp;
    for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (const std::string& e : environment) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    // Its output to `log`, shown where a run fails.
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&files, 1, 2);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&files);
    if (spawned != 0) return {};
    Outcome out;
    out.started = true;
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        int status = 0;
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            out.exited = WIFEXITED(status);
            out.status = out.exited ? WEXITSTATUS(status) : WTERMSIG(status);
            return out;
        }
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(120)) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            out.hung = true;
            return out;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

// The last lines of a run's output.
std::string tail(const std::string& path) {
    std::string text;
    if (FILE* f = std::fopen(path.c_str(), "r")) {
        char buffer[4096];
        for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
        std::fclose(f);
    }
    return text.size() > 2000 ? text.substr(text.size() - 2000) : text;
}

// The child program: beside this one (a packed build moves both), else where it was built.
std::string child_program() {
    char self[4096] = {};
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        std::string beside(self, size_t(n));
        beside = beside.substr(0, beside.rfind('/') + 1) + "grain_env_fuzz_child";
        if (access(beside.c_str(), X_OK) == 0) return beside;
    }
    return GRAIN_ENV_FUZZ_CHILD;
}

TEST(EnvFuzz, EveryRunGivesRightAnswersOrAnError) {
    const char* budget_text = std::getenv("GRAIN_ENV_FUZZ_SECONDS");
    const int budget = budget_text ? std::atoi(budget_text) : 40;
    char scratch_template[] = "/tmp/grain-env-fuzz-XXXXXX";
    ASSERT_NE(mkdtemp(scratch_template), nullptr);
    const std::string scratch = scratch_template;
    ASSERT_EQ(std::system(("mkdir -p " + scratch + "/home " + scratch + "/blocked/.starpu/sampling && touch " +
                           scratch + "/file " + scratch + "/blocked/.starpu/sampling/bus").c_str()), 0);
    // The parent's environment, less what the fuzzer sets and what would override it.
    std::vector<std::string> base;
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        const std::string name = entry.substr(0, entry.find('='));
        if (name.rfind("GRAIN_", 0) == 0 || name == "STARPU_HOME" || name == "XDG_CACHE_HOME" ||
            name == "STARPU_PERF_MODEL_DIR")
            continue;
        base.push_back(entry);
    }
    const std::string child = child_program();
    std::mt19937_64 rng(70);
    const std::vector<std::string> places = homes(scratch);
    std::map<int, int> outcomes;  // exit code -> runs
    int runs = 0;
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(budget)) {
        std::vector<std::string> environment = base;
        std::string shown;
        // Each variable now and then: one of its values, or (one run in three) anything.
        const bool anything = rng() % 3 == 0;
        for (const auto& [v, good] : variables)
            if (rng() % 4 == 0) {
                std::string value = anything && rng() % 3 == 0 ? values[rng() % values.size()] : good[rng() % good.size()];
                if ((v == "GRAIN_NCPU" || v == "GRAIN_NOPENCL") && value.size() > 2) value = "2";  // a short run
                environment.push_back(v + "=" + value);
                shown += " " + v + "='" + value + "'";
            }
        const std::string home = places[rng() % places.size()];
        environment.push_back("STARPU_HOME=" + home);
        shown += " STARPU_HOME=" + home;
        const std::string seed = std::to_string(rng() % 100000);
        const std::string log = scratch + "/run.log";
        const Outcome out = run_child({child, seed}, environment, log);
        ++runs;
        const std::string what = "run " + std::to_string(runs) + " (seed " + seed + "):" + shown + "\n" + tail(log);
        ASSERT_TRUE(out.started) << "cannot start " << child;
        ASSERT_FALSE(out.hung) << what << "hung";
        ASSERT_TRUE(out.exited) << what << "died of signal " << out.status;
        ASSERT_TRUE(out.status == 0 || out.status == 3) << what << "exited " << out.status;
        ++outcomes[out.status];
    }
    std::printf("env fuzz: %d runs, %d right, %d refused by grain\n", runs, outcomes[0], outcomes[3]);
    EXPECT_GT(outcomes[0], 0);
    EXPECT_GT(outcomes[3], 0);
    EXPECT_EQ(std::system(("rm -rf " + scratch).c_str()), 0);
}

}  // namespace
