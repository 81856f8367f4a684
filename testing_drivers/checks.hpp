#pragma once
// Test matrices and residual checks (formulas of design.md), shared by grain_testing
// and the test suite so that both judge results the same way.
#include <grain/grain.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "src/base/page_memory.hpp"
#include "src/base/simulation.hpp"
#include "src/kernels/blas.hpp"

namespace grain::testing {

// The elements of an m x n array of T, checked: the BLAS and LAPACK calls take each
// dimension as an int, and the array's bytes must fit in a size_t. std::length_error
// otherwise (an unchecked rows * cols can wrap to a small count that is then written past).
template <typename T>
size_t array_elements(int64_t rows, int64_t cols) {
    if (rows < 0 || cols < 0 || rows > std::numeric_limits<int>::max() || cols > std::numeric_limits<int>::max())
        throw std::length_error("array of " + std::to_string(rows) + " x " + std::to_string(cols) +
                                ": each dimension must be in [0, " +
                                std::to_string(std::numeric_limits<int>::max()) + "]");
    size_t elements = 0, bytes = 0;
    if (__builtin_mul_overflow(size_t(rows), size_t(cols), &elements) ||
        __builtin_mul_overflow(elements, sizeof(T), &bytes))
        throw std::length_error("array of " + std::to_string(rows) + " x " + std::to_string(cols) +
                                ": its size overflows");
    return elements;
}

// Where StarPU simulates the machine, no kernel runs and no check can: arrays keep their
// shape and no elements, so that a simulated run allocates nothing the size of its
// matrices (n = 98304 on a small machine).
constexpr bool holds_elements = !grain::detail::simulated;

// Simulated: an address range of `bytes` that no other array has and nothing reads, so
// that grain can view an array in place and tell arrays apart (its overlap checks).
inline uintptr_t simulated_range(size_t bytes) {
    static std::atomic<uintptr_t> next{uintptr_t(1) << 44};
    return next.fetch_add((bytes / 4096 + 2) * 4096);
}

// Runs f(t, threads) on each of `threads` threads, one per core, or on this thread alone
// for less than `elements` worth it: the driver's arrays are up to 18 GiB (n = 49152), and
// one thread touches new pages too slowly for a short loan on a GPU machine
// (doc/results/2026-11-28-h200-loan.md).
template <typename F>
void on_threads(size_t elements, F&& f) {
    const size_t threads = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), elements >> 20));
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back([&f, t, threads] { f(t, threads); });
    f(size_t(0), threads);
    for (std::thread& thread : pool) thread.join();
}

// Elements [begin, end) of the t-th of `threads` equal chunks of `count`.
struct Chunk {
    size_t begin, end;
    Chunk(size_t count, size_t t, size_t threads)
        : begin(count / threads * t + std::min(t, count % threads)),
          end(begin + count / threads + (t < count % threads ? 1 : 0)) {}
};

