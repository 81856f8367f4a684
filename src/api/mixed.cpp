// Mixed-precision solves: gesv_mixed and posv_mixed (LAPACK's dsgesv and dsposv, zcgesv and
// zcposv). A copy of A in the paired lower precision is factored and X refined in T, as
// LAPACK's routines do: one refinement for both, over what each factors with.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "call.hpp"
#include "layout_call.hpp"
#include "src/base/simulation.hpp"
#include "src/starpu/codelets.hpp"  // gpu_math
#include "src/starpu/pivot_storage.hpp"

namespace grain {

using detail::Context;

namespace {

using namespace detail;

// LU with partial pivoting, its pivots in `pivots`, in either precision.
struct Lu {
    PivotBlocks pivots;
    template <typename U>
    void factor(const Context& ctx, const Matrix<U>& A) const { algorithms::getrf(ctx, A, pivots); }
    template <typename U>
    void solve(const Context& ctx, const Matrix<U>& A, const Matrix<U>& B) const {
        algorithms::getrs(ctx, Op::NoTrans, A, pivots, B);
    }
    // R = R - A X, on A itself.
    template <typename T>
    void residual(const Context& ctx, const Matrix<T>& A, const Matrix<T>& X, const Matrix<T>& R) const {
        algorithms::gemm(ctx, Op::NoTrans, Op::NoTrans, T(-1), A, X, T(1), R);
    }
    // What of A its norms read.
    algorithms::NormShape shape() const { return {}; }
    // What of A the solve reads, and the conversion copies.
    bool whole() const { return true; }
    Uplo uplo() const { return Uplo::Lower; }
};

// Cholesky on A's uplo triangle, in either precision.
struct Cholesky {
    Uplo triangle;
    template <typename U>
    void factor(const Context& ctx, const Matrix<U>& A) const { algorithms::potrf(ctx, triangle, A); }
    template <typename U>
    void solve(const Context& ctx, const Matrix<U>& A, const Matrix<U>& B) const {
        algorithms::potrs(ctx, triangle, A, B);
    }
    // R = R - A X, A Hermitian (symmetric in real precisions) on its triangle.
    template <typename T>
    void residual(const Context& ctx, const Matrix<T>& A, const Matrix<T>& X, const Matrix<T>& R) const {
        algorithms::symm(ctx, scalar_traits<T>::is_complex, Side::Left, triangle, T(-1), A, X, T(1), R);
    }
    algorithms::NormShape shape() const { return {algorithms::NormShape::Hermitian, triangle, Diag::NonUnit}; }
    bool whole() const { return false; }
    Uplo uplo() const { return triangle; }
};

// The most refinement steps before the fall-back, as LAPACK's ITERMAX.
constexpr int max_iterations = 30;

// What a step's residual says: whether every column of X is refined, its residual's
// largest element (LAPACK's |re| + |im| in complex precisions) at most `bound` times X's,
// and the largest of them all. A NaN never passes.
template <typename R>
struct Residual {
    bool refined;
    R largest;
};

template <typename T>
Residual<real_type<T>> residual(const Matrix<T>& X, const Matrix<T>& R, real_type<T> bound) {
    if (simulated) return {true, 0};  // no values to read: one step is what the run times
    const int64_t n = X.m(), nrhs = X.n(), ld = std::max<int64_t>(n, 1);
    std::vector<T> x(size_t(ld * nrhs)), r(size_t(ld * nrhs));
    X.to_lapack(x.data(), ld);
    R.to_lapack(r.data(), ld);
    const auto largest = [&](const std::vector<T>& v, int64_t j) {
        real_type<T> m = 0;
        for (int64_t i = 0; i < n; ++i) {
            const T e = v[size_t(i + j * ld)];
            real_type<T> a;
            if constexpr (scalar_traits<T>::is_complex)
                a = std::abs(e.real()) + std::abs(e.imag());
            else
                a = std::abs(e);
            if (!(a <= m)) m = a;  // NaN sticks
        }
        return m;
    };
    Residual<real_type<T>> out{true, 0};
    for (int64_t j = 0; j < nrhs; ++j) {
        const real_type<T> rj = largest(r, j);
        out.refined = out.refined && rj <= largest(x, j) * bound;
        out.largest = std::max(out.largest, rj);
    }
    return out;
}

// A norm of what the solver reads of A: its tasks submitted at construction, its value
// when asked for, so that the steps before the value is needed overlap its tasks.
template <typename T>
class PendingNorm {
public:
    PendingNorm(Norm norm, algorithms::NormShape shape, const Matrix<T>& A)
        : norm_(norm), shape_(shape), A_(A),
          W_(int64_t(A.mt()) * algorithms::lange_workspace_side(A.nb()),
             int64_t(A.nt()) * algorithms::lange_workspace_side(A.nb()), algorithms::lange_workspace_side(A.nb())),
          done_(submit(A, [this](const Context& ctx) { algorithms::lange(ctx, norm_, shape_, A_, W_); })) {}
    PendingNorm(const PendingNorm&) = delete;  // its tasks hold its address
    PendingNorm& operator=(const PendingNorm&) = delete;
    real_type<T> value() {
        done_.wait();
        const int64_t ld = std::max<int64_t>(W_.m(), 1);
        std::vector<T> w(size_t(ld * W_.n()));
        W_.to_lapack(w.data(), ld);
        return algorithms::lange_value(norm_, shape_, A_, w.data(), ld);
    }

private:
    Norm norm_;
    algorithms::NormShape shape_;
    const Matrix<T>& A_;
    Matrix<T> W_;
    Request done_;
};

// The exponent e of the power of two that brings a largest element `v` into [1/2, 1) as
// 2^e v (0 for 0, inf or NaN), within the range of R's powers of two: scaling by it is
// exact in every precision.
template <typename R>
int unit_exponent(R v) {
    if (!(v > 0) || !std::isfinite(v)) return 0;
    int e = 0;
    std::frexp(v, &e);
    constexpr int most = std::numeric_limits<R>::max_exponent - 1;
    return std::clamp(-e, -most, most);
}

// The refinement: X from the factors of A in the lower precision L, refined in T until
// each column's residual passes LAPACK's test (||r|| <= sqrt(n) eps ||A|| ||x||, in max
// norms), else T's own solve. `iter` as LAPACK's: the steps taken, or -2 (an element of A,
// B or a residual overflowed L), -3 (L's factorization failed) or -31 (no convergence)
// before the fall-back. Returns T's factorization's info (0 unless the fall-back's failed).
//
// Where the GPUs' single-precision products round to FP16 (RuntimeOptions::gpu_math),
// whose range is 6e-5 to 65504, L holds 2^a A and each right side 2^c r, exponents that
// bring their largest elements near 1; the correction is then 2^(a - c) times L's
// solution. Elsewhere a = c = 0, as LAPACK's.
template <typename T, typename Solver>
int refine(const Solver& s, const Matrix<T>& A, const Matrix<T>& B, const Matrix<T>& X, int& iter) {
    using L = paired_t<T>;
    using R = real_type<T>;
    const int64_t n = A.n(), nrhs = B.n();
    iter = 0;
    if (n == 0 || nrhs == 0) return 0;
    // Scratch that the conversions write before anything reads it: not zeroed.
    TileStorage<L> sa(n, n, A.scales(), false), sx(n, nrhs, A.scales(), false);
    TileStorage<T> r(n, nrhs, A.scales(), false);
    const Matrix<L> SA = MatrixAccess::view(sa), SX = MatrixAccess::view(sx);
    const Matrix<T> Rm = MatrixAccess::view(r);
    const bool scaled = gpu_math() == GpuMath::Fp16;
    const int a = scaled ? unit_exponent(PendingNorm<T>(Norm::Max, s.shape(), A).value()) : 0;
    int c = scaled ? unit_exponent(PendingNorm<T>(Norm::Max, {}, B).value()) : 0;
    int reason = 0;
    std::optional<PendingNorm<T>> norm;
    {
        // The conversions and the factorization in one go, their requests apart to tell
        // an overflow from the factorization's failure.
        Request narrowed = submit(A, [&](const Context& ctx) {
            algorithms::lag2(ctx, true, Uplo::Lower, false, c, B, SX);
            algorithms::lag2(ctx, s.whole(), s.uplo(), false, a, A, SA);
        });
        Request factored = submit(SA, [&](const Context& ctx) {
            s.factor(ctx, SA);
            s.solve(ctx, SA, SX);
        });
        // ||A|| for the steps' test, its tasks filling the cores the factorization leaves
        // idle, waited for at the first test.
        norm.emplace(Norm::Inf, s.shape(), A);
        const int overflow = narrowed.wait(), failed = factored.wait();
        reason = overflow ? -2 : failed ? -3 : 0;
    }
    // Each step waits once: the correction dx (A dx = R, solved in L) and the next update
    // run as one pipeline; an overflow of R is known once it has run (X, then garbage, is
    // not kept).
    Request narrowed, solved;
    R bound = -1;
    for (int step = 0; reason == 0; ++step) {
        // X = X + dx (X = x0 at first) and R = B - A X, in T.
        submit(A, [&](const Context& ctx) {
            algorithms::lag2(ctx, true, Uplo::Lower, step > 0, a - c, SX, X);
            algorithms::lacpy(ctx, false, B, Rm);
            s.residual(ctx, A, X, Rm);
        }).wait();
        if (narrowed.wait() != 0) {
            reason = -2;
            break;
        }
        // LAPACK's eps, the unit roundoff (half numeric_limits' epsilon).
        if (bound < 0) bound = norm->value() * (std::numeric_limits<R>::epsilon() / 2) * std::sqrt(R(n));
        const Residual<R> now = residual(X, Rm, bound);
        if (now.refined) {
            iter = step;
            return 0;
        }
        if (step == max_iterations) {
            reason = -(max_iterations + 1);
            break;
        }
        if (scaled) c = unit_exponent(now.largest);
        narrowed = submit(Rm, [&](const Context& ctx) { algorithms::lag2(ctx, true, Uplo::Lower, false, c, Rm, SX); });
        solved = submit(SA, [&](const Context& ctx) { s.solve(ctx, SA, SX); });
    }
    // The fall-back: A factored in T (in place, as LAPACK's), then X solved, unless the
    // factorization failed.
    iter = reason;
    const int info = submit(A, [&](const Context& ctx) {
                         algorithms::lacpy(ctx, false, B, X);
                         s.factor(ctx, A);
                     }).wait();
    if (info != 0) return info;
    return submit(A, [&](const Context& ctx) { s.solve(ctx, A, X); }).wait();
}

// The checks every form makes, then the plan whose NaN check the synchronous forms run.
template <typename T>
Plan<T> checked_plan(const char* routine, const Matrix<T>& A, const Matrix<T>& B, const Matrix<T>& X,
                     std::initializer_list<int64_t> arguments, Elements read, int a_position, int b_position) {
    Plan<T> p(routine, {&A, &B, &X}, arguments);
    require_runtime(routine);
    require_local(routine, A), require_local(routine, B, "B"), require_local(routine, X, "X");
    check_solve(routine, A, B);
    require_same_tiles(routine, A, "X", X);
    require_rows(routine, "X.m", X.m(), B.m(), "B.m");
    require(X.n() == B.n(), routine, "X.n", text(X.n()), "must equal B.n = " + text(B.n()));
    require_disjoint(routine, X, "X", A, "A");
    require_disjoint(routine, X, "X", B, "B");
    p.check_nan({{&A, read, a_position}, {&B, Elements::All, b_position}});
    return p;
}

template <typename T>
PivotBlocks lu_pivots(const char* routine, const Matrix<T>& A, const Matrix<T>& B, const Matrix<T>& X,
                      Pivots& ipiv) {
    require(ipiv.size() == A.n(), routine, "ipiv.size()", text(ipiv.size()), "must equal A.n = " + text(A.n()));
    require_disjoint(routine, ipiv, A, "A"), require_disjoint(routine, ipiv, B, "B");
    require_disjoint(routine, ipiv, X, "X");
    PivotStorage& storage = PivotAccess::storage(ipiv);
    return {&storage, &storage.blocks(A.nb())};
}

// The asynchronous form: the refinement on the request's host thread.
template <typename T, typename Solver>
Request start_refinement(Solver s, const Matrix<T>& A, const Matrix<T>& B, const Matrix<T>& X, int& iter) {
    Request request;
    RequestAccess::state(request).run_on_thread([s, A, B, X, &iter] { return int64_t(refine(s, A, B, X, iter)); });
    return request;
}

// The synchronous form: LAPACKE's NaN check, then the refinement here.
template <typename T, typename Solver>
int run_refinement(const Plan<T>& p, Solver s, const Matrix<T>& A, const Matrix<T>& B, const Matrix<T>& X,
                   int& iter) {
    iter = 0;
    if (const int info = nan_info(p)) return info;
    return refine(s, A, B, X, iter);
}

}  // namespace

template <typename T>
Request gesv_mixed_async(Matrix<T>& A, Pivots& ipiv, const Matrix<T>& B, Matrix<T>& X, int& iter) {
    const char* routine = "grain::gesv_mixed";
    const Plan<T> p = checked_plan(routine, A, B, X, {}, Elements::All, 3, 6);
    return start_refinement(Lu{lu_pivots(routine, A, B, X, ipiv)}, A, B, X, iter);
}

template <typename T>
int gesv_mixed(Matrix<T>& A, Pivots& ipiv, const Matrix<T>& B, Matrix<T>& X, int& iter) {
    const char* routine = "grain::gesv_mixed";
    const Plan<T> p = checked_plan(routine, A, B, X, {}, Elements::All, 3, 6);
    return run_refinement(p, Lu{lu_pivots(routine, A, B, X, ipiv)}, A, B, X, iter);
}

template <typename T>
Request posv_mixed_async(Uplo uplo, Matrix<T>& A, const Matrix<T>& B, Matrix<T>& X, int& iter) {
    const char* routine = "grain::posv_mixed";
    const Plan<T> p = checked_plan(routine, A, B, X, {int64_t(uplo)}, Elements::All, 4, 6);
    return start_refinement(Cholesky{checked(routine, "uplo", uplo)}, A, B, X, iter);
}

template <typename T>
int posv_mixed(Uplo uplo, Matrix<T>& A, const Matrix<T>& B, Matrix<T>& X, int& iter) {
    const char* routine = "grain::posv_mixed";
    uplo = checked(routine, "uplo", uplo);
    const Plan<T> p = checked_plan(routine, A, B, X, {int64_t(uplo)}, triangle(uplo), 4, 6);
    return run_refinement(p, Cholesky{uplo}, A, B, X, iter);
}

// The LAPACK-layout forms: tiled on the ladder of the factorization's precision, where
// the work is.
template <typename T>
int gesv_mixed(int64_t n, int64_t nrhs, T* a, int64_t lda, int* ipiv, const T* b, int64_t ldb, T* x, int64_t ldx,
               int* iter) {
    detail::LayoutCall<T> call("grain::gesv_mixed", Workload::PivotedLu);
    require(iter != nullptr, call.routine(), "iter", "nullptr", "must point to an int");
    call.require_pivots_array(ipiv, n);
    require_size(call.routine(), "n", n), require_size(call.routine(), "nrhs", nrhs);
    const std::vector<int> scales = layout_scales(Workload::PivotedLu, n, scalar_traits<paired_t<T>>::letter, false);
    Matrix<T> A = call.wrap("lda", n, n, a, lda, scales), B = call.wrap("ldb", n, nrhs, b, ldb, scales);
    Matrix<T> X = call.wrap("ldx", n, nrhs, x, ldx, scales);
    return call.run([&] {
        Pivots p(n, call.pivots(ipiv, n, false));
        return gesv_mixed(A, p, B, X, *iter);
    });
}

template <typename T>
int posv_mixed(Uplo uplo, int64_t n, int64_t nrhs, T* a, int64_t lda, const T* b, int64_t ldb, T* x, int64_t ldx,
               int* iter) {
    detail::LayoutCall<T> call("grain::posv_mixed", Workload::Cholesky);
    uplo = checked(call.routine(), "uplo", uplo);
    require(iter != nullptr, call.routine(), "iter", "nullptr", "must point to an int");
    require_size(call.routine(), "n", n), require_size(call.routine(), "nrhs", nrhs);
    const std::vector<int> scales = layout_scales(Workload::Cholesky, n, scalar_traits<paired_t<T>>::letter, false);
    Matrix<T> A = call.wrap("lda", n, n, a, lda, scales), B = call.wrap("ldb", n, nrhs, b, ldb, scales);
    Matrix<T> X = call.wrap("ldx", n, nrhs, x, ldx, scales);
    return call.run([&] { return posv_mixed(uplo, A, B, X, *iter); });
}

// The working precisions: double and complex double, factored in float and complex float.
#define GRAIN_INSTANTIATE(T)                                                                                   \
    template Request gesv_mixed_async<T>(Matrix<T>&, Pivots&, const Matrix<T>&, Matrix<T>&, int&);             \
    template int gesv_mixed<T>(Matrix<T>&, Pivots&, const Matrix<T>&, Matrix<T>&, int&);                       \
    template Request posv_mixed_async<T>(Uplo, Matrix<T>&, const Matrix<T>&, Matrix<T>&, int&);                \
    template int posv_mixed<T>(Uplo, Matrix<T>&, const Matrix<T>&, Matrix<T>&, int&);                          \
    template int gesv_mixed<T>(int64_t, int64_t, T*, int64_t, int*, const T*, int64_t, T*, int64_t, int*);     \
    template int posv_mixed<T>(Uplo, int64_t, int64_t, T*, int64_t, const T*, int64_t, T*, int64_t, int*);
GRAIN_INSTANTIATE(double)
GRAIN_INSTANTIATE(std::complex<double>)
#undef GRAIN_INSTANTIATE

}  // namespace grain
