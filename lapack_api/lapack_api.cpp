// libgrain_lapack: the Fortran LAPACK and BLAS symbols grain implements, with the Fortran
// ABI (arguments by reference, hidden string lengths, 32-bit integers: LP64), so that a
// program linked against LAPACK runs on grain with LD_PRELOAD=libgrain_lapack.so.
//
// A call goes through grain when its arguments are valid, it is not degenerate (a quick
// return, alpha = 0) and its size reaches GRAIN_LAPACK_MIN_N. Every other call goes to the
// next definition of the symbol, the system's: it reports invalid arguments through
// xerbla_ exactly as LAPACK does. So do the calls made from inside grain: its CPU kernels
// call LAPACKE, which calls these very symbols.
//
// One Runtime serves the process: it starts on the first call through grain, is
// configured by the GRAIN_* and STARPU_* environment only, and ends at exit, or when the
// program makes a grain::Runtime of its own (calls are the system's while that one
// lives). Where it cannot start, calls are the system's, as stderr says once. Calls are
// serialized. Between calls the workers are paused and OpenBLAS gets back the thread
// count the program had, so that the program has its cores and its threaded BLAS.
#include "session.hpp"

#include <grain/lapack.h>

#include <algorithm>
#include <complex>
#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>

namespace grain::lapack_api {
namespace {

// ---- the routines, once for every precision ----

template <typename T, typename S>
void potrf(Counter& c, S system, const char* uplo, const int* n, T* a, const int* lda, int* info) {
    const bool valid = one_of(*uplo, "LU") && *n >= 0 && at_least(*lda, *n);
    dispatch(c, valid, *n, info, [&] { return grain::potrf(Uplo(up(*uplo)), *n, a, *lda); }, system);
}

// The first exactly zero diagonal element of an n x n triangle (1-based), else 0.
template <typename T>
int zero_diagonal(int n, const T* a, int lda) {
    for (int i = 0; i < n; ++i)
        if (a[int64_t(i) * lda + i] == T(0)) return i + 1;
    return 0;
}

// trtri and potri (`factor`: the inverse of A from potrf's factor). LAPACK finds a zero
// on the diagonal before computing anything, and then leaves A as it was: so does this.
template <typename T, typename S>
void inverse(Counter& c, S system, bool factor, const char* uplo, const char* diag, const int* n, T* a,
             const int* lda, int* info) {
    const bool valid = one_of(*uplo, "LU") && one_of(*diag, "NU") && *n >= 0 && at_least(*lda, *n);
    const Uplo u = Uplo(up(*uplo));
    dispatch(c, valid, *n, info, [&] {
        if (up(*diag) == 'N')
            if (const int zero = zero_diagonal(*n, a, *lda)) return zero;
        return factor ? grain::potri(u, *n, a, *lda) : grain::trtri(u, Diag(up(*diag)), *n, a, *lda);
    }, system);
}

template <typename T, typename S>
void lauum(Counter& c, S system, const char* uplo, const int* n, T* a, const int* lda, int* info) {
    const bool valid = one_of(*uplo, "LU") && *n >= 0 && at_least(*lda, *n);
    dispatch(c, valid, *n, info, [&] { return grain::lauum(Uplo(up(*uplo)), *n, a, *lda); }, system);
}

// potrs and posv (`factor`).
template <typename T, typename S>
void cholesky_solve(Counter& c, S system, bool factor, const char* uplo, const int* n, const int* nrhs, T* a,
                    const int* lda, T* b, const int* ldb, int* info) {
    const bool valid = one_of(*uplo, "LU") && *n >= 0 && *nrhs >= 0 && at_least(*lda, *n) && at_least(*ldb, *n);
    const Uplo u = Uplo(up(*uplo));
    dispatch(c, valid, factor ? *n : std::min(*n, *nrhs), info,
             [&] { return factor ? grain::posv(u, *n, *nrhs, a, *lda, b, *ldb) : grain::potrs(u, *n, *nrhs, a, *lda, b, *ldb); },
             system);
}

template <typename T, typename S>
void getrf(Counter& c, S system, const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info) {
    const bool valid = *m >= 0 && *n >= 0 && at_least(*lda, *m);
    dispatch(c, valid, std::min(*m, *n), info, [&] { return grain::getrf(*m, *n, a, *lda, ipiv); }, system);
}

// LAPACK's getrs and getri apply ipiv unchecked: an index outside [1, n] would swap a row
// or column outside the array. Such a call is refused as an illegal ipiv (xerbla_, info =
// -position), whoever would run it: false. grain's tiled swaps also need ipiv[i] >= i + 1
// (1-based), as getrf writes them: `ordered` says whether they are.
bool legal_pivots(Counter& c, int n, const int* ipiv, int position, int* info, bool& ordered) {
    ordered = true;
    for (int i = 0; i < n; ++i) {
        if (ipiv[i] < 1 || ipiv[i] > n) {
            *info = -position;
            xerbla(c, position);
            return false;
        }
        ordered = ordered && ipiv[i] > i;
    }
    return true;
}

template <typename T, typename S>
void getrs(Counter& c, S system, const char* trans, const int* n, const int* nrhs, const T* a, const int* lda,
           const int* ipiv, T* b, const int* ldb, int* info) {
    bool valid = one_of(*trans, "NTC") && *n >= 0 && *nrhs >= 0 && at_least(*lda, *n) && at_least(*ldb, *n);
    if (valid && !Session::nested() && !legal_pivots(c, *n, ipiv, 6, info, valid)) return;
    dispatch(c, valid, std::min(*n, *nrhs), info,
             [&] { return grain::getrs(Op(up(*trans)), *n, *nrhs, a, *lda, ipiv, b, *ldb); }, system);
}

// getri: a workspace query (lwork = -1) or a workspace LAPACK refuses is the system's. As
// trtri, a zero on U's diagonal is found before anything is computed, A left as it was.
template <typename T, typename S>
void getri(Counter& c, S system, const int* n, T* a, const int* lda, const int* ipiv, const int* lwork, int* info) {
    bool valid = *n >= 0 && at_least(*lda, *n) && *lwork >= std::max(1, *n);
    if (valid && !Session::nested() && !legal_pivots(c, *n, ipiv, 4, info, valid)) return;
    dispatch(c, valid, *n, info, [&] {
        if (const int zero = zero_diagonal(*n, a, *lda)) return zero;
        return grain::getri(*n, a, *lda, ipiv);
    }, system);
}

template <typename T, typename S>
void gesv(Counter& c, S system, const int* n, const int* nrhs, T* a, const int* lda, int* ipiv, T* b,
          const int* ldb, int* info) {
    const bool valid = *n >= 0 && *nrhs >= 0 && at_least(*lda, *n) && at_least(*ldb, *n);
    dispatch(c, valid, *n, info, [&] { return grain::gesv(*n, *nrhs, a, *lda, ipiv, b, *ldb); }, system);
}

// Whether an m x n array's largest magnitude lies in [low, high], or is zero where `zero`
// allows it (a NaN or an infinity never does).
template <typename T>
bool magnitudes_within(int m, int n, const T* a, int lda, real_type<T> low, real_type<T> high, bool zero) {
    real_type<T> largest = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            const real_type<T> x = std::abs(a[i + int64_t(j) * lda]);
            if (!(x <= high)) return false;
            largest = std::max(largest, x);
        }
    return largest >= low || (zero && largest == 0);
}

// gels: grain's QR or LQ leaves A in grain's tile representation, not LAPACK's (no
// program reads it back as Q without this library's unmqr). A call LAPACK would scale
// first (A's or B's largest element outside [smlnum, bignum], A zero), a workspace query
// and a workspace LAPACK refuses are the system's. work[0] gets the workspace that suffices.
template <typename T, typename S>
void gels(Counter& c, S system, const char* trans, const int* m, const int* n, const int* nrhs, T* a,
          const int* lda, T* b, const int* ldb, T* work, const int* lwork, int* info) {
    const int k = std::min(*m, *n), rows = std::max(*m, *n), enough = std::max(1, k + std::max(k, *nrhs));
    bool valid = one_of(*trans, is_complex<T> ? "NC" : "NT") && *m >= 0 && *n >= 0 && *nrhs >= 0 &&
                 at_least(*lda, *m) && at_least(*ldb, rows) && *lwork >= enough;
    using R = real_type<T>;
    const R small = std::numeric_limits<R>::min() / std::numeric_limits<R>::epsilon(), big = 1 / small;
    valid = valid && std::min({*m, *n, *nrhs}) > 0 && !Session::nested() &&
            magnitudes_within(*m, *n, a, *lda, small, big, false) &&
            magnitudes_within(up(*trans) == 'N' ? *m : *n, *nrhs, b, *ldb, small, big, true);
    dispatch(c, valid, k, info, [&] {
        work[0] = T(R(enough));
        return grain::gels(Op(up(*trans)), *m, *n, *nrhs, a, *lda, b, *ldb);
    }, system);
}

// BLAS: the degenerate calls (nothing to multiply, alpha = 0) go to the system, whose
// results there (e.g. C = beta C without reading A) grain's tiles would not give exactly.
template <typename T, typename S>
void gemm(Counter& c, S system, const char* ta, const char* tb, const int* m, const int* n, const int* k,
          const T* alpha, const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* cc,
          const int* ldc) {
    const bool na = up(*ta) == 'N', nb = up(*tb) == 'N';
    const bool valid = one_of(*ta, "NTC") && one_of(*tb, "NTC") && *m >= 0 && *n >= 0 && *k >= 0 &&
                       at_least(*lda, na ? *m : *k) && at_least(*ldb, nb ? *k : *n) && at_least(*ldc, *m);
    const bool degenerate = *m == 0 || *n == 0 || *k == 0 || *alpha == T(0);
    dispatch(c, valid && !degenerate, std::min({*m, *n, *k}), nullptr, [&] {
        return grain::gemm(Op(up(*ta)), Op(up(*tb)), *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, cc, *ldc);
    }, system);
}

// trsm, and trmm (`product`).
template <typename T, typename S>
void triangular(Counter& c, S system, bool product, const char* side, const char* uplo, const char* ta,
                const char* diag, const int* m, const int* n, const T* alpha, const T* a, const int* lda, T* b,
                const int* ldb) {
    const bool valid = one_of(*side, "LR") && one_of(*uplo, "LU") && one_of(*ta, "NTC") && one_of(*diag, "NU") &&
                       *m >= 0 && *n >= 0 && at_least(*lda, up(*side) == 'L' ? *m : *n) && at_least(*ldb, *m);
    const bool degenerate = *m == 0 || *n == 0 || *alpha == T(0);
    dispatch(c, valid && !degenerate, std::min(*m, *n), nullptr, [&] {
        const auto args = std::make_tuple(Side(up(*side)), Uplo(up(*uplo)), Op(up(*ta)), Diag(up(*diag)));
        const auto [sd, u, t, d] = args;
        return product ? grain::trmm(sd, u, t, d, *m, *n, *alpha, a, *lda, b, *ldb)
                       : grain::trsm(sd, u, t, d, *m, *n, *alpha, a, *lda, b, *ldb);
    }, system);
}

// syrk and herk (`hermitian`: alpha and beta real; op(A)^H). As BLAS: a complex syrk takes
// no 'C', a herk no 'T'.
template <typename T, typename Scalar, typename S>
void rank_k(Counter& c, S system, bool hermitian, const char* uplo, const char* trans, const int* n, const int* k,
            const Scalar* alpha, const T* a, const int* lda, const Scalar* beta, T* cc, const int* ldc) {
    const char* ops = !is_complex<T> ? "NTC" : hermitian ? "NC" : "NT";
    const bool valid = one_of(*uplo, "LU") && one_of(*trans, ops) && *n >= 0 && *k >= 0 &&
                       at_least(*lda, up(*trans) == 'N' ? *n : *k) && at_least(*ldc, *n);
    const bool degenerate = *n == 0 || *k == 0 || *alpha == Scalar(0);
    dispatch(c, valid && !degenerate, std::min(*n, *k), nullptr, [&] {
        const Uplo u = Uplo(up(*uplo));
        const Op t = Op(up(*trans));
        if constexpr (is_complex<T> && !std::is_same_v<T, Scalar>)
            return grain::herk(u, t, *n, *k, *alpha, a, *lda, *beta, cc, *ldc);
        else
            return grain::syrk(u, t, *n, *k, *alpha, a, *lda, *beta, cc, *ldc);
    }, system);
}

// symm and hemm (`hermitian`).
template <typename T, typename S>
void symmetric(Counter& c, S system, bool hermitian, const char* side, const char* uplo, const int* m, const int* n,
               const T* alpha, const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* cc,
               const int* ldc) {
    const bool valid = one_of(*side, "LR") && one_of(*uplo, "LU") && *m >= 0 && *n >= 0 &&
                       at_least(*lda, up(*side) == 'L' ? *m : *n) && at_least(*ldb, *m) && at_least(*ldc, *m);
    const bool degenerate = *m == 0 || *n == 0 || *alpha == T(0);
    dispatch(c, valid && !degenerate, std::min(*m, *n), nullptr, [&] {
        const Side sd = Side(up(*side));
        const Uplo u = Uplo(up(*uplo));
        return hermitian ? grain::hemm(sd, u, *m, *n, *alpha, a, *lda, b, *ldb, *beta, cc, *ldc)
                         : grain::symm(sd, u, *m, *n, *alpha, a, *lda, b, *ldb, *beta, cc, *ldc);
    }, system);
}

// syr2k and her2k (`Scalar`, beta's type, real: her2k). As BLAS: a complex syr2k takes no
// 'C', a her2k no 'T'.
template <typename T, typename Scalar, typename S>
void rank_2k(Counter& c, S system, const char* uplo, const char* trans, const int* n, const int* k, const T* alpha,
             const T* a, const int* lda, const T* b, const int* ldb, const Scalar* beta, T* cc, const int* ldc) {
    constexpr bool hermitian = is_complex<T> && !std::is_same_v<T, Scalar>;
    const char* ops = !is_complex<T> ? "NTC" : hermitian ? "NC" : "NT";
    const int rows = up(*trans) == 'N' ? *n : *k;
    const bool valid = one_of(*uplo, "LU") && one_of(*trans, ops) && *n >= 0 && *k >= 0 && at_least(*lda, rows) &&
                       at_least(*ldb, rows) && at_least(*ldc, *n);
    const bool degenerate = *n == 0 || *k == 0 || *alpha == T(0);
    dispatch(c, valid && !degenerate, std::min(*n, *k), nullptr, [&] {
        const Uplo u = Uplo(up(*uplo));
        const Op t = Op(up(*trans));
        if constexpr (hermitian)
            return grain::her2k(u, t, *n, *k, *alpha, a, *lda, b, *ldb, *beta, cc, *ldc);
        else
            return grain::syr2k(u, t, *n, *k, *alpha, a, *lda, b, *ldb, *beta, cc, *ldc);
    }, system);
}

// The norms return their value and have no info; LAPACK leaves an unknown letter's value
// undefined, so those calls stay the system's. lange has no uplo, and only lantr a diag;
// `hermitian` makes lansy lanhe.
template <typename T, typename S>
real_type<T> norm(Counter& c, S system, bool hermitian, const char* norm, const char* uplo, const char* diag,
                  const int* m, const int* n, const T* a, const int* lda) {
    const bool valid = one_of(*norm, "MO1IFE") && (!uplo || one_of(*uplo, "UL")) && (!diag || one_of(*diag, "UN")) &&
                       *m >= 0 && *n >= 0 && at_least(*lda, *m);
    real_type<T> value = 0;
    dispatch(c, valid, std::min(*m, *n), nullptr, [&] {
        const Norm which = Norm(up(*norm));
        if (diag)
            value = grain::lantr(which, Uplo(up(*uplo)), Diag(up(*diag)), *m, *n, a, *lda);
        else if (uplo && hermitian)
            value = grain::lanhe(which, Uplo(up(*uplo)), *n, a, *lda);
        else if (uplo)
            value = grain::lansy(which, Uplo(up(*uplo)), *n, a, *lda);
        else
            value = grain::lange(which, *m, *n, a, *lda);
        return 0;
    }, [&] { value = system(); });
    return value;
}

}  // namespace
}  // namespace grain::lapack_api

