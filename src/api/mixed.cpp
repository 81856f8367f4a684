// Mixed-precision solves: gesv_mixed and posv_mixed (LAPACK's dsgesv and dsposv, zcgesv and
// zcposv). A copy of A in the paired lower precision is factored and X refined in T, as
// LAPACK's routines do: one refinement for both, over what each factors with.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include "call.hpp"
#include "layout_call.hpp"
#include "src/base/simulation.hpp"
#include "src/kernels/gpu_math.hpp"
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
    // R = alpha A X + beta R, on A itself.
    template <typename T>
    void multiply(const Context& ctx, T alpha, const Matrix<T>& A, const Matrix<T>& X, T beta,
                  const Matrix<T>& R) const {
        algorithms::gemm(ctx, Op::NoTrans, Op::NoTrans, alpha, A, X, beta, R);
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
    // R = alpha A X + beta R, A Hermitian (symmetric in real precisions) on its triangle.
    template <typename T>
    void multiply(const Context& ctx, T alpha, const Matrix<T>& A, const Matrix<T>& X, T beta,
                  const Matrix<T>& R) const {
        algorithms::symm(ctx, scalar_traits<T>::is_complex, Side::Left, triangle, alpha, A, X, beta, R);
    }
    algorithms::NormShape shape() const { return {algorithms::NormShape::Hermitian, triangle, Diag::NonUnit}; }
    bool whole() const { return false; }
    Uplo uplo() const { return triangle; }
};

// The most refinement steps before the fall-back, as LAPACK's ITERMAX.
constexpr int max_iterations = 30;

// A column-major host copy of an n x k matrix (ld max(n, 1)).
template <typename T>
std::vector<T> host_copy(const Matrix<T>& M) {
    const int64_t ld = std::max<int64_t>(M.m(), 1);
    std::vector<T> v(size_t(ld * M.n()));
    M.to_lapack(v.data(), ld);
    return v;
}

// The largest element of v's n elements from `first` (LAPACK's |re| + |im| in complex
// precisions); a NaN sticks.
template <typename T>
real_type<T> largest(const std::vector<T>& v, size_t first, size_t n) {
    real_type<T> m = 0;
    for (size_t i = first; i < first + n; ++i) {
        real_type<T> a;
        if constexpr (scalar_traits<T>::is_complex)
            a = std::abs(v[i].real()) + std::abs(v[i].imag());
        else
            a = std::abs(v[i]);
        if (!(a <= m)) m = a;
    }
    return m;
}

// What a step's residual says: whether every column of X is refined, its residual's
// largest element at most `bound` times X's, and the largest of them all. A NaN never
// passes.
template <typename R>
struct Residual {
    bool refined;
    R largest;
};

