// grain_testing: times grain routines, checks their residuals, and compares them
// with the threaded vendor BLAS/LAPACK in the same process. One table of operations.
#include <grain/grain.hpp>
#include <starpu.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "checks.hpp"
#ifdef GRAIN_USE_CUDA
#include "vendor_gpu.hpp"
#endif

namespace {

using grain::Diag;
using grain::Op;
using grain::Side;
using grain::Uplo;
namespace blas = grain::blas;
using namespace grain::testing;

// ---------------------------------------------------------------- options

struct Options {
    std::string op;
    std::vector<char> precisions{'d'};
    std::vector<int64_t> m, n, k, nrhs{1}, nb{320};
    int niter = 1;
    bool check = false;
    bool vendor = false;
    bool human = false;
    int threads = -1;
    int gpus = -1;
    int gpu_memory = -1;  // MiB
    std::string sched;
    std::vector<int> scales;  // --scales: replaces -b
    std::string split;
    int window = -1;
    int lp_period = -1;
    std::string lp_stats;  // --lp-stats FILE
    bool verbose = false;
    uint64_t seed = 42;
    Uplo uplo = Uplo::Lower;
};

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* usage_text =
    "usage: grain_testing -o OP [options]\n"
    "  -o, --op OP          gemm, trsm, syrk, potrf, potrs, posv, getrf_nopiv, gesv_nopiv\n"
    "  -p, --precision P    s, d, or a list (s,d)            [d]\n"
    "  -m, -n, -k LIST      sizes: a,b,c or start:end:step   [m = n, k = n]\n"
    "      --nrhs LIST      right-hand sides                 [1]\n"
    "  -b, --nb LIST        tile sizes                       [320]\n"
    "      --scales LIST    ladder of tile scales, largest first (replaces -b), e.g. 2048,1024,512\n"
    "      --split POLICY   none, all, depth:D, random:P[:SEED], lp [GRAIN_SPLIT, none]\n"
    "      --window N       submission window in tasks, 0: unbounded [GRAIN_WINDOW, 32 per worker]\n"
    "      --lp-period N    split policy lp: submitted tasks between LP solves [GRAIN_LP_PERIOD, 50]\n"
    "      --lp-stats FILE  split policy lp: write every solve (time, inputs, ratios) as CSV\n"
    "  -v                   also print the LP's final split ratios per (operation, level)\n"
    "      --niter N        runs of each case                [1]\n"
    "      --check          check each result by its residual\n"
    "      --vendor         also time the vendor routine: threaded OpenBLAS/LAPACKE, or on\n"
    "                       GPU runs cuBLAS gemm / cuSOLVER potrf, getrf_nopiv alone on\n"
    "                       GPU 0 (copy to the GPU + call; nan if it does not fit)\n"
    "      --uplo L|U       triangle for potrf/potrs/posv/syrk [L]\n"
    "  -t, --threads N      CPU workers                      [GRAIN_NCPU, STARPU_NCPU, all]\n"
    "  -g, --gpus N         GPUs                             [GRAIN_NGPU, STARPU_NCUDA, all]\n"
    "      --gpu-mem MB     GPU memory grain may use per GPU [GRAIN_GPU_MEMORY, STARPU_LIMIT_CUDA_MEM, all]\n"
    "      --sched NAME     StarPU scheduler                 [GRAIN_SCHED, STARPU_SCHED, prio]\n"
    "      --seed N         random seed                      [42]\n"
    "  -H                   aligned human-readable columns (default: ';'-separated)\n";

int64_t parse_int(const std::string& option, const std::string& text, int64_t min) {
    size_t used = 0;
    long long value = 0;
    try {
        value = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || value < min)
        throw usage_error("invalid value '" + text + "' for " + option + ": expected an integer >= " +
                          std::to_string(min));
    return value;
}

// "a,b,c", each item a value or an inclusive range start:end[:step].
std::vector<int64_t> parse_list(const std::string& option, const std::string& text, int64_t min) {
    std::vector<int64_t> values;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        const size_t c1 = item.find(':');
        if (c1 == std::string::npos) {
            values.push_back(parse_int(option, item, min));
        } else {
            const size_t c2 = item.find(':', c1 + 1);
            const int64_t first = parse_int(option, item.substr(0, c1), min);
            const int64_t last = parse_int(option, item.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1), min);
            const int64_t step = c2 == std::string::npos ? 1 : parse_int(option, item.substr(c2 + 1), 1);
            if (last < first) throw usage_error("invalid range '" + item + "' for " + option + ": end < start");
            for (int64_t v = first; v <= last; v += step) values.push_back(v);
        }
        start = comma + 1;
    }
    return values;
}

