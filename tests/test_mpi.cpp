// Distributed matrices over StarPU-MPI, run by ctest under mpirun with 1, 2
// and 4 processes: every routine that runs distributed gives the residuals (a norm, the
// value) it gives in one process, on every process grid of the run and under every split policy; info is
// the global first failing column, also when it sits in another process's tile and in a
// sub-tile of a split; every placement gives the same results; one process's bad
// argument ends the call on every process.
#include <cmath>
#include <functional>
#include <string>
#include <utility>

#include <starpu.h>

#include "common.hpp"

namespace grain::test {
namespace {

using testing::factor_residual;
using testing::gemm_residual;
using testing::minus;
using testing::norm;
using testing::solve_residual;
using T = double;

// 5 tiles of 32 and a smaller one: no grid of 2 or 4 processes divides them evenly.
constexpr int64_t n = 170;
const std::vector<int> ladder = {32, 16};

// Every p x q grid of the run's processes.
std::vector<Distribution> grids() {
    std::vector<Distribution> g;
    const int ranks = Runtime::ranks();
    for (int p = 1; p <= ranks; ++p)
        if (ranks % p == 0) g.push_back(Distribution::block_cyclic(p, ranks / p));
    return g;
}

const char* const splits[] = {"none", "all", "random:0.5:1", "lp"};

Matrix<T> distributed(const Array<T>& x, const Distribution& d) {
    Matrix<T> M(x.m, x.n, ladder, d);
    M.from_lapack(x.data(), x.ld());
    return M;
}

// Runs `body` on every grid under every split policy, naming them on failure.
void each_grid_and_split(const std::function<void(const Distribution&)>& body) {
    for (const Distribution& d : grids())
        for (const char* split : splits) {
            SCOPED_TRACE(::testing::Message() << "grid " << d.p() << "x" << d.q() << " split " << split);
            test_runtime().set_split(split);
            body(d);
        }
    test_runtime().set_split("none");
}

TEST(Mpi, RunsUnderMpirun) {
    // ctest starts this suite under mpirun: a build with StarPU-MPI must run distributed.
    ASSERT_TRUE(Runtime::distributed_build());
    const char* expected = std::getenv("GRAIN_TEST_RANKS");
    ASSERT_NE(expected, nullptr);
    EXPECT_EQ(Runtime::ranks(), std::atoi(expected));
    EXPECT_GE(Runtime::rank(), 0);
    EXPECT_LT(Runtime::rank(), Runtime::ranks());
}

TEST(Mpi, EachProcessHoldsItsTiles) {
    for (const Distribution& d : grids()) {
        const Array<T> A = random_array<T>(n, n, Kind::General, rng());
        Matrix<T> M = distributed(A, d);
        EXPECT_EQ(M.distributed(), Runtime::ranks() > 1 || d.ranks() == 1);
        for (int i = 0; i < M.mt(); ++i)
            for (int j = 0; j < M.nt(); ++j) EXPECT_EQ(M.tile_rank(i, j), d.rank(i, j));
        // Back from every process, whole.
        EXPECT_EQ(norm('M', minus(to_array(M), A)), 0.0);
    }
}

// scatter_from and gather_to a root; a matrix over the application's own tiles.
TEST(Mpi, ScatterGatherAndLocalTiles) {
    for (const Distribution& d : grids())
        for (int root = 0; root < Runtime::ranks(); ++root) {
            const Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
            const bool is_root = Runtime::rank() == root;
            Array<T> a = is_root ? A : Array<T>(1, 1);  // only root holds the array
            Matrix<T> M(n, n, ladder, d);
            M.scatter_from(root, a.data(), is_root ? a.ld() : 1);
            ASSERT_EQ(potrf(Uplo::Lower, M), 0);
            M.gather_to(root, a.data(), is_root ? a.ld() : 1);
            if (is_root) {
                EXPECT_LT(factor_residual(A, testing::cholesky_product(Uplo::Lower, a)), 60);
            }
        }
    // The application's tiles, tile-contiguous, allocated for this process's tiles only.
    const Distribution d = grids().back();
    const Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
    std::vector<std::vector<T>> mine;
    const int nb = ladder[0], mt = int((n + nb - 1) / nb);
    std::vector<T*> where(size_t(mt) * size_t(mt), nullptr);
    for (int j = 0; j < mt; ++j)
        for (int i = 0; i < mt; ++i) {
            if (d.rank(i, j) != Runtime::rank()) continue;
            const int64_t rows = std::min<int64_t>(nb, n - int64_t(i) * nb), cols = std::min<int64_t>(nb, n - int64_t(j) * nb);
            mine.emplace_back(size_t(rows * cols));
            for (int64_t c = 0; c < cols; ++c)
                for (int64_t r = 0; r < rows; ++r) mine.back()[size_t(r + c * rows)] = A(i * nb + r, j * nb + c);
            where[size_t(i + j * mt)] = mine.back().data();
        }
    Array<T> F;
    {
        Matrix<T> M(n, n, ladder, d, [&](int64_t i, int64_t j) { return where[size_t(i + j * mt)]; });
        ASSERT_EQ(potrf(Uplo::Lower, M), 0);
        F = to_array(M);
        EXPECT_LT(factor_residual(A, testing::cholesky_product(Uplo::Lower, F)), 60);
    }
    // The factor is in the application's tiles once the matrix is gone.
    for (int j = 0; j < mt; ++j)
        for (int i = j; i < mt; ++i)
            if (const T* tile = where[size_t(i + j * mt)]) {
                const int64_t rows = std::min<int64_t>(nb, n - int64_t(i) * nb);
                EXPECT_EQ(tile[rows - 1], F(i * nb + rows - 1, j * nb)) << "tile " << i << "," << j;
            }
}

// The LAPACK-layout forms under a DistributedLayout: the arrays on the root only.
TEST(Mpi, LapackLayoutScattersFromTheRoot) {
    for (const Distribution& d : grids())
        for (int root : {0, Runtime::ranks() - 1}) {
            SCOPED_TRACE(::testing::Message() << "grid " << d.p() << "x" << d.q() << " root " << root);
            const DistributedLayout layout(d, root);
            const bool is_root = Runtime::rank() == root;
            const Array<T> A = random_array<T>(n, n, Kind::Spd, rng()), B = random_array<T>(n, 9, Kind::General, rng());
            Array<T> a = A, b = B;
            // Only the root's arrays are used: the others pass null.
            ASSERT_EQ(posv(Uplo::Lower, n, 9, is_root ? a.data() : nullptr, a.ld(), is_root ? b.data() : nullptr, b.ld()),
                      0);
            if (is_root) {
                EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, b, T(1), B), 60);
            }
            const Array<T> G = random_array<T>(n, 50, Kind::General, rng());
            Array<T> c = random_array<T>(n, n, Kind::General, rng());
            const Array<T> C0 = c;
            ASSERT_EQ(gemm(Op::NoTrans, Op::Trans, n, n, int64_t(50), T(1), is_root ? G.data() : nullptr, G.ld(),
                           is_root ? G.data() : nullptr, G.ld(), T(1), is_root ? c.data() : nullptr, c.ld()),
                      0);
            if (is_root) {
                Array<T> ref = C0;
                blas::gemm(Op::NoTrans, Op::Trans, int(n), int(n), 50, T(1), G.data(), G.ld(), G.data(), G.ld(), T(1),
                           ref.data(), ref.ld());
                EXPECT_LT(gemm_residual(norm('M', minus(c, ref)), T(1), norm('M', G), norm('M', G), T(1),
                                        norm('M', C0), 50), 10);
            }
            // gesv, then getrs on its factors: the pivots on the root only (the others
            // pass null), LAPACKE's, and the solutions.
            const Array<T> L = random_array<T>(n, n, Kind::General, rng()), R = random_array<T>(n, 3, Kind::General, rng());
            Array<T> g = L, r = R;
            std::vector<int> ipiv(n);
            ASSERT_EQ(gesv(n, int64_t(3), is_root ? g.data() : nullptr, g.ld(), is_root ? ipiv.data() : nullptr,
                           is_root ? r.data() : nullptr, r.ld()),
                      0);
            Array<T> s = R;
            ASSERT_EQ(getrs(Op::Trans, n, int64_t(3), is_root ? g.data() : nullptr, g.ld(),
                            is_root ? ipiv.data() : nullptr, is_root ? s.data() : nullptr, s.ld()),
                      0);
            if (is_root) {
                expect_lapacke_pivots(L, ipiv);
                EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, L, r, T(1), R), 60);
                EXPECT_LT(solve_residual(Side::Left, Op::Trans, L, s, T(1), R), 60);
            }
        }
    // A bad lda on the last process alone: every process gets an error, none hangs.
    const DistributedLayout layout(grids().back(), 0);
    Array<T> a = random_array<T>(n, n, Kind::Spd, rng());
    const bool bad = Runtime::rank() == Runtime::ranks() - 1;
    EXPECT_ANY_THROW(potrf(Uplo::Lower, n, a.data(), bad ? n - 1 : a.ld()));
    EXPECT_EQ(potrf(Uplo::Lower, n, a.data(), a.ld()), 0);
}

