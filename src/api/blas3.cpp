// The BLAS 3 routines: gemm, trsm, trmm, symm, hemm, syrk, herk, syr2k, her2k. One plan each (call.hpp); the tiled forms
// come from it, the LAPACK-layout form wraps the arrays and calls the tiled one.
#include "call.hpp"
#include "layout_call.hpp"

namespace grain {

using detail::Context;
using detail::Plan;

namespace {

using namespace detail;

template <typename T>
Plan<T> gemm_plan(Op transa, Op transb, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C) {
    Plan<T> p("grain::gemm", {&A, &B, &C}, {int64_t(transa), int64_t(transb)});
    p.agreement().add_scalars(alpha, beta);
    const char* routine = p.routine;
    transa = checked<T>(routine, "transa", transa);
    transb = checked<T>(routine, "transb", transb);
    require_runtime(routine);
    require_same_tiles(routine, A, "B", B);
    require_same_tiles(routine, A, "C", C);
    const int64_t am = transa == Op::NoTrans ? A.m() : A.n(), ak = transa == Op::NoTrans ? A.n() : A.m();
    const int64_t bk = transb == Op::NoTrans ? B.m() : B.n(), bn = transb == Op::NoTrans ? B.n() : B.m();
    require_rows(routine, "rows of op(B)", bk, ak, "columns of op(A)");
    require_rows(routine, "C.m", C.m(), am, "rows of op(A)");
    require_rows(routine, "C.n", C.n(), bn, "columns of op(B)");
    require_disjoint(routine, C, "C", A, "A");
    require_disjoint(routine, C, "C", B, "B");
    p.step({&C}, [=, &A, &B, &C](const Context& ctx) { algorithms::gemm(ctx, transa, transb, alpha, A, B, beta, C); });
    return p;
}

// trsm and trmm (`product`): B = alpha op(A)^-1 B or alpha op(A) B, or B on the left.
template <typename T>
Plan<T> triangular_plan(const char* routine, bool product, Side side, Uplo uplo, Op trans, Diag diag, T alpha,
                        const Matrix<T>& A, Matrix<T>& B) {
    Plan<T> p(routine, {&A, &B}, {int64_t(side), int64_t(uplo), int64_t(trans), int64_t(diag)});
    p.agreement().add_scalars(alpha);
    side = checked(routine, "side", side);
    uplo = checked(routine, "uplo", uplo);
    trans = checked<T>(routine, "trans", trans);
    diag = checked(routine, "diag", diag);
    require_runtime(routine);
    require_same_tiles(routine, A, "B", B);
    require_square(routine, "A", A);
    if (side == Side::Left)
        require_rows(routine, "B.m", B.m(), A.m(), "the order of A");
    else
        require_rows(routine, "B.n", B.n(), A.m(), "the order of A");
    require_disjoint(routine, B, "B", A, "A");
    p.step({&B}, [=, &A, &B](const Context& ctx) {
        (product ? algorithms::trmm<T> : algorithms::trsm<T>)(ctx, side, uplo, trans, diag, alpha, A, B);
    });
    return p;
}

template <typename T>
Plan<T> trsm_plan(Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A, Matrix<T>& B) {
    return triangular_plan("grain::trsm", false, side, uplo, trans, diag, alpha, A, B);
}

template <typename T>
Plan<T> trmm_plan(Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A, Matrix<T>& B) {
    return triangular_plan("grain::trmm", true, side, uplo, trans, diag, alpha, A, B);
}

// symm and hemm (hermitian): C = alpha A B + beta C or alpha B A + beta C, A symmetric or
// Hermitian.
template <typename T>
Plan<T> symmetric_plan(const char* routine, bool hermitian, Side side, Uplo uplo, T alpha, const Matrix<T>& A,
                       const Matrix<T>& B, T beta, Matrix<T>& C) {
    Plan<T> p(routine, {&A, &B, &C}, {int64_t(side), int64_t(uplo)});
    p.agreement().add_scalars(alpha, beta);
    side = checked(routine, "side", side);
    uplo = checked(routine, "uplo", uplo);
    require_runtime(routine);
    require_same_tiles(routine, A, "B", B);
    require_same_tiles(routine, A, "C", C);
    require_square(routine, "A", A);
    require_rows(routine, side == Side::Left ? "C.m" : "C.n", side == Side::Left ? C.m() : C.n(), A.m(),
                 "the order of A");
    require_rows(routine, "B.m", B.m(), C.m(), "C.m");
    require_rows(routine, "B.n", B.n(), C.n(), "C.n");
    require_disjoint(routine, C, "C", A, "A");
    require_disjoint(routine, C, "C", B, "B");
    p.step({&C}, [=, &A, &B, &C](const Context& ctx) {
        algorithms::symm(ctx, hermitian, side, uplo, alpha, A, B, beta, C);
    });
    return p;
}

template <typename T>
Plan<T> symm_plan(Side side, Uplo uplo, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C) {
    return symmetric_plan("grain::symm", false, side, uplo, alpha, A, B, beta, C);
}

template <typename T>
Plan<T> hemm_plan(Side side, Uplo uplo, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C) {
    return symmetric_plan("grain::hemm", true, side, uplo, alpha, A, B, beta, C);
}

// syr2k and her2k (hermitian): C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C, or
// with ^H and conj(alpha).
template <typename T>
Plan<T> rank_2k_plan(const char* routine, bool hermitian, Uplo uplo, Op trans, T alpha, const Matrix<T>& A,
                     const Matrix<T>& B, T beta, Matrix<T>& C) {
    Plan<T> p(routine, {&A, &B, &C}, {int64_t(uplo), int64_t(trans)});
    p.agreement().add_scalars(alpha, beta);
    uplo = checked(routine, "uplo", uplo);
    trans = checked<T>(routine, "trans", trans, hermitian ? Ops::Hermitian : Ops::Symmetric);
    require_runtime(routine);
    require_same_tiles(routine, A, "B", B);
    require_same_tiles(routine, A, "C", C);
    require_square(routine, "C", C);
    require_rows(routine, "rows of op(A)", trans == Op::NoTrans ? A.m() : A.n(), C.m(), "the order of C");
    require_rows(routine, "B.m", B.m(), A.m(), "A.m");
    require_rows(routine, "B.n", B.n(), A.n(), "A.n");
    require_disjoint(routine, C, "C", A, "A");
    require_disjoint(routine, C, "C", B, "B");
    p.step({&C}, [=, &A, &B, &C](const Context& ctx) {
        algorithms::syr2k(ctx, hermitian, uplo, trans, alpha, A, B, beta, C);
    });
    return p;
}

template <typename T>
Plan<T> syr2k_plan(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C) {
    return rank_2k_plan("grain::syr2k", false, uplo, trans, alpha, A, B, beta, C);
}

template <typename T>
Plan<T> her2k_plan(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, const Matrix<T>& B, real_type<T> beta,
                   Matrix<T>& C) {
    return rank_2k_plan("grain::her2k", true, uplo, trans, alpha, A, B, T(beta), C);
}

// syrk and herk (hermitian): C = alpha op(A) op(A)^T or ^H + beta C.
template <typename T>
Plan<T> rank_k_plan(const char* routine, bool hermitian, Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta,
                    Matrix<T>& C) {
    Plan<T> p(routine, {&A, &C}, {int64_t(uplo), int64_t(trans)});
    p.agreement().add_scalars(alpha, beta);
    uplo = checked(routine, "uplo", uplo);
    trans = checked<T>(routine, "trans", trans, hermitian ? Ops::Hermitian : Ops::Symmetric);
    require_runtime(routine);
    require_same_tiles(routine, A, "C", C);
    require_square(routine, "C", C);
    require_rows(routine, "rows of op(A)", trans == Op::NoTrans ? A.m() : A.n(), C.m(), "the order of C");
    require_disjoint(routine, C, "C", A, "A");
    p.step({&C}, [=, &A, &C](const Context& ctx) {
        (hermitian ? algorithms::herk<T> : algorithms::syrk<T>)(ctx, uplo, trans, alpha, A, beta, C);
    });
    return p;
}

template <typename T>
Plan<T> syrk_plan(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta, Matrix<T>& C) {
    return rank_k_plan("grain::syrk", false, uplo, trans, alpha, A, beta, C);
}

template <typename T>
Plan<T> herk_plan(Uplo uplo, Op trans, real_type<T> alpha, const Matrix<T>& A, real_type<T> beta, Matrix<T>& C) {
    return rank_k_plan("grain::herk", true, uplo, trans, T(alpha), A, T(beta), C);
}

// The LAPACK-layout syrk and herk: their arrays as matrices, then the tiled form.
template <typename T, typename Tiled>
int rank_k(const char* routine, bool hermitian, Uplo uplo, Op trans, int64_t n, int64_t k, const T* a, int64_t lda,
           T* c, int64_t ldc, Tiled tiled) {
    LayoutCall<T> call(routine, Workload::Product);
    uplo = checked(routine, "uplo", uplo);
    trans = checked<T>(routine, "trans", trans, hermitian ? Ops::Hermitian : Ops::Symmetric);
    require_size(routine, "n", n), require_size(routine, "k", k);
    const std::vector<int> scales = call.scales(std::max(n, k));
    const bool na = trans == Op::NoTrans;
    const Matrix<T> A = call.wrap("lda", na ? n : k, na ? k : n, a, lda, scales);
    Matrix<T> C = call.wrap("ldc", n, n, c, ldc, scales);
    return call.run([&] { return tiled(uplo, trans, A, C); });
}

}  // namespace

GRAIN_TILED_FORMS(gemm, (Op transa, Op transb, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C),
                  (transa, transb, alpha, A, B, beta, C))
GRAIN_TILED_FORMS(trsm, (Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A, Matrix<T>& B),
                  (side, uplo, trans, diag, alpha, A, B))
GRAIN_TILED_FORMS(trmm, (Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A, Matrix<T>& B),
                  (side, uplo, trans, diag, alpha, A, B))
GRAIN_TILED_FORMS(symm, (Side side, Uplo uplo, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C),
                  (side, uplo, alpha, A, B, beta, C))
GRAIN_TILED_FORMS(hemm, (Side side, Uplo uplo, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C),
                  (side, uplo, alpha, A, B, beta, C))
GRAIN_TILED_FORMS(syr2k, (Uplo uplo, Op trans, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C),
                  (uplo, trans, alpha, A, B, beta, C))
GRAIN_TILED_FORMS(her2k,
                  (Uplo uplo, Op trans, T alpha, const Matrix<T>& A, const Matrix<T>& B, real_type<T> beta, Matrix<T>& C),
                  (uplo, trans, alpha, A, B, beta, C))
GRAIN_TILED_FORMS(syrk, (Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta, Matrix<T>& C),
                  (uplo, trans, alpha, A, beta, C))
GRAIN_TILED_FORMS(herk, (Uplo uplo, Op trans, real_type<T> alpha, const Matrix<T>& A, real_type<T> beta, Matrix<T>& C),
                  (uplo, trans, alpha, A, beta, C))

template <typename T>
int gemm(Op transa, Op transb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
         int64_t ldb, T beta, T* c, int64_t ldc) {
    detail::LayoutCall<T> call("grain::gemm", Workload::Product);
    const char* routine = call.routine();
    transa = detail::checked<T>(routine, "transa", transa);
    transb = detail::checked<T>(routine, "transb", transb);
    detail::require_size(routine, "m", m), detail::require_size(routine, "n", n), detail::require_size(routine, "k", k);
    const std::vector<int> scales = call.scales(std::max({m, n, k}));
    const bool na = transa == Op::NoTrans, nb = transb == Op::NoTrans;
    const Matrix<T> A = call.wrap("lda", na ? m : k, na ? k : m, a, lda, scales);
    const Matrix<T> B = call.wrap("ldb", nb ? k : n, nb ? n : k, b, ldb, scales);
    Matrix<T> C = call.wrap("ldc", m, n, c, ldc, scales);
    return call.run([&] { return gemm(transa, transb, alpha, A, B, beta, C); });
}

namespace {

// The LAPACK-layout trsm and trmm: their arrays as matrices, then the tiled form.
template <typename T, typename Tiled>
int triangular(const char* routine, Side side, Uplo uplo, Op trans, Diag diag, int64_t m, int64_t n, const T* a,
               int64_t lda, T* b, int64_t ldb, Tiled tiled) {
    detail::LayoutCall<T> call(routine, Workload::Product);
    side = detail::checked(routine, "side", side);
    uplo = detail::checked(routine, "uplo", uplo);
    trans = detail::checked<T>(routine, "trans", trans);
    diag = detail::checked(routine, "diag", diag);
    detail::require_size(routine, "m", m), detail::require_size(routine, "n", n);
    const std::vector<int> scales = call.scales(std::max(m, n));
    const int64_t order = side == Side::Left ? m : n;
    const Matrix<T> A = call.wrap("lda", order, order, a, lda, scales);
    Matrix<T> B = call.wrap("ldb", m, n, b, ldb, scales);
    return call.run([&] { return tiled(side, uplo, trans, diag, A, B); });
}

}  // namespace

template <typename T>
int trsm(Side side, Uplo uplo, Op trans, Diag diag, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, T* b,
         int64_t ldb) {
    return triangular("grain::trsm", side, uplo, trans, diag, m, n, a, lda, b, ldb,
                      [&](Side s, Uplo u, Op t, Diag d, const Matrix<T>& A, Matrix<T>& B) {
                          return trsm(s, u, t, d, alpha, A, B);
                      });
}

template <typename T>
int trmm(Side side, Uplo uplo, Op trans, Diag diag, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, T* b,
         int64_t ldb) {
    return triangular("grain::trmm", side, uplo, trans, diag, m, n, a, lda, b, ldb,
                      [&](Side s, Uplo u, Op t, Diag d, const Matrix<T>& A, Matrix<T>& B) {
                          return trmm(s, u, t, d, alpha, A, B);
                      });
}

namespace {

// The LAPACK-layout symm and hemm: A of the side's order, B and C m x n.
template <typename T, typename Tiled>
int symmetric(const char* routine, Side side, Uplo uplo, int64_t m, int64_t n, const T* a, int64_t lda, const T* b,
              int64_t ldb, T* c, int64_t ldc, Tiled tiled) {
    detail::LayoutCall<T> call(routine, Workload::Product);
    side = detail::checked(routine, "side", side);
    uplo = detail::checked(routine, "uplo", uplo);
    detail::require_size(routine, "m", m), detail::require_size(routine, "n", n);
    const std::vector<int> scales = call.scales(std::max(m, n));
    const int64_t order = side == Side::Left ? m : n;
    const Matrix<T> A = call.wrap("lda", order, order, a, lda, scales);
    const Matrix<T> B = call.wrap("ldb", m, n, b, ldb, scales);
    Matrix<T> C = call.wrap("ldc", m, n, c, ldc, scales);
    return call.run([&] { return tiled(side, uplo, A, B, C); });
}

// The LAPACK-layout syr2k and her2k: op(A) and op(B) n x k, C n x n.
template <typename T, typename Tiled>
int rank_2k(const char* routine, bool hermitian, Uplo uplo, Op trans, int64_t n, int64_t k, const T* a, int64_t lda,
            const T* b, int64_t ldb, T* c, int64_t ldc, Tiled tiled) {
    detail::LayoutCall<T> call(routine, Workload::Product);
    uplo = detail::checked(routine, "uplo", uplo);
    trans = detail::checked<T>(routine, "trans", trans, hermitian ? detail::Ops::Hermitian : detail::Ops::Symmetric);
    detail::require_size(routine, "n", n), detail::require_size(routine, "k", k);
    const std::vector<int> scales = call.scales(std::max(n, k));
    const bool na = trans == Op::NoTrans;
    const Matrix<T> A = call.wrap("lda", na ? n : k, na ? k : n, a, lda, scales);
    const Matrix<T> B = call.wrap("ldb", na ? n : k, na ? k : n, b, ldb, scales);
    Matrix<T> C = call.wrap("ldc", n, n, c, ldc, scales);
    return call.run([&] { return tiled(uplo, trans, A, B, C); });
}

}  // namespace

template <typename T>
int symm(Side side, Uplo uplo, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta,
         T* c, int64_t ldc) {
    return symmetric("grain::symm", side, uplo, m, n, a, lda, b, ldb, c, ldc,
                     [&](Side s, Uplo u, const Matrix<T>& A, const Matrix<T>& B, Matrix<T>& C) {
                         return symm(s, u, alpha, A, B, beta, C);
                     });
}

template <typename T>
int hemm(Side side, Uplo uplo, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta,
         T* c, int64_t ldc) {
    return symmetric("grain::hemm", side, uplo, m, n, a, lda, b, ldb, c, ldc,
                     [&](Side s, Uplo u, const Matrix<T>& A, const Matrix<T>& B, Matrix<T>& C) {
                         return hemm(s, u, alpha, A, B, beta, C);
                     });
}

template <typename T>
int syr2k(Uplo uplo, Op trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta,
          T* c, int64_t ldc) {
    return rank_2k("grain::syr2k", false, uplo, trans, n, k, a, lda, b, ldb, c, ldc,
                   [&](Uplo u, Op t, const Matrix<T>& A, const Matrix<T>& B, Matrix<T>& C) {
                       return syr2k(u, t, alpha, A, B, beta, C);
                   });
}

template <typename T>
int her2k(Uplo uplo, Op trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
          real_type<T> beta, T* c, int64_t ldc) {
    return rank_2k("grain::her2k", true, uplo, trans, n, k, a, lda, b, ldb, c, ldc,
                   [&](Uplo u, Op t, const Matrix<T>& A, const Matrix<T>& B, Matrix<T>& C) {
                       return her2k(u, t, alpha, A, B, beta, C);
                   });
}

template <typename T>
int syrk(Uplo uplo, Op trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, T beta, T* c, int64_t ldc) {
    return rank_k("grain::syrk", false, uplo, trans, n, k, a, lda, c, ldc,
                  [&](Uplo u, Op t, const Matrix<T>& A, Matrix<T>& C) { return syrk(u, t, alpha, A, beta, C); });
}

template <typename T>
int herk(Uplo uplo, Op trans, int64_t n, int64_t k, real_type<T> alpha, const T* a, int64_t lda, real_type<T> beta,
         T* c, int64_t ldc) {
    return rank_k("grain::herk", true, uplo, trans, n, k, a, lda, c, ldc,
                  [&](Uplo u, Op t, const Matrix<T>& A, Matrix<T>& C) { return herk(u, t, alpha, A, beta, C); });
}

#define GRAIN_INSTANTIATE(T)                                                                                    \
    template Request gemm_async<T>(Op, Op, T, const Matrix<T>&, const Matrix<T>&, T, Matrix<T>&);               \
    template int gemm<T>(Op, Op, T, const Matrix<T>&, const Matrix<T>&, T, Matrix<T>&);                         \
    template int gemm<T>(Op, Op, int64_t, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, T*,    \
                         int64_t);                                                                              \
    template Request trsm_async<T>(Side, Uplo, Op, Diag, T, const Matrix<T>&, Matrix<T>&);                      \
    template int trsm<T>(Side, Uplo, Op, Diag, T, const Matrix<T>&, Matrix<T>&);                                \
    template int trsm<T>(Side, Uplo, Op, Diag, int64_t, int64_t, T, const T*, int64_t, T*, int64_t);            \
    template Request trmm_async<T>(Side, Uplo, Op, Diag, T, const Matrix<T>&, Matrix<T>&);                      \
    template int trmm<T>(Side, Uplo, Op, Diag, T, const Matrix<T>&, Matrix<T>&);                                \
    template int trmm<T>(Side, Uplo, Op, Diag, int64_t, int64_t, T, const T*, int64_t, T*, int64_t);            \
    template Request symm_async<T>(Side, Uplo, T, const Matrix<T>&, const Matrix<T>&, T, Matrix<T>&);          \
    template int symm<T>(Side, Uplo, T, const Matrix<T>&, const Matrix<T>&, T, Matrix<T>&);                    \
    template int symm<T>(Side, Uplo, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, T*, int64_t); \
    template Request hemm_async<T>(Side, Uplo, T, const Matrix<T>&, const Matrix<T>&, T, Matrix<T>&);          \
    template int hemm<T>(Side, Uplo, T, const Matrix<T>&, const Matrix<T>&, T, Matrix<T>&);                    \
    template int hemm<T>(Side, Uplo, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, T*, int64_t); \
    template Request syr2k_async<T>(Uplo, Op, T, const Matrix<T>&, const Matrix<T>&, T, Matrix<T>&);           \
    template int syr2k<T>(Uplo, Op, T, const Matrix<T>&, const Matrix<T>&, T, Matrix<T>&);                     \
    template int syr2k<T>(Uplo, Op, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, T*, int64_t); \
    template Request her2k_async<T>(Uplo, Op, T, const Matrix<T>&, const Matrix<T>&, real_type<T>, Matrix<T>&); \
    template int her2k<T>(Uplo, Op, T, const Matrix<T>&, const Matrix<T>&, real_type<T>, Matrix<T>&);           \
    template int her2k<T>(Uplo, Op, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, real_type<T>, T*, \
                          int64_t);                                                                             \
    template Request syrk_async<T>(Uplo, Op, T, const Matrix<T>&, T, Matrix<T>&);                               \
    template int syrk<T>(Uplo, Op, T, const Matrix<T>&, T, Matrix<T>&);                                         \
    template int syrk<T>(Uplo, Op, int64_t, int64_t, T, const T*, int64_t, T, T*, int64_t);                     \
    template Request herk_async<T>(Uplo, Op, real_type<T>, const Matrix<T>&, real_type<T>, Matrix<T>&);         \
    template int herk<T>(Uplo, Op, real_type<T>, const Matrix<T>&, real_type<T>, Matrix<T>&);                   \
    template int herk<T>(Uplo, Op, int64_t, int64_t, real_type<T>, const T*, int64_t, real_type<T>, T*, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