Options parse(int argc, char** argv) {
    Options o;
    bool m_set = false, k_set = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw usage_error("missing value for " + arg);
            return argv[++i];
        };
        if (arg == "-h" || arg == "--help") {
            std::fputs(usage_text, stdout);
            std::exit(0);
        } else if (arg == "-o" || arg == "--op") {
            o.op = value();
        } else if (arg == "-p" || arg == "--precision") {
            const std::string v = value();
            o.precisions.clear();
            for (size_t j = 0; j < v.size(); j += 2) {
                if ((v[j] != 's' && v[j] != 'd') || (j + 1 < v.size() && v[j + 1] != ','))
                    throw usage_error("invalid value '" + v + "' for " + arg + ": expected s, d or s,d");
                o.precisions.push_back(v[j]);
            }
            if (o.precisions.empty()) throw usage_error("invalid value '' for " + arg);
        } else if (arg == "-m") {
            o.m = parse_list(arg, value(), 1), m_set = true;
        } else if (arg == "-n") {
            o.n = parse_list(arg, value(), 1);
        } else if (arg == "-k") {
            o.k = parse_list(arg, value(), 1), k_set = true;
        } else if (arg == "--nrhs") {
            o.nrhs = parse_list(arg, value(), 1);
        } else if (arg == "-b" || arg == "--nb") {
            o.nb = parse_list(arg, value(), 1);
        } else if (arg == "--scales") {
            o.scales.clear();
            for (int64_t v : parse_list(arg, value(), 1)) o.scales.push_back(int(v));
        } else if (arg == "--split") {
            o.split = value();
        } else if (arg == "--window") {
            o.window = int(parse_int(arg, value(), 0));
        } else if (arg == "--lp-period") {
            o.lp_period = int(parse_int(arg, value(), 1));
        } else if (arg == "--lp-stats") {
            o.lp_stats = value();
        } else if (arg == "-v") {
            o.verbose = true;
        } else if (arg == "--niter") {
            o.niter = int(parse_int(arg, value(), 1));
        } else if (arg == "--check") {
            o.check = true;
        } else if (arg == "--vendor") {
            o.vendor = true;
        } else if (arg == "-H") {
            o.human = true;
        } else if (arg == "--uplo") {
            const std::string v = value();
            if (v != "L" && v != "U") throw usage_error("invalid value '" + v + "' for --uplo: expected L or U");
            o.uplo = v == "L" ? Uplo::Lower : Uplo::Upper;
        } else if (arg == "-t" || arg == "--threads") {
            o.threads = int(parse_int(arg, value(), 1));
        } else if (arg == "-g" || arg == "--gpus") {
            o.gpus = int(parse_int(arg, value(), 0));
        } else if (arg == "--gpu-mem") {
            o.gpu_memory = int(parse_int(arg, value(), 1));
        } else if (arg == "--sched") {
            o.sched = value();
        } else if (arg == "--seed") {
            o.seed = uint64_t(parse_int(arg, value(), 0));
        } else {
            throw usage_error("unknown option " + arg);
        }
    }
#ifdef STARPU_SIMGRID
    // A simulated machine times kernels from models and runs none of them.
    if (o.check || o.vendor)
        throw usage_error(std::string(o.check ? "--check" : "--vendor") +
                          ": this grain_testing is built against a simulating StarPU (SimGrid), where kernels do not run");
#endif
    if (o.op.empty()) throw usage_error("missing -o/--op");
    if (o.n.empty()) throw usage_error("missing -n");
    if (!m_set) o.m = {0};  // 0: same as n
    if (!k_set) o.k = {0};  // 0: same as n
    return o;
}

// ---------------------------------------------------------------- helpers

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// StarPU's clock: the machine's monotonic clock, or the simulated time when StarPU
// simulates the machine (SimGrid), where real time says nothing about the run.
template <typename F>
double timed(F&& f) {
    const double t0 = starpu_timing_now();
    f();
    return (starpu_timing_now() - t0) * 1e-6;
}

