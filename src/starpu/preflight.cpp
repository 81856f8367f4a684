#include "preflight.hpp"

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "grain/errors.hpp"
#include "src/base/simulation.hpp"

namespace grain::detail {

namespace {

constexpr int64_t MiB = int64_t(1) << 20;

// StarPU 1.3's version of its performance models' format: their directory's name.
constexpr const char* perfmodel_version = "45";

// A directory StarPU uses, and the variable its path came from, for messages.
struct Place {
    std::string path;
    std::string from;
};

// StarPU's home for its data, found as starpu_init finds it: the first of these
// variables set, else /tmp.
Place starpu_home() {
    for (const char* name : {"XDG_CACHE_HOME", "STARPU_HOME", "HOME", "TMPDIR", "TEMP", "TMP"})
        if (const char* v = std::getenv(name)) return {v, name};
    return {"/tmp", "no STARPU_HOME nor HOME: /tmp"};
}

Place perf_model_dir(const Place& home) {
    if (const char* v = std::getenv("STARPU_PERF_MODEL_DIR")) return {v, "STARPU_PERF_MODEL_DIR"};
    return {home.path + "/.starpu/sampling", home.from};
}

// mkdir -p, as StarPU does it: 0 if `path` is a directory at the end, else the errno.
int make_path(const std::string& path) {
    for (size_t end = path.find('/', 1);; end = path.find('/', end + 1)) {
        const std::string prefix = path.substr(0, end);
        if (!prefix.empty() && mkdir(prefix.c_str(), S_IRWXU) != 0 && errno != EEXIST) return errno;
        if (end == std::string::npos) break;
    }
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return errno;
    return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

// 0 if a file can be created in directory `path` (StarPU writes its calibrations there:
// root passes permission bits, not a read-only mount), else the errno.
int can_write_in(const std::string& path) {
    std::string name = path + "/.grain-probe-XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0) return errno;
    close(fd);
    unlink(name.c_str());
    return 0;
}

// A directory StarPU writes in, made (with its parents) if it is not there.
void check_directory(const Place& place, const std::string& sub) {
    const std::string path = place.path + sub;
    int error = make_path(path);
    // A simulated machine only reads its models.
    if (error == 0 && !simulated) error = can_write_in(path);
    if (error != 0)
        throw runtime_error("grain::Runtime: StarPU cannot keep its files in " + path + " (from " + place.from +
                            "): " + std::strerror(error) +
                            "; set STARPU_HOME (or STARPU_PERF_MODEL_DIR) to a writable directory");
}

// The address space StarPU maps as it starts (its threads' stacks and malloc arenas,
// hwloc's topology), and what each thread running CPU kernels maps besides: OpenBLAS's
// buffer (128 MiB on x86-64; OpenBLAS retries forever where it cannot map it) and a
// malloc arena. Measured with 1, 2 and 4 CPU workers, with a margin
// (doc/results/2026-12-02-starpu-address-space.md).
constexpr int64_t starpu_space = 640 * MiB;
constexpr int64_t blas_thread_space = 200 * MiB;

std::string mib(int64_t bytes) { return std::to_string(bytes / MiB) + " MiB"; }

// Reserves, while the threads are checked, the address space that StarPU's start and its
// kernels will map besides the stacks; none where the space is not limited.
class Reserve {
public:
    explicit Reserve(int blas_threads) {
        rlimit limit{};
        if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
        bytes_ = starpu_space + blas_threads * blas_thread_space;
        address_ = mmap(nullptr, size_t(bytes_), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (address_ == MAP_FAILED)
            throw runtime_error("grain::Runtime: the address-space limit (ulimit -v, " +
                                mib(int64_t(limit.rlim_cur)) + ") leaves too little for StarPU's workers, which need "
                                "about " + mib(bytes_) + " more besides their stacks; raise it");
    }
    ~Reserve() {
        if (address_ != MAP_FAILED) munmap(address_, size_t(bytes_));
    }
    Reserve(const Reserve&) = delete;
    Reserve& operator=(const Reserve&) = delete;

private:
    void* address_ = MAP_FAILED;
    int64_t bytes_ = 0;
};

// Starts `count` threads that all live at once, then ends them: StarPU aborts where it
// cannot create one (ulimit -u, ulimit -v, a cgroup's pids limit).
void check_threads(int count) {
    std::mutex mutex;
    std::condition_variable released;
    bool done = false;
    std::vector<std::thread> threads;
    std::string failure;
    try {
        for (int i = 0; i < count; ++i)
            threads.emplace_back([&] {
                std::unique_lock<std::mutex> lock(mutex);
                released.wait(lock, [&] { return done; });
            });
    } catch (const std::system_error& e) {
        failure = e.what();
    }
    {
        const std::lock_guard<std::mutex> lock(mutex);
        done = true;
    }
    released.notify_all();
    for (std::thread& t : threads) t.join();
    if (!failure.empty())
        throw runtime_error("grain::Runtime: cannot start the " + std::to_string(count) + " threads StarPU needs (" +
                            std::to_string(threads.size()) + " started: " + failure +
                            "); raise ulimit -u or ulimit -v, or ask for fewer workers (GRAIN_NCPU)");
}

}  // namespace

void check_starpu_can_start(int threads, int blas_threads, bool opencl) {
    const Place home = starpu_home();
    const Place models = perf_model_dir(home);
    check_directory(models, std::string("/codelets/") + perfmodel_version);
    check_directory(models, "/bus");
    if (opencl) check_directory({home.path + "/.starpu/opencl", home.from}, "");
    // A simulated machine's workers are SimGrid's actors, not threads, and run no kernel.
    if (simulated) return;
    const Reserve reserve(blas_threads);
    check_threads(threads);
}

}  // namespace grain::detail
