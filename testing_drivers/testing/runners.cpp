// The runners, one per routine (potrf, potrs and posv share one, as do getrf_nopiv and
// gesv_nopiv), and the table of operations -o chooses from.
#include "testing_drivers/testing/runners.hpp"

#include <starpu.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "src/base/scalar_traits.hpp"
#include "testing_drivers/testing/flops.hpp"
#include "testing_drivers/testing/workers.hpp"
#ifdef GRAIN_USE_CUDA
#include "testing_drivers/vendor_gpu.hpp"
#endif

namespace grain::testing::driver {

namespace {

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
// With --pinned, the array is pinned first, outside the run's time (as the vendor's are),
// and unpinned after it: grain finds its columns pinned and pins nothing.
template <typename T>
grain::Matrix<T> in_place(const Run& r, const Array<T>& x) {
#ifdef GRAIN_USE_CUDA
    if (r.options.pinned && !r.grid && !x.a.empty()) {
        const double start = starpu_timing_now();
        gpu::pin_host(x.data(), x.a.size() * sizeof(T));
        *r.setup_seconds += (starpu_timing_now() - start) * 1e-6;
        r.gathers->push_back([&x] { gpu::unpin_host(x.data()); });
    }
#endif
    if (!r.grid) return grain::Matrix<T>(x.m, x.n, r.c.scales, const_cast<T*>(x.data()), x.ld());
    const double start = starpu_timing_now();
    grain::Matrix<T> M(x.m, x.n, r.c.scales, *r.grid);
    M.from_lapack(x.data(), x.ld());
    *r.setup_seconds += (starpu_timing_now() - start) * 1e-6;
    r.gathers->push_back([M, &x] { M.to_lapack(const_cast<T*>(x.data()), x.ld()); });
    return M;
}

// Brings distributed outputs back (-P, -Q), or unpins --pinned arrays: after the timed call.
void gather(const Run& r) {
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
Random check_rng(const Run& r) { return Random(r.options.seed + 1); }

template <typename T>
Result run_gemm(const Run& r) {
    const Case& c = r.c;
    const T alpha = T(1.5), beta = T(-0.5);
    const Array<T> A = random_array<T>(c.m, c.k, Kind::General, r.rng);
    const Array<T> B = random_array<T>(c.k, c.n, Kind::General, r.rng);
    const Array<T> C0 = random_array<T>(c.m, c.n, Kind::General, r.rng);
    Result res;
    Array<T> C = C0;  // grain's output, in place
    run_grain(r, res, [&] {
        grain::Matrix<T> tC = in_place(r, C);
        res.info = grain::gemm(Op::NoTrans, Op::NoTrans, alpha, in_place(r, A), in_place(r, B), beta, tC);
    });
    // The CPU product is the check's reference (but at large sizes, where one random
    // vector checks it) and, on CPU runs, the vendor's time.
    const bool large = std::max({c.m, c.n, c.k}) >= vector_check_from;
    if (r.options.check && large) res.residual = gemm_residual_by_vector(A, B, C0, C, alpha, beta, check_rng(r));
    if ((r.options.check && !large) || (r.options.vendor && !r.gpu_vendor())) {
        Array<T> ref = C0;
        const BlasThreads blas_threads(r.threads);
        const double t = timed([&] {
            blas::gemm(Op::NoTrans, Op::NoTrans, int(c.m), int(c.n), int(c.k), alpha, A.data(), A.ld(), B.data(),
                       B.ld(), beta, ref.data(), ref.ld());
        });
        if (!r.gpu_vendor()) res.vendor_time = t;
        if (!large) res.residual = gemm_residual(double(norm('M', minus(C, ref))), alpha, norm('M', A), norm('M', B), beta,
                                     norm('M', C0), c.k);
    }
#ifdef GRAIN_USE_CUDA
    // After the check: cuBLAS's product comes back into grain's, no longer needed.
    if (r.gpu_vendor())
        res.vendor_time = gpu::gemm(c.m, c.n, c.k, alpha, A.data(), A.ld(), B.data(), B.ld(), beta, C0.data(),
                                    C0.ld(), C.data(), C.ld(), r.runtime.gpu_memory());
#endif
    return res;
}

template <typename T>
Result run_trsm(const Run& r) {
    const Case& c = r.c;
    const T alpha = T(1.5);
    const Array<T> A = random_array<T>(c.m, c.m, Kind::LowerTriangular, r.rng);
    const Array<T> B = random_array<T>(c.m, c.n, Kind::General, r.rng);
    Result res;
    Array<T> X = B;  // grain's output, in place
    run_grain(r, res, [&] {
        grain::Matrix<T> tX = in_place(r, X);
        res.info = grain::trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::NonUnit, alpha, in_place(r, A), tX);
    });
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

// syrk's error as gemm's check measures it, on the uplo triangle (against ref); the
// other triangle must be untouched (equal to C0).
template <typename T>
double triangle_error(Uplo uplo, const Array<T>& C, const Array<T>& ref, const Array<T>& C0) {
    double error = 0;
    for (int64_t j = 0; j < C.n; ++j)
        for (int64_t i = 0; i < C.m; ++i) {
            const bool in_triangle = uplo == Uplo::Lower ? i >= j : i <= j;
            const T expected = in_triangle ? ref(i, j) : C0(i, j);
            error = std::max(error, double(std::abs(C(i, j) - expected)));
        }
    return error;
}

// syrk and herk (alpha and beta real; C Hermitian, its diagonal real, in complex precisions).
template <typename T>
Result run_rank_k(const Run& r) {
    const Case& c = r.c;
    const bool hermitian = r.options.op == "herk";
    const real_t<T> alpha = real_t<T>(1.5), beta = real_t<T>(-0.5);
    const Uplo uplo = r.options.uplo;
    const Array<T> A = random_array<T>(c.n, c.k, Kind::General, r.rng);
    const Array<T> C0 = random_array<T>(c.n, c.n, hermitian ? Kind::Spd : Kind::General, r.rng);
    Result res;
    Array<T> C = C0;  // grain's output, in place
    run_grain(r, res, [&] {
        grain::Matrix<T> tC = in_place(r, C);
        res.info = hermitian ? grain::herk(uplo, Op::NoTrans, alpha, in_place(r, A), beta, tC)
                             : grain::syrk(uplo, Op::NoTrans, T(alpha), in_place(r, A), T(beta), tC);
    });
    if (r.options.vendor || r.options.check) {
        Array<T> ref = C0;
        const BlasThreads blas_threads(r.threads);
        res.vendor_time = timed([&] {
            if (hermitian)
                blas::herk(uplo, Op::NoTrans, int(c.n), int(c.k), alpha, A.data(), A.ld(), beta, ref.data(), ref.ld());
            else
                blas::syrk(uplo, Op::NoTrans, int(c.n), int(c.k), T(alpha), A.data(), A.ld(), T(beta), ref.data(),
                           ref.ld());
        });
        res.residual = gemm_residual(triangle_error(uplo, C, ref, C0), T(alpha), norm('M', A), norm('M', A), T(beta),
                                     norm('M', C0), c.k);
    }
    return res;
}

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

// potrf, potrs and posv: an SPD matrix.
template <typename T>
Result run_cholesky(const Run& r) {
    const Case& c = r.c;
    const std::string& op = r.options.op;
    const Uplo uplo = r.options.uplo;
    Factorization<T> f(r, c.n, Kind::Spd, op != "potrf");
    Result res;
    if (op == "potrs") {  // potrs times the solve alone
        const WorkersRunning running;
        grain::Matrix<T> tF = in_place(r, f.F);
        res.info = grain::potrf(uplo, tF);
    }
    gather(r);
    run_grain(r, res, [&] {
        grain::Matrix<T> tF = in_place(r, f.F), tX = in_place(r, f.X);
        if (op == "potrf") res.info = grain::potrf(uplo, tF);
        if (op == "potrs") res.info = std::max(res.info, grain::potrs(uplo, tF, tX));
        if (op == "posv") res.info = grain::posv(uplo, tF, tX);
    });
    const BlasThreads blas_threads(r.threads);
    const bool gpu_baseline = op == "potrf" && r.gpu_vendor();  // cuSOLVER's, else LAPACKE's
    if (r.options.vendor && !gpu_baseline) {
        Array<T> vA = f.A, vB = f.B;
        if (op == "potrs") blas::potrf(uplo, int(c.n), vA.data(), vA.ld());
        res.vendor_time = timed([&] {
            if (op != "potrs") blas::potrf(uplo, int(c.n), vA.data(), vA.ld());
            if (f.solve) blas::potrs(uplo, int(c.n), int(c.nrhs), vA.data(), vA.ld(), vB.data(), vB.ld());
        });
    }
    if (r.options.check && f.solve) res.residual = f.solve_residual();
    if (r.options.check && !f.solve)
        res.residual = c.n >= vector_check_from
                           ? factor_residual_by_vector(f.A, f.F, uplo == Uplo::Lower ? Factors::CholeskyLower
                                                                                     : Factors::CholeskyUpper,
                                                       check_rng(r))
                           : factor_residual(f.A, cholesky_product(uplo, f.F));
#ifdef GRAIN_USE_CUDA
    // After the check: cuSOLVER's factor comes back into grain's, no longer needed.
    if (gpu_baseline) res.vendor_time = gpu::potrf(uplo, c.n, f.A.data(), f.A.ld(), f.F.data(), f.F.ld(), r.runtime.gpu_memory());
#endif
    return res;
}

// getrf_nopiv and gesv_nopiv: a diagonally dominant matrix, so no pivoting is needed.
template <typename T>
Result run_lu(const Run& r) {
    const Case& c = r.c;
    const bool solve = r.options.op == "gesv_nopiv";
    const int64_t m = c.m;  // n for gesv_nopiv
    Factorization<T> f(r, m, Kind::DiagonallyDominant, solve);
    Result res;
    run_grain(r, res, [&] {
        grain::Matrix<T> tF = in_place(r, f.F), tX = in_place(r, f.X);
        res.info = solve ? grain::gesv_nopiv(tF, tX) : grain::getrf_nopiv(tF);
    });
    const BlasThreads blas_threads(r.threads);
    const bool gpu_baseline = !solve && r.gpu_vendor();  // cuSOLVER's, else LAPACKE's
    if (r.options.vendor && !gpu_baseline) {  // LAPACK's LU pivots: the nearest vendor routine
        Array<T> vA = f.A, vB = f.B;
        std::vector<lapack_int> ipiv(size_t(std::min(m, c.n)) + 1);
        res.vendor_time = timed([&] {
            blas::getrf(int(m), int(c.n), vA.data(), vA.ld(), ipiv.data());
            if (solve) blas::getrs(Op::NoTrans, int(c.n), int(c.nrhs), vA.data(), vA.ld(), ipiv.data(), vB.data(), vB.ld());
        });
    }
    if (r.options.check && solve) res.residual = f.solve_residual();
    if (r.options.check && !solve)
        res.residual = m == c.n && c.n >= vector_check_from ? factor_residual_by_vector(f.A, f.F, Factors::Lu, check_rng(r))
                                                           : factor_residual(f.A, lu_product(f.F));
#ifdef GRAIN_USE_CUDA
    // After the check: cuSOLVER's factors come back into grain's, no longer needed.
    if (gpu_baseline)
        res.vendor_time = gpu::getrf_nopiv(m, c.n, f.A.data(), f.A.ld(), f.F.data(), f.F.ld(), r.runtime.gpu_memory());
#endif
    return res;
}

// getrf, getrs and gesv: LU with partial pivoting of a general matrix (getrs factors
// first, untimed, and times the solve alone).
template <typename T>
Result run_lu_pivoting(const Run& r) {
    const Case& c = r.c;
    const std::string& op = r.options.op;
    const bool solve = op != "getrf";
    const int64_t m = c.m, mn = std::min(m, c.n);  // m = n but for getrf
    Factorization<T> f(r, m, Kind::General, solve);
    std::vector<int> ipiv(static_cast<size_t>(mn));
    Result res;
    if (op == "getrs") {
        const WorkersRunning running;
        grain::Matrix<T> tF = in_place(r, f.F);
        grain::Pivots p(mn, ipiv.data());
        res.info = grain::getrf(tF, p);
    }
    gather(r);
    run_grain(r, res, [&] {
        grain::Matrix<T> tF = in_place(r, f.F), tX = in_place(r, f.X);
        grain::Pivots p(mn, ipiv.data());
        if (op == "getrf") res.info = grain::getrf(tF, p);
        if (op == "getrs") res.info = std::max(res.info, grain::getrs(Op::NoTrans, tF, p, tX));
        if (op == "gesv") res.info = grain::gesv(tF, p, tX);
    });
    const BlasThreads blas_threads(r.threads);
    const bool gpu_baseline = op == "getrf" && r.gpu_vendor();  // cuSOLVER's, else LAPACKE's
    if (r.options.vendor && !gpu_baseline) {  // threaded LAPACKE
        Array<T> vA = f.A, vB = f.B;
        std::vector<lapack_int> vp(size_t(mn) + 1);
        if (op == "getrs") blas::getrf(int(m), int(c.n), vA.data(), vA.ld(), vp.data());
        res.vendor_time = timed([&] {
            if (op != "getrs") blas::getrf(int(m), int(c.n), vA.data(), vA.ld(), vp.data());
            if (solve) blas::getrs(Op::NoTrans, int(c.n), int(c.nrhs), vA.data(), vA.ld(), vp.data(), vB.data(), vB.ld());
        });
    }
    if (r.options.check && solve) res.residual = f.solve_residual();
    if (r.options.check && !solve) {
        // P A against L U: A's rows interchanged in place, and back after (no copy of A).
        auto interchange = [&](size_t i) {
            if (ipiv[i] - 1 != int64_t(i))
                for (int64_t j = 0; j < c.n; ++j) std::swap(f.A(int64_t(i), j), f.A(int64_t(ipiv[i] - 1), j));
        };
        for (size_t i = 0; i < ipiv.size(); ++i) interchange(i);
        res.residual = m == c.n && c.n >= vector_check_from ? factor_residual_by_vector(f.A, f.F, Factors::Lu, check_rng(r))
                                                           : factor_residual(f.A, lu_product(f.F));
        for (size_t i = ipiv.size(); i-- > 0;) interchange(i);
    }
#ifdef GRAIN_USE_CUDA
    // After the check: cuSOLVER's factors come back into grain's, no longer needed.
    if (gpu_baseline)
        res.vendor_time = gpu::getrf(m, c.n, f.A.data(), f.A.ld(), f.F.data(), f.F.ld(), r.runtime.gpu_memory());
#endif
    return res;
}

// A runner for the case's precision: f<T> for T of r.c.precision's letter.
#define GRAIN_BY_PRECISION(f)                                                                            \
    [](const Run& r) {                                                                                   \
        return grain::detail::with_precision(r.c.precision, [&](auto zero) { return f<decltype(zero)>(r); }); \
    }

const Operation operations[] = {
    // name, residual bound, runner, whether it reads -m, -k, --nrhs
    {"gemm", 10, GRAIN_BY_PRECISION(run_gemm), true, true, false},
    {"trsm", 60, GRAIN_BY_PRECISION(run_trsm), true, false, false},
    {"syrk", 10, GRAIN_BY_PRECISION(run_rank_k), false, true, false},
    {"herk", 10, GRAIN_BY_PRECISION(run_rank_k), false, true, false},
    {"potrf", 60, GRAIN_BY_PRECISION(run_cholesky), false, false, false},
    {"potrs", 60, GRAIN_BY_PRECISION(run_cholesky), false, false, true},
    {"posv", 60, GRAIN_BY_PRECISION(run_cholesky), false, false, true},
    {"getrf_nopiv", 60, GRAIN_BY_PRECISION(run_lu), true, false, false},
    {"gesv_nopiv", 60, GRAIN_BY_PRECISION(run_lu), false, false, true},
    {"getrf", 60, GRAIN_BY_PRECISION(run_lu_pivoting), true, false, false},
    {"getrs", 60, GRAIN_BY_PRECISION(run_lu_pivoting), false, false, true},
    {"gesv", 60, GRAIN_BY_PRECISION(run_lu_pivoting), false, false, true},
};
#undef GRAIN_BY_PRECISION

// Byte counts that saturate: UINT64_MAX stands for "more than 64 bits hold".
uint64_t add(uint64_t a, uint64_t b) {
    uint64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}
uint64_t times(uint64_t a, uint64_t b) {
    uint64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

}  // namespace

const Operation& find_operation(const std::string& name) {
    for (const Operation& op : operations)
        if (name == op.name) return op;
    throw usage_error("invalid value '" + name + "' for -o/--op: unknown operation");
}

std::vector<Case> cases_of(const Options& options) {
    const Operation& op = find_operation(options.op);
    const std::vector<int64_t> unread{0};
    std::vector<std::vector<int>> ladders;
    if (!options.scales.empty()) ladders.push_back(options.scales);
    for (int nb : options.scales.empty() ? options.nb : std::vector<int>{}) ladders.push_back({nb});
    const std::vector<int64_t>& ms = op.takes_m ? options.m : unread;
    const std::vector<int64_t>& ks = op.takes_k ? options.k : unread;
    const std::vector<int64_t>& nrhss = op.takes_nrhs ? options.nrhs : unread;
    size_t count = 1;
    for (size_t values : {options.precisions.size(), ladders.size(), options.n.size(), ms.size(), ks.size(), nrhss.size()})
        if (__builtin_mul_overflow(count, values, &count) || count > max_values)
            throw usage_error("the lists of precisions, tile sizes and sizes " + std::string(op.name) +
                              " reads combine into more than " + std::to_string(max_values) + " cases");
    std::vector<Case> cases;
    for (char p : options.precisions)
        for (const std::vector<int>& ladder : ladders)
            for (int64_t n : options.n)
                for (int64_t m : ms)
                    for (int64_t k : ks)
                        for (int64_t nrhs : nrhss)
                            cases.push_back({p, m ? m : n, n, op.takes_k ? (k ? k : n) : 0, nrhs, ladder});
    return cases;
}

std::vector<std::string> ignored_options(const Options& options) {
    const Operation& op = find_operation(options.op);
    std::vector<std::string> ignored;
    if (!op.takes_m && options.m != std::vector<int64_t>{0}) ignored.push_back("-m");
    if (!op.takes_k && options.k != std::vector<int64_t>{0}) ignored.push_back("-k");
    if (!op.takes_nrhs && options.nrhs != std::vector<int64_t>{1}) ignored.push_back("--nrhs");
    return ignored;
}

Result run_case(const Operation& operation, const Run& r) {
    Result res = operation.run(r);
    res.flops = routine_flops(operation.name, r.c);
    return res;
}

bool passed(const Operation& operation, const Result& res) {
    return res.info == 0 && std::isfinite(res.residual) && res.residual < operation.threshold;
}

uint64_t host_bytes(const Options& options, const Case& c) {
    // Simulated: no array or tile storage holds elements (checks.hpp, TileStorage).
    const uint64_t element =
        !holds_elements ? 0 : grain::detail::with_precision(c.precision, [](auto zero) { return uint64_t(sizeof zero); });
    const auto array = [&](int64_t rows, int64_t cols) { return times(times(uint64_t(rows), uint64_t(cols)), element); };
    const std::string& op = options.op;
    const bool check = options.check, vendor = options.vendor;
    const int64_t m = c.m, n = c.n, k = c.k;
    // grain works in place in a copy of the output (in_place): no tiles of its own.
    if (op == "gemm") {  // A, B, C0, C; the reference and C - reference
        const uint64_t operands = add(add(array(m, k), array(k, n)), array(m, n));
        const bool large = std::max({m, n, k}) >= vector_check_from;
        return add(add(operands, array(m, n)), (check && !large) || vendor ? times(array(m, n), 2) : 0);
    }
    if (op == "trsm") {  // A, B, X; the vendor's B, then the residual's
        const uint64_t operands = add(array(m, m), array(m, n));
        return add(add(operands, array(m, n)), check || vendor ? array(m, n) : 0);
    }
    if (op == "syrk" || op == "herk") {  // A, C0, C; the reference
        const uint64_t operands = add(array(n, k), array(n, n));
        return add(add(operands, array(n, n)), check || vendor ? array(n, n) : 0);
    }
    // The factorizations: A (m x n, m = n but for getrf_nopiv) and the solves' B, and their
    // copies F and X that grain works in (Factorization); then the vendor's copies, freed
    // before the check's.
    const bool solve = c.nrhs > 0,
               lu = op == "getrf_nopiv" || op == "gesv_nopiv" || op == "getrf" || op == "getrs" || op == "gesv";
    if (!lu && op != "potrf" && op != "potrs" && op != "posv")
        throw std::logic_error("host_bytes: no byte count for " + op);
    const uint64_t a = array(m, n), b = solve ? array(n, c.nrhs) : 0;
    const int64_t mn = std::min(m, n);
    const uint64_t pivots = lu ? times(uint64_t(mn) + 1, sizeof(lapack_int)) : 0;  // the vendor's
    const bool pivoting = op == "getrf" || op == "getrs" || op == "gesv";
    const uint64_t grain_pivots = pivoting ? times(uint64_t(mn), sizeof(int)) : 0;  // the grain::Pivots array
    const uint64_t vendor_copies = vendor ? add(add(a, b), pivots) : 0;
    // The residual's B copy; the product of the factors (L and U apart where not square).
    const uint64_t product = m == n && n >= vector_check_from ? times(uint64_t(n), 3 * element)  // vectors
                             : lu && m != n ? add(add(array(m, mn), array(mn, n)), array(m, n))
                                            : a;
    const uint64_t check_copies = check ? (solve ? b : product) : 0;
    return add(add(times(add(a, b), 2), grain_pivots), std::max(vendor_copies, check_copies));
}

}  // namespace grain::testing::driver
