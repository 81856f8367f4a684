#pragma once
// What the runners of every family (ops_*.cpp) share: timing grain and the vendor, the
// operands' views in place, the factorizations' matrices, and byte counts.
#include <starpu.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <tuple>
#include <utility>

#include "src/base/kernel_table.hpp"
#include "src/base/scalar_traits.hpp"
#include "testing_drivers/testing/runners.hpp"
#include "testing_drivers/testing/workers.hpp"
#ifdef GRAIN_USE_CUDA
#include "testing_drivers/vendor_gpu.hpp"
#endif

namespace grain::testing::driver {

#ifdef GRAIN_USE_CUDA
// The GPU vendor's three times: vendor_time is the one from pinned arrays.
inline void set_vendor(Result& res, const gpu::VendorTimes& t) {
    res.vendor_time = t.pinned, res.vendor_pageable_time = t.pageable, res.vendor_resident_time = t.resident;
}
#endif

// The vendor routines and the checks use one BLAS thread per worker; grain's tasks
// use one each (the Runtime's setting, restored here).
class BlasThreads {
public:
    explicit BlasThreads(int threads) { openblas_set_num_threads(threads); }
    ~BlasThreads() { openblas_set_num_threads(1); }
};

// StarPU's clock: the machine's monotonic clock, or the simulated time when StarPU
// simulates the machine (SimGrid), where real time says nothing about the run.
template <typename F>
double timed(F&& f) {
    const double t0 = starpu_timing_now();
    f();
    return (starpu_timing_now() - t0) * 1e-6;
}

// Bytes moved between host memory and GPUs since the last call (StarPU's bus
// profiling counters, which reading resets; the driver turns profiling on for GPU runs).
inline std::pair<double, double> bus_bytes() {
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

// The calling thread's CPU clock (it does not run while the thread waits).
inline double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// Times f, grain's part of a run, and keeps its task counts (and transfers), and the
// CPU time the calling thread spent in it (submitting tasks; it sleeps while it waits).
template <typename F>
double timed_grain(const Run& r, Result& res, F&& f) {
    r.runtime.reset_statistics();
    if (r.runtime.ngpu() > 0) bus_bytes();
    const double cpu0 = thread_cpu_seconds();
    const double t = timed(f);
    res.caller_cpu_seconds = thread_cpu_seconds() - cpu0;
    res.statistics = r.runtime.statistics();
    if (r.runtime.ngpu() > 0) std::tie(res.to_gpu_bytes, res.from_gpu_bytes) = bus_bytes();
    res.trace = r.runtime.trace();  // empty unless tracing
    return t;
}

// grain on a host array, in place, as a user calls it: the routine's first tasks register
// its tiles (and pin it, with GPUs), and the view's end brings every tile home (and
// unpins it). Made inside the timed call, so that grain's time ends with the result back
// in host memory, and each run starts with no copy on a GPU. Inputs are only read.
// A distributed run (-P, -Q) copies the process's tiles out of the array instead (every
// process holds the whole array, from the same seed), which the run's time leaves out, and
// brings the whole matrix back into it on every process when gather() is called, after
// the timed call.
// With --pinned, the array is in a grain::Pinned first, outside the run's time (as the
// vendor's are pinned), and unpinned after it: grain pins nothing in the call.
template <typename T>
grain::Matrix<T> in_place(const Run& r, const Array<T>& x) {
    if (r.options.pinned && !r.grid && !x.a.empty()) {
        const double start = starpu_timing_now();
        auto pinned = std::make_shared<grain::Pinned>(x.data(), x.m, x.n, x.ld());
        *r.setup_seconds += (starpu_timing_now() - start) * 1e-6;
        r.gathers->push_back([pinned]() mutable { pinned.reset(); });
    }
    if (!r.grid) return grain::Matrix<T>(x.m, x.n, r.c.scales, const_cast<T*>(x.data()), x.ld());
    const double start = starpu_timing_now();
    grain::Matrix<T> M(x.m, x.n, r.c.scales, *r.grid);
    M.from_lapack(x.data(), x.ld());
    *r.setup_seconds += (starpu_timing_now() - start) * 1e-6;
    r.gathers->push_back([M, &x] { M.to_lapack(const_cast<T*>(x.data()), x.ld()); });
    return M;
}

// Brings distributed outputs back (-P, -Q), or unpins --pinned arrays: after the timed call.
inline void gather(const Run& r) {
    if (!r.gathers || r.gathers->empty()) return;
    const WorkersRunning running;
    for (const auto& g : *r.gathers) g();
    r.gathers->clear();
}

// grain's part of a run: `call` (which makes its views with in_place), timed, with the
// workers running.
template <typename F>
void run_grain(const Run& r, Result& res, F&& call) {
    {
        const WorkersRunning running;
        if (r.setup_seconds) *r.setup_seconds = 0;
        res.time = timed_grain(r, res, call);
        if (r.setup_seconds) res.time -= *r.setup_seconds;
    }
    gather(r);
}

// From this order on, --check measures a factorization's or gemm's residual with one random vector
// (O(n^2): seconds) instead of the whole product of its factors (O(n^3): minutes at
// n = 49152, and one more n x n array).
constexpr int64_t vector_check_from = 32768;

// The check's own generator: the run's stays as it would be without --check.
inline Random check_rng(const Run& r) { return Random(r.options.seed + 1); }

// What the factorizations and their solves share: an m x n matrix A to factor and, for
// a solve, n x nrhs right-hand sides B (in this order from the generator), kept for the
// check; and their copies F and X, in which grain computes the factors and the solution.
template <typename T>
struct Factorization {
    bool solve;
    Array<T> A, B;
    Array<T> F, X;

    Factorization(const Run& r, int64_t m, Kind kind, bool solves)
        : solve(solves),
          A(random_array<T>(m, r.c.n, kind, r.rng)),
          B(solves ? random_array<T>(r.c.n, r.c.nrhs, Kind::General, r.rng) : Array<T>(r.c.n, 0)),
          F(A),
          X(B) {}

    double solve_residual() const {
        return grain::testing::solve_residual(Side::Left, Op::NoTrans, A, X, T(1), B);
    }
};

// What a factorization's run times: the factorization alone (getrf), the solve alone
// after an untimed factorization (getrs), or both (gesv).
enum class Step { Factor, Solve, Both };

// Byte counts that saturate: UINT64_MAX stands for "more than 64 bits hold".
inline uint64_t add(uint64_t a, uint64_t b) {
    uint64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}
inline uint64_t times(uint64_t a, uint64_t b) {
    uint64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

// The bytes of an element of the case's precision; 0 where no array holds elements
// (simulated: checks.hpp, TileStorage).
uint64_t element_bytes(const Case& c);
// ... of a rows x cols array of them.
inline uint64_t array_bytes(const Case& c, int64_t rows, int64_t cols) {
    return times(times(uint64_t(rows), uint64_t(cols)), element_bytes(c));
}

// The bytes of a factorization's run at its peak (host_bytes): A (m x n) and the solves'
// B, and their copies F and X that grain works in (Factorization); then the vendor's
// copies (with the pivots of an LU, `lu`), freed before the check's; `pivoting`: the
// grain::Pivots array.
uint64_t factorization_bytes(const Options& options, const Case& c, bool lu, bool pivoting);

// The kernel table's counts for a solve of n x nrhs B from factors of n x n A: two
// triangular solves.
inline double solve_flops(const Case& c) {
    return 2 * grain::detail::kernel_flops(grain::detail::Kernel::Trsm, double(c.n), double(c.nrhs), 0);
}

// A runner for the case's precision: f<T> for T of r.c.precision's letter.
#define GRAIN_BY_PRECISION(f)                                                                            \
    [](const Run& r) {                                                                                   \
        return grain::detail::with_precision(r.c.precision, [&](auto zero) { return f<decltype(zero)>(r); }); \
    }

}  // namespace grain::testing::driver
