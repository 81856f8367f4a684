// lange, lansy, lanhe and lantr in the four precisions, against LAPACKE's: every norm,
// shapes that are and are not multiples of the tile size, views, elements near overflow
// and underflow, NaN and infinity, empty matrices, the LAPACK-layout forms and their
// argument checks.
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common.hpp"
#include "src/starpu/codelets.hpp"

namespace grain::test {
namespace {

using testing::norm;

template <typename T>
class Norms : public ::testing::Test {};
TYPED_TEST_SUITE(Norms, Precisions);

const Norm norms[] = {Norm::Max, Norm::One, Norm::Inf, Norm::Frobenius};


// grain's norm against LAPACKE's, within the rounding of a sum of max(m, n) terms (and, for
// a norm that is itself subnormal, a few of the smallest subnormal's steps).
template <typename T>
void expect_lapacke_norms(const Array<T>& A, const Matrix<T>& tA) {
    using R = real_t<T>;
    const double unit = 4 * std::numeric_limits<R>::epsilon() * double(std::max<int64_t>({A.m, A.n, 1}));
    const double steps = 8 * double(std::numeric_limits<R>::denorm_min());
    for (Norm which : norms) {
        SCOPED_TRACE(::testing::Message() << "norm " << char(which));
        const double expected = double(norm(char(which), A));
        const double tiled = double(lange(which, tA));
        const double layout = double(lange(which, A.m, A.n, A.data(), A.ld()));
        EXPECT_NEAR(tiled, expected, unit * expected + steps);
        EXPECT_NEAR(layout, expected, unit * expected + steps);
    }
}

TYPED_TEST(Norms, AgreeWithLapacke) {
    using T = TypeParam;
    const std::tuple<int64_t, int64_t> shapes[] = {{1, 1}, {7, 5}, {16, 16}, {35, 20}, {48, 33}, {20, 67}, {1, 50}};
    for (auto [m, n] : shapes) {
        SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n);
        const Array<T> A = random_array<T>(m, n, Kind::General, rng());
        expect_lapacke_norms(A, tiles_of(A, scales()));
    }
}

TYPED_TEST(Norms, OfAView) {
    using T = TypeParam;
    const int64_t nb = scales().front();
    const Array<T> A = random_array<T>(3 * nb + 5, 4 * nb - 3, Kind::General, rng());
    const Matrix<T> tA = tiles_of(A, scales());
    // Tiles 1..3 x 2..3: from the second tile row and the third tile column, to the last
    // (partial) ones.
    const Matrix<T> view = tA.sub(1, 3, 2, 3);
    Array<T> part(view.m(), view.n());
    for (int64_t j = 0; j < part.n; ++j)
        for (int64_t i = 0; i < part.m; ++i) part(i, j) = A(i + tA.nb(), j + 2 * tA.nb());
    expect_lapacke_norms(part, view);
}

// Elements whose squares overflow, or underflow to zero: the Frobenius norm is scaled as
// LAPACK's lassq scales it.
TYPED_TEST(Norms, NearOverflowAndUnderflow) {
    using T = TypeParam;
    using R = real_t<T>;
    for (R scale : {std::numeric_limits<R>::max() / 64, std::numeric_limits<R>::min() * 64,
                    std::numeric_limits<R>::denorm_min() * 1024}) {
        SCOPED_TRACE(::testing::Message() << "scale " << scale);
        Array<T> A = random_array<T>(37, 29, Kind::General, rng());
        for (int64_t j = 0; j < A.n; ++j)
            for (int64_t i = 0; i < A.m; ++i) A(i, j) *= scale;
        const double frobenius = double(lange(Norm::Frobenius, tiles_of(A, scales())));
        EXPECT_TRUE(std::isfinite(frobenius) && frobenius > 0) << frobenius;
        expect_lapacke_norms(A, tiles_of(A, scales()));
    }
}

TYPED_TEST(Norms, NanAndInfinity) {
    using T = TypeParam;
    using R = real_t<T>;
    const R nan = std::numeric_limits<R>::quiet_NaN(), inf = std::numeric_limits<R>::infinity();
    for (auto [i, j] : {std::pair<int64_t, int64_t>{0, 0}, {20, 3}, {34, 40}}) {
        Array<T> A = random_array<T>(35, 41, Kind::General, rng());
        A(i, j) = T(inf);
        for (Norm which : norms) EXPECT_EQ(double(lange(which, tiles_of(A, scales()))), double(inf)) << char(which);
        A(34 - i, 40 - j) = T(nan);  // NaN wins over infinity, wherever each is
        for (Norm which : norms) EXPECT_TRUE(std::isnan(lange(which, tiles_of(A, scales())))) << char(which);
    }
}

TYPED_TEST(Norms, EmptyIsZero) {
    using T = TypeParam;
    for (auto [m, n] : {std::pair<int64_t, int64_t>{0, 5}, {5, 0}, {0, 0}}) {
        const Array<T> A(m, n);
        for (Norm which : norms) {
            EXPECT_EQ(double(lange(which, tiles_of(A, scales()))), 0.0);
            EXPECT_EQ(double(lange(which, m, n, A.data(), std::max<int64_t>(m, 1))), 0.0);
        }
    }
}

TYPED_TEST(Norms, RefusesBadArguments) {
    using T = TypeParam;
    const Array<T> A = random_array<T>(9, 9, Kind::General, rng());
    expect_invalid("norm", [&] { lange(Norm('X'), tiles_of(A, scales())); });
    expect_invalid("lda", [&] { lange(Norm::Max, 9, 9, A.data(), 8); });
    expect_invalid("m", [&] { lange(Norm::Max, -1, 9, A.data(), 9); });
    // LAPACK's other letters for the same norms.
    EXPECT_EQ(lange(Norm('1'), 9, 9, A.data(), 9), lange(Norm::One, 9, 9, A.data(), 9));
    EXPECT_EQ(lange(Norm('e'), 9, 9, A.data(), 9), lange(Norm::Frobenius, 9, 9, A.data(), 9));
}

// lansy, lanhe and lantr: which one, and its uplo and diag.
enum class Shape { Symmetric, Hermitian, Triangular };
struct Shaped {
    Shape shape;
    Uplo uplo;
    Diag diag;
};

std::vector<Shaped> all_shapes() {
    std::vector<Shaped> all;
    for (Uplo u : {Uplo::Upper, Uplo::Lower}) {
        all.push_back({Shape::Symmetric, u, Diag::NonUnit});
        all.push_back({Shape::Hermitian, u, Diag::NonUnit});
        for (Diag d : {Diag::NonUnit, Diag::Unit}) all.push_back({Shape::Triangular, u, d});
    }
    return all;
}

// Whether the routine reads element (i, j).
bool reads(const Shaped& s, int64_t i, int64_t j) {
    if (s.shape == Shape::Triangular && s.diag == Diag::Unit && i == j) return false;
    return s.uplo == Uplo::Upper ? i <= j : i >= j;
}

template <typename T>
double grain_norm(const Shaped& s, Norm which, const Matrix<T>& A) {
    switch (s.shape) {
        case Shape::Symmetric: return double(lansy(which, s.uplo, A));
        case Shape::Hermitian: return double(lanhe(which, s.uplo, A));
        case Shape::Triangular: return double(lantr(which, s.uplo, s.diag, A));
    }
    return 0;
}

template <typename T>
double layout_norm(const Shaped& s, Norm which, const Array<T>& A) {
    switch (s.shape) {
        case Shape::Symmetric: return double(lansy(which, s.uplo, A.n, A.data(), A.ld()));
        case Shape::Hermitian: return double(lanhe(which, s.uplo, A.n, A.data(), A.ld()));
        case Shape::Triangular: return double(lantr(which, s.uplo, s.diag, A.m, A.n, A.data(), A.ld()));
    }
    return 0;
}

// LAPACKE's _work form, which is Fortran's (LAPACKE_?lansy itself answers a NaN with its
// NaN check's code).
template <typename T>
double lapacke_norm(const Shaped& s, Norm which, const Array<T>& A) {
    const int m = int(A.m), n = int(A.n), ld = int(A.ld());
    switch (s.shape) {
        case Shape::Symmetric: return double(blas::lansy(char(which), s.uplo, n, A.data(), ld));
        case Shape::Hermitian: return double(blas::lanhe(char(which), s.uplo, n, A.data(), ld));
        case Shape::Triangular: return double(blas::lantr(char(which), s.uplo, s.diag, m, n, A.data(), ld));
    }
    return 0;
}

// Equal to LAPACKE's: exactly for 'M' (a largest element is an element) and for NaN and
// infinity, else within 1e-14 in double precision (as many rounding steps in the others).
template <typename T>
void expect_lapacke_shaped(const Shaped& s, const Array<T>& A, const Matrix<T>& tA) {
    const double tolerance = 45 * std::numeric_limits<real_t<T>>::epsilon();
    for (Norm which : norms) {
        SCOPED_TRACE(::testing::Message() << "norm " << char(which));
        const double expected = lapacke_norm(s, which, A);
        for (double value : {grain_norm(s, which, tA), layout_norm(s, which, A)}) {
            if (std::isnan(expected))
                EXPECT_TRUE(std::isnan(value)) << value;
            else if (which == Norm::Max || std::isinf(expected))
                EXPECT_EQ(value, expected);
            else
                EXPECT_NEAR(value, expected, tolerance * expected);
        }
    }
}

// A random A whose elements the routine does not read are NaN: reading one shows.
template <typename T>
Array<T> unread_nan(const Shaped& s, int64_t m, int64_t n) {
    Array<T> A = random_array<T>(m, n, Kind::General, rng());
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i)
            if (!reads(s, i, j)) A(i, j) = T(std::numeric_limits<real_t<T>>::quiet_NaN());
    return A;
}