// StarPU's idle workers poll for tasks, spinning on the cores, so the driver keeps
// them paused except while grain runs: the set-up, the vendor routines and the
// checks then have the cores to themselves.
class WorkersPaused {
public:
    WorkersPaused() { starpu_pause(); }
    ~WorkersPaused() { starpu_resume(); }
};
class WorkersRunning {
public:
    WorkersRunning() { starpu_resume(); }
    ~WorkersRunning() { starpu_pause(); }
};

// The vendor routines and the checks use one BLAS thread per worker; grain's tasks
// use one each (the Runtime's setting, restored here).
class BlasThreads {
public:
    explicit BlasThreads(int threads) { openblas_set_num_threads(threads); }
    ~BlasThreads() { openblas_set_num_threads(1); }
};

// ---------------------------------------------------------------- operations

struct Case {
    char precision;
    int64_t m, n, k, nrhs;
    std::vector<int> scales;  // scales[0] is the tile size
};

struct Result {
    double time = 0, flops = 0;
    grain::Statistics statistics;  // of the timed run
    double vendor_time = 0;
    double to_gpu_bytes = 0, from_gpu_bytes = 0;  // moved during grain's run (GPU runs)
    double residual = 0;
    int info = 0;
};

struct Run {
    const Options& options;
    const Case& c;
    Random& rng;
    grain::Runtime& runtime;
    int threads;

    // Whether --vendor times the GPU baseline (cuBLAS / cuSOLVER) of this run.
    bool gpu_vendor() const { return options.vendor && runtime.ngpu() > 0; }
};

// Bytes moved between host memory and GPUs since the last call (StarPU's bus
// profiling counters, which reading resets; the driver turns profiling on for GPU runs).
std::pair<double, double> bus_bytes() {
    double to_gpu = 0, from_gpu = 0;
    for (int bus = 0; bus < starpu_bus_get_count(); ++bus) {
        starpu_profiling_bus_info info;
        if (starpu_bus_get_profiling_info(bus, &info) != 0) continue;
        const int src = starpu_bus_get_src(bus), dst = starpu_bus_get_dst(bus);
        if (starpu_node_get_kind(unsigned(dst)) == STARPU_CUDA_RAM) to_gpu += double(info.transferred_bytes);
        if (starpu_node_get_kind(unsigned(src)) == STARPU_CUDA_RAM) from_gpu += double(info.transferred_bytes);
    }
    return {to_gpu, from_gpu};
}

// Times f, grain's part of a run, and keeps its task counts (and transfers).
template <typename F>
double timed_grain(const Run& r, Result& res, F&& f) {
    r.runtime.reset_statistics();
    if (r.runtime.ngpu() > 0) bus_bytes();
    const double t = timed(f);
    res.statistics = r.runtime.statistics();
    if (r.runtime.ngpu() > 0) std::tie(res.to_gpu_bytes, res.from_gpu_bytes) = bus_bytes();
    return t;
}

double potrf_flops(double n) { return n * n * n / 3 + n * n / 2 + n / 6; }
double getrf_flops(double m, double n) {
    if (m < n) std::swap(m, n);
    return m * n * n - n * n * n / 3 - n * n / 2 + 5 * n / 6;
}
double solve_flops(double n, double nrhs) { return 2 * n * n * nrhs; }