TEST(Mpi, Potrf) {
    each_grid_and_split([](const Distribution& d) {
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            const Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
            Matrix<T> M = distributed(A, d);
            ASSERT_EQ(potrf(uplo, M), 0);
            EXPECT_LT(factor_residual(A, testing::cholesky_product(uplo, to_array(M))), 60);
        }
    });
}

// Each process reduces the partial results of every tile, its own and the others': the
// same norm everywhere, LAPACKE's, of the whole matrix and of a view.
TEST(Mpi, Lange) {
    each_grid_and_split([](const Distribution& d) {
        const Array<T> A = random_array<T>(n, n - 37, Kind::General, rng());
        const Matrix<T> M = distributed(A, d), view = M.sub(1, 3, 2, 3);
        Array<T> part(view.m(), view.n());
        for (int64_t j = 0; j < part.n; ++j)
            for (int64_t i = 0; i < part.m; ++i) part(i, j) = A(i + 32, j + 64);
        for (Norm which : {Norm::Max, Norm::One, Norm::Inf, Norm::Frobenius}) {
            EXPECT_NEAR(lange(which, M), norm(char(which), A), 1e-12 * norm(char(which), A)) << char(which);
            EXPECT_NEAR(lange(which, view), norm(char(which), part), 1e-12 * norm(char(which), part)) << char(which);
        }
    });
}

