// Invalid arguments throw grain::invalid_argument naming the argument.
#include <cstdlib>

#include "common.hpp"

namespace grain::test {
namespace {

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
    ::unsetenv("GRAIN_NB");
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

}  // namespace
}  // namespace grain::test