// Memory as an HPC application would allocate a large matrix (src/base/page_memory.hpp),
// its elements left as they are: Array writes them from several threads (on_threads).
template <typename T>
struct PageAligned {
    using value_type = T;
    PageAligned() = default;
    template <typename U>
    PageAligned(const PageAligned<U>&) {}
    T* allocate(std::size_t count) {
        void* p = grain::detail::allocate_pages(count * sizeof(T));
        if (!p) throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t) { std::free(p); }
    template <typename U>
    void construct(U*) noexcept {  // scalars: any bytes are a value, written next
        static_assert(std::is_trivially_destructible_v<U> && std::is_trivially_copyable_v<U>);
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
    template <typename U>
    bool operator==(const PageAligned<U>&) const { return true; }
    template <typename U>
    bool operator!=(const PageAligned<U>&) const { return false; }
};

template <typename T>
struct Array {  // a column-major m x n array
    int64_t m = 0, n = 0;
    std::vector<T, PageAligned<T>> a;
    uintptr_t simulated = 0;  // simulated builds: where the array "is"
    Array() = default;
    Array(int64_t rows, int64_t cols)  // zeros
        : m(rows), n(cols), a(holds_elements ? array_elements<T>(rows, cols) : 0),
          simulated(holds_elements ? 0 : simulated_range(array_elements<T>(rows, cols) * sizeof(T))) {
        copy_in(nullptr);
    }
    // A copy is another array: simulated, another range.
    Array(const Array& x)
        : m(x.m), n(x.n), a(x.a.size()),
          simulated(holds_elements ? 0 : simulated_range(array_elements<T>(x.m, x.n) * sizeof(T))) {
        copy_in(x.a.data());
    }
    Array& operator=(const Array& x) {
        if (this != &x) *this = Array(x);
        return *this;
    }
    Array(Array&&) noexcept = default;
    Array& operator=(Array&&) noexcept = default;
    T* data() { return holds_elements ? a.data() : reinterpret_cast<T*>(simulated); }
    const T* data() const { return const_cast<Array*>(this)->data(); }
    int ld() const { return int(std::max<int64_t>(1, m)); }
    T& operator()(int64_t i, int64_t j) { return a[size_t(i + j * m)]; }
    T operator()(int64_t i, int64_t j) const { return a[size_t(i + j * m)]; }

private:
    void copy_in(const T* from) {  // or zeros
        if (a.empty()) return;  // no null pointer to memcpy / memset, even for 0 bytes
        on_threads(a.size(), [&](size_t t, size_t threads) {
            const Chunk c(a.size(), t, threads);
            if (from)
                std::memcpy(static_cast<void*>(a.data() + c.begin), from + c.begin, (c.end - c.begin) * sizeof(T));
            else
                std::memset(static_cast<void*>(a.data() + c.begin), 0, (c.end - c.begin) * sizeof(T));
        });
    }
};

enum class Kind { General, Spd, DiagonallyDominant, LowerTriangular };

// A small, fast, seeded generator (splitmix64): test matrices of several GiB are
// generated in a fraction of the time std::mt19937 takes.
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    double uniform() {  // in [-0.5, 0.5)
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        return double(z >> 11) * 0x1.0p-53 - 0.5;
    }
    // As if uniform() had been called `draws` times (splitmix64 counts).
    void skip(uint64_t draws) { state_ += draws * 0x9e3779b97f4a7c15ULL; }

private:
    uint64_t state_;
};

using grain::detail::real_t;

// Uniform in [-0.5, 0.5), in each part of a complex number.
template <typename T>
T random_scalar(Random& rng) {
    if constexpr (grain::detail::scalar_traits<T>::is_complex) {
        const auto re = real_t<T>(rng.uniform());
        return T(re, real_t<T>(rng.uniform()));
    } else {
        return T(rng.uniform());
    }
}

// Kind::Spd is Hermitian positive definite in complex precisions: its off-diagonal
// imaginary parts are not zero.
template <typename T>
Array<T> random_array(int64_t m, int64_t n, Kind kind, Random& rng) {
    Array<T> x(m, n);
    if (!holds_elements) return x;
    // The elements in order, as one thread drawing them one by one would: each chunk's
    // generator skips the draws of the elements before it.
    constexpr uint64_t draws = grain::detail::scalar_traits<T>::is_complex ? 2 : 1;
    on_threads(x.a.size(), [&](size_t t, size_t threads) {
        const Chunk c(x.a.size(), t, threads);
        Random r = rng;
        r.skip(c.begin * draws);
        for (size_t k = c.begin; k < c.end; ++k) x.a[k] = random_scalar<T>(r);
    });
    rng.skip(x.a.size() * draws);
    const T shift = T(real_t<T>(std::max(m, n)));
    if (kind == Kind::Spd) {  // mirror the lower triangle, by blocks to stay in cache
        const int64_t b = 64;  // column blocks dealt round-robin: each writes its own columns
        on_threads(x.a.size(), [&](size_t t, size_t threads) {
            for (int64_t jb = int64_t(t) * b; jb < n; jb += int64_t(threads) * b)
                for (int64_t ib = 0; ib <= jb; ib += b)
                    for (int64_t j = jb; j < std::min(jb + b, n); ++j)
                        for (int64_t i = ib; i < std::min({ib + b, j, m}); ++i) x(i, j) = grain::detail::conj(x(j, i));
        });
        for (int64_t i = 0; i < std::min(m, n); ++i) x(i, i) = T(std::real(x(i, i)));
    }
    if (kind == Kind::LowerTriangular)
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < j; ++i) x(i, j) = 0;
    if (kind != Kind::General)
        for (int64_t i = 0; i < std::min(m, n); ++i) x(i, i) += shift;
    return x;
}

template <typename T>
grain::Matrix<T> tiles_of(const Array<T>& x, const std::vector<int>& scales) {
    grain::Matrix<T> A(x.m, x.n, scales);
    A.from_lapack(x.data(), x.ld());
    return A;
}