std::string describe(const Shaped& s) {
    const char* names[] = {"lansy", "lanhe", "lantr"};
    return std::string(names[int(s.shape)]) + " uplo " + char(s.uplo) + " diag " + char(s.diag);
}

TYPED_TEST(Norms, SymmetricAndTriangularAgreeWithLapacke) {
    using T = TypeParam;
    const int64_t nb = scales().front();
    for (const Shaped& s : all_shapes()) {
        SCOPED_TRACE(describe(s));
        std::vector<std::pair<int64_t, int64_t>> sizes = {{1, 1}, {7, 7}, {2 * nb, 2 * nb}, {3 * nb + 5, 3 * nb + 5}};
        if (s.shape == Shape::Triangular) sizes.insert(sizes.end(), {{35, 20}, {20, 67}, {1, 9}, {9, 1}});
        for (auto [m, n] : sizes) {
            SCOPED_TRACE(::testing::Message() << "m=" << m << " n=" << n);
            const Array<T> A = unread_nan<T>(s, m, n);
            expect_lapacke_shaped(s, A, tiles_of(A, scales()));
        }
    }
}

// A view whose first tile is off A's diagonal tiles: its own diagonal tiles are the ones
// read in part.
TYPED_TEST(Norms, SymmetricAndTriangularOfAView) {
    using T = TypeParam;
    const int64_t nb = scales().front();
    for (const Shaped& s : all_shapes()) {
        SCOPED_TRACE(describe(s));
        const int64_t n = 4 * nb - 3;
        Array<T> A = random_array<T>(n, n, Kind::General, rng());
        const Matrix<T> view = tiles_of(A, scales()).sub(1, 3, 1, 3);
        Array<T> part(view.m(), view.n());
        for (int64_t j = 0; j < part.n; ++j)
            for (int64_t i = 0; i < part.m; ++i) part(i, j) = A(i + nb, j + nb);
        expect_lapacke_shaped(s, part, view);
    }
}