template <typename T>
Result run_gemm(const Run& r) {
    const Case& c = r.c;
    const T alpha = T(1.5), beta = T(-0.5);
    const Array<T> A = random_array<T>(c.m, c.k, Kind::General, r.rng);
    const Array<T> B = random_array<T>(c.k, c.n, Kind::General, r.rng);
    const Array<T> C0 = random_array<T>(c.m, c.n, Kind::General, r.rng);
    Result res;
    res.flops = 2.0 * c.m * c.n * c.k;
    grain::Matrix<T> tA = tiles_of(A, c.scales), tB = tiles_of(B, c.scales), tC = tiles_of(C0, c.scales);
    Array<T> C(c.m, c.n);
    {
        const WorkersRunning running;
        res.time = timed_grain(r, res, [&] { res.info = grain::gemm(Op::NoTrans, Op::NoTrans, alpha, tA, tB, beta, tC); });
        tC.to_lapack(C.data(), C.ld());
    }
#ifdef GRAIN_USE_CUDA
    if (r.gpu_vendor())
        res.vendor_time = gpu::gemm(c.m, c.n, c.k, alpha, A.data(), A.ld(), B.data(), B.ld(), beta, C0.data(),
                                    C0.ld(), r.runtime.gpu_memory());
#endif
    // The CPU product is the check's reference and, on CPU runs, the vendor's time.
    if (r.options.check || (r.options.vendor && !r.gpu_vendor())) {
        Array<T> ref = C0;
        const BlasThreads blas_threads(r.threads);
        const double t = timed([&] {
            blas::gemm(Op::NoTrans, Op::NoTrans, int(c.m), int(c.n), int(c.k), alpha, A.data(), A.ld(), B.data(),
                       B.ld(), beta, ref.data(), ref.ld());
        });
        if (!r.gpu_vendor()) res.vendor_time = t;
        res.residual = gemm_residual(double(norm('M', minus(C, ref))), alpha, norm('M', A), norm('M', B), beta,
                                     norm('M', C0), c.k);
    }
    return res;
}

template <typename T>
Result run_trsm(const Run& r) {
    const Case& c = r.c;
    const T alpha = T(1.5);
    const Array<T> A = random_array<T>(c.m, c.m, Kind::LowerTriangular, r.rng);
    const Array<T> B = random_array<T>(c.m, c.n, Kind::General, r.rng);
    Result res;
    res.flops = double(c.m) * c.m * c.n;
    grain::Matrix<T> tA = tiles_of(A, c.scales), tB = tiles_of(B, c.scales);
    Array<T> X(c.m, c.n);
    {
        const WorkersRunning running;
        res.time = timed_grain(r, res, [&] {
            res.info = grain::trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::NonUnit, alpha, tA, tB);
        });
        tB.to_lapack(X.data(), X.ld());
    }
    const BlasThreads blas_threads(r.threads);
    if (r.options.vendor) {
        Array<T> ref = B;
        res.vendor_time = timed([&] {
            blas::trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::NonUnit, int(c.m), int(c.n), alpha, A.data(),
                       A.ld(), ref.data(), ref.ld());
        });
    }
    if (r.options.check) res.residual = solve_residual(Side::Left, Op::NoTrans, A, X, alpha, B);
    return res;
}

template <typename T>
Result run_syrk(const Run& r) {
    const Case& c = r.c;
    const T alpha = T(1.5), beta = T(-0.5);
    const Uplo uplo = r.options.uplo;
    const Array<T> A = random_array<T>(c.n, c.k, Kind::General, r.rng);
    const Array<T> C0 = random_array<T>(c.n, c.n, Kind::General, r.rng);
    Result res;
    res.flops = double(c.k) * c.n * (c.n + 1);
    grain::Matrix<T> tA = tiles_of(A, c.scales), tC = tiles_of(C0, c.scales);
    Array<T> C(c.n, c.n);
    {
        const WorkersRunning running;
        res.time = timed_grain(r, res, [&] { res.info = grain::syrk(uplo, Op::NoTrans, alpha, tA, beta, tC); });
        tC.to_lapack(C.data(), C.ld());
    }
    if (r.options.vendor || r.options.check) {
        Array<T> ref = C0;
        const BlasThreads blas_threads(r.threads);
        res.vendor_time = timed([&] {
            blas::syrk(uplo, Op::NoTrans, int(c.n), int(c.k), alpha, A.data(), A.ld(), beta, ref.data(), ref.ld());
        });
        // As gemm's check, on the uplo triangle; the other triangle must be untouched.
        double error = 0;
        for (int64_t j = 0; j < c.n; ++j)
            for (int64_t i = 0; i < c.n; ++i) {
                const bool in_triangle = uplo == Uplo::Lower ? i >= j : i <= j;
                const T expected = in_triangle ? ref(i, j) : C0(i, j);
                error = std::max(error, double(std::abs(C(i, j) - expected)));
            }
        res.residual = gemm_residual(error, alpha, norm('M', A), norm('M', A), beta, norm('M', C0), c.k);
    }
    return res;
}

