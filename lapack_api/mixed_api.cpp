// libgrain_lapack's mixed-precision solves: dsgesv_, dsposv_, zcgesv_ and zcposv_, with
// LAPACK's ABI, as lapack_api.cpp's symbols (the session, the dispatch to the system's).
#include "session.hpp"

#include <complex>

namespace grain::lapack_api {
namespace {

// dsgesv and zcgesv, dsposv and zcposv (`uplo` not null): the mixed-precision solves; LAPACK's
// workspaces (work, swork, rwork) are not used, grain's tiles are its own.
template <typename T, typename S>
void mixed(Counter& c, S system, const char* uplo, const int* n, const int* nrhs, T* a, const int* lda, int* ipiv,
           const T* b, const int* ldb, T* x, const int* ldx, int* iter, int* info) {
    const bool valid = (!uplo || one_of(*uplo, "LU")) && *n >= 0 && *nrhs >= 0 && at_least(*lda, *n) &&
                       at_least(*ldb, *n) && at_least(*ldx, *n);
    dispatch(c, valid, *n, info, [&] {
        return uplo ? grain::posv_mixed(Uplo(up(*uplo)), *n, *nrhs, a, *lda, b, *ldb, x, *ldx, iter)
                    : grain::gesv_mixed(*n, *nrhs, a, *lda, ipiv, b, *ldb, x, *ldx, iter);
    }, system);
}

}  // namespace
}  // namespace grain::lapack_api

// The mixed-precision solves, in LAPACK's two pairs (zc's take a real workspace more).
#define GRAIN_MIXED_SYMBOLS(T, p, R, RWORK)                                                                           \
    extern "C" void p##gesv_(const int* n, const int* nrhs, T* a, const int* lda, int* ipiv, T* b, const int* ldb, \
                             T* x, const int* ldx, T* work, R* swork, RWORK##_PARAM int* iter, int* info) {            \
        grain::lapack_api::mixed(GRAIN_COUNTER(p##gesv_),                                                            \
                                 GRAIN_SYSTEM(p##gesv_, n, nrhs, a, lda, ipiv, b, ldb, x, ldx, work, swork,          \
                                              RWORK##_ARG iter, info),                                    \
                                 nullptr, n, nrhs, a, lda, ipiv, b, ldb, x, ldx, iter, info);                         \
    }                                                                                                                \
    extern "C" void p##posv_(const char* uplo, const int* n, const int* nrhs, T* a, const int* lda, T* b,           \
                             const int* ldb, T* x, const int* ldx, T* work, R* swork, RWORK##_PARAM int* iter,          \
                             int* info, fortran_length l1) {                                                                    \
        grain::lapack_api::mixed(GRAIN_COUNTER(p##posv_),                                                            \
                                 GRAIN_SYSTEM(p##posv_, uplo, n, nrhs, a, lda, b, ldb, x, ldx, work, swork,          \
                                              RWORK##_ARG iter, info, l1),                                \
                                 uplo, n, nrhs, a, lda, nullptr, b, ldb, x, ldx, iter, info);                         \
    }
#define GRAIN_NO_RWORK_PARAM
#define GRAIN_NO_RWORK_ARG
#define GRAIN_RWORK_PARAM double* rwork,
#define GRAIN_RWORK_ARG rwork,

GRAIN_MIXED_SYMBOLS(double, ds, float, GRAIN_NO_RWORK)
GRAIN_MIXED_SYMBOLS(std::complex<double>, zc, std::complex<float>, GRAIN_RWORK)