// Infinity, then NaN, in the elements read, on a diagonal tile and off it; in a Hermitian
// diagonal's imaginary part (not read), neither counts.
TYPED_TEST(Norms, SymmetricAndTriangularNanAndInfinity) {
    using T = TypeParam;
    using R = real_t<T>;
    const R nan = std::numeric_limits<R>::quiet_NaN(), inf = std::numeric_limits<R>::infinity();
    const int64_t n = 2 * scales().front() + 3;
    for (const Shaped& s : all_shapes()) {
        SCOPED_TRACE(describe(s));
        // The positions read among these: infinity at each, and NaN also at the next.
        std::vector<std::pair<int64_t, int64_t>> at;
        for (auto p : {std::pair<int64_t, int64_t>{1, 1}, {0, n - 1}, {n - 1, 0}, {n - 2, n - 1}, {n - 1, n - 2},
                       {3, 2}, {2, 3}, {n - 1, n - 1}})
            if (reads(s, p.first, p.second)) at.push_back(p);
        for (size_t k = 0; k + 1 < at.size(); ++k) {
            Array<T> A = unread_nan<T>(s, n, n);
            A(at[k].first, at[k].second) = T(inf);
            expect_lapacke_shaped(s, A, tiles_of(A, scales()));
            EXPECT_TRUE(std::isinf(grain_norm(s, Norm::One, tiles_of(A, scales()))));
            A(at[k + 1].first, at[k + 1].second) = T(nan);
            expect_lapacke_shaped(s, A, tiles_of(A, scales()));
            EXPECT_TRUE(std::isnan(grain_norm(s, Norm::Frobenius, tiles_of(A, scales()))));
        }
        if constexpr (detail::scalar_traits<T>::is_complex) {
            if (s.shape != Shape::Hermitian) continue;
            Array<T> A = unread_nan<T>(s, n, n);
            A(2, 2) = T(R(1), nan);
            expect_lapacke_shaped(s, A, tiles_of(A, scales()));
            EXPECT_FALSE(std::isnan(grain_norm(s, Norm::Max, tiles_of(A, scales()))));
        }
    }
}