// potrf, potrs and posv share the set-up: an SPD matrix and right-hand sides.
template <typename T>
Result run_cholesky(const Run& r, const std::string& op) {
    const Case& c = r.c;
    const Uplo uplo = r.options.uplo;
    const bool solve = op != "potrf";
    const Array<T> A = random_array<T>(c.n, c.n, Kind::Spd, r.rng);
    const Array<T> B = solve ? random_array<T>(c.n, c.nrhs, Kind::General, r.rng) : Array<T>();
    Result res;
    res.flops = (op != "potrs" ? potrf_flops(double(c.n)) : 0) + (solve ? solve_flops(double(c.n), double(c.nrhs)) : 0);
    grain::Matrix<T> tA = tiles_of(A, c.scales);
    grain::Matrix<T> tB = tiles_of(solve ? B : Array<T>(0, 0), c.scales);
    Array<T> F(c.n, c.n), X(c.n, solve ? c.nrhs : 0);
    {
        const WorkersRunning running;
        if (op == "potrs") res.info = grain::potrf(uplo, tA);  // potrs times the solve alone
        res.time = timed_grain(r, res, [&] {
            if (op == "potrf") res.info = grain::potrf(uplo, tA);
            if (op == "potrs") res.info = std::max(res.info, grain::potrs(uplo, tA, tB));
            if (op == "posv") res.info = grain::posv(uplo, tA, tB);
        });
        tA.to_lapack(F.data(), F.ld());
        if (solve) tB.to_lapack(X.data(), X.ld());
    }
    const BlasThreads blas_threads(r.threads);
#ifdef GRAIN_USE_CUDA
    if (op == "potrf" && r.gpu_vendor()) {
        res.vendor_time = gpu::potrf(uplo, c.n, A.data(), A.ld(), r.runtime.gpu_memory());
    } else
#endif
    if (r.options.vendor) {
        Array<T> vA = A, vB = B;
        if (op == "potrs") blas::potrf(uplo, int(c.n), vA.data(), vA.ld());
        res.vendor_time = timed([&] {
            if (op != "potrs") blas::potrf(uplo, int(c.n), vA.data(), vA.ld());
            if (solve) blas::potrs(uplo, int(c.n), int(c.nrhs), vA.data(), vA.ld(), vB.data(), vB.ld());
        });
    }
    if (r.options.check) {
        res.residual = op == "potrf" ? factor_residual(A, cholesky_product(uplo, F))
                                     : solve_residual(Side::Left, Op::NoTrans, A, X, T(1), B);
    }
    return res;
}

// getrf_nopiv and gesv_nopiv: a diagonally dominant matrix, so no pivoting is needed.
template <typename T>
Result run_lu(const Run& r, const std::string& op) {
    const Case& c = r.c;
    const bool solve = op == "gesv_nopiv";
    const int64_t m = solve ? c.n : c.m;
    const Array<T> A = random_array<T>(m, c.n, Kind::DiagonallyDominant, r.rng);
    const Array<T> B = solve ? random_array<T>(c.n, c.nrhs, Kind::General, r.rng) : Array<T>();
    Result res;
    res.flops = getrf_flops(double(m), double(c.n)) + (solve ? solve_flops(double(c.n), double(c.nrhs)) : 0);
    grain::Matrix<T> tA = tiles_of(A, c.scales);
    grain::Matrix<T> tB = tiles_of(solve ? B : Array<T>(0, 0), c.scales);
    Array<T> F(m, c.n), X(c.n, solve ? c.nrhs : 0);
    {
        const WorkersRunning running;
        res.time = timed_grain(r, res, [&] { res.info = solve ? grain::gesv_nopiv(tA, tB) : grain::getrf_nopiv(tA); });
        tA.to_lapack(F.data(), F.ld());
        if (solve) tB.to_lapack(X.data(), X.ld());
    }
    const BlasThreads blas_threads(r.threads);
#ifdef GRAIN_USE_CUDA
    if (!solve && r.gpu_vendor()) {
        res.vendor_time = gpu::getrf_nopiv(m, c.n, A.data(), A.ld(), r.runtime.gpu_memory());
    } else
#endif
    if (r.options.vendor) {  // LAPACK's LU pivots: the nearest vendor routine
        Array<T> vA = A, vB = B;
        std::vector<lapack_int> ipiv(size_t(std::min(m, c.n)) + 1);
        res.vendor_time = timed([&] {
            blas::getrf(int(m), int(c.n), vA.data(), vA.ld(), ipiv.data());
            if (solve) blas::getrs(int(c.n), int(c.nrhs), vA.data(), vA.ld(), ipiv.data(), vB.data(), vB.ld());
        });
    }
    if (r.options.check)
        res.residual = solve ? solve_residual(Side::Left, Op::NoTrans, A, X, T(1), B) : factor_residual(A, lu_product(F));
    return res;
}

