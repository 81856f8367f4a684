// Invalid arguments throw grain::invalid_argument naming the argument.
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <utility>

#include "common.hpp"

namespace grain::test {
namespace {

TEST(Errors, MatrixDimensions) {
    std::vector<double> a(100);
    expect_invalid("m", [] { Matrix<double>(-1, 5, 16); });
    expect_invalid("n", [] { Matrix<double>(5, -2, 16); });
    expect_invalid("nb", [] { Matrix<double>(5, 5, 0); });
    expect_invalid("nb", [] { Matrix<float>(5, 5, -3); });
    expect_invalid("lda", [&] { Matrix<double>(10, 5, 16, a.data(), 9); });
    expect_invalid("a", [] { Matrix<double>(10, 5, 16, nullptr, 10); });
    Matrix<double> A(40, 40, 16);
    expect_invalid("lda", [&] { A.from_lapack(a.data(), 39); });
    expect_invalid("lda", [&] { A.to_lapack(a.data(), 0); });
    expect_invalid("i2", [&] { A.sub(1, 3, 0, 0); });
    expect_invalid("i1", [&] { A.sub(-1, 0, 0, 0); });
    expect_invalid("j2", [&] { A.sub(0, 0, 2, 1); });
}

// Every size product is checked before anything is allocated or registered: a tile is
// at most 65535 x 65535 (StarPU 1.3 counts its elements in 32 bits), a matrix has at
// most 2^31 - 1 tiles, and its storage spans less than 2^63 bytes.
TEST(Errors, SizesThatOverflowAreRefused) {
    const int64_t big = int64_t(1) << 31;
    expect_invalid("nb", [&] { Matrix<double>(big, big, 1 << 30); });
    expect_invalid("nb", [] { Matrix<double>(10, 10, 65536); });
    expect_invalid("scales", [] { Matrix<float>(10, 10, std::vector<int>{131072, 65536}); });
    EXPECT_NO_THROW(Matrix<double>(10, 10, 65535));
    expect_invalid("m * n", [&] { Matrix<double>(big, big, 65535); });
    expect_invalid("nb", [&] { Matrix<double>(4 * big, 4 * big, 1); });  // 2^66 tiles
    std::vector<double> a(4);
    expect_invalid("nb", [&] { Matrix<double>(2, 2, 1 << 30, a.data(), 2); });
    expect_invalid("lda * (n - 1) + m", [&] { Matrix<double>(2, int64_t(1) << 40, 65535, a.data(), 4294967295); });
    expect_invalid("lda", [&] { Matrix<double>(2, 2, 16, a.data(), int64_t(1) << 32); });
    ::setenv("GRAIN_NB", "1073741824", 1);  // the LAPACK-layout routines' tile size
    expect_invalid("GRAIN_NB", [&] { potrf(Uplo::Lower, int64_t(2), a.data(), 2); });
    ::unsetenv("GRAIN_NB");
}

TEST(Errors, MismatchedShapes) {
    Matrix<double> A(30, 20, 16), B(30, 5, 16), C(30, 5, 16), S(20, 20, 16), other_nb(20, 5, 8);
    expect_invalid("rows of op(B)", [&] { gemm(Op::NoTrans, Op::NoTrans, 1.0, A, B, 0.0, C); });
    expect_invalid("C.m", [&] { gemm(Op::Trans, Op::NoTrans, 1.0, A, B, 0.0, C); });
    expect_invalid("B.nb", [&] { gemm(Op::NoTrans, Op::NoTrans, 1.0, A, other_nb, 0.0, C); });
    expect_invalid("A.n", [&] { trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, 1.0, A, B); });
    expect_invalid("B.m", [&] { trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, 1.0, S, B); });
    expect_invalid("B.n", [&] { trsm(Side::Right, Uplo::Lower, Op::NoTrans, Diag::Unit, 1.0, S, B); });
    expect_invalid("C.n", [&] { syrk(Uplo::Lower, Op::NoTrans, 1.0, A, 0.0, C); });
    expect_invalid("A.n", [&] { potrf(Uplo::Lower, A); });
    expect_invalid("B.m", [&] { potrs(Uplo::Lower, S, B); });
    expect_invalid("B.m", [&] { posv(Uplo::Lower, S, B); });
    expect_invalid("A.n", [&] { getrs_nopiv(A, B); });
    expect_invalid("B.m", [&] { gesv_nopiv(S, B); });
}

