// libgrain_lapack linked into a program (its symbols come before the system's): calls from
// several threads are serialized and each is right; between calls OpenBLAS has the
// program's thread count back; an invalid argument reaches the program's own xerbla_, as
// LAPACK reports it. ctest runs it with GRAIN_LAPACK_MIN_N=0 and GRAIN_NB=32.
#include <gtest/gtest.h>
#include <grain/lapack.h>
#include <starpu.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "testing_drivers/checks.hpp"

extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void zgetrf_(const int* m, const int* n, std::complex<double>* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void dtrtri_(const char* uplo, const char* diag, const int* n, double* a, const int* lda, int* info, size_t, size_t);
void dlauum_(const char* uplo, const int* n, double* a, const int* lda, int* info, size_t);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, size_t);
void dgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc, size_t, size_t);
int openblas_get_num_threads(void);
void openblas_set_num_threads(int threads);

// The program's xerbla_, which LAPACK calls with the routine's name and the argument's
// position: it records them.
std::string xerbla_name;
int xerbla_info = 0;
void xerbla_(const char* name, const int* info, size_t length) {
    xerbla_name.assign(name, strnlen(name, length));
    while (!xerbla_name.empty() && xerbla_name.back() == ' ') xerbla_name.pop_back();
    xerbla_info = *info;
}
}

namespace grain::test {
namespace {

using testing::Array;
using testing::Kind;

TEST(LapackAbi, CallsFromSeveralThreadsAreRight) {
    const int n = 150;  // 5 tiles of 32
    std::vector<double> residuals(4, -1);
    std::vector<int> infos(4, -1);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            testing::Random rng(uint64_t(100 + t));
            const Array<double> A = testing::random_array<double>(n, n, Kind::Spd, rng);
            Array<double> F = A;
            dpotrf_("L", &n, F.data(), &n, &infos[size_t(t)], 1);
            residuals[size_t(t)] = testing::factor_residual(A, testing::cholesky_product(Uplo::Lower, F));
        });
    for (std::thread& t : threads) t.join();
    for (int t = 0; t < 4; ++t) {
        EXPECT_EQ(infos[size_t(t)], 0) << "thread " << t;
        EXPECT_GE(residuals[size_t(t)], 0) << "thread " << t;
        EXPECT_LT(residuals[size_t(t)], 60) << "thread " << t;
    }
}

// Whatever the program set last, even after the runtime started.
TEST(LapackAbi, OpenblasThreadsAreTheProgramsBetweenCalls) {
    const int n = 100;
    testing::Random rng(7);
    const Array<double> A = testing::random_array<double>(n, n, Kind::General, rng);
    Array<double> C(n, n);
    const double one = 1, zero = 0;
    for (int threads : {3, 1, 2}) {
        openblas_set_num_threads(threads);
        dgemm_("N", "T", &n, &n, &n, &one, A.data(), &n, A.data(), &n, &zero, C.data(), &n, 1, 1);
        EXPECT_EQ(openblas_get_num_threads(), threads);
    }
    Array<double> ref(n, n);
    blas::gemm(Op::NoTrans, Op::Trans, n, n, n, 1.0, A.data(), n, A.data(), n, 0.0, ref.data(), n);
    EXPECT_LT(testing::gemm_residual(double(testing::norm('M', testing::minus(C, ref))), 1.0,
                                     testing::norm('M', A), testing::norm('M', A), 0.0, 0.0, n),
              10);
}

// Between calls the workers are paused: once the call's wake settles (0.2 s), the process
// uses almost no CPU while it sleeps for 1 s (2 spinning workers would use 2 s).
TEST(LapackAbi, WorkersRestBetweenCalls) {
    const int n = 100;
    testing::Random rng(8);
    Array<double> A = testing::random_array<double>(n, n, Kind::Spd, rng);
    int info = -1;
    dpotrf_("U", &n, A.data(), &n, &info, 1);
    ASSERT_EQ(info, 0);
    const auto cpu_seconds = [] {
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
               1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
    };
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const double before = cpu_seconds();
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    EXPECT_LT(cpu_seconds() - before, 0.2) << "CPU seconds used while the program slept for 1 s";
}