template <typename T>
grain::Matrix<T> tiles_of(const Array<T>& x, int nb) {
    return tiles_of(x, std::vector<int>{nb});
}

template <typename T>
real_t<T> norm(char which, const Array<T>& x) {
    return x.m == 0 || x.n == 0 ? real_t<T>(0) : blas::lange(which, int(x.m), int(x.n), x.data(), x.ld());
}

template <typename T>
Array<T> minus(const Array<T>& x, const Array<T>& y) {
    Array<T> r = x;
    for (size_t i = 0; i < r.a.size(); ++i) r.a[i] -= y.a[i];
    return r;
}

// ||op(A) X - alpha B||_inf / (||A||_inf ||X||_inf N eps)
template <typename T>
double solve_residual(Side side, Op trans, const Array<T>& A, const Array<T>& X, T alpha, const Array<T>& B) {
    Array<T> R = B;
    for (T& v : R.a) v *= alpha;
    const int m = int(X.m), n = int(X.n), order = side == Side::Left ? m : n;
    if (side == Side::Left)
        blas::gemm(trans, Op::NoTrans, m, n, m, T(1), A.data(), A.ld(), X.data(), X.ld(), T(-1), R.data(), R.ld());
    else
        blas::gemm(Op::NoTrans, trans, m, n, n, T(1), X.data(), X.ld(), A.data(), A.ld(), T(-1), R.data(), R.ld());
    const double eps = std::numeric_limits<real_t<T>>::epsilon();
    const double denominator = double(norm('I', A)) * double(norm('I', X)) * order * eps;
    return denominator > 0 ? double(norm('I', R)) / denominator : double(norm('I', R));
}

// The uplo triangle of x as a full matrix: the other triangle zero, and a unit diagonal
// where `unit` (a triangular matrix), or the triangle's adjoint (`hermitian`).
template <typename T>
Array<T> from_triangle(const Array<T>& x, Uplo uplo, bool hermitian, bool unit = false) {
    Array<T> full(x.m, x.n);
    for (int64_t j = 0; j < x.n; ++j)
        for (int64_t i = 0; i < x.m; ++i) {
            const bool inside = uplo == Uplo::Lower ? i >= j : i <= j;
            if (i == j)
                full(i, j) = unit ? T(1) : hermitian ? T(std::real(x(i, j))) : x(i, j);
            else if (inside)
                full(i, j) = x(i, j);
            else
                full(i, j) = hermitian ? grain::detail::conj(x(j, i)) : T(0);
        }
    return full;
}

// ||A X - I||_1 / (||A||_1 ||X||_1 N eps), X the computed inverse of A (LAPACK's dpot03,
// dtrt01 and dget03).
template <typename T>
double inverse_residual(const Array<T>& A, const Array<T>& X) {
    const int n = int(A.n);
    Array<T> R(n, n);
    for (int64_t i = 0; i < n; ++i) R(i, i) = T(-1);
    if (n > 0) blas::gemm(Op::NoTrans, Op::NoTrans, n, n, n, T(1), A.data(), A.ld(), X.data(), X.ld(), T(1), R.data(), R.ld());
    const double eps = std::numeric_limits<real_t<T>>::epsilon();
    const double denominator = double(norm('1', A)) * double(norm('1', X)) * std::max(n, 1) * eps;
    return denominator > 0 ? double(norm('1', R)) / denominator : double(norm('1', R));
}

// ||A - F||_1 / (||A||_1 N eps), F the product of the computed factors
template <typename T>
double factor_residual(const Array<T>& A, Array<T> F) {
    const double eps = std::numeric_limits<real_t<T>>::epsilon();
    const double denominator = double(norm('1', A)) * std::max(A.m, A.n) * eps;
    for (size_t i = 0; i < F.a.size(); ++i) F.a[i] -= A.a[i];  // in place: the arrays can be large
    return double(norm('1', F)) / denominator;
}