TEST(Errors, OutputsMustNotOverlapInputs) {
    Matrix<double> S(32, 32, 16);
    Matrix<double> view = S.sub(0, 0, 0, 1);  // tile row 0 of S
    expect_invalid("C", [&] { gemm(Op::NoTrans, Op::NoTrans, 1.0, S, S, 0.0, S); });
    expect_invalid("B", [&] { potrs(Uplo::Lower, S, S); });
    Matrix<double> top = S.sub(0, 0, 0, 0), bottom = S.sub(1, 1, 0, 0);
    Matrix<double> C(16, 16, 16);
    EXPECT_NO_THROW(gemm(Op::NoTrans, Op::Trans, 1.0, top, bottom, 0.0, C));  // disjoint views
    (void)view;
}

// Two grids over one user array (two Matrix objects, or LAPACK-layout pointers): an
// output sharing even one element with an input is refused; blocks whose address ranges
// interleave but share no element (A21, A12 and A22 of one matrix) stay legal.
TEST(Errors, OutputsMustNotShareElementsThroughAUserArray) {
    const int64_t n = 40, ld = 45, h = 20;
    std::vector<double> a(size_t(ld * n));
    for (size_t i = 0; i < a.size(); ++i) a[i] = double(i % 7) - 3;
    std::vector<double> b(size_t(n * n), 1.0);
    Matrix<double> A(n, n, 16, a.data(), ld), C(n, n, 16, a.data(), ld), B(n, n, 16, b.data(), n);
    expect_invalid("C", [&] { gemm(Op::NoTrans, Op::NoTrans, 1.0, A, B, 0.0, C); });
    expect_invalid("C", [&] { gemm(Op::NoTrans, Op::NoTrans, n, n, n, 1.0, a.data(), ld, b.data(), n, 0.0, a.data(), ld); });
    expect_invalid("B", [&] { trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, 1.0, A, C); });
    expect_invalid("C", [&] { syrk(Uplo::Lower, Op::NoTrans, n, n, 1.0, a.data(), ld, 0.0, a.data(), ld); });
    expect_invalid("B", [&] { posv(Uplo::Lower, n, n, a.data(), ld, a.data() + 5, ld); });
    // One shared element: C's first is A11's last.
    double* corner = a.data() + (h - 1) + (h - 1) * ld;
    expect_invalid("C", [&] { gemm(Op::NoTrans, Op::NoTrans, h, h, h, 1.0, a.data(), ld, b.data(), n, 0.0, corner, ld); });
    // A22 -= A21 * A12, as LAPACK's own blocked routines call gemm.
    double *a21 = a.data() + h, *a12 = a.data() + h * ld, *a22 = a.data() + h + h * ld;
    std::vector<double> expected(a);
    for (int64_t j = 0; j < h; ++j)
        for (int64_t i = 0; i < h; ++i)
            for (int64_t l = 0; l < h; ++l) expected[size_t(h + i + (h + j) * ld)] -= a21[i + l * ld] * a12[l + j * ld];
    EXPECT_EQ(gemm(Op::NoTrans, Op::NoTrans, h, h, h, -1.0, a21, ld, a12, ld, 1.0, a22, ld), 0);
    for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], expected[i], 1e-12) << "element " << i;
    // The same with different leading dimensions: A's rows 0..19 against a 20 x 20 block
    // of stride 2 * ld placed in A's rows 20..39 - interleaved, disjoint.
    Matrix<double> top(h, h, 16, a.data(), ld), bottom(h, h / 2, 16, a.data() + h, 2 * ld);
    Matrix<double> small(h, h / 2, 16, b.data(), n);
    EXPECT_NO_THROW(gemm(Op::NoTrans, Op::NoTrans, 1.0, top, small, 0.0, bottom));
}

