#pragma once
// Precision overloads of the CBLAS/LAPACKE calls grain makes, so that kernels,
// checks and the testing driver are written once as templates. One line of each
// overload maps to the BLAS symbol; the four precisions share the rest.
#include <complex>
#include <type_traits>

// LAPACKE's complex types are grain's (std::complex has the Fortran layout): include this
// header before any other that includes lapacke.h.
#ifdef LAPACK_H
#error "src/kernels/blas.hpp must come before lapack.h or lapacke.h (it sets LAPACKE's complex types)"
#endif
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "grain/types.hpp"
#include "src/base/scalar_traits.hpp"

// LAPACK's LQ tile kernels, which LAPACKE 3.11 does not wrap: their Fortran symbols, as
// OpenBLAS (and reference LAPACK) export them; characters passed with their lengths.
#define GRAIN_LQ_DECLARATIONS(T, p)                                                                    \
    void p##gelqt_(const int* m, const int* n, const int* mb, T* a, const int* lda, T* t, const int* ldt, \
                   T* work, int* info);                                                                 \
    void p##gemlqt_(const char* side, const char* trans, const int* m, const int* n, const int* k,       \
                    const int* mb, const T* v, const int* ldv, const T* t, const int* ldt, T* c,         \
                    const int* ldc, T* work, int* info, size_t, size_t);                                 \
    void p##tplqt_(const int* m, const int* n, const int* l, const int* mb, T* a, const int* lda, T* b,  \
                   const int* ldb, T* t, const int* ldt, T* work, int* info);                            \
    void p##tpmlqt_(const char* side, const char* trans, const int* m, const int* n, const int* k,       \
                    const int* l, const int* mb, const T* v, const int* ldv, const T* t, const int* ldt, \
                    T* a, const int* lda, T* b, const int* ldb, T* work, int* info, size_t, size_t);
extern "C" {
GRAIN_LQ_DECLARATIONS(float, s)
GRAIN_LQ_DECLARATIONS(double, d)
GRAIN_LQ_DECLARATIONS(std::complex<float>, c)
GRAIN_LQ_DECLARATIONS(std::complex<double>, z)
}
#undef GRAIN_LQ_DECLARATIONS