TYPED_TEST(Norms, SymmetricAndTriangularEmptyAndBadArguments) {
    using T = TypeParam;
    const Array<T> A = random_array<T>(9, 9, Kind::General, rng());
    const Array<T> wide = random_array<T>(9, 12, Kind::General, rng());
    for (Norm which : norms) {
        EXPECT_EQ(double(lansy(which, Uplo::Upper, 0, A.data(), 1)), 0.0);
        EXPECT_EQ(double(lantr(which, Uplo::Lower, Diag::Unit, 0, 5, A.data(), 1)), 0.0);
        EXPECT_EQ(double(lantr(which, Uplo::Upper, Diag::Unit, 5, 0, A.data(), 5)), 0.0);
    }
    expect_invalid("uplo", [&] { lansy(Norm::Max, Uplo('X'), tiles_of(A, scales())); });
    expect_invalid("uplo", [&] { lanhe(Norm::Max, Uplo('X'), 9, A.data(), 9); });
    expect_invalid("diag", [&] { lantr(Norm::Max, Uplo::Upper, Diag('X'), tiles_of(A, scales())); });
    expect_invalid("norm", [&] { lantr(Norm('X'), Uplo::Upper, Diag::Unit, 9, 9, A.data(), 9); });
    expect_invalid("lda", [&] { lansy(Norm::Max, Uplo::Lower, 9, A.data(), 8); });
    expect_invalid("A.n", [&] { lansy(Norm::Max, Uplo::Lower, tiles_of(wide, scales())); });
    // Either case, and LAPACK's other letters.
    EXPECT_EQ(lantr(Norm('1'), Uplo('u'), Diag('n'), 9, 9, A.data(), 9),
              lantr(Norm::One, Uplo::Upper, Diag::NonUnit, 9, 9, A.data(), 9));
}

// The kernel table's row: the cores run it (no CUDA kernel), whole.
TYPED_TEST(Norms, KernelRunsOnCoresWhole) {
    using T = TypeParam;
    EXPECT_EQ(detail::codelet<T>(detail::Kernel::Lange)->cuda_funcs[0], nullptr);
    EXPECT_FALSE(detail::kernel_info(detail::Kernel::Lange).splits);
}

}  // namespace
}  // namespace grain::test