struct Operation {
    const char* name;
    double threshold;  // residual bound (design.md)
    std::function<Result(const Run&)> single, dbl;
};

const std::vector<Operation>& operations() {
    static const std::vector<Operation> table = {
        {"gemm", 10, run_gemm<float>, run_gemm<double>},
        {"trsm", 60, run_trsm<float>, run_trsm<double>},
        {"syrk", 10, run_syrk<float>, run_syrk<double>},
        {"potrf", 60, [](const Run& r) { return run_cholesky<float>(r, "potrf"); },
         [](const Run& r) { return run_cholesky<double>(r, "potrf"); }},
        {"potrs", 60, [](const Run& r) { return run_cholesky<float>(r, "potrs"); },
         [](const Run& r) { return run_cholesky<double>(r, "potrs"); }},
        {"posv", 60, [](const Run& r) { return run_cholesky<float>(r, "posv"); },
         [](const Run& r) { return run_cholesky<double>(r, "posv"); }},
        {"getrf_nopiv", 60, [](const Run& r) { return run_lu<float>(r, "getrf_nopiv"); },
         [](const Run& r) { return run_lu<double>(r, "getrf_nopiv"); }},
        {"gesv_nopiv", 60, [](const Run& r) { return run_lu<float>(r, "gesv_nopiv"); },
         [](const Run& r) { return run_lu<double>(r, "gesv_nopiv"); }},
    };
    return table;
}

// ---------------------------------------------------------------- output

// Says on stderr, every few seconds, which run is still going on, so that long
// runs show progress and short ones stay quiet.
class Progress {
public:
    Progress() : thread_([this] { loop(); }) {}
    ~Progress() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    void start(std::string label) {
        std::lock_guard<std::mutex> lock(mutex_);
        label_ = std::move(label);
        started_ = std::chrono::steady_clock::now();
    }

private:
    void loop() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!wake_.wait_for(lock, std::chrono::seconds(5), [this] { return stop_; }))
            if (!label_.empty() && seconds_since(started_) >= 4.5)
                std::fprintf(stderr, "grain_testing: %s: %.0f s so far\n", label_.c_str(), seconds_since(started_));
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::string label_;
    std::chrono::steady_clock::time_point started_;
    std::thread thread_;
};

class Table {
public:
    Table(bool human, std::vector<std::string> columns) : human_(human), columns_(std::move(columns)) {
        row(columns_);
    }
    void row(const std::vector<std::string>& cells) const {
        std::string line;
        for (size_t i = 0; i < cells.size(); ++i) {
            if (human_) {
                const size_t width = std::max<size_t>(columns_[i].size(), 11);
                line += cells[i] + std::string(width > cells[i].size() ? width - cells[i].size() : 0, ' ');
                line += i + 1 < cells.size() ? " " : "";
            } else {
                line += cells[i] + (i + 1 < cells.size() ? ";" : "");
            }
        }
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    }

private:
    bool human_;
    std::vector<std::string> columns_;
};

std::string number(double v) {  // four significant digits
    char text[64];
    std::snprintf(text, sizeof text, "%.4g", v);
    return text;
}
std::string scientific(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.2e", v);
    return text;
}

