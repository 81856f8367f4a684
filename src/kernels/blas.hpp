#pragma once
// Precision overloads of the CBLAS/LAPACKE calls grain makes, so that kernels,
// checks and the testing driver are written once as templates.
#include <cblas.h>
#include <lapacke.h>

#include <cstdint>
#include <vector>

#include "grain/types.hpp"

namespace grain::blas {

inline CBLAS_TRANSPOSE cblas(Op op) { return op == Op::NoTrans ? CblasNoTrans : CblasTrans; }
inline CBLAS_UPLO cblas(Uplo uplo) { return uplo == Uplo::Lower ? CblasLower : CblasUpper; }
inline CBLAS_SIDE cblas(Side side) { return side == Side::Left ? CblasLeft : CblasRight; }
inline CBLAS_DIAG cblas(Diag diag) { return diag == Diag::Unit ? CblasUnit : CblasNonUnit; }

#define GRAIN_BLAS_OVERLOADS(T, p)                                                                    \
    inline void gemm(Op ta, Op tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b,     \
                     int ldb, T beta, T* c, int ldc) {                                                \
        cblas_##p##gemm(CblasColMajor, cblas(ta), cblas(tb), m, n, k, alpha, a, lda, b, ldb, beta, c, \
                        ldc);                                                                         \
    }                                                                                                 \
    inline void trsm(Side s, Uplo u, Op t, Diag d, int m, int n, T alpha, const T* a, int lda, T* b,  \
                     int ldb) {                                                                       \
        cblas_##p##trsm(CblasColMajor, cblas(s), cblas(u), cblas(t), cblas(d), m, n, alpha, a, lda, b, \
                        ldb);                                                                         \
    }                                                                                                 \
    inline void syrk(Uplo u, Op t, int n, int k, T alpha, const T* a, int lda, T beta, T* c,          \
                     int ldc) {                                                                       \
        cblas_##p##syrk(CblasColMajor, cblas(u), cblas(t), n, k, alpha, a, lda, beta, c, ldc);        \
    }                                                                                                 \
    inline void trmm(Side s, Uplo u, Op t, Diag d, int m, int n, T alpha, const T* a, int lda, T* b,  \
                     int ldb) {                                                                       \
        cblas_##p##trmm(CblasColMajor, cblas(s), cblas(u), cblas(t), cblas(d), m, n, alpha, a, lda, b, \
                        ldb);                                                                         \
    }                                                                                                 \
    inline void scal(int n, T alpha, T* x, int incx) { cblas_##p##scal(n, alpha, x, incx); }         \
    inline int potrf(Uplo u, int n, T* a, int lda) {                                                  \
        return LAPACKE_##p##potrf_work(LAPACK_COL_MAJOR, char(u), n, a, lda);                         \
    }                                                                                                 \
    inline int getrf(int m, int n, T* a, int lda, lapack_int* ipiv) {                                 \
        return LAPACKE_##p##getrf_work(LAPACK_COL_MAJOR, m, n, a, lda, ipiv);                         \
    }                                                                                                 \
    inline int getrs(int n, int nrhs, const T* a, int lda, const lapack_int* ipiv, T* b, int ldb) {   \
        return LAPACKE_##p##getrs_work(LAPACK_COL_MAJOR, 'N', n, nrhs, a, lda, ipiv, b, ldb);         \
    }                                                                                                 \
    inline int potrs(Uplo u, int n, int nrhs, const T* a, int lda, T* b, int ldb) {                   \
        return LAPACKE_##p##potrs_work(LAPACK_COL_MAJOR, char(u), n, nrhs, a, lda, b, ldb);           \
    }                                                                                                 \
    inline T lange(char norm, int m, int n, const T* a, int lda) {                                    \
        std::vector<T> work(norm == 'I' || norm == 'i' ? size_t(m) : 1);                              \
        return LAPACKE_##p##lange_work(LAPACK_COL_MAJOR, norm, m, n, a, lda, work.data());            \
    }

GRAIN_BLAS_OVERLOADS(float, s)
GRAIN_BLAS_OVERLOADS(double, d)
#undef GRAIN_BLAS_OVERLOADS

}  // namespace grain::blas
