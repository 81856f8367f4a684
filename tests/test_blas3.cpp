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