namespace grain::blas {

using detail::real_t;

// In real precisions CBLAS takes ConjTrans as Trans; grain passes Trans there all the same.
template <typename T>
CBLAS_TRANSPOSE cblas(Op op) {
    if (op == Op::NoTrans) return CblasNoTrans;
    return op == Op::ConjTrans && detail::scalar_traits<T>::is_complex ? CblasConjTrans : CblasTrans;
}
inline CBLAS_UPLO cblas(Uplo uplo) { return uplo == Uplo::Lower ? CblasLower : CblasUpper; }
inline CBLAS_SIDE cblas(Side side) { return side == Side::Left ? CblasLeft : CblasRight; }
inline CBLAS_DIAG cblas(Diag diag) { return diag == Diag::Unit ? CblasUnit : CblasNonUnit; }

// A scalar as CBLAS takes it: by value in real precisions, by address in complex ones.
template <typename T>
auto scalar(const T& x) {
    if constexpr (detail::scalar_traits<T>::is_complex)
        return &x;
    else
        return x;
}

// LAPACK's trans letter ('C' in complex precisions only).
template <typename T>
char letter(Op op) { return char(op == Op::ConjTrans && !detail::scalar_traits<T>::is_complex ? Op::Trans : op); }

// gemm with one column of C (and of op(B), unless conjugated) calls gemv: OpenBLAS's gemm
// packs A even then, reading it twice and writing it once more, where gemv streams it once
// (a third of the time on 512 x 512 tiles). k = 0 stays gemm's: gemv would not scale C.
#define GRAIN_BLAS_OVERLOADS(T, p)                                                                    \
    inline void gemm(Op ta, Op tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b,     \
                     int ldb, T beta, T* c, int ldc) {                                                \
        const bool conjugated = tb == Op::ConjTrans && detail::scalar_traits<T>::is_complex;          \
        if (n == 1 && k > 0 && !conjugated) {                                                         \
            const bool plain = ta == Op::NoTrans;                                                     \
            cblas_##p##gemv(CblasColMajor, cblas<T>(ta), plain ? m : k, plain ? k : m, scalar(alpha), \
                            a, lda, b, tb == Op::NoTrans ? 1 : ldb, scalar(beta), c, 1);              \
            return;                                                                                   \
        }                                                                                             \
        cblas_##p##gemm(CblasColMajor, cblas<T>(ta), cblas<T>(tb), m, n, k, scalar(alpha), a, lda, b, \
                        ldb, scalar(beta), c, ldc);                                                   \
    }                                                                                                 \
    inline void trsm(Side s, Uplo u, Op t, Diag d, int m, int n, T alpha, const T* a, int lda, T* b,  \
                     int ldb) {                                                                       \
        cblas_##p##trsm(CblasColMajor, cblas(s), cblas(u), cblas<T>(t), cblas(d), m, n, scalar(alpha), \
                        a, lda, b, ldb);                                                              \
    }                                                                                                 \
    inline void syrk(Uplo u, Op t, int n, int k, T alpha, const T* a, int lda, T beta, T* c,          \
                     int ldc) {                                                                       \
        cblas_##p##syrk(CblasColMajor, cblas(u), cblas<T>(t), n, k, scalar(alpha), a, lda,            \
                        scalar(beta), c, ldc);                                                        \
    }                                                                                                 \
    inline void trmm(Side s, Uplo u, Op t, Diag d, int m, int n, T alpha, const T* a, int lda, T* b,  \
                     int ldb) {                                                                       \
        cblas_##p##trmm(CblasColMajor, cblas(s), cblas(u), cblas<T>(t), cblas(d), m, n, scalar(alpha), \
                        a, lda, b, ldb);                                                              \
    }                                                                                                 \
    inline void symm(Side s, Uplo u, int m, int n, T alpha, const T* a, int lda, const T* b, int ldb,  \
                     T beta, T* c, int ldc) {                                                         \
        cblas_##p##symm(CblasColMajor, cblas(s), cblas(u), m, n, scalar(alpha), a, lda, b, ldb,       \
                        scalar(beta), c, ldc);                                                        \
    }                                                                                                 \
    inline void syr2k(Uplo u, Op t, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb,  \
                      T beta, T* c, int ldc) {                                                        \
        cblas_##p##syr2k(CblasColMajor, cblas(u), cblas<T>(t), n, k, scalar(alpha), a, lda, b, ldb,   \
                         scalar(beta), c, ldc);                                                       \
    }                                                                                                 \
    inline void scal(int n, T alpha, T* x, int incx) { cblas_##p##scal(n, scalar(alpha), x, incx); } \
    inline int potrf(Uplo u, int n, T* a, int lda) {                                                  \
        return LAPACKE_##p##potrf_work(LAPACK_COL_MAJOR, char(u), n, a, lda);                         \
    }                                                                                                 \
    inline int trtri(Uplo u, Diag d, int n, T* a, int lda) {                                          \
        return LAPACKE_##p##trtri_work(LAPACK_COL_MAJOR, char(u), char(d), n, a, lda);                \
    }                                                                                                 \
    inline int lauum(Uplo u, int n, T* a, int lda) {                                                  \
        return LAPACKE_##p##lauum_work(LAPACK_COL_MAJOR, char(u), n, a, lda);                         \
    }                                                                                                 \
    inline int potri(Uplo u, int n, T* a, int lda) {                                                  \
        return LAPACKE_##p##potri_work(LAPACK_COL_MAJOR, char(u), n, a, lda);                         \
    }                                                                                                 \
    inline int getri(int n, T* a, int lda, const lapack_int* ipiv) {                                  \
        return LAPACKE_##p##getri(LAPACK_COL_MAJOR, n, a, lda, ipiv);                                 \
    }                                                                                                 \
    inline int getrf(int m, int n, T* a, int lda, lapack_int* ipiv) {                                 \
        return LAPACKE_##p##getrf_work(LAPACK_COL_MAJOR, m, n, a, lda, ipiv);                         \
    }                                                                                                 \
    inline int getrs(Op t, int n, int nrhs, const T* a, int lda, const lapack_int* ipiv, T* b,        \
                     int ldb) {                                                                       \
        return LAPACKE_##p##getrs_work(LAPACK_COL_MAJOR, letter<T>(t), n, nrhs, a, lda, ipiv, b, ldb); \
    }                                                                                                 \
    inline int potrs(Uplo u, int n, int nrhs, const T* a, int lda, T* b, int ldb) {                   \
        return LAPACKE_##p##potrs_work(LAPACK_COL_MAJOR, char(u), n, nrhs, a, lda, b, ldb);           \
    }                                                                                                 \
    inline real_t<T> lange(char norm, int m, int n, const T* a, int lda) {                            \
        std::vector<real_t<T>> work(norm == 'I' || norm == 'i' ? size_t(m) : 1);                      \
        return LAPACKE_##p##lange_work(LAPACK_COL_MAJOR, norm, m, n, a, lda, work.data());            \
    }                                                                                                 \
    inline real_t<T> lansy(char norm, Uplo u, int n, const T* a, int lda) {                           \
        std::vector<real_t<T>> work(size_t(n) + 1);                                                   \
        return LAPACKE_##p##lansy_work(LAPACK_COL_MAJOR, norm, char(u), n, a, lda, work.data());      \
    }                                                                                                 \
    inline real_t<T> lantr(char norm, Uplo u, Diag d, int m, int n, const T* a, int lda) {            \
        std::vector<real_t<T>> work(size_t(m) + 1);                                                   \
        return LAPACKE_##p##lantr_work(LAPACK_COL_MAJOR, norm, char(u), char(d), m, n, a, lda,        \
                                       work.data());                                                  \
    }                                                                                                 \
    inline int geqrt(int m, int n, int ib, T* a, int lda, T* t, int ldt) {                            \
        std::vector<T> work(size_t(ib) * size_t(n));                                                  \
        return LAPACKE_##p##geqrt_work(LAPACK_COL_MAJOR, m, n, ib, a, lda, t, ldt, work.data());      \
    }                                                                                                 \
    inline int gemqrt(Side s, Op t, int m, int n, int k, int ib, const T* v, int ldv, const T* tf,    \
                      int ldt, T* c, int ldc) {                                                       \
        std::vector<T> work(size_t(ib) * size_t(s == Side::Left ? n : m));                            \
        return LAPACKE_##p##gemqrt_work(LAPACK_COL_MAJOR, char(s), letter<T>(t), m, n, k, ib, v, ldv, \
                                        tf, ldt, c, ldc, work.data());                                \
    }                                                                                                 \
    inline int tpqrt(int m, int n, int l, int ib, T* a, int lda, T* b, int ldb, T* t, int ldt) {      \
        std::vector<T> work(size_t(ib) * size_t(n));                                                  \
        return LAPACKE_##p##tpqrt_work(LAPACK_COL_MAJOR, m, n, l, ib, a, lda, b, ldb, t, ldt,         \
                                       work.data());                                                  \
    }                                                                                                 \
    inline int tpmqrt(Side s, Op t, int m, int n, int k, int l, int ib, const T* v, int ldv,          \
                      const T* tf, int ldt, T* a, int lda, T* b, int ldb) {                           \
        std::vector<T> work(size_t(ib) * size_t(s == Side::Left ? n : m));                            \
        return LAPACKE_##p##tpmqrt_work(LAPACK_COL_MAJOR, char(s), letter<T>(t), m, n, k, l, ib, v,   \
                                        ldv, tf, ldt, a, lda, b, ldb, work.data());                   \
    }                                                                                                 \
    inline int geqrf(int m, int n, T* a, int lda, T* tau) {                                           \
        return LAPACKE_##p##geqrf(LAPACK_COL_MAJOR, m, n, a, lda, tau);                               \
    }                                                                                                 \
    inline int gelqf(int m, int n, T* a, int lda, T* tau) {                                           \
        return LAPACKE_##p##gelqf(LAPACK_COL_MAJOR, m, n, a, lda, tau);                               \
    }                                                                                                 \
    inline int gels(Op t, int m, int n, int nrhs, T* a, int lda, T* b, int ldb) {                     \
        return LAPACKE_##p##gels(LAPACK_COL_MAJOR, letter<T>(t), m, n, nrhs, a, lda, b, ldb);         \
    }                                                                                                 \
    inline int gelqt(int m, int n, int ib, T* a, int lda, T* t, int ldt) {                            \
        /* its updates take ib x m, though LAPACK 3.11's comment says ib x n */                       \
        std::vector<T> work(size_t(ib) * size_t(std::max(m, n)));                                     \
        int info = 0;                                                                                 \
        p##gelqt_(&m, &n, &ib, a, &lda, t, &ldt, work.data(), &info);                                 \
        return info;                                                                                  \
    }                                                                                                 \
    inline int gemlqt(Side s, Op t, int m, int n, int k, int ib, const T* v, int ldv, const T* tf,    \
                      int ldt, T* c, int ldc) {                                                       \
        std::vector<T> work(size_t(ib) * size_t(s == Side::Left ? n : m));                            \
        const char side = char(s), trans = letter<T>(t);                                              \
        int info = 0;                                                                                 \
        p##gemlqt_(&side, &trans, &m, &n, &k, &ib, v, &ldv, tf, &ldt, c, &ldc, work.data(), &info, 1, 1); \
        return info;                                                                                  \
    }                                                                                                 \
    inline int tplqt(int m, int n, int l, int ib, T* a, int lda, T* b, int ldb, T* t, int ldt) {      \
        std::vector<T> work(size_t(ib) * size_t(m));                                                  \
        int info = 0;                                                                                 \
        p##tplqt_(&m, &n, &l, &ib, a, &lda, b, &ldb, t, &ldt, work.data(), &info);                    \
        return info;                                                                                  \
    }                                                                                                 \
    inline int tpmlqt(Side s, Op t, int m, int n, int k, int l, int ib, const T* v, int ldv,          \
                      const T* tf, int ldt, T* a, int lda, T* b, int ldb) {                           \
        std::vector<T> work(size_t(ib) * size_t(s == Side::Left ? n : m));                            \
        const char side = char(s), trans = letter<T>(t);                                              \
        int info = 0;                                                                                 \
        p##tpmlqt_(&side, &trans, &m, &n, &k, &l, &ib, v, &ldv, tf, &ldt, a, &lda, b, &ldb,           \
                   work.data(), &info, 1, 1);                                                         \
        return info;                                                                                  \
    }