TEST(Mpi, PotrsAndPosv) {
    each_grid_and_split([](const Distribution& d) {
        const Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
        const Array<T> B = random_array<T>(n, 40, Kind::General, rng());
        Matrix<T> MA = distributed(A, d), MB = distributed(B, d);
        ASSERT_EQ(potrf(Uplo::Lower, MA), 0);
        ASSERT_EQ(potrs(Uplo::Lower, MA, MB), 0);
        EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(MB), T(1), B), 60);
        Matrix<T> SA = distributed(A, d), SB = distributed(B, d);
        ASSERT_EQ(posv(Uplo::Upper, SA, SB), 0);
        EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(SB), T(1), B), 60);
    });
}

TEST(Mpi, GetrfGetrsGesvNopiv) {
    each_grid_and_split([](const Distribution& d) {
        const Array<T> A = random_array<T>(n, n, Kind::DiagonallyDominant, rng());
        const Array<T> B = random_array<T>(n, 40, Kind::General, rng());
        Matrix<T> MA = distributed(A, d), MB = distributed(B, d);
        ASSERT_EQ(getrf_nopiv(MA), 0);
        EXPECT_LT(factor_residual(A, testing::lu_product(to_array(MA))), 60);
        ASSERT_EQ(getrs_nopiv(MA, MB), 0);
        EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(MB), T(1), B), 60);
        Matrix<T> SA = distributed(A, d), SB = distributed(B, d);
        ASSERT_EQ(gesv_nopiv(SA, SB), 0);
        EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(SB), T(1), B), 60);
    });
}

