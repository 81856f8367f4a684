// Asynchronous forms: submit now, wait later; requests are independent.
#include "common.hpp"
#include "src/starpu/matrix_access.hpp"

namespace grain::test {
namespace {

using testing::minus;
using testing::norm;
using testing::solve_residual;

TEST(Async, PotrfThenPotrsWithoutWaitInBetween) {
    const int64_t n = 83, nrhs = 4;
    const Array<double> A = random_array<double>(n, n, Kind::Spd, rng());
    const Array<double> B = random_array<double>(n, nrhs, Kind::General, rng());
    Matrix<double> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
    Request factor = potrf_async(Uplo::Lower, tA);
    Request solve = potrs_async(Uplo::Lower, tA, tB);  // ordered after potrf by the data
    EXPECT_EQ(solve.wait(), 0);
    EXPECT_EQ(factor.wait(), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(tB), 1.0, B), 60);
}

TEST(Async, GesvNopivPipelined) {
    const int64_t n = 50, nrhs = 3;
    const Array<float> A = random_array<float>(n, n, Kind::DiagonallyDominant, rng());
    const Array<float> B = random_array<float>(n, nrhs, Kind::General, rng());
    Matrix<float> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
    Request request = gesv_nopiv_async(tA, tB);
    EXPECT_EQ(request.wait(), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(tB), 1.0f, B), 60);
}

TEST(Async, RequestsReportTheirOwnInfo) {
    Array<double> bad = random_array<double>(40, 40, Kind::Spd, rng());
    bad(20, 20) = -1;
    const Array<double> good = random_array<double>(40, 40, Kind::Spd, rng());
    Matrix<double> tbad = tiles_of(bad, scales()), tgood = tiles_of(good, scales());
    Request r1 = posv_async(Uplo::Upper, tbad, tgood);  // fails at column 21
    Matrix<double> other = tiles_of(good, scales());
    Request r2 = potrf_async(Uplo::Upper, other);
    EXPECT_EQ(r2.wait(), 0);
    EXPECT_EQ(r1.wait(), 21);
    EXPECT_EQ(r1.wait(), 21);  // waiting again is harmless
}

TEST(Async, DestroyingARequestWaitsForItsTasks) {
    const Array<double> A = random_array<double>(64, 64, Kind::Spd, rng());
    Matrix<double> tA = tiles_of(A, nb);
    { Request request = potrf_async(Uplo::Lower, tA); }
    // With GPU workers the result may still be in GPU memory only, which is right:
    // the host copy is valid after an acquire (to_lapack), checked by other tests.
    if (starpu_cuda_worker_get_count() > 0) GTEST_SKIP() << "with GPU workers the host copy is valid only after an acquire";
    // Read the tiles' memory directly, without the acquire that to_lapack makes:
    // every kernel must have run already.
    Array<double> raw(64, 64);
    detail::TileStorage<double>& s = detail::MatrixAccess::storage(tA);
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i)
            for (int c = 0; c < nb; ++c)
                for (int r = 0; r < nb; ++r) raw(i * nb + r, j * nb + c) = s.tile_data(i, j)[r + c * s.tile_ld(i)];
    EXPECT_EQ(raw.a, to_array(tA).a);
    EXPECT_LT(testing::factor_residual(A, testing::cholesky_product(Uplo::Lower, raw)), 60);
}

// A request keeps its matrices alive: the caller may drop its last copy of an operand
// before the request ends (tasks, split ones included, still read its tiles).
TEST(Async, OperandsMayGoBeforeTheRequestEnds) {
    const int64_t m = 70, n = 50, k = 45;
    const Array<double> A = random_array<double>(m, k, Kind::General, rng());
    const Array<double> B = random_array<double>(k, n, Kind::General, rng());
    const Array<double> C = random_array<double>(m, n, Kind::General, rng());
    Matrix<double> tC = tiles_of(C, scales());
    Request request;
    {
        Matrix<double> tA = tiles_of(A, scales()), tB = tiles_of(B, scales());
        request = gemm_async(Op::NoTrans, Op::NoTrans, 1.5, tA, tB, -0.5, tC);
    }
    EXPECT_EQ(request.wait(), 0);
    Array<double> ref = C;
    blas::gemm(Op::NoTrans, Op::NoTrans, int(m), int(n), int(k), 1.5, A.data(), A.ld(), B.data(), B.ld(), -0.5,
               ref.data(), ref.ld());
    const double error = norm('M', minus(to_array(tC), ref));
    EXPECT_LT(testing::gemm_residual(error, 1.5, norm('M', A), norm('M', B), -0.5, norm('M', C), k), 10);
}

TEST(Async, MovedRequestStillWaits) {
    const Array<double> A = random_array<double>(64, 64, Kind::Spd, rng());
    Matrix<double> tA = tiles_of(A, nb);
    Request target;
    target = potrf_async(Uplo::Lower, tA);
    Request moved(std::move(target));
    EXPECT_EQ(moved.wait(), 0);
    EXPECT_EQ(target.wait(), 0);  // a moved-from request has nothing to wait for
}

}  // namespace
}  // namespace grain::test
