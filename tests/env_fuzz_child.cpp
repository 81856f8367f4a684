// One run of the environment fuzzer (test_env_fuzz.cpp), under whatever GRAIN_* variables
// and STARPU_HOME it was given: a LAPACK call through libgrain_lapack (linked first, as
// under LD_PRELOAD), then a Runtime of the program's own and gesv, getrf + getrs and potrf
// on it, each checked against LAPACK. Exit status: 0, every answer right; 3, grain
// refused (a grain::invalid_argument or grain::runtime_error, printed); 1, a wrong
// answer; 2, any other exception.
#include <grain/grain.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "testing_drivers/checks.hpp"

extern "C" void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv, double* b,
                       const int* ldb, int* info);

namespace {

using grain::testing::Array;
using grain::testing::Kind;

// ||A X - B|| / (||A|| ||X|| n eps), LAPACK's solve residual.
bool solved(const Array<double>& A, const Array<double>& X, const Array<double>& B) {
    return grain::testing::solve_residual(grain::Side::Left, grain::Op::NoTrans, A, X, 1.0, B) < 60;
}

int run(uint64_t seed) {
    grain::testing::Random rng(seed);
    const int n = 1 + int(seed % 70), nrhs = 1 + int(seed % 3);
    const Array<double> A = grain::testing::random_array<double>(n, n, Kind::General, rng);
    const Array<double> S = grain::testing::random_array<double>(n, n, Kind::Spd, rng);
    const Array<double> B = grain::testing::random_array<double>(n, nrhs, Kind::General, rng);
    std::vector<int> ipiv(size_t(n) + 1);
    int info = -1;
    {  // Through the interface: grain's runtime, or the system's LAPACK where it cannot start.
        Array<double> F = A, X = B;
        dgesv_(&n, &nrhs, F.data(), &n, ipiv.data(), X.data(), &n, &info);
        if (info != 0 || !solved(A, X, B)) return std::fprintf(stderr, "dgesv_: info %d, wrong\n", info), 1;
    }
    grain::Runtime runtime;  // the interface's steps aside
    Array<double> F = A, X = B;
    info = grain::gesv(n, nrhs, F.data(), n, ipiv.data(), X.data(), n);
    if (info != 0 || !solved(A, X, B)) return std::fprintf(stderr, "gesv: info %d, wrong\n", info), 1;
    F = A, X = B;
    if ((info = grain::getrf(n, n, F.data(), n, ipiv.data())) != 0) return 1;
    // Random pivots now and then: refused, or applied as LAPACK applies them.
    if (seed % 4 == 0) ipiv[size_t(seed / 4 % uint64_t(n))] = int(seed % 7) - 3 + (seed % 2 ? n : 0);
    Array<double> Y = B;
    info = grain::getrs(grain::Op::NoTrans, n, nrhs, F.data(), n, ipiv.data(), X.data(), n);
    grain::blas::getrs(grain::Op::NoTrans, n, nrhs, F.data(), n, ipiv.data(), Y.data(), n);
    if (info != 0 || grain::testing::norm('M', grain::testing::minus(X, Y)) > 1e-8 * grain::testing::norm('M', Y))
        return std::fprintf(stderr, "getrs: info %d, wrong\n", info), 1;
    Array<double> C = S;
    if ((info = grain::potrf(grain::Uplo::Lower, n, C.data(), n)) != 0 ||
        grain::testing::factor_residual(S, grain::testing::cholesky_product(grain::Uplo::Lower, C)) > 60)
        return std::fprintf(stderr, "potrf: info %d, wrong\n", info), 1;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
    try {
        return run(seed);
    } catch (const grain::invalid_argument& e) {
        std::fprintf(stderr, "refused: %s\n", e.what());
        return 3;
    } catch (const grain::runtime_error& e) {
        std::fprintf(stderr, "refused: %s\n", e.what());
        return 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "another exception: %s\n", e.what());
        return 2;
    }
}