// LAPACK's Q of geqrf applied, and made explicit (ormqr and orgqr in real precisions, unmqr
// and ungqr in complex ones).
#define GRAIN_UNMQR(T, name, explicit_q)                                                                  \
    inline int unmqr(Side s, Op t, int m, int n, int k, const T* a, int lda, const T* tau, T* c, int ldc) { \
        return LAPACKE_##name(LAPACK_COL_MAJOR, char(s), letter<T>(t), m, n, k, a, lda, tau, c, ldc);       \
    }                                                                                                     \
    inline int ungqr(int m, int n, int k, T* a, int lda, const T* tau) {                                  \
        return LAPACKE_##explicit_q(LAPACK_COL_MAJOR, m, n, k, a, lda, tau);                              \
    }
GRAIN_UNMQR(float, sormqr, sorgqr)
GRAIN_UNMQR(double, dormqr, dorgqr)
GRAIN_UNMQR(std::complex<float>, cunmqr, cungqr)
GRAIN_UNMQR(std::complex<double>, zunmqr, zungqr)
#undef GRAIN_UNMQR

GRAIN_BLAS_OVERLOADS(float, s)
GRAIN_BLAS_OVERLOADS(double, d)
GRAIN_BLAS_OVERLOADS(std::complex<float>, c)
GRAIN_BLAS_OVERLOADS(std::complex<double>, z)
#undef GRAIN_BLAS_OVERLOADS