TEST(Errors, LapackLayoutArguments) {
    std::vector<double> a(400), b(400);
    expect_invalid("n", [&] { potrf(Uplo::Lower, int64_t(-1), a.data(), 10); });
    expect_invalid("lda", [&] { potrf(Uplo::Lower, int64_t(10), a.data(), 9); });
    expect_invalid("ldb", [&] { potrs(Uplo::Lower, 10, 2, a.data(), 10, b.data(), 5); });
    expect_invalid("nrhs", [&] { posv(Uplo::Lower, 10, -2, a.data(), 10, b.data(), 10); });
    expect_invalid("k", [&] {
        gemm(Op::NoTrans, Op::NoTrans, 5, 5, -1, 1.0, a.data(), 5, b.data(), 5, 0.0, b.data(), 5);
    });
    expect_invalid("lda", [&] {  // A is k x m when transposed: lda must cover k
        gemm(Op::Trans, Op::NoTrans, 5, 5, 8, 1.0, a.data(), 5, b.data(), 8, 0.0, b.data() + 100, 5);
    });
    expect_invalid("m", [&] { getrf_nopiv(int64_t(-3), int64_t(4), a.data(), 4); });
    ::setenv("GRAIN_NB", "zero", 1);
    expect_invalid("GRAIN_NB", [&] { potrf(Uplo::Lower, int64_t(4), a.data(), 4); });
    ::setenv("GRAIN_NB", "70000", 1);  // the message says the real limit
    try {
        potrf(Uplo::Lower, int64_t(4), a.data(), 4);
        ADD_FAILURE() << "GRAIN_NB=70000 accepted";
    } catch (const grain::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("from 1 to 65535"), std::string::npos) << e.what();
    }
    ::unsetenv("GRAIN_NB");
    for (const char* ladder : {"32,x", "32,,16", "", "0", "-8"}) {
        ::setenv("GRAIN_SCALES", ladder, 1);
        if (*ladder) expect_invalid("GRAIN_SCALES", [&] { potrf(Uplo::Lower, int64_t(4), a.data(), 4); });
    }
    // Ladders that parse but are not ladders: refused naming the variable, not the Matrix.
    for (const char* ladder : {"32,24", "1024,333", "64,128", "512,256,128,64,32,16,8,4,2"}) {
        ::setenv("GRAIN_SCALES", ladder, 1);
        expect_invalid("GRAIN_SCALES", [&] { potrf(Uplo::Lower, int64_t(4), a.data(), 4); });
    }
    ::unsetenv("GRAIN_SCALES");
}

// The pivots are an output of getrf and gesv and an input of getrs: they may share no
// element with a matrix of the call, whichever form gives them.
TEST(Errors, PivotsMustNotShareElementsWithAMatrix) {
    const int64_t n = 40;
    std::vector<double> a(size_t(n * n) + 100), b(size_t(n) + 100);
    int* in_a = reinterpret_cast<int*>(a.data() + 7);
    int* in_b = reinterpret_cast<int*>(b.data() + 3);
    const std::vector<double> b_before = b;
    expect_invalid("ipiv", [&] { getrf(n, n, a.data(), n, in_a); });
    expect_invalid("ipiv", [&] { gesv(n, int64_t(1), a.data(), n, in_b, b.data(), n); });
    expect_invalid("ipiv", [&] { gesv(n, int64_t(1), a.data(), n, in_a, b.data(), n); });
    expect_invalid("ipiv", [&] { getrs(Op::NoTrans, n, int64_t(1), a.data(), n, in_b, b.data(), n); });
    EXPECT_EQ(b, b_before);
    // The tiled forms over the same arrays.
    Matrix<double> A(n, n, nb, a.data(), n), B(n, 1, nb, b.data(), n);
    Pivots pa(n, in_a), pb(n, in_b);
    expect_invalid("ipiv", [&] { getrf(A, pa); });
    expect_invalid("ipiv", [&] { gesv(A, pb, B); });
    expect_invalid("ipiv", [&] { getrs(Op::NoTrans, A, pb, B); });
    // Just past the matrices' last elements, they share none: accepted.
    Array<double> M = random_array<double>(n, n, Kind::General, rng());
    std::vector<double> both(size_t(n * n) + size_t(n));
    std::copy(M.data(), M.data() + n * n, both.begin());
    EXPECT_EQ(getrf(n, n, both.data(), n, reinterpret_cast<int*>(both.data() + n * n)), 0);
}

// getrs applies the pivots as getrf writes them, ipiv[i] in [i + 1, n] (1-based), and
// refuses any other before it touches B: a pivot of 0 or past n would swap a row
// outside B.
TEST(Errors, GetrsChecksThePivots) {
    const int64_t n = 37, nrhs = 3;
    const Array<double> A0 = random_array<double>(n, n, Kind::General, rng());
    Array<double> F = A0;
    std::vector<int> ipiv(n);
    ASSERT_EQ(getrf(n, n, F.data(), n, ipiv.data()), 0);
    const Array<double> B0 = random_array<double>(n, nrhs, Kind::General, rng());
    for (const auto& [index, value] : std::vector<std::pair<int, int>>{
             {0, 0}, {5, int(n) + 1}, {36, -1}, {20, 20}, {9, 1}, {3, INT32_MAX}, {12, INT32_MIN}}) {
        std::vector<int> bad = ipiv;
        bad[size_t(index)] = value;
        Array<double> B = B0;
        const std::string name = "ipiv[" + std::to_string(index) + "]";
        expect_invalid(name, [&] { getrs(Op::NoTrans, n, nrhs, F.data(), n, bad.data(), B.data(), n); });
        EXPECT_TRUE(std::equal(B.data(), B.data() + n * nrhs, B0.data())) << name << " = " << value;
        Matrix<double> FA(n, n, nb, F.data(), n), BB(n, nrhs, nb, B.data(), n);
        const Pivots p(n, bad.data());
        expect_invalid(name, [&] { getrs(Op::Trans, FA, p, BB); });
    }
    // Valid pivots other than getrf's (each row swapped with the last) are applied.
    const std::vector<int> last(static_cast<size_t>(n), static_cast<int>(n));
    Array<double> B = B0, X = B0;
    EXPECT_EQ(getrs(Op::NoTrans, n, nrhs, F.data(), n, last.data(), B.data(), n), 0);
    EXPECT_EQ(blas::getrs(Op::NoTrans, int(n), int(nrhs), F.data(), int(n), last.data(), X.data(), int(n)), 0);
    EXPECT_LT(testing::norm('M', testing::minus(B, X)), 1e-10 * testing::norm('M', X));
}