// --lp-stats: one CSV line per LP solve of every run, to plot how ratios evolve.
class LpStatsFile {
public:
    explicit LpStatsFile(const std::string& path) {
        if (path.empty()) return;
        file_ = std::fopen(path.c_str(), "w");
        if (!file_) throw usage_error("cannot write --lp-stats file " + path);
        std::fprintf(file_, "run;solve;at_s;submitted;solve_ms;solved;operation;level;pending;ratio;solve_cpu_ms\n");
    }
    ~LpStatsFile() {
        if (file_) std::fclose(file_);
    }
    void write(size_t run, const grain::Statistics& s) {
        if (!file_) return;
        const int levels = s.lp.levels;
        for (size_t i = 0; i < s.lp.history.size(); ++i) {
            const grain::LpSolve& solve = s.lp.history[i];
            for (size_t op = 0; op < s.operations.size(); ++op)
                for (int l = 0; l < levels; ++l) {
                    const size_t k = op * size_t(levels) + size_t(l);
                    std::fprintf(file_, "%zu;%zu;%.6f;%lld;%.4f;%d;%s;%d;%g;%.4f;%.4f\n", run, i, solve.at,
                                 static_cast<long long>(solve.submitted), solve.milliseconds,
                                 int(solve.solved), s.operations[op].c_str(), l, solve.pending[k], solve.ratios[k],
                                 solve.cpu_milliseconds);
                }
        }
        std::fflush(file_);
    }

private:
    std::FILE* file_ = nullptr;
};

void print_ratios(const grain::Statistics& s) {
    std::string line = "# lp split ratios (" + std::to_string(s.lp.failures) + " failed solves, " +
                       std::to_string(s.lp.uncalibrated) + " durations estimated without history):";
    for (size_t op = 0; op < s.operations.size(); ++op) {
        line += " " + s.operations[op];
        for (int l = 0; l < s.lp.levels; ++l) line += (l ? "," : "=") + number(s.lp.ratios[op * size_t(s.lp.levels) + size_t(l)]);
    }
    std::printf("%s\n", line.c_str());
}

// The LP's share of a run: its solves' wall time, and their CPU time on the submitting
// thread (the wall time also counts ticks in which that thread waited for a core that
// was running tasks).
void print_lp_time(const grain::LpStatistics& lp, double run_seconds) {
    double wall = 0, cpu = 0;
    for (const grain::LpSolve& solve : lp.history) wall += solve.milliseconds, cpu += solve.cpu_milliseconds;
    std::printf("# lp time: %lld solves, %s ms (%s %% of the run), %s ms of CPU time (%s %%)\n",
                static_cast<long long>(lp.solves), number(wall).c_str(), number(100 * wall / (run_seconds * 1e3)).c_str(),
                number(cpu).c_str(), number(100 * cpu / (run_seconds * 1e3)).c_str());
}

