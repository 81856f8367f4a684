#pragma once
// Shared by the suites: precisions, a fixed-seed generator, and LAPACK-layout helpers.
#include <gtest/gtest.h>

#include <grain/grain.hpp>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#ifdef GRAIN_USE_CUDA
#include <cuda_runtime.h>
#endif

#include "testing_drivers/checks.hpp"

namespace grain::test {

using grain::testing::Array;
using grain::testing::Kind;
using grain::testing::random_array;
using grain::testing::tiles_of;

using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
using grain::detail::real_t;

// Runs f, expects grain::invalid_argument about `argument`.
template <typename F>
void expect_invalid(const std::string& argument, F f) {
    try {
        f();
        ADD_FAILURE() << "no exception; expected one about " << argument;
    } catch (const grain::invalid_argument& e) {
        EXPECT_EQ(e.argument(), argument) << e.what();
        EXPECT_NE(std::string(e.what()).find(argument), std::string::npos) << e.what();
    }
}

// The suite's Runtime (tests/main.cpp).
grain::Runtime& test_runtime();

inline testing::Random& rng() {
    static testing::Random generator(2026);
    return generator;
}

template <typename T>
Array<T> to_array(const grain::Matrix<T>& A) {
    Array<T> x(A.m(), A.n());
    A.to_lapack(x.data(), x.ld());
    return x;
}

// Tile size for tests that rely on the tile geometry: small, so that small
// matrices have many tiles.
constexpr int nb = 16;

// The ladder of tile scales most tests use: GRAIN_TEST_SCALES (e.g. "32,16,8"), else
// {nb}. ctest runs the suites under several ladders and split policies (GRAIN_SPLIT).
inline const std::vector<int>& scales() {
    static const std::vector<int> ladder = [] {
        std::vector<int> values;
        const char* text = std::getenv("GRAIN_TEST_SCALES");
        for (const char* p = text ? text : ""; *p;) {
            char* end = nullptr;
            values.push_back(int(std::strtol(p, &end, 10)));
            p = *end == ',' ? end + 1 : end;
            if (end == p && *p) break;
        }
        return values.empty() ? std::vector<int>{nb} : values;
    }();
    return ladder;
}

// GPUs this process can use (0 in a build without CUDA kernels).
inline int visible_gpus() {
#ifdef GRAIN_USE_CUDA
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
#else
    return 0;
#endif
}

// Ill-conditioned test matrices, built in double, then rounded to T.
// Condition numbers for T: eps^(-1/2) and eps^(-3/4), about 1e8 and 1e12 in double,
// 4e3 and 3e5 in float (a float matrix of condition 1e8 is singular to working precision).
template <typename T>
std::vector<double> hard_conditions() {
    const double eps = std::numeric_limits<real_t<T>>::epsilon();
    return {std::pow(eps, -0.5), std::pow(eps, -0.75)};
}

// Q diag(d) Q^T with d log-spaced from 1 down to 1 / cond (its 2-norm condition number),
// or (`clustered`) half of d 1 and half 1 / cond,
// Q a product of three random Householder reflectors, applied on both sides. In complex
// precisions, then D (Q diag(d) Q^T) D^H with D a random unitary diagonal: Hermitian, the
// same condition, and imaginary parts everywhere off the diagonal.
template <typename T>
Array<T> spd_with_condition(int64_t n, double cond, testing::Random& random, bool clustered = false) {
    std::vector<double> a(size_t(n * n), 0.0);
    for (int64_t i = 0; i < n; ++i)
        a[size_t(i + i * n)] = n == 1        ? 1.0
                               : clustered ? (2 * i < n ? 1.0 : 1 / cond)
                                           : std::pow(cond, -double(i) / double(n - 1));
    std::vector<double> v(static_cast<size_t>(n)), w(static_cast<size_t>(n));
    for (int reflector = 0; reflector < 3; ++reflector) {
        double vv = 0;
        for (double& x : v) {
            x = random.uniform();
            vv += x * x;
        }
        // A <- H A H, H = I - 2 v v^T / (v^T v): w = A v, A -= 2/vv (v w^T + w v^T) - 4 (v^T w)/vv^2 v v^T
        double vw = 0;
        for (int64_t i = 0; i < n; ++i) {
            w[size_t(i)] = 0;
            for (int64_t j = 0; j < n; ++j) w[size_t(i)] += a[size_t(i + j * n)] * v[size_t(j)];
            vw += v[size_t(i)] * w[size_t(i)];
        }
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < n; ++i)
                a[size_t(i + j * n)] += -2 / vv * (v[size_t(i)] * w[size_t(j)] + w[size_t(i)] * v[size_t(j)]) +
                                        4 * vw / (vv * vv) * v[size_t(i)] * v[size_t(j)];
    }
    std::vector<T> phase(size_t(n), T(1));
    if constexpr (detail::scalar_traits<T>::is_complex)
        for (T& p : phase) p = std::polar(real_t<T>(1), real_t<T>(6.283185307179586 * random.uniform()));
    Array<T> A(n, n);
    for (int64_t j = 0; j < n; ++j)  // Hermitian to the last bit
        for (int64_t i = j; i < n; ++i) {
            A(i, j) = phase[size_t(i)] * T(real_t<T>(a[size_t(i + j * n)])) * detail::conj(phase[size_t(j)]);
            A(j, i) = detail::conj(A(i, j));
        }
    for (int64_t i = 0; i < n; ++i) A(i, i) = T(real_t<T>(a[size_t(i + i * n)]));
    return A;
}