template <typename T>
Residual<real_type<T>> residual(const std::vector<T>& x, const std::vector<T>& r, int64_t n, real_type<T> bound) {
    if (simulated) return {true, 0};  // no values to read: one step is what the run times
    Residual<real_type<T>> out{true, 0};
    for (size_t j = 0; n > 0 && j < x.size() / size_t(n); ++j) {
        const real_type<T> rj = largest(r, j * size_t(n), size_t(n));
        out.refined = out.refined && rj <= largest(x, j * size_t(n), size_t(n)) * bound;
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

// The factors M of A in L as GMRES's preconditioner, promoted to T once: z = M^-1 y for
// y = A v or v, one column of T in host memory, the product and the solve in T as tile
// tasks with one wait. Applied in L, y would lose what lies below L's precision, which is
// where the corrections of an ill-conditioned A are. The factors are those of 2^a A.
template <typename T, typename Solver>
class Preconditioner {
public:
    using L = paired_t<T>;
    Preconditioner(const Solver& s, const Matrix<T>& A, const Matrix<L>& SA, int a)
        : s_(s), A_(A), a_(a), f_(A.n(), A.n(), A.scales(), false), v_(A.n(), 1, A.scales(), false),
          w_(A.n(), 1, A.scales(), false), F_(MatrixAccess::view(f_)), V_(MatrixAccess::view(v_)),
          W_(MatrixAccess::view(w_)) {
        submit(SA, [&](const Context& ctx) { algorithms::lag2(ctx, s.whole(), s.uplo(), false, 0, SA, F_); }).wait();
    }

    // z = M^-1 (A v) (`product`) or M^-1 v.
    void apply(const std::vector<T>& v, bool product, std::vector<T>& z) {
        const int64_t ld = std::max<int64_t>(A_.n(), 1);
        V_.from_lapack(v.data(), ld);
        const Matrix<T>& Y = product ? W_ : V_;
        submit(A_, [&](const Context& ctx) {
            if (product) s_.multiply(ctx, T(1), A_, V_, T(0), W_);
            s_.solve(ctx, F_, Y);
        }).wait();
        z.resize(v.size());
        Y.to_lapack(z.data(), ld);
        const real_type<T> scale = std::ldexp(real_type<T>(1), a_);  // exact
        if (a_ != 0)
            for (T& e : z) e *= scale;
    }

private:
    const Solver& s_;
    const Matrix<T>& A_;
    int a_;
    TileStorage<T> f_, v_, w_;
    Matrix<T> F_, V_, W_;
};

template <typename T>
T dot(const std::vector<T>& x, const std::vector<T>& y) {  // x^H y
    T sum = 0;
    for (size_t i = 0; i < x.size(); ++i) sum += detail::conj(x[i]) * y[i];
    return sum;
}
template <typename T>
void axpy(T alpha, const std::vector<T>& x, std::vector<T>& y) {
    for (size_t i = 0; i < x.size(); ++i) y[i] += alpha * x[i];
}

// (x, y) = (c x + s y, -conj(s) x + c y): a Givens rotation, c real.
template <typename T>
void rotate(real_type<T> c, T s, T& x, T& y) {
    const T t = c * x + s * y;
    y = -detail::conj(s) * x + c * y;
    x = t;
}

// d with A d ~ r by GMRES in T on M^-1 A d = M^-1 r (left-preconditioned, from d = 0,
// modified Gram-Schmidt, Givens rotations on the Hessenberg matrix), until M^-1 (r - A d)
// has shrunk by `reduction` or after `most` iterations. Returns the iterations (one
// application of M each, after the first).
template <typename T, typename Apply>
int gmres(Apply&& apply, const std::vector<T>& r, real_type<T> reduction, int most, std::vector<T>& d) {
    using R = real_type<T>;
    d.assign(r.size(), T(0));
    std::vector<T> z;
    apply(r, false, z);
    const R beta = std::sqrt(std::real(dot(z, z)));
    if (!(beta > 0) || !std::isfinite(beta)) return 0;  // nothing to correct, or nothing that can be
    std::vector<std::vector<T>> basis{z}, h;  // h[j]: the Hessenberg matrix's column j, rotated
    for (T& e : basis[0]) e /= beta;
    std::vector<R> cs;
    std::vector<T> sn, g{T(beta)};
    int k = 0;
    while (k < most) {
        apply(basis[size_t(k)], true, z);
        std::vector<T> column(size_t(k) + 2);
        for (int i = 0; i <= k; ++i) {
            column[size_t(i)] = dot(basis[size_t(i)], z);
            axpy(-column[size_t(i)], basis[size_t(i)], z);
        }
        const R next = std::sqrt(std::real(dot(z, z)));
        column[size_t(k) + 1] = T(next);
        for (int i = 0; i < k; ++i) rotate(cs[size_t(i)], sn[size_t(i)], column[size_t(i)], column[size_t(i) + 1]);
        // The rotation that zeroes the subdiagonal element, then applied to g.
        const T top = column[size_t(k)];
        const R rho = std::hypot(std::abs(top), next);
        const R c = rho > 0 ? std::abs(top) / rho : R(1);
        const T phase = std::abs(top) > 0 ? top / std::abs(top) : T(1);
        const T sine = rho > 0 ? phase * next / rho : T(0);
        cs.push_back(c), sn.push_back(sine);
        column[size_t(k)] = phase * rho, column[size_t(k) + 1] = T(0);
        g.push_back(T(0));
        rotate(c, sine, g[size_t(k)], g[size_t(k) + 1]);
        h.push_back(std::move(column));
        ++k;
        if (!(std::abs(g[size_t(k)]) > reduction * beta) || !(next > 0)) break;
        for (T& e : z) e /= next;
        basis.push_back(z);
    }
    // d = the basis times y, H y = g on the k x k upper triangle.
    std::vector<T> y(static_cast<size_t>(k));
    for (int i = k - 1; i >= 0; --i) {
        T sum = g[size_t(i)];
        for (int j = i + 1; j < k; ++j) sum -= h[size_t(j)][size_t(i)] * y[size_t(j)];
        y[size_t(i)] = sum / h[size_t(i)][size_t(i)];
    }
    for (int j = 0; j < k; ++j) axpy(y[size_t(j)], basis[size_t(j)], d);
    return k;
}

// The refinement: X from the factors of A in the lower precision L, refined in T until
// each column's residual passes LAPACK's test (||r|| <= sqrt(n) eps ||A|| ||x||, in max
// norms), else T's own solve. `iter` as LAPACK's: the steps taken, or -2 (an element of A,
// B or a residual overflowed L), -3 (L's factorization failed) or -31 (no convergence)
// before the fall-back. Returns T's factorization's info (0 unless the fall-back's failed).
//
// Where the GPUs' single-precision products round to FP16 (RuntimeOptions::gpu_math),
// whose range is 6e-5 to 65504, L holds 2^a A and 2^c B, exponents that bring their largest
// elements near 1, and x0 is 2^(a - c) times L's solution. Elsewhere a = c = 0, as LAPACK's.
//
// Under TF32, BF16 or FP16 products (u = 2^-11 or 2^-8 in the factors) the classical step
// stops converging past small orders (doc/notes/tf32-refinement.md): each step's
// correction is then GMRES's, preconditioned by the factors (Carson and Higham's GMRES-IR,
// cuSOLVER's CUSOLVER_IRS_REFINE_GMRES), in T, and `iter` counts the factors' applications.
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
    const int c = scaled ? unit_exponent(PendingNorm<T>(Norm::Max, {}, B).value()) : 0;
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
    const bool krylov = gpu_math() != GpuMath::Fp32;
    std::optional<Preconditioner<T, Solver>> M;  // GMRES's, once it is needed
    int applied = 0;
    for (int step = 0; reason == 0; ++step) {
        // X = X + dx (X = x0 at first; GMRES's dx is added on the host) and R = B - A X, in T.
        submit(A, [&](const Context& ctx) {
            if (step == 0 || !krylov) algorithms::lag2(ctx, true, Uplo::Lower, step > 0, a - c, SX, X);
            algorithms::lacpy(ctx, false, B, Rm);
            s.multiply(ctx, T(-1), A, X, T(1), Rm);
        }).wait();
        if (narrowed.wait() != 0) {
            reason = -2;
            break;
        }
        // LAPACK's eps, the unit roundoff (half numeric_limits' epsilon).
        if (bound < 0) bound = norm->value() * (std::numeric_limits<R>::epsilon() / 2) * std::sqrt(R(n));
        std::vector<T> x, rs;
        if (!simulated) x = host_copy(X), rs = host_copy(Rm);
        const Residual<R> now = residual(x, rs, n, bound);
        if (now.refined) {
            iter = krylov ? applied : step;
            return 0;
        }
        if (step == max_iterations) {
            reason = -(max_iterations + 1);
            break;
        }
        if (krylov) {
            // Each column's dx by GMRES, at most max_iterations applications of M, to a
            // reduction of 1e-6: the next step's test then passes, or one more step's.
            constexpr R reduction = R(1e-6);
            if (!M) M.emplace(s, A, SA, a);
            const auto apply = [&](const std::vector<T>& v, bool product, std::vector<T>& z) {
                M->apply(v, product, z);
            };
            std::vector<T> column(static_cast<size_t>(n)), dx;
            for (int64_t j = 0; j < nrhs; ++j) {
                std::copy_n(rs.begin() + j * n, n, column.begin());
                applied += gmres(apply, column, reduction, max_iterations, dx) + 1;
                std::transform(dx.begin(), dx.end(), x.begin() + j * n, x.begin() + j * n, std::plus<T>());
            }
            Matrix<T>(X).from_lapack(x.data(), std::max<int64_t>(n, 1));  // X's tiles, through a handle on them
            continue;
        }
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