// Which kinds of task the split policy split: per operation and level, "split/submitted".
void print_splits(const grain::Statistics& s, int levels) {
    std::string line = "# tasks split/submitted per operation and level:";
    for (size_t op = 0; op < s.operations.size(); ++op) {
        int64_t submitted = 0;
        for (int l = 0; l < levels; ++l) submitted += s.counts[op][size_t(l)].submitted;
        if (submitted == 0) continue;
        line += " " + s.operations[op];
        for (int l = 0; l < levels; ++l)
            line += (l ? "," : "=") + std::to_string(s.counts[op][size_t(l)].split) + "/" +
                    std::to_string(s.counts[op][size_t(l)].submitted);
    }
    std::printf("%s\n", line.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    const Operation* operation = nullptr;
    try {
        options = parse(argc, argv);
        for (const Operation& op : operations())
            if (options.op == op.name) operation = &op;
        if (!operation) throw usage_error("invalid value '" + options.op + "' for -o/--op: unknown operation");
    } catch (const usage_error& e) {
        std::fprintf(stderr, "grain_testing: %s (see --help)\n", e.what());
        return 2;
    }

    bool all_passed = true;
    try {
        grain::RuntimeOptions runtime_options;
        runtime_options.ncpu = options.threads;
        runtime_options.ngpu = options.gpus;
        runtime_options.gpu_memory = options.gpu_memory;
        runtime_options.sched = options.sched;
        runtime_options.split = options.split;
        runtime_options.window = options.window;
        runtime_options.lp_period = options.lp_period;
        grain::Runtime runtime(runtime_options);
        if (runtime.ngpu() > 0) starpu_profiling_status_set(STARPU_PROFILING_ENABLE);  // bus byte counts
        if (!options.scales.empty()) grain::Matrix<double>(0, 0, options.scales);  // checks the ladder
        const WorkersPaused paused;  // until the runtime ends; see WorkersRunning

        std::vector<std::string> columns = {"op", "prec", "threads", "gpus", "m", "n", "k", "nrhs", "nb",
                                            "iter", "time", "gflops"};
        const int levels = options.scales.empty() ? 1 : int(options.scales.size());
        columns.insert(columns.end(), {"levels", "split"});
        for (const char* kind : {"tasks_l", "split_l"})
            for (int l = 0; l < levels; ++l) columns.push_back(kind + std::to_string(l));
        columns.insert(columns.end(), {"lp_solves", "lp_median_ms", "lp_max_ms"});
        LpStatsFile lp_stats(options.lp_stats);
        if (options.vendor) columns.insert(columns.end(), {"vendor_time", "vendor_gflops"});
        if (options.check) columns.insert(columns.end(), {"residual", "status"});
        columns.push_back("info");
        const Table table(options.human, columns);

        std::vector<Case> cases;
        for (char p : options.precisions)
            for (int64_t nb : options.nb)
                for (int64_t n : options.n)
                    for (int64_t m : options.m)
                        for (int64_t k : options.k)
                            for (int64_t nrhs : options.nrhs)
                                cases.push_back({p, m ? m : n, n, k ? k : n, nrhs,
                                                 options.scales.empty() ? std::vector<int>{int(nb)} : options.scales});

        Random rng(options.seed);
        const size_t runs = cases.size() * size_t(options.niter);
        size_t done = 0;
        Progress progress;
        for (const Case& c : cases) {
            for (int iter = 0; iter < options.niter; ++iter, ++done) {
                progress.start("run " + std::to_string(done + 1) + " of " + std::to_string(runs) + " (" +
                               operation->name + " " + c.precision + " n=" + std::to_string(c.n) +
                               " nb=" + std::to_string(c.scales[0]) + ")");
                const Run run{options, c, rng, runtime, runtime.ncpu()};
                const Result res = c.precision == 's' ? operation->single(run) : operation->dbl(run);
                std::vector<std::string> cells = {operation->name, std::string(1, c.precision),
                                                  std::to_string(runtime.ncpu()), std::to_string(runtime.ngpu()),
                                                  std::to_string(c.m), std::to_string(c.n), std::to_string(c.k),
                                                  std::to_string(c.nrhs), std::to_string(c.scales[0]),
                                                  std::to_string(iter), number(res.time),
                                                  number(res.flops / res.time * 1e-9), std::to_string(levels),
                                                  runtime.split()};
                for (int l = 0; l < levels; ++l) cells.push_back(std::to_string(res.statistics.at("", l).finished));
                for (int l = 0; l < levels; ++l) cells.push_back(std::to_string(res.statistics.at("", l).split));
                const grain::LpStatistics& lp = res.statistics.lp;
                std::vector<double> solve_ms;
                for (const grain::LpSolve& solve : lp.history) solve_ms.push_back(solve.milliseconds);
                std::sort(solve_ms.begin(), solve_ms.end());
                cells.insert(cells.end(), {std::to_string(lp.solves), number(solve_ms.empty() ? 0 : solve_ms[solve_ms.size() / 2]),
                                           number(solve_ms.empty() ? 0 : solve_ms.back())});
                lp_stats.write(done, res.statistics);
                if (options.vendor)
                    cells.insert(cells.end(), {number(res.vendor_time), number(res.flops / res.vendor_time * 1e-9)});
                if (options.check) {
                    const bool ok = res.info == 0 && std::isfinite(res.residual) && res.residual < operation->threshold;
                    all_passed = all_passed && ok;
                    cells.insert(cells.end(), {scientific(res.residual), ok ? "SUCCESS" : "FAILED"});
                }
                cells.push_back(std::to_string(res.info));
                table.row(cells);
                if (options.verbose && levels > 1) print_splits(res.statistics, levels);
                if (options.verbose && lp.levels > 0) {
                    print_ratios(res.statistics);
                    print_lp_time(lp, res.time);
                }
                if (options.verbose && runtime.ngpu() > 0)
                    std::printf("# gpu transfers: %.1f MB to GPUs, %.1f MB from GPUs; %lld tasks left whole on a GPU\n",
                                res.to_gpu_bytes * 1e-6, res.from_gpu_bytes * 1e-6,
                                static_cast<long long>(res.statistics.kept_whole_on_gpu));
            }
        }
    } catch (const grain::invalid_argument& e) {
        std::fprintf(stderr, "grain_testing: invalid argument: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "grain_testing: error: %s\n", e.what());
        return 1;
    }
    return all_passed ? 0 : 1;
}