TEST(LapackAbi, InvalidArgumentsReachTheProgramsXerbla) {
    const int n = 40, bad_lda = 10;
    std::vector<double> a(size_t(n) * n, 1.0);
    int info = 0;
    dpotrf_("X", &n, a.data(), &n, &info, 1);
    EXPECT_EQ(xerbla_name, "DPOTRF");
    EXPECT_EQ(xerbla_info, 1);
    EXPECT_EQ(info, -1);
    std::vector<std::complex<double>> z(size_t(n) * n);
    std::vector<int> ipiv(n);
    zgetrf_(&n, &n, z.data(), &bad_lda, ipiv.data(), &info);
    EXPECT_EQ(xerbla_name, "ZGETRF");
    EXPECT_EQ(xerbla_info, 4);
    EXPECT_EQ(info, -4);
}

// A singular matrix: info is LAPACK's, the first exactly zero pivot (the zero column 13).
TEST(LapackAbi, InfoIsLapacks) {
    const int n = 90;
    testing::Random rng(9);
    Array<std::complex<double>> A = testing::random_array<std::complex<double>>(n, n, Kind::General, rng);
    for (int i = 0; i < n; ++i) A(i, 12) = 0;
    std::vector<int> ipiv(n);
    int info = -1;
    zgetrf_(&n, &n, A.data(), &n, ipiv.data(), &info);
    EXPECT_EQ(info, 13);
}

// trtri_ on a triangle with a zero on its diagonal: LAPACK's info, and A as it was (LAPACK
// looks at the diagonal first); lauum_ L^T L.
TEST(LapackAbi, TrtriLeavesASingularTriangleAndLauumIsLapacks) {
    const int n = 70;
    testing::Random rng(3);
    Array<double> A = testing::random_array<double>(n, n, Kind::LowerTriangular, rng);
    A(40, 40) = 0;
    const Array<double> before = A;
    int info = -1;
    dtrtri_("L", "N", &n, A.data(), &n, &info, 1, 1);
    EXPECT_EQ(info, 41);
    EXPECT_EQ(A.a, before.a);
    A(40, 40) = 1;
    // L^T L by its definition (LAPACKE's lauum would come back to grain's symbol here).
    Array<double> ref(n, n);
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i)
            for (int k = i; k < n; ++k) ref(i, j) += A(k, i) * A(k, j);
    dlauum_("L", &n, A.data(), &n, &info, 1);
    EXPECT_EQ(info, 0);
    double error = 0;
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) error = std::max(error, std::abs(A(i, j) - ref(i, j)));
    EXPECT_LT(error, 1e-12 * n * n);
}

// A pivot outside [1, n] would make LAPACK's getrs swap a row outside B: refused as an
// illegal argument, at any size. Valid pivots that getrf would not write are applied.
TEST(LapackAbi, GetrsRefusesPivotsOutsideTheMatrix) {
    const int n = 50, nrhs = 2;
    testing::Random rng(10);
    Array<double> A = testing::random_array<double>(n, n, Kind::General, rng);
    std::vector<int> ipiv(n);
    int info = -1;
    dgetrf_(&n, &n, A.data(), &n, ipiv.data(), &info);
    ASSERT_EQ(info, 0);
    const Array<double> B0 = testing::random_array<double>(n, nrhs, Kind::General, rng);
    for (int bad : {0, -3, n + 1}) {
        std::vector<int> p = ipiv;
        p[17] = bad;
        Array<double> B = B0;
        xerbla_name.clear();
        dgetrs_("N", &n, &nrhs, A.data(), &n, p.data(), B.data(), &n, &info, 1);
        EXPECT_EQ(info, -6) << "ipiv[17] = " << bad;
        EXPECT_EQ(xerbla_name, "DGETRS");
        EXPECT_EQ(xerbla_info, 6);
        EXPECT_TRUE(std::equal(B.data(), B.data() + n * nrhs, B0.data()));
    }
    std::vector<int> first(size_t(n), 1);  // each row swapped with the first: LAPACK's to apply
    Array<double> B = B0, X = B0;
    dgetrs_("T", &n, &nrhs, A.data(), &n, first.data(), B.data(), &n, &info, 1);
    EXPECT_EQ(info, 0);
    blas::getrs(Op::Trans, n, nrhs, A.data(), n, first.data(), X.data(), n);
    EXPECT_LT(testing::norm('M', testing::minus(B, X)), 1e-10 * testing::norm('M', X));
}