TEST(Errors, RuntimeOptions) {
    RuntimeOptions zero;
    zero.ncpu = 0;
    expect_invalid("ncpu", [&] { Runtime r(zero); });
    RuntimeOptions memory;
    memory.gpu_memory = 0;
    expect_invalid("gpu_memory", [&] { Runtime r(memory); });
    ::setenv("GRAIN_GPU_MEMORY", "lots", 1);  // errors name the variable a value came from
    expect_invalid("GRAIN_GPU_MEMORY", [&] { Runtime r; });
    ::unsetenv("GRAIN_GPU_MEMORY");
    if (!Runtime::has_cuda()) {  // GPUs asked of a build without GPU kernels
        RuntimeOptions gpus;
        gpus.ngpu = 1;
        expect_invalid("ngpu", [&] { Runtime r(gpus); });
        ::setenv("GRAIN_NGPU", "2", 1);
        expect_invalid("GRAIN_NGPU", [&] { Runtime r; });
        ::unsetenv("GRAIN_NGPU");
    }
    EXPECT_THROW(Runtime(), grain::runtime_error);  // one is alive already
}

// Every enum argument of every routine is checked, in both layouts and the _async forms:
// a value that is none of the enum's letters is refused, naming the argument.
TEST(Errors, EnumArgumentsAreChecked) {
    Matrix<double> A(20, 20, 16), B(20, 20, 16), C(20, 20, 16);
    std::vector<double> a(400), b(400), c(400);
    const Op bad_op = Op('X');
    const Uplo bad_uplo = Uplo('X');
    const Side bad_side = Side('Q');
    const Diag bad_diag = Diag('Z');
    const Op N = Op::NoTrans;
    const Uplo L = Uplo::Lower;
    expect_invalid("transa", [&] { gemm(bad_op, N, 1.0, A, B, 0.0, C); });
    expect_invalid("transb", [&] { gemm_async(N, bad_op, 1.0, A, B, 0.0, C); });
    expect_invalid("transa", [&] { gemm(bad_op, N, 20, 20, 20, 1.0, a.data(), 20, b.data(), 20, 0.0, c.data(), 20); });
    expect_invalid("side", [&] { trsm(bad_side, L, N, Diag::Unit, 1.0, A, B); });
    expect_invalid("uplo", [&] { trsm_async(Side::Left, bad_uplo, N, Diag::Unit, 1.0, A, B); });
    expect_invalid("trans", [&] { trsm(Side::Left, L, bad_op, Diag::Unit, 1.0, A, B); });
    expect_invalid("diag", [&] { trsm(Side::Left, L, N, bad_diag, 20, 20, 1.0, a.data(), 20, b.data(), 20); });
    expect_invalid("uplo", [&] { syrk(bad_uplo, N, 1.0, A, 0.0, C); });
    expect_invalid("trans", [&] { syrk(L, bad_op, 20, 20, 1.0, a.data(), 20, 0.0, c.data(), 20); });
    expect_invalid("uplo", [&] { potrf(bad_uplo, A); });
    expect_invalid("uplo", [&] { potrf_async(Uplo('l' + 1), A); });
    expect_invalid("uplo", [&] { potrf(bad_uplo, 20, a.data(), 20); });
    expect_invalid("uplo", [&] { potrs(bad_uplo, A, B); });
    expect_invalid("uplo", [&] { posv(bad_uplo, A, B); });
    expect_invalid("uplo", [&] { posv_async(bad_uplo, A, B); });
    expect_invalid("uplo", [&] { posv(bad_uplo, 20, 20, a.data(), 20, b.data(), 20); });
    for (const double x : a) EXPECT_EQ(x, 0.0);  // refused before any write
}