// LU with partial pivoting: on every grid and split policy and on the 1-D and random
// distributions, the pivots on every process are LAPACKE's (near-ties aside, as the LU
// tests define them) and P A = L U; the solves with both ops; gesv.
TEST(Mpi, GetrfGetrsGesv) {
    const auto check = [](const Distribution& d) {
        const Array<T> A = random_array<T>(n, n, Kind::General, rng());
        const Array<T> B = random_array<T>(n, 40, Kind::General, rng());
        Matrix<T> MA = distributed(A, d);
        Pivots ipiv(n);
        ASSERT_EQ(getrf(MA, ipiv), 0);
        const std::vector<int> p(ipiv.data(), ipiv.data() + n);
        expect_lapacke_pivots(A, p);
        EXPECT_LT(factor_residual(permuted(A, p), testing::lu_product(to_array(MA))), 60);
        for (Op trans : {Op::NoTrans, Op::Trans}) {
            Matrix<T> MB = distributed(B, d);
            ASSERT_EQ(getrs(trans, MA, ipiv, MB), 0);
            EXPECT_LT(solve_residual(Side::Left, trans, A, to_array(MB), T(1), B), 60) << "trans " << char(trans);
        }
        Matrix<T> SA = distributed(A, d), SB = distributed(B, d);
        Pivots spiv(n);
        ASSERT_EQ(gesv(SA, spiv, SB), 0);
        EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(SB), T(1), B), 60);
    };
    each_grid_and_split(check);
    const int ranks = Runtime::ranks();
    for (const Distribution& d : {Distribution::rows(ranks), Distribution::columns(ranks), Distribution::random(ranks, 7)}) {
        SCOPED_TRACE("1-D and random distributions");
        check(d);
    }
}

// A panel whose tiles lie on several processes is factored by all of them, each on its own
// tiles, the pivot search running across them: every process runs a getrf kernel for each
// step whose panel holds a tile of its, with LAPACKE's pivots and a small residual, on a
// matrix whose columns are graded down to 1e-10 too (condition number about 1e10).
TEST(Mpi, PanelRunsOnEveryProcessHoldingItsTiles) {
    const int ranks = Runtime::ranks();
    Runtime& runtime = test_runtime();
    runtime.set_split("none");
    for (double cond : {1.0, 1e10})
        for (const Distribution& d :
             {Distribution::block_cyclic(ranks, 1), Distribution::rows(ranks), Distribution::random(ranks, 11)}) {
            SCOPED_TRACE(::testing::Message() << "grid " << d.p() << "x" << d.q() << " cond " << cond);
            Array<T> A = random_array<T>(n, n, Kind::General, rng());
            for (int64_t j = 0; j < n; ++j)
                for (int64_t i = 0; i < n; ++i) A(i, j) *= std::pow(cond, -double(j) / double(n - 1));
            Matrix<T> MA(n, n, ladder.front(), d);  // one level: a panel is one kernel per process
            MA.from_lapack(A.data(), A.ld());
            runtime.reset_statistics();
            Pivots ipiv(n);
            ASSERT_EQ(getrf(MA, ipiv), 0);
            const std::vector<int> p(ipiv.data(), ipiv.data() + n);
            expect_lapacke_pivots(A, p);
            EXPECT_LT(factor_residual(permuted(A, p), testing::lu_product(to_array(MA))), 60);
            int64_t held = 0;
            for (int k = 0; k < MA.nt(); ++k) {
                bool mine = false;
                for (int m = k; m < MA.mt(); ++m) mine = mine || d.rank(m, k) == Runtime::rank();
                held += mine;
            }
            EXPECT_EQ(runtime.statistics().at("getrf", 0).finished, held) << "rank " << Runtime::rank();
        }
}