// D1 B D2, B diagonally dominant by rows and columns with random off-diagonal entries,
// D1 and D2 diagonal with powers of ten spread over `decades`: LU without pivoting
// exists and is stable (scaling keeps it so), yet the condition number is about
// 10^decades, and the diagonal is nothing like a multiple of I.
template <typename T>
Array<T> scaled_dominant(int64_t n, double decades, testing::Random& random) {
    using Wide = std::conditional_t<detail::scalar_traits<T>::is_complex, std::complex<double>, double>;
    Array<T> A = testing::random_array<T>(n, n, Kind::General, random);
    std::vector<double> rows(size_t(n), 0.0), cols(size_t(n), 0.0), d1(static_cast<size_t>(n)), d2(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            if (i != j) rows[size_t(i)] += double(std::abs(A(i, j))), cols[size_t(j)] += double(std::abs(A(i, j)));
    for (int64_t i = 0; i < n; ++i) {
        const T sign = A(i, i) == T(0) ? T(1) : A(i, i) / std::abs(A(i, i));  // the phase, in complex precisions
        A(i, i) = sign * T(real_t<T>(std::max(rows[size_t(i)], cols[size_t(i)]) * (1.1 + random.uniform() + 0.5)));
        d1[size_t(i)] = std::pow(10.0, decades / 2 * random.uniform());  // each side spreads half
        d2[size_t(i)] = std::pow(10.0, decades / 2 * random.uniform());
    }
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) A(i, j) = T(d1[size_t(i)] * Wide(A(i, j)) * d2[size_t(j)]);
    return A;
}

// LU with partial pivoting: what tests/test_lu.cpp and the CUDA tests check.
// P A: the interchanges of ipiv (1-based, LAPACK's order) applied to A's rows.
template <typename T>
Array<T> permuted(const Array<T>& A, const std::vector<int>& ipiv) {
    Array<T> P = A;
    for (size_t i = 0; i < ipiv.size(); ++i)
        for (int64_t j = 0; j < A.n; ++j) std::swap(P(int64_t(i), j), P(int64_t(ipiv[i] - 1), j));
    return P;
}

// Whether step i of LAPACK's factorization `factored` had a near-tie: a candidate below
// the pivot within 1e-8 of it in magnitude, i.e. a multiplier |L(r, i)| of about 1.
template <typename T>
bool near_tie(const Array<T>& factored, int64_t i) {
    for (int64_t r = i + 1; r < factored.m; ++r)
        if (double(std::abs(factored(r, i))) > 1 - 1e-8) return true;
    return false;
}

// grain's pivots are LAPACKE's up to the first near-tie (after one, the two orders
// differ by rounding, and the residual decides).
template <typename T>
void expect_lapacke_pivots(const Array<T>& A, const std::vector<int>& ipiv) {
    Array<T> lapacke = A;
    std::vector<lapack_int> expected(ipiv.size());
    blas::getrf(int(A.m), int(A.n), lapacke.data(), lapacke.ld(), expected.data());
    for (size_t i = 0; i < ipiv.size(); ++i) {
        if (ipiv[i] == expected[i]) continue;
        EXPECT_TRUE(near_tie(lapacke, int64_t(i))) << "pivot " << i << ": grain " << ipiv[i] << ", LAPACKE "
                                                   << expected[i] << ", not a near-tie";
        return;
    }
}

}  // namespace grain::test