// A QR's or an LQ's (`lq`) residuals, LAPACK's dqrt02 and dlqt02: the larger of
// ||A - Q1 R||_1 / (||A||_1 max(m, n) eps) and ||I - Q1^H Q1||_1 / (m eps) (QR: Q1 the first
// k = min(m, n) columns of Q, R the upper trapezoid of the factored array), or of
// ||A - L Q1||_1 / (||A||_1 max(m, n) eps) and ||I - Q1 Q1^H||_1 / (n eps) (LQ: Q1 the
// first k rows of Q, L the lower trapezoid).
template <typename T>
double qr_residual(bool lq, const Array<T>& A, const Array<T>& factored, const Array<T>& Q1) {
    const int m = int(A.m), n = int(A.n), k = std::min(m, n);
    Array<T> triangle(lq ? m : k, lq ? k : n);  // R (k x n) or L (m x k)
    for (int64_t j = 0; j < triangle.n; ++j)
        for (int64_t i = 0; i < triangle.m; ++i)
            if (lq ? i >= j : i <= j) triangle(i, j) = factored(i, j);
    Array<T> product(m, n);
    if (k > 0) {
        if (lq)
            blas::gemm(Op::NoTrans, Op::NoTrans, m, n, k, T(1), triangle.data(), triangle.ld(), Q1.data(), Q1.ld(), T(0),
                       product.data(), product.ld());
        else
            blas::gemm(Op::NoTrans, Op::NoTrans, m, n, k, T(1), Q1.data(), Q1.ld(), triangle.data(), triangle.ld(), T(0),
                       product.data(), product.ld());
    }
    const double factors = A.a.empty() ? 0 : factor_residual(A, std::move(product));
    Array<T> gram(k, k);
    for (int64_t i = 0; i < k; ++i) gram(i, i) = T(-1);
    const Op ct = grain::detail::conj_trans<T>();
    const int order = lq ? n : m;
    if (k > 0) {
        if (lq)
            blas::gemm(Op::NoTrans, ct, k, k, n, T(1), Q1.data(), Q1.ld(), Q1.data(), Q1.ld(), T(1), gram.data(), gram.ld());
        else
            blas::gemm(ct, Op::NoTrans, k, k, m, T(1), Q1.data(), Q1.ld(), Q1.data(), Q1.ld(), T(1), gram.data(), gram.ld());
    }
    const double eps = std::numeric_limits<real_t<T>>::epsilon();
    return std::max(factors, double(norm('1', gram)) / (std::max(order, 1) * eps));
}

// L L^H (Lower) or U^H U (Upper) from the factored array, with one trmm (n^3 flops)
template <typename T>
Array<T> cholesky_product(Uplo uplo, const Array<T>& factored) {
    const int64_t n = factored.n;
    Array<T> P(n, n);  // the factor, alone in its triangle
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            if (uplo == Uplo::Lower ? i >= j : i <= j) P(i, j) = factored(i, j);
    if (n > 0) {
        const Side side = uplo == Uplo::Lower ? Side::Right : Side::Left;  // P L^H or U^H P
        blas::trmm(side, uplo, grain::detail::conj_trans<T>(), Diag::NonUnit, int(n), int(n), T(1), factored.data(), factored.ld(),
                   P.data(), P.ld());
    }
    return P;
}

// L U from the factored m x n array (L unit lower m x mn, U upper mn x n)
template <typename T>
Array<T> lu_product(const Array<T>& factored) {
    const int64_t m = factored.m, n = factored.n, mn = std::min(m, n);
    Array<T> P(m, n);
    if (m == n) {  // P = U, then P = L P with one trmm (n^3 flops)
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i <= j; ++i) P(i, j) = factored(i, j);
        if (n > 0)
            blas::trmm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, int(n), int(n), T(1), factored.data(),
                       factored.ld(), P.data(), P.ld());
        return P;
    }
    Array<T> L(m, mn), U(mn, n);
    for (int64_t j = 0; j < mn; ++j)
        for (int64_t i = j; i < m; ++i) L(i, j) = i == j ? T(1) : factored(i, j);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= std::min(j, mn - 1); ++i) U(i, j) = factored(i, j);
    if (mn > 0)
        blas::gemm(Op::NoTrans, Op::NoTrans, int(m), int(n), int(mn), T(1), L.data(), L.ld(), U.data(), U.ld(), T(0),
                   P.data(), P.ld());
    return P;
}

// The residual of a factorization with one random vector instead of the whole product,
// for sizes where an O(n^3) check would cost minutes (the driver's, from
// vector_check_from): ||A x - F x||_1 / (||A||_1 ||x||_1 N eps), where F x applies the
// computed factors one after the other (two triangular products), O(n^2).
// Factors: Cholesky's (L L^H for Lower, U^H U for Upper), or LU's (unit L, U) when lu.
// Square matrices only.
enum class Factors { CholeskyLower, CholeskyUpper, Lu };