TEST(Mpi, GemmTrsmSyrk) {
    each_grid_and_split([](const Distribution& d) {
        const int64_t k = 100;
        const Array<T> A = random_array<T>(n, k, Kind::General, rng()), B = random_array<T>(n, k, Kind::General, rng());
        const Array<T> C0 = random_array<T>(n, n, Kind::General, rng());
        Matrix<T> MA = distributed(A, d), MB = distributed(B, d), MC = distributed(C0, d);
        ASSERT_EQ(gemm(Op::NoTrans, Op::Trans, T(1.5), MA, MB, T(-0.5), MC), 0);
        Array<T> ref = C0;
        blas::gemm(Op::NoTrans, Op::Trans, int(n), int(n), int(k), T(1.5), A.data(), A.ld(), B.data(), B.ld(), T(-0.5),
                   ref.data(), ref.ld());
        EXPECT_LT(gemm_residual(norm('M', minus(to_array(MC), ref)), T(1.5), norm('M', A), norm('M', B), T(-0.5),
                                norm('M', C0), k), 10);

        const Array<T> L = random_array<T>(n, n, Kind::LowerTriangular, rng());
        const Array<T> X = random_array<T>(n, 30, Kind::General, rng());
        Matrix<T> ML = distributed(L, d), MX = distributed(X, d);
        ASSERT_EQ(trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::NonUnit, T(2), ML, MX), 0);
        EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, L, to_array(MX), T(2), X), 60);

        Matrix<T> MS = distributed(C0, d);
        ASSERT_EQ(syrk(Uplo::Lower, Op::NoTrans, T(1), MA, T(1), MS), 0);
        Array<T> sref = C0;
        blas::syrk(Uplo::Lower, Op::NoTrans, int(n), int(k), T(1), A.data(), A.ld(), T(1), sref.data(), sref.ld());
        const Array<T> S = to_array(MS);
        double error = 0;
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = j; i < n; ++i) error = std::max(error, std::abs(S(i, j) - sref(i, j)));
        EXPECT_LT(gemm_residual(error, T(1), norm('M', A), norm('M', A), T(1), norm('M', C0), k), 10);
    });
}

// A tile the application writes between two calls (from_lapack) is sent again: the
// copies a call received go at its end.
TEST(Mpi, TheNextCallSeesNewValues) {
    for (const Distribution& d : grids()) {
        const Array<T> A = random_array<T>(n, n, Kind::General, rng()), B = random_array<T>(n, n, Kind::General, rng());
        Matrix<T> MA = distributed(A, d), MB = distributed(B, d), MC(n, n, ladder, d);
        ASSERT_EQ(gemm(Op::NoTrans, Op::NoTrans, T(1), MA, MB, T(0), MC), 0);
        const Array<T> A2 = random_array<T>(n, n, Kind::General, rng());
        MA.from_lapack(A2.data(), A2.ld());
        ASSERT_EQ(gemm(Op::NoTrans, Op::NoTrans, T(1), MA, MB, T(0), MC), 0);
        Array<T> ref(n, n);
        blas::gemm(Op::NoTrans, Op::NoTrans, int(n), int(n), int(n), T(1), A2.data(), A2.ld(), B.data(), B.ld(), T(0),
                   ref.data(), ref.ld());
        EXPECT_LT(gemm_residual(norm('M', minus(to_array(MC), ref)), T(1), norm('M', A2), norm('M', B), T(0), 0.0, n),
                  10);
    }
}

