// symm, hemm, syr2k and her2k against the BLAS, every side, triangle and op, on sizes that
// are and are not multiples of the tile size; the other triangle of the output untouched.
#include "common.hpp"

namespace grain::test {
namespace {

using testing::gemm_residual;
using testing::minus;
using testing::norm;

template <typename T>
class Blas3 : public ::testing::Test {};
TYPED_TEST_SUITE(Blas3, Precisions);

// The CPU kernels' gemm with one column of C (a solve's or a refinement's product with
// one right-hand side), which calls gemv: every op of A and B, padded leading dimensions,
// against the definition; k = 0 still scales C by beta.
TYPED_TEST(Blas3, GemmOfOneColumnIsTheProduct) {
    using T = TypeParam;
    const auto op = [](Op o, T v) { return o == Op::ConjTrans ? detail::conj(v) : v; };
    for (Op ta : {Op::NoTrans, Op::Trans, Op::ConjTrans})
        for (Op tb : {Op::NoTrans, Op::Trans, Op::ConjTrans})
            for (auto [m, k] : {std::pair<int, int>{1, 1}, {7, 35}, {35, 7}, {20, 0}}) {
                SCOPED_TRACE(::testing::Message() << "ta=" << char(ta) << " tb=" << char(tb) << " m=" << m
                                                  << " k=" << k);
                const int ar = ta == Op::NoTrans ? m : k, ac = ta == Op::NoTrans ? k : m;
                const int br = tb == Op::NoTrans ? k : 1, bc = tb == Op::NoTrans ? 1 : k;
                const Array<T> A = random_array<T>(std::max(ar, 1) + 3, std::max(ac, 1), Kind::General, rng());
                const Array<T> B = random_array<T>(std::max(br, 1) + 2, std::max(bc, 1), Kind::General, rng());
                const Array<T> C0 = random_array<T>(m, 1, Kind::General, rng());
                const T alpha = T(1.5), beta = T(-0.5);
                Array<T> C = C0, ref = C0;
                blas::gemm(ta, tb, m, 1, k, alpha, A.data(), A.ld(), B.data(), B.ld(), beta, C.data(), C.ld());
                for (int i = 0; i < m; ++i) {
                    T sum = 0;
                    for (int l = 0; l < k; ++l)
                        sum += op(ta, ta == Op::NoTrans ? A(i, l) : A(l, i)) *
                               op(tb, tb == Op::NoTrans ? B(l, 0) : B(0, l));
                    ref(i, 0) = alpha * sum + beta * C0(i, 0);
                }
                EXPECT_LT(norm('M', minus(C, ref)), 50 * std::numeric_limits<real_t<T>>::epsilon() * (k + 1));
            }
}

TYPED_TEST(Blas3, SymmAndHemm) {
    using T = TypeParam;
    const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {7, 20}, {35, 17}, {48, 48}};
    for (bool hermitian : {false, true})
        for (auto [m, n] : shapes)
            for (Side side : {Side::Left, Side::Right})
                for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
                    SCOPED_TRACE(::testing::Message() << (hermitian ? "hemm" : "symm") << " m=" << m << " n=" << n
                                                      << " side=" << char(side) << " uplo=" << char(uplo));
                    const int64_t order = side == Side::Left ? m : n;
                    // The other triangle holds what no routine may read.
                    Array<T> A = random_array<T>(order, order, Kind::General, rng());
                    for (int64_t j = 0; j < order; ++j)
                        for (int64_t i = 0; i < order; ++i)
                            if (uplo == Uplo::Lower ? i < j : i > j) A(i, j) = T(1e3);
                    const Array<T> B = random_array<T>(m, n, Kind::General, rng());
                    const Array<T> C0 = random_array<T>(m, n, Kind::General, rng());
                    Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales()), tC = tiles_of(C0, scales());
                    const T alpha = T(1.5), beta = T(-0.5);
                    Array<T> ref = C0;
                    if (hermitian) {
                        ASSERT_EQ(hemm(side, uplo, alpha, tA, tB, beta, tC), 0);
                        blas::hemm(side, uplo, int(m), int(n), alpha, A.data(), A.ld(), B.data(), B.ld(), beta,
                                   ref.data(), ref.ld());
                    } else {
                        ASSERT_EQ(symm(side, uplo, alpha, tA, tB, beta, tC), 0);
                        blas::symm(side, uplo, int(m), int(n), alpha, A.data(), A.ld(), B.data(), B.ld(), beta,
                                   ref.data(), ref.ld());
                    }
                    EXPECT_LT(gemm_residual(double(norm('M', minus(to_array(tC), ref))), alpha, 1.0, norm('M', B), beta,
                                            norm('M', C0), order),
                              10);
                }
}

TYPED_TEST(Blas3, Syr2kAndHer2k) {
    using T = TypeParam;
    const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {7, 3}, {35, 50}, {48, 17}, {33, 0}};
    for (bool hermitian : {false, true})
        for (auto [n, k] : shapes)
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (Op trans : {Op::NoTrans, hermitian ? detail::conj_trans<T>() : Op::Trans}) {
                    SCOPED_TRACE(::testing::Message() << (hermitian ? "her2k" : "syr2k") << " n=" << n << " k=" << k
                                                      << " uplo=" << char(uplo) << " trans=" << char(trans));
                    const bool na = trans == Op::NoTrans;
                    const Array<T> A = random_array<T>(na ? n : k, na ? k : n, Kind::General, rng());
                    const Array<T> B = random_array<T>(na ? n : k, na ? k : n, Kind::General, rng());
                    const Array<T> C0 = random_array<T>(n, n, hermitian ? Kind::Spd : Kind::General, rng());
                    Matrix<T> tA = tiles_of(A, scales()), tB = tiles_of(B, scales()), tC = tiles_of(C0, scales());
                    const T alpha = T(0.75);
                    const real_t<T> beta = real_t<T>(2);
                    Array<T> ref = C0;
                    if (hermitian) {
                        ASSERT_EQ(her2k(uplo, trans, alpha, tA, tB, beta, tC), 0);
                        blas::her2k(uplo, trans, int(n), int(k), alpha, A.data(), A.ld(), B.data(), B.ld(), beta,
                                    ref.data(), ref.ld());
                    } else {
                        ASSERT_EQ(syr2k(uplo, trans, alpha, tA, tB, T(beta), tC), 0);
                        blas::syr2k(uplo, trans, int(n), int(k), alpha, A.data(), A.ld(), B.data(), B.ld(), T(beta),
                                    ref.data(), ref.ld());
                    }
                    const Array<T> C = to_array(tC);
                    double error = 0;
                    for (int64_t j = 0; j < n; ++j)
                        for (int64_t i = 0; i < n; ++i) {
                            if (uplo == Uplo::Lower ? i < j : i > j) {
                                ASSERT_EQ(C(i, j), C0(i, j)) << "outside the triangle, at " << i << "," << j;
                            }
                            error = std::max(error, double(std::abs(C(i, j) - ref(i, j))));
                        }
                    EXPECT_LT(gemm_residual(error, T(2) * alpha, norm('M', A), norm('M', B), T(beta), norm('M', C0), k),
                              10);
                }
}

}  // namespace
}  // namespace grain::test