// The norm of a Hermitian matrix; in real precisions it is lansy.
template <typename T>
real_t<T> lanhe(char norm, Uplo u, int n, const T* a, int lda) {
    std::vector<real_t<T>> work(size_t(n) + 1);
    if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_clanhe_work(LAPACK_COL_MAJOR, norm, char(u), n, a, lda, work.data());
    else if constexpr (std::is_same_v<T, std::complex<double>>)
        return LAPACKE_zlanhe_work(LAPACK_COL_MAJOR, norm, char(u), n, a, lda, work.data());
    else
        return lansy(norm, u, n, a, lda);
}

// C = alpha op(A) op(A)^H + beta C, alpha and beta real; in real precisions it is syrk.
inline void herk(Uplo u, Op t, int n, int k, float alpha, const std::complex<float>* a, int lda, float beta,
                 std::complex<float>* c, int ldc) {
    cblas_cherk(CblasColMajor, cblas(u), cblas<std::complex<float>>(t), n, k, alpha, a, lda, beta, c, ldc);
}
inline void herk(Uplo u, Op t, int n, int k, double alpha, const std::complex<double>* a, int lda, double beta,
                 std::complex<double>* c, int ldc) {
    cblas_zherk(CblasColMajor, cblas(u), cblas<std::complex<double>>(t), n, k, alpha, a, lda, beta, c, ldc);
}
template <typename T, typename = std::enable_if_t<!detail::scalar_traits<T>::is_complex>>
void herk(Uplo u, Op t, int n, int k, T alpha, const T* a, int lda, T beta, T* c, int ldc) {
    syrk(u, t, n, k, alpha, a, lda, beta, c, ldc);
}

// C = alpha A B + beta C (Left) or alpha B A + beta C, A Hermitian; in real precisions symm.
#define GRAIN_HEMM(T, p)                                                                                \
    inline void hemm(Side s, Uplo u, int m, int n, T alpha, const T* a, int lda, const T* b, int ldb, T beta, \
                     T* c, int ldc) {                                                                   \
        cblas_##p##hemm(CblasColMajor, cblas(s), cblas(u), m, n, &alpha, a, lda, b, ldb, &beta, c, ldc); \
    }                                                                                                   \
    /* C = alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C, beta real */                     \
    inline void her2k(Uplo u, Op t, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb,    \
                      real_t<T> beta, T* c, int ldc) {                                                  \
        cblas_##p##her2k(CblasColMajor, cblas(u), cblas<T>(t), n, k, &alpha, a, lda, b, ldb, beta, c, ldc); \
    }
GRAIN_HEMM(std::complex<float>, c)
GRAIN_HEMM(std::complex<double>, z)
#undef GRAIN_HEMM
template <typename T, typename = std::enable_if_t<!detail::scalar_traits<T>::is_complex>>
void hemm(Side s, Uplo u, int m, int n, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
    symm(s, u, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
template <typename T, typename = std::enable_if_t<!detail::scalar_traits<T>::is_complex>>
void her2k(Uplo u, Op t, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
    syr2k(u, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace grain::blas