// ---- the symbols: one line each maps a Fortran name to the routine above ----

#define GRAIN_LAPACK_SYMBOLS(T, p)                                                                                    \
    extern "C" void p##potrf_(const char* uplo, const int* n, T* a, const int* lda, int* info, fortran_length l1) {            \
        grain::lapack_api::potrf(GRAIN_COUNTER(p##potrf_), GRAIN_SYSTEM(p##potrf_, uplo, n, a, lda, info, l1), uplo, \
                                 n, a, lda, info);                                                                    \
    }                                                                                                                 \
    extern "C" void p##potrs_(const char* uplo, const int* n, const int* nrhs, const T* a, const int* lda, T* b,      \
                              const int* ldb, int* info, fortran_length l1) {                                                   \
        grain::lapack_api::cholesky_solve(GRAIN_COUNTER(p##potrs_),                                                   \
                                          GRAIN_SYSTEM(p##potrs_, uplo, n, nrhs, a, lda, b, ldb, info, l1), false,    \
                                          uplo, n, nrhs, const_cast<T*>(a), lda, b, ldb, info);                       \
    }                                                                                                                 \
    extern "C" void p##posv_(const char* uplo, const int* n, const int* nrhs, T* a, const int* lda, T* b,            \
                             const int* ldb, int* info, fortran_length l1) {                                                    \
        grain::lapack_api::cholesky_solve(GRAIN_COUNTER(p##posv_),                                                    \
                                          GRAIN_SYSTEM(p##posv_, uplo, n, nrhs, a, lda, b, ldb, info, l1), true,      \
                                          uplo, n, nrhs, a, lda, b, ldb, info);                                       \
    }                                                                                                                 \
    extern "C" void p##getrf_(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info) {              \
        grain::lapack_api::getrf(GRAIN_COUNTER(p##getrf_), GRAIN_SYSTEM(p##getrf_, m, n, a, lda, ipiv, info), m, n, \
                                 a, lda, ipiv, info);                                                                 \
    }                                                                                                                 \
    extern "C" void p##getri_(const int* n, T* a, const int* lda, const int* ipiv, T* work, const int* lwork,      \
                              int* info) {                                                                            \
        grain::lapack_api::getri(GRAIN_COUNTER(p##getri_), GRAIN_SYSTEM(p##getri_, n, a, lda, ipiv, work, lwork, info), \
                                 n, a, lda, ipiv, lwork, info);                                                       \
    }                                                                                                                 \
    extern "C" void p##getrs_(const char* trans, const int* n, const int* nrhs, const T* a, const int* lda,          \
                              const int* ipiv, T* b, const int* ldb, int* info, fortran_length l1) {                            \
        grain::lapack_api::getrs(GRAIN_COUNTER(p##getrs_),                                                            \
                                 GRAIN_SYSTEM(p##getrs_, trans, n, nrhs, a, lda, ipiv, b, ldb, info, l1), trans, n,  \
                                 nrhs, a, lda, ipiv, b, ldb, info);                                                   \
    }                                                                                                                 \
    extern "C" void p##gesv_(const int* n, const int* nrhs, T* a, const int* lda, int* ipiv, T* b, const int* ldb,  \
                             int* info) {                                                                             \
        grain::lapack_api::gesv(GRAIN_COUNTER(p##gesv_), GRAIN_SYSTEM(p##gesv_, n, nrhs, a, lda, ipiv, b, ldb, info), \
                                n, nrhs, a, lda, ipiv, b, ldb, info);                                                 \
    }                                                                                                                 \
    extern "C" void p##gels_(const char* trans, const int* m, const int* n, const int* nrhs, T* a, const int* lda,  \
                             T* b, const int* ldb, T* work, const int* lwork, int* info, fortran_length l1) {                   \
        grain::lapack_api::gels(GRAIN_COUNTER(p##gels_),                                                              \
                                GRAIN_SYSTEM(p##gels_, trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info, l1),     \
                                trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info);                                \
    }                                                                                                                 \
    extern "C" void p##gemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,              \
                             const T* alpha, const T* a, const int* lda, const T* b, const int* ldb, const T* beta,   \
                             T* c, const int* ldc, fortran_length l1, fortran_length l2) {                                                \
        grain::lapack_api::gemm(GRAIN_COUNTER(p##gemm_),                                                              \
                                GRAIN_SYSTEM(p##gemm_, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, l1, l2), \
                                ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                                \
    }                                                                                                                 \
    extern "C" void p##trsm_(const char* side, const char* uplo, const char* ta, const char* diag, const int* m,     \
                             const int* n, const T* alpha, const T* a, const int* lda, T* b, const int* ldb, fortran_length l1, \
                             fortran_length l2, fortran_length l3, fortran_length l4) {                                                             \
        grain::lapack_api::triangular(                                                                                \
            GRAIN_COUNTER(p##trsm_),                                                                                  \
            GRAIN_SYSTEM(p##trsm_, side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb, l1, l2, l3, l4), false, side,  \
            uplo, ta, diag, m, n, alpha, a, lda, b, ldb);                                                             \
    }                                                                                                                 \
    extern "C" void p##trmm_(const char* side, const char* uplo, const char* ta, const char* diag, const int* m,     \
                             const int* n, const T* alpha, const T* a, const int* lda, T* b, const int* ldb, fortran_length l1, \
                             fortran_length l2, fortran_length l3, fortran_length l4) {                                                             \
        grain::lapack_api::triangular(                                                                                \
            GRAIN_COUNTER(p##trmm_),                                                                                  \
            GRAIN_SYSTEM(p##trmm_, side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb, l1, l2, l3, l4), true, side,   \
            uplo, ta, diag, m, n, alpha, a, lda, b, ldb);                                                             \
    }                                                                                                                 \
    extern "C" void p##trtri_(const char* uplo, const char* diag, const int* n, T* a, const int* lda, int* info,     \
                              fortran_length l1, fortran_length l2) {                                                                     \
        grain::lapack_api::inverse(GRAIN_COUNTER(p##trtri_),                                                          \
                                   GRAIN_SYSTEM(p##trtri_, uplo, diag, n, a, lda, info, l1, l2), false, uplo, diag,   \
                                   n, a, lda, info);                                                                  \
    }                                                                                                                 \
    extern "C" void p##potri_(const char* uplo, const int* n, T* a, const int* lda, int* info, fortran_length l1) {            \
        grain::lapack_api::inverse(GRAIN_COUNTER(p##potri_), GRAIN_SYSTEM(p##potri_, uplo, n, a, lda, info, l1),     \
                                   true, uplo, "N", n, a, lda, info);                                                 \
    }                                                                                                                 \
    extern "C" void p##lauum_(const char* uplo, const int* n, T* a, const int* lda, int* info, fortran_length l1) {            \
        grain::lapack_api::lauum(GRAIN_COUNTER(p##lauum_), GRAIN_SYSTEM(p##lauum_, uplo, n, a, lda, info, l1), uplo, \
                                 n, a, lda, info);                                                                    \
    }                                                                                                                 \
    extern "C" void p##symm_(const char* side, const char* uplo, const int* m, const int* n, const T* alpha,       \
                             const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* c,            \
                             const int* ldc, fortran_length l1, fortran_length l2) {                                                     \
        grain::lapack_api::symmetric(                                                                                 \
            GRAIN_COUNTER(p##symm_),                                                                                  \
            GRAIN_SYSTEM(p##symm_, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, l1, l2), false, side, uplo, \
            m, n, alpha, a, lda, b, ldb, beta, c, ldc);                                                               \
    }                                                                                                                 \
    extern "C" void p##syr2k_(const char* uplo, const char* trans, const int* n, const int* k, const T* alpha,      \
                              const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* c,           \
                              const int* ldc, fortran_length l1, fortran_length l2) {                                                    \
        grain::lapack_api::rank_2k(                                                                                   \
            GRAIN_COUNTER(p##syr2k_),                                                                                 \
            GRAIN_SYSTEM(p##syr2k_, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, l1, l2), uplo, trans, n,  \
            k, alpha, a, lda, b, ldb, beta, c, ldc);                                                                  \
    }                                                                                                                 \
    extern "C" void p##syrk_(const char* uplo, const char* trans, const int* n, const int* k, const T* alpha,       \
                             const T* a, const int* lda, const T* beta, T* c, const int* ldc, fortran_length l1, fortran_length l2) {    \
        grain::lapack_api::rank_k(GRAIN_COUNTER(p##syrk_),                                                            \
                                  GRAIN_SYSTEM(p##syrk_, uplo, trans, n, k, alpha, a, lda, beta, c, ldc, l1, l2),    \
                                  false, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);                             \
    }

// herk: complex only (BLAS has no real herk).
#define GRAIN_HERK_SYMBOL(T, p)                                                                                       \
    extern "C" void p##herk_(const char* uplo, const char* trans, const int* n, const int* k,                        \
                             const grain::real_type<T>* alpha, const T* a, const int* lda,                           \
                             const grain::real_type<T>* beta, T* c, const int* ldc, fortran_length l1, fortran_length l2) {             \
        grain::lapack_api::rank_k(GRAIN_COUNTER(p##herk_),                                                            \
                                  GRAIN_SYSTEM(p##herk_, uplo, trans, n, k, alpha, a, lda, beta, c, ldc, l1, l2),    \
                                  true, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);                              \
    }

// hemm and her2k: complex only (in real precisions BLAS has symm and syr2k).
#define GRAIN_HERMITIAN_SYMBOLS(T, p)                                                                                 \
    extern "C" void p##hemm_(const char* side, const char* uplo, const int* m, const int* n, const T* alpha,       \
                             const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* c,            \
                             const int* ldc, fortran_length l1, fortran_length l2) {                                                     \
        grain::lapack_api::symmetric(                                                                                 \
            GRAIN_COUNTER(p##hemm_),                                                                                  \
            GRAIN_SYSTEM(p##hemm_, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, l1, l2), true, side, uplo,  \
            m, n, alpha, a, lda, b, ldb, beta, c, ldc);                                                               \
    }                                                                                                                 \
    extern "C" void p##her2k_(const char* uplo, const char* trans, const int* n, const int* k, const T* alpha,      \
                              const T* a, const int* lda, const T* b, const int* ldb,                                \
                              const grain::real_type<T>* beta, T* c, const int* ldc, fortran_length l1, fortran_length l2) {             \
        grain::lapack_api::rank_2k(                                                                                   \
            GRAIN_COUNTER(p##her2k_),                                                                                 \
            GRAIN_SYSTEM(p##her2k_, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, l1, l2), uplo, trans, n,  \
            k, alpha, a, lda, b, ldb, beta, c, ldc);                                                                  \
    }

// The norms: functions, whose value the system's definitions return too. lansy and lanhe
// (complex only: in real precisions LAPACK has lansy) share a signature.
#define GRAIN_SYMMETRIC_NORM_SYMBOL(T, p, name, hermitian)                                                       \
    extern "C" grain::real_type<T> p##name##_(const char* norm, const char* uplo, const int* n, const T* a,        \
                                              const int* lda, grain::real_type<T>* work, fortran_length l1, fortran_length l2) {       \
        return grain::lapack_api::norm(GRAIN_COUNTER(p##name##_), [&] {                                             \
            static const auto f = GRAIN_NEXT(p##name##_);                                                           \
            return f(norm, uplo, n, a, lda, work, l1, l2);                                                          \
        }, hermitian, norm, uplo, nullptr, n, n, a, lda);                                                           \
    }
#define GRAIN_NORM_SYMBOLS(T, p)                                                                                   \
    extern "C" grain::real_type<T> p##lange_(const char* norm, const int* m, const int* n, const T* a,              \
                                             const int* lda, grain::real_type<T>* work, fortran_length l1) {                  \
        return grain::lapack_api::norm(GRAIN_COUNTER(p##lange_), [&] {                                               \
            static const auto f = GRAIN_NEXT(p##lange_);                                                             \
            return f(norm, m, n, a, lda, work, l1);                                                                  \
        }, false, norm, nullptr, nullptr, m, n, a, lda);                                                             \
    }                                                                                                                \
    GRAIN_SYMMETRIC_NORM_SYMBOL(T, p, lansy, false)                                                                  \
    extern "C" grain::real_type<T> p##lantr_(const char* norm, const char* uplo, const char* diag, const int* m,    \
                                             const int* n, const T* a, const int* lda, grain::real_type<T>* work,   \
                                             fortran_length l1, fortran_length l2, fortran_length l3) {                                           \
        return grain::lapack_api::norm(GRAIN_COUNTER(p##lantr_), [&] {                                               \
            static const auto f = GRAIN_NEXT(p##lantr_);                                                             \
            return f(norm, uplo, diag, m, n, a, lda, work, l1, l2, l3);                                              \
        }, false, norm, uplo, diag, m, n, a, lda);                                                                   \
    }
GRAIN_LAPACK_SYMBOLS(float, s)
GRAIN_LAPACK_SYMBOLS(double, d)
GRAIN_LAPACK_SYMBOLS(std::complex<float>, c)
GRAIN_LAPACK_SYMBOLS(std::complex<double>, z)

GRAIN_HERK_SYMBOL(std::complex<float>, c)
GRAIN_HERK_SYMBOL(std::complex<double>, z)
GRAIN_HERMITIAN_SYMBOLS(std::complex<float>, c)
GRAIN_HERMITIAN_SYMBOLS(std::complex<double>, z)
GRAIN_NORM_SYMBOLS(float, s)
GRAIN_NORM_SYMBOLS(double, d)
GRAIN_NORM_SYMBOLS(std::complex<float>, c)
GRAIN_NORM_SYMBOLS(std::complex<double>, z)
GRAIN_SYMMETRIC_NORM_SYMBOL(std::complex<float>, c, lanhe, true)
GRAIN_SYMMETRIC_NORM_SYMBOL(std::complex<double>, z, lanhe, true)

extern "C" int grain_lapack_pin(const void* a, size_t bytes) {
    return !grain::lapack_api::session_over() && grain::lapack_api::Session::get().pin(a, bytes);
}
extern "C" void grain_lapack_unpin(const void* a) {
    if (!grain::lapack_api::session_over()) grain::lapack_api::Session::get().unpin(a);
}