// Lowercase letters mean what LAPACK takes them to mean, and so does a real Op 'C'
// (the transpose): each call gives what the same call with the enum's own values gives.
TEST(Errors, LapackLettersMeanWhatLapackSays) {
    const int n = 45;
    const auto same = [](const Array<double>& x, const Array<double>& y) {
        double diff = 0, norm = 0;
        for (int64_t j = 0; j < x.n; ++j)
            for (int64_t i = 0; i < x.m; ++i) {
                diff = std::max(diff, std::abs(x(i, j) - y(i, j)));
                norm = std::max(norm, std::abs(y(i, j)));
            }
        return diff <= 1e-13 * norm;
    };
    const Array<double> spd = random_array<double>(n, n, Kind::Spd, rng());
    for (const auto& [letter, uplo] : {std::pair{'l', Uplo::Lower}, std::pair{'u', Uplo::Upper}}) {
        Matrix<double> X = tiles_of(spd, nb), Y = tiles_of(spd, nb);
        ASSERT_EQ(potrf(Uplo(letter), X), 0);
        ASSERT_EQ(potrf(uplo, Y), 0);
        EXPECT_TRUE(same(to_array(X), to_array(Y))) << letter;
    }
    const Array<double> g = random_array<double>(n, n, Kind::General, rng());
    const Array<double> tri = random_array<double>(n, n, Kind::DiagonallyDominant, rng());
    Matrix<double> A = tiles_of(g, nb), B = tiles_of(g, nb), T = tiles_of(tri, nb);
    Matrix<double> C1(n, n, nb), C2(n, n, nb);
    ASSERT_EQ(gemm(Op('C'), Op('n'), 1.0, A, B, 0.0, C1), 0);
    ASSERT_EQ(gemm(Op::Trans, Op::NoTrans, 1.0, A, B, 0.0, C2), 0);
    EXPECT_TRUE(same(to_array(C1), to_array(C2)));
    Matrix<double> X1 = tiles_of(g, nb), X2 = tiles_of(g, nb);
    ASSERT_EQ(trsm(Side('r'), Uplo('u'), Op('t'), Diag('u'), 2.0, T, X1), 0);
    ASSERT_EQ(trsm(Side::Right, Uplo::Upper, Op::Trans, Diag::Unit, 2.0, T, X2), 0);
    EXPECT_TRUE(same(to_array(X1), to_array(X2)));
    Matrix<double> S1(n, n, nb), S2(n, n, nb);
    ASSERT_EQ(syrk(Uplo('u'), Op('c'), 1.0, A, 0.0, S1), 0);
    ASSERT_EQ(syrk(Uplo::Upper, Op::Trans, 1.0, A, 0.0, S2), 0);
    EXPECT_TRUE(same(to_array(S1), to_array(S2)));
}

// In complex precisions, as in BLAS: syrk takes no ConjTrans and herk no Trans (each is
// refused, naming trans, in both layouts), and herk in a real precision is syrk.
TEST(Errors, ComplexOpsAreThoseOfBlas) {
    using Z = std::complex<double>;
    Matrix<Z> A(20, 20, 16), C(20, 20, 16);
    std::vector<Z> a(400), c(400, Z(3, -1));
    expect_invalid("trans", [&] { syrk(Uplo::Lower, Op::ConjTrans, Z(1), A, Z(0), C); });
    expect_invalid("trans", [&] { syrk(Uplo::Lower, Op('c'), 20, 20, Z(1), a.data(), 20, Z(0), c.data(), 20); });
    expect_invalid("trans", [&] { herk(Uplo::Lower, Op::Trans, 1.0, A, 0.0, C); });
    expect_invalid("trans", [&] { herk_async(Uplo::Upper, Op('t'), 1.0, A, 0.0, C); });
    expect_invalid("trans", [&] { herk(Uplo::Lower, Op::Trans, 20, 20, 1.0, a.data(), 20, 0.0, c.data(), 20); });
    for (const Z& x : c) EXPECT_EQ(x, Z(3, -1));  // refused before any write

    const int n = 37;
    const Array<double> g = random_array<double>(n, 20, Kind::General, rng());
    Matrix<double> G = tiles_of(g, nb), H1(n, n, nb), H2(n, n, nb);
    ASSERT_EQ(herk(Uplo::Lower, Op::NoTrans, 2.0, G, 0.0, H1), 0);
    ASSERT_EQ(syrk(Uplo::Lower, Op::NoTrans, 2.0, G, 0.0, H2), 0);
    EXPECT_EQ(to_array(H1).a, to_array(H2).a);
}

}  // namespace
}  // namespace grain::test