// The copies a process receives of other processes' tiles: dropped after the last reader
// of each step (not at the call's end), their buffers kept by StarPU's allocation cache
// and reused, by the next copies and the next call, instead of allocated (pinned, with
// GPUs) anew. What the cache holds after a call is the most copies the call held at once.
TEST(Mpi, ReceivedCopiesAreDroppedPerStepAndReused) {
    const int64_t nt = 24, order = nt * ladder[0];
    const Distribution d = Distribution::block_cyclic(1, Runtime::ranks());
    const Array<T> A = random_array<T>(order, order, Kind::Spd, rng());
    const auto held = [] { return starpu_memory_get_total(STARPU_MAIN_RAM) - starpu_memory_get_available(STARPU_MAIN_RAM); };
    const starpu_ssize_t before = held();
    Matrix<T> M = distributed(A, d);
    ASSERT_EQ(potrf(Uplo::Lower, M), 0);
    const starpu_ssize_t first = held() - before;
    // L(m, k) reaches this process when another holds it and one of its updates, on row m
    // or column m of the trailing matrix, is here (none with one process).
    const starpu_ssize_t tile_bytes = ladder[0] * ladder[0] * sizeof(T);
    const auto here = [&](int64_t i, int64_t j) { return d.rank(i, j) == Runtime::rank(); };
    int64_t received = 0;
    for (int64_t k = 0; k < nt; ++k)
        for (int64_t m = k + 1; m < nt; ++m) {
            if (here(m, k)) continue;
            bool needed = false;
            for (int64_t j = k + 1; j <= m; ++j) needed = needed || here(m, j);
            for (int64_t i = m + 1; i < nt; ++i) needed = needed || here(i, m);
            received += needed;
        }
    if (received == 0) {
        EXPECT_EQ(first, 0) << "a buffer kept where nothing was received";
    } else {
        EXPECT_GT(first, 0) << "no buffer kept for reuse";
        EXPECT_LT(first, received * tile_bytes / 2) << "copies kept to the call's end";
    }
    M.from_lapack(A.data(), A.ld());
    ASSERT_EQ(potrf(Uplo::Lower, M), 0);
    EXPECT_LE(held() - before, first + nt * tile_bytes) << "buffers not reused";

    // A solve drops its copies per step too. A process holding a tile column of X
    // receives every tile of L held by another; the others receive nothing.
    const Array<T> X = random_array<T>(order, 2 * ladder[0], Kind::General, rng());
    Matrix<T> MX = distributed(X, d);
    int64_t solve_received = 0;
    if (here(0, 0) || here(0, 1))
        for (int64_t k = 0; k < nt; ++k)
            for (int64_t m = k; m < nt; ++m) solve_received += !here(m, k);
    const starpu_ssize_t pre_solve = held();
    ASSERT_EQ(trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::NonUnit, T(1), M, MX), 0);
    if (solve_received == 0)
        EXPECT_EQ(held(), pre_solve) << "a buffer kept where nothing was received";
    else
        EXPECT_LT(held() - pre_solve, solve_received * tile_bytes / 2) << "the solve's copies kept to its end";
    // Checked last: gathering the factor brings every tile to every process.
    EXPECT_LT(factor_residual(A, testing::cholesky_product(Uplo::Lower, to_array(M))), 60);
}

// A column whose pivot fails, in the last tile (another process's on grids of several),
// inside a sub-tile under split "all".
TEST(Mpi, InfoFromAnotherProcess) {
    const int64_t bad = n - 3;  // 0-based column
    for (const Distribution& d : grids())
        for (const char* split : {"none", "all"}) {
            SCOPED_TRACE(::testing::Message() << "grid " << d.p() << "x" << d.q() << " split " << split);
            test_runtime().set_split(split);
            Array<T> S = random_array<T>(n, n, Kind::Spd, rng());
            S(bad, bad) = -1e6;  // not positive definite from that column on
            Array<T> lapacke = S;
            const int expected = blas::potrf(Uplo::Lower, int(n), lapacke.data(), lapacke.ld());
            ASSERT_GT(expected, 0);
            Matrix<T> MS = distributed(S, d);
            EXPECT_EQ(potrf(Uplo::Lower, MS), expected);

            // A zero row and column: U(bad, bad) = 0 exactly, with or without pivoting.
            Array<T> G = random_array<T>(n, n, Kind::DiagonallyDominant, rng());
            for (int64_t i = 0; i < n; ++i) G(i, bad) = G(bad, i) = 0;
            Array<T> lu = G;
            std::vector<lapack_int> ipiv(n);
            ASSERT_EQ(blas::getrf(int(n), int(n), lu.data(), lu.ld(), ipiv.data()), bad + 1);
            Matrix<T> MG = distributed(G, d), PG = distributed(G, d);
            EXPECT_EQ(getrf_nopiv(MG), bad + 1);
            Pivots ipiv_g(n);
            EXPECT_EQ(getrf(PG, ipiv_g), bad + 1);
        }
    test_runtime().set_split("none");
}

