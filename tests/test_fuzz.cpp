// The API's checks under random input (fixed seed, a few seconds): sizes, tile sizes,
// enum letters, leading dimensions, NaN and operands placed anywhere in one buffer,
// overlapping or not. Every call either throws grain::invalid_argument, or returns the
// info and the result LAPACK gives. Inputs the generator made valid must be accepted:
// its own oracle (brute-force element overlap, the LAPACK rules) decides that.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "common.hpp"

namespace grain::test {
namespace {

struct Fuzz {
    testing::Random random{46};
    int64_t below(int64_t n) { return int64_t((random.uniform() + 0.5) * double(n)) % n; }
    bool chance(double p) { return random.uniform() + 0.5 < p; }
    // A size: mostly small, edges and the odd negative one.
    int64_t size() { return chance(0.03) ? -1 - below(3) : chance(0.1) ? 0 : 1 + below(40); }
    // A letter: one of `good` (either case) mostly, else anything.
    char letter(const std::string& good) {
        if (chance(0.9)) {
            const char c = good[size_t(below(int64_t(good.size())))];
            return chance(0.5) ? c : char(std::tolower(c));
        }
        const char junk[] = {'X', 'Q', 'z', '\0', '\n', char(200), '1', 'c'};
        return junk[below(8)];
    }
};

// Whether a letter is one LAPACK reads for this argument (the oracle, apart from grain's).
bool valid(char c, const std::string& good) { return good.find(char(std::toupper((unsigned char)c))) != std::string::npos; }

// The elements of a column-major block, marked in a map of the buffer: brute force.
struct Footprint {
    std::vector<char> used;
    explicit Footprint(size_t n) : used(n, 0) {}
    bool mark(int64_t offset, int64_t rows, int64_t cols, int64_t ld, bool check) {
        bool hit = false;
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) {
                char& u = used[size_t(offset + i + j * ld)];
                hit = hit || (check && u);
                if (!check) u = 1;
            }
        return hit;
    }
};

double max_abs(const std::vector<double>& x) {
    double m = 0;
    for (double v : x) m = std::max(m, std::abs(v));
    return m;
}

TEST(Fuzz, RoutinesGiveAnErrorOrLapacksAnswer) {
    Fuzz f;
    const auto start = std::chrono::steady_clock::now();
    int calls = 0, accepted = 0, refused = 0;
    const double eps = std::numeric_limits<double>::epsilon();
    for (; calls < 4000 && std::chrono::steady_clock::now() - start < std::chrono::seconds(8); ++calls) {
        const int nb = 1 + int(f.below(24));
        const bool bad_nb = f.chance(0.02);
        ::setenv("GRAIN_NB", bad_nb ? (f.chance(0.5) ? "0" : "70000") : std::to_string(nb).c_str(), 1);
        const int routine = int(f.below(4));  // gemm, trsm, potrf, getrf_nopiv
        const int64_t m = f.size(), n = f.size(), k = f.size();
        const char l1 = f.letter(routine == 1 ? "LR" : routine == 2 ? "LU" : "NTC");
        const char l2 = f.letter(routine == 1 ? "LU" : "NTC"), l3 = f.letter("NTC"), l4 = f.letter("NU");
        // Operands at random offsets of one buffer, with random leading dimensions.
        const size_t total = 6000;
        std::vector<double> buffer(total);
        for (double& v : buffer) v = f.random.uniform();
        const auto place = [&](int64_t rows, int64_t cols, int64_t& offset, int64_t& ld) {
            ld = std::max<int64_t>(1, rows) + (f.chance(0.7) ? 0 : f.below(5)) - (f.chance(0.03) ? 1 : 0);
            const int64_t span = rows > 0 && cols > 0 ? ld * (cols - 1) + rows : 0;
            offset = span >= int64_t(total) ? 0 : f.below(int64_t(total) - span);
            return span < int64_t(total) && ld >= std::max<int64_t>(1, rows);
        };
        // Sizes the routine takes: gemm m, n, k; trsm and getrf_nopiv m, n; potrf n.
        bool ok = !bad_nb && n >= 0 && (routine == 2 || m >= 0) && (routine != 0 || k >= 0);
        int64_t oa = 0, lda = 1, ob = 0, ldb = 1, oc = 0, ldc = 1;
        std::vector<double> expected;
        int expected_info = 0;
        int info = 0;
        bool threw = false;
        try {
            if (routine == 0) {  // C = alpha op(A) op(B) + beta C
                ok = ok && valid(l1, "NTC") && valid(l2, "NTC");
                const bool na = std::toupper((unsigned char)l1) == 'N', nbt = std::toupper((unsigned char)l2) == 'N';
                const int64_t ar = na ? m : k, ac = na ? k : m, br = nbt ? k : n, bc = nbt ? n : k;
                ok = place(std::max<int64_t>(0, ar), std::max<int64_t>(0, ac), oa, lda) && ok;
                ok = place(std::max<int64_t>(0, br), std::max<int64_t>(0, bc), ob, ldb) && ok;
                bool c_placed = place(std::max<int64_t>(0, m), std::max<int64_t>(0, n), oc, ldc);
                const int64_t c_span = m > 0 && n > 0 ? lda * (n - 1) + m : 0;
                if (f.chance(0.2) && lda >= std::max<int64_t>(1, m) && oa + c_span <= int64_t(total))
                    oc = oa, ldc = lda, c_placed = true;  // often the very same array
                ok = ok && c_placed;
                if (ok) {
                    Footprint fp(total);
                    fp.mark(oa, ar, ac, lda, false), fp.mark(ob, br, bc, ldb, false);
                    ok = !fp.mark(oc, m, n, ldc, true);
                }
                if (ok) {
                    expected = buffer;
                    blas::gemm(Op(na ? 'N' : 'T'), Op(nbt ? 'N' : 'T'), int(m), int(n), int(k), 0.5, expected.data() + oa,
                               int(lda), expected.data() + ob, int(ldb), -1.0, expected.data() + oc, int(ldc));
                }
                info = gemm(Op(l1), Op(l2), m, n, k, 0.5, buffer.data() + oa, lda, buffer.data() + ob, ldb, -1.0,
                            buffer.data() + oc, ldc);
            } else if (routine == 1) {  // B = alpha op(A)^-1 B, or B op(A)^-1
                ok = ok && valid(l1, "LR") && valid(l2, "LU") && valid(l3, "NTC") && valid(l4, "NU");
                const bool left = std::toupper((unsigned char)l1) == 'L';
                const int64_t order = std::max<int64_t>(0, left ? m : n);
                ok = place(order, order, oa, lda) && ok;
                ok = place(std::max<int64_t>(0, m), std::max<int64_t>(0, n), ob, ldb) && ok;
                for (int64_t j = 0; j < order; ++j)  // well conditioned, unit diagonal or not
                    for (int64_t i = 0; i < order; ++i) buffer[size_t(oa + i + j * lda)] *= i == j ? 1 : 0.1;
                for (int64_t i = 0; i < order; ++i) buffer[size_t(oa + i + i * lda)] += 3;
                if (ok) {
                    Footprint fp(total);
                    fp.mark(oa, order, order, lda, false);
                    ok = !fp.mark(ob, m, n, ldb, true);
                }
                if (ok) {
                    expected = buffer;
                    blas::trsm(Side(char(std::toupper((unsigned char)l1))), Uplo(char(std::toupper((unsigned char)l2))),
                               Op(std::toupper((unsigned char)l3) == 'N' ? 'N' : 'T'),
                               Diag(char(std::toupper((unsigned char)l4))), int(m), int(n), 2.0, expected.data() + oa,
                               int(lda), expected.data() + ob, int(ldb));
                }
                info = trsm(Side(l1), Uplo(l2), Op(l3), Diag(l4), m, n, 2.0, buffer.data() + oa, lda,
                            buffer.data() + ob, ldb);
            } else {  // potrf or getrf_nopiv, on a matrix that needs no pivoting; NaN now and then
                const bool chol = routine == 2;
                ok = ok && (!chol || valid(l1, "LU"));
                const int64_t rows = chol ? n : m;
                ok = place(std::max<int64_t>(0, rows), std::max<int64_t>(0, n), oa, lda) && ok;
                const int64_t order = std::min(std::max<int64_t>(0, rows), std::max<int64_t>(0, n));
                for (int64_t j = 0; j < std::max<int64_t>(0, n); ++j)
                    for (int64_t i = 0; i < std::max<int64_t>(0, rows); ++i) {
                        double& x = buffer[size_t(oa + i + j * lda)];
                        if (i == j) x = std::abs(x) + double(std::max(rows, n));
                    }
                if (chol) {  // symmetric: mirror the lower triangle
                    for (int64_t j = 0; j < order; ++j)
                        for (int64_t i = 0; i < j; ++i) buffer[size_t(oa + i + j * lda)] = buffer[size_t(oa + j + i * lda)];
                }
                if (ok && order > 0 && f.chance(0.1)) {  // a NaN where the routine reads
                    const int64_t i = f.below(order), j = f.below(order);
                    const bool upper = chol && std::toupper((unsigned char)l1) == 'U';
                    buffer[size_t(oa + (upper ? std::min(i, j) : std::max(i, j)) + (upper ? std::max(i, j) : std::min(i, j)) * lda)] =
                        std::nan("");
                    expected_info = -3;
                }
                if (ok) {
                    expected = buffer;
                    if (expected_info == 0) {
                        std::vector<lapack_int> ipiv(static_cast<size_t>(order));
                        if (chol)
                            EXPECT_EQ(blas::potrf(Uplo(char(std::toupper((unsigned char)l1))), int(n), expected.data() + oa, int(lda)), 0);
                        else if (order > 0) {  // LU without pivoting on a diagonally dominant matrix: getrf does not pivot
                            const lapack_int r = blas::getrf(int(m), int(n), expected.data() + oa, int(lda), ipiv.data());
                            EXPECT_EQ(r, 0);
                            for (int64_t i = 0; i < order; ++i) ASSERT_EQ(ipiv[size_t(i)], i + 1) << "the reference pivoted";
                        }
                    }
                }
                info = chol ? potrf(Uplo(l1), n, buffer.data() + oa, lda) : getrf_nopiv(m, n, buffer.data() + oa, lda);
            }
        } catch (const grain::invalid_argument& e) {
            threw = true;
            ++refused;
            EXPECT_FALSE(ok) << "call " << calls << " refused valid input: " << e.what();
        }
        if (threw) continue;
        ++accepted;
        ASSERT_TRUE(ok) << "call " << calls << " (routine " << routine << ", m=" << m << " n=" << n << " k=" << k
                        << ", letters " << int(l1) << "," << int(l2) << "," << int(l3) << "," << int(l4)
                        << ", bad_nb " << bad_nb << " nb " << nb << ", lda " << lda << " ldb " << ldb << " ldc " << ldc << ") accepted invalid input";
        ASSERT_EQ(info, expected_info) << "call " << calls;
        if (expected_info != 0) {  // refused before any write
            ASSERT_EQ(std::memcmp(buffer.data(), expected.data(), sizeof(double) * total), 0) << "call " << calls;
            continue;
        }
        // The same answer as LAPACK's to rounding, everywhere in the buffer.
        const double scale = std::max(1.0, max_abs(expected)) * 200 * eps * double(std::max<int64_t>({1, m, n, k}));
        for (size_t i = 0; i < total; ++i)
            ASSERT_NEAR(buffer[i], expected[i], scale) << "call " << calls << " routine " << routine << " element " << i;
    }
    ::unsetenv("GRAIN_NB");
    std::printf("fuzz: %d calls, %d accepted, %d refused\n", calls, accepted, refused);
    EXPECT_GT(accepted, calls / 4);
    EXPECT_GT(refused, calls / 20);
}

// gemm on tile views of one to three grids over one buffer: same grid or not, tiles
// shared or not, with tile sizes and shapes that agree or not.
TEST(Fuzz, GemmOnViewsOfOneArray) {
    Fuzz f;
    const auto start = std::chrono::steady_clock::now();
    const double eps = std::numeric_limits<double>::epsilon();
    int calls = 0, accepted = 0, refused = 0;
    struct Grid {
        int64_t offset, rows, cols, ld;
        int nb;
    };
    struct View {
        int grid, i1, i2, j1, j2;
    };
    for (; calls < 1500 && std::chrono::steady_clock::now() - start < std::chrono::seconds(5); ++calls) {
        const size_t total = 5000;
        std::vector<double> buffer(total);
        for (double& v : buffer) v = f.random.uniform();
        const int nb = 3 + int(f.below(4));
        std::vector<Grid> grids(size_t(1 + f.below(3)));
        for (Grid& g : grids) {
            g.nb = f.chance(0.9) ? nb : nb + 1;
            g.rows = f.chance(0.8) ? g.nb * (2 + f.below(7)) : 1 + f.below(40);
            g.cols = f.chance(0.8) ? g.nb * (2 + f.below(7)) : 1 + f.below(40);
            g.ld = g.rows + f.below(4);
            g.offset = f.below(int64_t(total) - (g.ld * (g.cols - 1) + g.rows));
        }
        std::vector<Matrix<double>> matrices;
        for (const Grid& g : grids) matrices.emplace_back(g.rows, g.cols, g.nb, buffer.data() + g.offset, g.ld);
        // A view of `tiles_r` x `tiles_c` tiles somewhere in a random grid, or any view.
        const auto view = [&](int64_t tiles_r, int64_t tiles_c) {
            View v{int(f.below(int64_t(grids.size()))), 0, 0, 0, 0};
            const Matrix<double>& M = matrices[size_t(v.grid)];
            const bool fits = tiles_r <= M.mt() && tiles_c <= M.nt() && f.chance(0.85);
            v.i1 = int(f.below(fits ? M.mt() - tiles_r + 1 : M.mt()));
            v.j1 = int(f.below(fits ? M.nt() - tiles_c + 1 : M.nt()));
            v.i2 = fits ? v.i1 + int(tiles_r) - 1 : v.i1 + int(f.below(M.mt() - v.i1));
            v.j2 = fits ? v.j1 + int(tiles_c) - 1 : v.j1 + int(f.below(M.nt() - v.j1));
            return v;
        };
        const char ta = f.letter("NTC"), tb = f.letter("NTC");
        const bool na = std::toupper((unsigned char)ta) == 'N', nbt = std::toupper((unsigned char)tb) == 'N';
        const int64_t mt = 1 + f.below(2), nt = 1 + f.below(2), kt = 1 + f.below(2);
        const View va = na ? view(mt, kt) : view(kt, mt), vb = nbt ? view(kt, nt) : view(nt, kt), vc = view(mt, nt);
        const auto sub = [&](const View& v) { return matrices[size_t(v.grid)].sub(v.i1, v.i2, v.j1, v.j2); };
        std::optional<Matrix<double>> views[] = {sub(va), sub(vb), sub(vc)};
        const Matrix<double>&A = *views[0], &B = *views[1];
        Matrix<double>& C = *views[2];
        // Where each view is in the buffer, for the oracle and the reference.
        const auto block = [&](const View& v, int64_t& offset, int64_t& ld) {
            const Grid& g = grids[size_t(v.grid)];
            offset = g.offset + int64_t(v.i1) * g.nb + int64_t(v.j1) * g.nb * g.ld;
            ld = g.ld;
        };
        int64_t oa, lda, ob, ldb, oc, ldc;
        block(va, oa, lda), block(vb, ob, ldb), block(vc, oc, ldc);
        const int64_t am = na ? A.m() : A.n(), ak = na ? A.n() : A.m(), bk = nbt ? B.m() : B.n(), bn = nbt ? B.n() : B.m();
        bool ok = valid(ta, "NTC") && valid(tb, "NTC") && A.nb() == C.nb() && B.nb() == C.nb() && ak == bk &&
                  C.m() == am && C.n() == bn;
        if (ok) {
            Footprint fp(total);
            fp.mark(oa, A.m(), A.n(), lda, false), fp.mark(ob, B.m(), B.n(), ldb, false);
            ok = !fp.mark(oc, C.m(), C.n(), ldc, true);
        }
        std::vector<double> expected = buffer;
        if (ok)
            blas::gemm(Op(na ? 'N' : 'T'), Op(nbt ? 'N' : 'T'), int(C.m()), int(C.n()), int(ak), 0.5,
                       expected.data() + oa, int(lda), expected.data() + ob, int(ldb), 2.0, expected.data() + oc,
                       int(ldc));
        try {
            ASSERT_EQ(gemm(Op(ta), Op(tb), 0.5, A, B, 2.0, C), 0);
        } catch (const grain::invalid_argument& e) {
            ++refused;
            EXPECT_FALSE(ok) << "call " << calls << " refused valid input: " << e.what();
            continue;
        }
        ++accepted;
        ASSERT_TRUE(ok) << "call " << calls << " accepted invalid views: grids " << va.grid << "," << vb.grid << ","
                        << vc.grid << " nb " << A.nb() << "," << B.nb() << "," << C.nb();
        matrices.clear();  // the last views go: the tiles are unregistered, the buffer is current
        for (auto& v : views) v.reset();
        const double scale = std::max(1.0, max_abs(expected)) * 200 * eps * double(std::max<int64_t>(1, ak));
        for (size_t i = 0; i < total; ++i) ASSERT_NEAR(buffer[i], expected[i], scale) << "call " << calls << " element " << i;
    }
    std::printf("fuzz: %d calls, %d accepted, %d refused\n", calls, accepted, refused);
    EXPECT_GT(accepted, calls / 4);
    EXPECT_GT(refused, calls / 20);
}

// The pivots under random input: getrs on random ipiv contents (getrf's, with entries
// replaced by anything from INT_MIN to INT_MAX), and getrf and gesv with ipiv anywhere in
// one buffer with A and B, overlapping them or not. Every call either throws
// invalid_argument (an index outside [i + 1, n], an ipiv sharing a byte with A or B,
// as the oracle decides) with B untouched, or gives LAPACK's answer.
TEST(Fuzz, PivotsGiveAnErrorOrLapacksAnswer) {
    Fuzz f;
    const auto start = std::chrono::steady_clock::now();
    int calls = 0, accepted = 0, refused = 0;
    ::setenv("GRAIN_NB", "8", 1);
    for (; calls < 3000 && std::chrono::steady_clock::now() - start < std::chrono::seconds(6); ++calls) {
        const int n = 1 + int(f.below(30)), nrhs = 1 + int(f.below(3));
        // A (n x n), B (n x nrhs) and ipiv (n ints) at random byte offsets of one buffer.
        const int64_t total = 8 * (n * n + n * nrhs) + 4 * n + 512;  // room for the gaps below
        std::vector<double> storage(size_t(total / 8 + 1));
        char* bytes = reinterpret_cast<char*>(storage.data());
        const int64_t oa = 8 * f.below(16), ob = oa + 8 * n * n + 8 * f.below(16) - (f.chance(0.2) ? 8 * f.below(n * n) : 0);
        const int64_t op = f.chance(0.6) ? ob + 8 * n * nrhs + 4 * f.below(8) : 4 * f.below((total - 4 * n) / 4);
        double* a = reinterpret_cast<double*>(bytes + oa);
        double* b = reinterpret_cast<double*>(bytes + std::max<int64_t>(0, ob));
        int* ipiv = reinterpret_cast<int*>(bytes + op);
        const auto meets = [](int64_t x0, int64_t x1, int64_t y0, int64_t y1) { return x0 < y1 && y0 < x1; };
        const bool ab = meets(oa, oa + 8 * n * n, ob, ob + 8 * n * nrhs) || ob < 0;
        const bool pa = meets(op, op + 4 * n, oa, oa + 8 * n * n), pb = meets(op, op + 4 * n, ob, ob + 8 * n * nrhs);
        if (ab) continue;  // the matrices' own aliasing: the other fuzzer's
        for (int64_t i = 0; i < n * n; ++i) a[i] = f.random.uniform();
        for (int64_t i = 0; i < n; ++i) a[i + i * n] += 0.5;  // nonsingular, pivoting still chosen by values
        for (int64_t i = 0; i < n * nrhs; ++i) b[i] = f.random.uniform();
        const int routine = int(f.below(3));  // getrf, gesv, getrs on ipiv of getrf's with entries changed
        bool ok = true;
        std::vector<double> fa(a, a + n * n), fb(b, b + n * nrhs);
        std::vector<int> expected_ipiv(static_cast<size_t>(n));
        std::vector<int> given;
        if (routine == 2) {
            if (pa) continue;  // getrs reads A: an ipiv inside it changes A's values too
            ASSERT_EQ(blas::getrf(n, n, a, n, expected_ipiv.data()), 0);
            fa.assign(a, a + n * n);
            given = expected_ipiv;
            for (int e = int(f.below(3)); e > 0; --e) {
                const int candidates[] = {0, -1, n + 1, INT32_MAX, INT32_MIN, int(f.below(n)) + 1, n};
                given[size_t(f.below(n))] = candidates[f.below(7)];
            }
            for (int i = 0; i < n; ++i) ok = ok && given[size_t(i)] > i && given[size_t(i)] <= n;
            ok = ok && !pb;
            if (ok) {
                ASSERT_EQ(blas::getrs(Op::NoTrans, n, nrhs, fa.data(), n, given.data(), fb.data(), n), 0);
            }
            std::copy(given.begin(), given.end(), ipiv);
        } else {
            ok = !pa && !(routine == 1 && pb);
            if (ok) {
                ASSERT_EQ(blas::getrf(n, n, fa.data(), n, expected_ipiv.data()), 0);
                if (routine == 1) {
                    ASSERT_EQ(blas::getrs(Op::NoTrans, n, nrhs, fa.data(), n, expected_ipiv.data(), fb.data(), n), 0);
                }
            }
        }
        const std::vector<double> b_before(b, b + n * nrhs);
        int info = -1;
        try {
            info = routine == 0   ? getrf(int64_t(n), int64_t(n), a, int64_t(n), ipiv)
                   : routine == 1 ? gesv(int64_t(n), int64_t(nrhs), a, int64_t(n), ipiv, b, int64_t(n))
                                  : getrs(Op::NoTrans, int64_t(n), int64_t(nrhs), a, int64_t(n), ipiv, b, int64_t(n));
        } catch (const grain::invalid_argument& e) {
            ++refused;
            EXPECT_FALSE(ok) << "call " << calls << " refused valid input: " << e.what();
            EXPECT_EQ(std::string(e.argument()).rfind("ipiv", 0), 0u) << e.what();
            if (!pb) {
                ASSERT_TRUE(std::equal(b, b + n * nrhs, b_before.begin())) << "call " << calls << " wrote B";
            }
            continue;
        }
        ++accepted;
        ASSERT_TRUE(ok) << "call " << calls << " (routine " << routine << ", n " << n << ") accepted invalid pivots";
        ASSERT_EQ(info, 0);
        const double scale = 1e3 * std::numeric_limits<double>::epsilon() * n;
        if (routine != 2) {
            for (int i = 0; i < n; ++i) ASSERT_EQ(ipiv[i], expected_ipiv[size_t(i)]) << "call " << calls;
            for (int64_t i = 0; i < n * n; ++i) ASSERT_NEAR(a[i], fa[size_t(i)], scale) << "call " << calls;
        }
        if (routine != 0) {
            const double bmax = std::max(1.0, max_abs(fb));
            for (int64_t i = 0; i < n * nrhs; ++i) ASSERT_NEAR(b[i], fb[size_t(i)], scale * bmax * 100) << "call " << calls;
        }
    }
    ::unsetenv("GRAIN_NB");
    std::printf("fuzz: %d pivot calls, %d accepted, %d refused\n", calls, accepted, refused);
    EXPECT_GT(accepted, calls / 5);
    EXPECT_GT(refused, calls / 10);
}

}  // namespace
}  // namespace grain::test