template <typename T>
double factor_residual_by_vector(const Array<T>& A, const Array<T>& factored, Factors factors, Random rng) {
    const int n = int(A.n);
    if (A.m != A.n || factored.m != A.m || factored.n != A.n)
        throw std::invalid_argument("factor_residual_by_vector: square matrices only");
    Array<T> x(n, 1), ax(n, 1);
    for (int64_t i = 0; i < n; ++i) x(i, 0) = random_scalar<T>(rng);
    Array<T> fx = x;
    if (n > 0) {
        blas::gemm(Op::NoTrans, Op::NoTrans, n, 1, n, T(1), A.data(), A.ld(), x.data(), x.ld(), T(0), ax.data(), ax.ld());
        // The factor applied last first: L (L^H x), U^H (U x), L (U x).
        const Op ct = grain::detail::conj_trans<T>();
        const auto apply = [&](Uplo uplo, Op op, Diag diag) {
            blas::trmm(Side::Left, uplo, op, diag, n, 1, T(1), factored.data(), factored.ld(), fx.data(), fx.ld());
        };
        if (factors == Factors::CholeskyLower) apply(Uplo::Lower, ct, Diag::NonUnit), apply(Uplo::Lower, Op::NoTrans, Diag::NonUnit);
        if (factors == Factors::CholeskyUpper) apply(Uplo::Upper, Op::NoTrans, Diag::NonUnit), apply(Uplo::Upper, ct, Diag::NonUnit);
        if (factors == Factors::Lu) apply(Uplo::Upper, Op::NoTrans, Diag::NonUnit), apply(Uplo::Lower, Op::NoTrans, Diag::Unit);
    }
    const double eps = std::numeric_limits<real_t<T>>::epsilon();
    const double denominator = double(norm('1', A)) * double(norm('1', x)) * std::max<int64_t>(1, n) * eps;
    const double error = double(norm('1', minus(ax, fx)));
    return denominator > 0 ? error / denominator : error;
}

// gemm's check with one random vector, O(n^2): ||C x - (alpha A (B x) + beta C0 x)||_inf /
// ((|alpha| ||A||_inf ||B||_inf + |beta| ||C0||_inf) ||x||_inf K eps), C = alpha A B + beta C0.
template <typename T>
double gemm_residual_by_vector(const Array<T>& A, const Array<T>& B, const Array<T>& C0, const Array<T>& C, T alpha,
                               T beta, Random rng) {
    const int m = int(C.m), n = int(C.n), k = int(A.n);
    Array<T> x(n, 1), bx(k, 1), expected(m, 1), cx(m, 1);
    for (int64_t i = 0; i < n; ++i) x(i, 0) = random_scalar<T>(rng);
    if (m > 0 && n > 0) {
        if (k > 0)
            blas::gemm(Op::NoTrans, Op::NoTrans, k, 1, n, T(1), B.data(), B.ld(), x.data(), x.ld(), T(0), bx.data(), bx.ld());
        blas::gemm(Op::NoTrans, Op::NoTrans, m, 1, n, beta, C0.data(), C0.ld(), x.data(), x.ld(), T(0),
                   expected.data(), expected.ld());
        if (k > 0)
            blas::gemm(Op::NoTrans, Op::NoTrans, m, 1, k, alpha, A.data(), A.ld(), bx.data(), bx.ld(), T(1),
                       expected.data(), expected.ld());
        blas::gemm(Op::NoTrans, Op::NoTrans, m, 1, n, T(1), C.data(), C.ld(), x.data(), x.ld(), T(0), cx.data(), cx.ld());
    }
    const double eps = std::numeric_limits<real_t<T>>::epsilon();
    const double scale = (double(std::abs(alpha)) * double(norm('I', A)) * double(norm('I', B)) +
                          double(std::abs(beta)) * double(norm('I', C0))) *
                         double(norm('I', x)) * double(std::max(1, k)) * eps;
    const double error = double(norm('I', minus(cx, expected)));
    return scale > 0 ? error / scale : error;
}

// ||C - Cref||_max / ((|alpha| max(||A||, ||B||) + |beta| ||C0||) K eps), norms max-norms
template <typename T>
double gemm_residual(double error, T alpha, double a_norm, double b_norm, T beta, double c0_norm, int64_t k) {
    const double eps = std::numeric_limits<real_t<T>>::epsilon();
    const double scale = (double(std::abs(alpha)) * std::max(a_norm, b_norm) + double(std::abs(beta)) * c0_norm) *
                         double(std::max<int64_t>(1, k)) * eps;
    return scale > 0 ? error / scale : error;
}

}  // namespace grain::testing