TEST(Mpi, EveryPlacementGivesTheSameFactors) {
    const int ranks = Runtime::ranks();
    const Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
    Matrix<T> reference = distributed(A, Distribution::block_cyclic(1, ranks));
    ASSERT_EQ(potrf(Uplo::Lower, reference), 0);
    const Array<T> F = to_array(reference);
    const Distribution placements[] = {Distribution::rows(ranks), Distribution::columns(ranks),
                                       Distribution::random(ranks, 7),
                                       Distribution::custom(ranks, [ranks](int64_t i, int64_t j) {
                                           return int((i + 2 * j) % ranks);
                                       })};
    for (const Distribution& d : placements) {
        Matrix<T> M = distributed(A, d);
        ASSERT_EQ(potrf(Uplo::Lower, M), 0);
        // The same kernels in the same order on every tile: the same bits.
        EXPECT_EQ(norm('M', minus(to_array(M), F)), 0.0);
    }
}

TEST(Mpi, OneProcesssBadArgumentEndsTheCallEverywhere) {
    const Distribution d = grids().back();
    const Array<T> A = random_array<T>(n, n, Kind::Spd, rng());
    Matrix<T> M = distributed(A, d);
    // The last process passes an invalid uplo: it throws invalid_argument, the others
    // runtime_error, and none waits for the others' messages.
    const bool bad = Runtime::rank() == Runtime::ranks() - 1;
    try {
        potrf(bad ? Uplo('X') : Uplo::Lower, M);
        ADD_FAILURE() << "potrf returned";
    } catch (const grain::invalid_argument& e) {
        EXPECT_TRUE(bad) << e.what();
    } catch (const grain::runtime_error& e) {
        EXPECT_FALSE(bad) << e.what();
        EXPECT_NE(std::string(e.what()).find("another process refused"), std::string::npos) << e.what();
    }
    // Different shapes on different processes are refused everywhere too: B's rows, valid
    // on the first process, are one too few on the others (which throw first).
    if (Runtime::ranks() > 1) {
        Matrix<T> B(Runtime::rank() == 0 ? n : n - 1, 5, ladder, d);
        EXPECT_ANY_THROW(potrs(Uplo::Lower, M, B));
    }
    if (Runtime::ranks() > 1) {
        // Valid arguments that differ (uplo): refused everywhere, before any task.
        EXPECT_THROW(potrf(Runtime::rank() == 0 ? Uplo::Lower : Uplo::Upper, M), grain::runtime_error);
        // Different matrices of one shape: refused too.
        Matrix<T> other(n, n, ladder, d);
        EXPECT_THROW(potrf(Uplo::Lower, Runtime::rank() == 0 ? M : other), grain::runtime_error);
        // Different scalars: alpha of gemm, beta of syrk, alpha of trsm (C, S and X keep
        // their values: nothing ran). -0 and 0 are the same beta.
        Matrix<T> C = distributed(A, d), S = distributed(A, d), X = distributed(A, d);
        EXPECT_THROW(gemm(Op::NoTrans, Op::NoTrans, T(bad ? 2 : 1), M, M, T(0), C), grain::runtime_error);
        EXPECT_THROW(syrk(Uplo::Lower, Op::NoTrans, T(1), M, T(bad ? 0.5 : 1), S), grain::runtime_error);
        EXPECT_THROW(trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, T(bad ? -1 : 1), M, X),
                     grain::runtime_error);
        EXPECT_EQ(norm('M', minus(to_array(C), A)) + norm('M', minus(to_array(S), A)) + norm('M', minus(to_array(X), A)),
                  0);
        EXPECT_EQ(gemm(Op::NoTrans, Op::NoTrans, T(1), M, M, T(bad ? -0.0 : 0.0), C), 0);
        // A bad lda for to_lapack on one process.
        Array<T> back(n, n);
        EXPECT_ANY_THROW(M.to_lapack(back.data(), bad ? n - 1 : back.ld()));
    }
    // The NaN check is a setting of each process: off on one, the call still ends
    // everywhere, with the NaN another process found.
    {
        Array<T> withnan = A;
        withnan(0, 0) = std::numeric_limits<T>::quiet_NaN();  // tile (0, 0): rank 0's
        Matrix<T> N = distributed(withnan, d);
        test_runtime().set_nancheck(!bad);
        EXPECT_EQ(potrf(Uplo::Lower, N), Runtime::ranks() == 1 ? 0 : -3);
        test_runtime().set_nancheck(true);
    }
    // And the next call runs.
    ASSERT_EQ(potrf(Uplo::Lower, M), 0);
    EXPECT_LT(factor_residual(A, testing::cholesky_product(Uplo::Lower, to_array(M))), 60);
}