double potrf_residual(int n, uint64_t seed) {
    testing::Random rng(seed);
    const Array<double> A = testing::random_array<double>(n, n, Kind::Spd, rng);
    Array<double> F = A;
    int info = -1;
    dpotrf_("L", &n, F.data(), &n, &info, 1);
    return info == 0 ? testing::factor_residual(A, testing::cholesky_product(Uplo::Lower, F)) : -1;
}

// The program's own Runtime, made after the interface started one, takes its place
// (rather than being refused); LAPACK calls made while it lives are right (the system's,
// as where the program made its Runtime first), and the interface starts its own again
// once it ends.
TEST(LapackAbi, ProgramsOwnRuntimeTakesTheInterfacesPlace) {
    const int n = 120;
    EXPECT_LT(potrf_residual(n, 11), 60);
    EXPECT_TRUE(Runtime::active()) << "the interface's runtime";
    for (int round = 0; round < 2; ++round) {
        SCOPED_TRACE(round);
        std::unique_ptr<Runtime> own;
        ASSERT_NO_THROW(own = std::make_unique<Runtime>());
        EXPECT_LT(potrf_residual(n, 12), 60);
        testing::Random rng(13);
        const Array<double> A = testing::random_array<double>(n, n, Kind::Spd, rng);
        Array<double> F = A;
        EXPECT_EQ(grain::potrf(Uplo::Lower, n, F.data(), n), 0);  // the program's calls, on its runtime
        EXPECT_LT(testing::factor_residual(A, testing::cholesky_product(Uplo::Lower, F)), 60);
        own.reset();
        EXPECT_FALSE(Runtime::active());
        EXPECT_LT(potrf_residual(n, 14), 60);
        EXPECT_TRUE(Runtime::active()) << "the interface's runtime, started again";
    }
}

// grain_lapack_pin keeps an array pinned for the calls on it where the interface's
// Runtime has GPUs, and says it pinned nothing where it has none; the calls on the array
// are right either way, and unpinning twice is harmless.
TEST(LapackAbi, PinKeepsAnArrayForItsCalls) {
    const int n = 200;
    testing::Random rng(15);
    const Array<double> A = testing::random_array<double>(n, n, Kind::Spd, rng);
    Array<double> F = A;
    const int pinned = grain_lapack_pin(F.data(), F.a.size() * sizeof(double));
    ASSERT_TRUE(Runtime::active()) << "pinning starts the interface's runtime";
    EXPECT_EQ(pinned, starpu_cuda_worker_get_count() > 0 ? 1 : 0);
    for (int call = 0; call < 2; ++call) {
        F = A;
        int info = -1;
        dpotrf_("L", &n, F.data(), &n, &info, 1);
        EXPECT_EQ(info, 0);
        EXPECT_LT(testing::factor_residual(A, testing::cholesky_product(Uplo::Lower, F)), 60);
    }
    grain_lapack_unpin(F.data());
    grain_lapack_unpin(F.data());
}

}  // namespace
}  // namespace grain::test