TEST(Mpi, RefusesWhatDoesNotRunDistributed) {
    const Distribution d = grids().back();
    Matrix<T> M(n, n, ladder, d), local(n, n, ladder);
    if (M.distributed()) {
        EXPECT_THROW(potrs(Uplo::Lower, M, local), grain::invalid_argument);  // mixed
        Pivots ipiv(n);
        EXPECT_THROW(getri(M, ipiv), grain::invalid_argument);
    }
    EXPECT_THROW(Matrix<T>(n, n, 32, Distribution::block_cyclic(1, Runtime::ranks() + 1)), grain::invalid_argument);
}

#ifdef GRAIN_USE_CUDA
// Processes with GPUs (several may share one): each runs kernels on its own GPU and its
// core, StarPU-MPI sends tiles that may be valid only in GPU memory, and the factors and
// solutions are the one-process ones. Run alone by ctest (MpiGpu2), skipped without a GPU.
TEST(MpiGpu, EachProcessRunsKernelsOnItsGpu) {
    if (visible_gpus() == 0) GTEST_SKIP() << "no CUDA device visible: the GPU+MPI test skipped";
    // Tiles large enough for the GPU to take most of them from the single core.
    const int64_t size = 1500, nb = 256;
    const Distribution d = grids().back();
    Runtime& runtime = test_runtime();
    runtime.reset_statistics();
    runtime.set_trace(true);
    const Array<T> A = random_array<T>(size, size, Kind::Spd, rng());
    const Array<T> B = random_array<T>(size, 20, Kind::General, rng());
    const auto tiled = [&](const Array<T>& x) {
        Matrix<T> M(x.m, x.n, nb, d);
        M.from_lapack(x.data(), x.ld());
        return M;
    };
    Matrix<T> MA = tiled(A), MB = tiled(B);
    ASSERT_EQ(posv(Uplo::Lower, MA, MB), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(MB), T(1), B), 60);
    Matrix<T> LA = tiled(A), LB = tiled(B);
    Pivots ipiv(size);
    ASSERT_EQ(gesv(LA, ipiv, LB), 0);
    EXPECT_LT(solve_residual(Side::Left, Op::NoTrans, A, to_array(LB), T(1), B), 60);
    const std::vector<int> p(ipiv.data(), ipiv.data() + size);
    expect_lapacke_pivots(A, p);

    int64_t on_gpu = 0;
    for (const TaskRecord& r : runtime.trace()) on_gpu += r.gpu;
    runtime.set_trace(false);
    EXPECT_GT(on_gpu, 0) << "rank " << Runtime::rank() << " ran no kernel on its GPU";
}
#endif

}  // namespace
}  // namespace grain::test
