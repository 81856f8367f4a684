#pragma once
// grain routines, for T = float, double, std::complex<float> or std::complex<double>
// (LAPACK's s, d, c, z). Op::ConjTrans means Op::Trans in real precisions, as in BLAS.
//
// Each routine has an asynchronous form (name_async: submits the tasks and returns a
// Request) and a synchronous form returning info like LAPACK: 0 on success, i > 0 when
// the factorization failed at global column i (1-based). Invalid arguments throw
// grain::invalid_argument. All matrices of one call must have the same tile size.
// The synchronous forms of potrf, potrs, posv, trtri, lauum, potri, poinv, getrf, getrs,
// gesv, getrf_nopiv, getrs_nopiv, gesv_nopiv, gesv_mixed and posv_mixed check their inputs for NaN first, as LAPACKE does (RuntimeOptions::nancheck): a NaN
// returns -i, i the array's position in the LAPACK-layout form, inputs untouched.
// Convenience overloads take column-major arrays (LAPACK layout), as Chameleon's
// LAPACK-layout API does; they tile on the ladder GRAIN_SCALES ("1024,512,256") if it is
// set, else with tile size GRAIN_NB if it is set, else on automatic_scales for the call's
// workload and largest dimension.
#include <cstdint>
#include <vector>

#include "matrix.hpp"
#include "pivots.hpp"
#include "qr.hpp"
#include "request.hpp"
#include "types.hpp"

namespace grain {

/// C = alpha op(A) op(B) + beta C
template <typename T>
Request gemm_async(Op transa, Op transb, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta,
                   Matrix<T>& C);
template <typename T>
int gemm(Op transa, Op transb, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta,
         Matrix<T>& C);

/// B = alpha op(A)^-1 B (side Left) or alpha B op(A)^-1 (side Right), A triangular
template <typename T>
Request trsm_async(Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A,
                   Matrix<T>& B);
template <typename T>
int trsm(Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A, Matrix<T>& B);

/// B = alpha op(A) B (side Left) or alpha B op(A) (side Right), A triangular
template <typename T>
Request trmm_async(Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A,
                   Matrix<T>& B);
template <typename T>
int trmm(Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A, Matrix<T>& B);

/// C = alpha A B + beta C (side Left) or alpha B A + beta C (side Right), A symmetric (its
/// uplo triangle)
template <typename T>
Request symm_async(Side side, Uplo uplo, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C);
template <typename T>
int symm(Side side, Uplo uplo, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C);

/// symm with A Hermitian (its diagonal's imaginary parts taken as zero, as BLAS's hemm);
/// symm in real precisions
template <typename T>
Request hemm_async(Side side, Uplo uplo, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C);
template <typename T>
int hemm(Side side, Uplo uplo, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C);

/// C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C, on the uplo triangle of C
template <typename T>
Request syr2k_async(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C);
template <typename T>
int syr2k(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C);

/// C = alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C, on the uplo triangle of
/// C, beta real, as BLAS's her2k (trans NoTrans or ConjTrans); syr2k in real precisions
template <typename T>
Request her2k_async(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, const Matrix<T>& B, real_type<T> beta,
                    Matrix<T>& C);
template <typename T>
int her2k(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, const Matrix<T>& B, real_type<T> beta, Matrix<T>& C);

/// C = alpha op(A) op(A)^T + beta C, on the uplo triangle of C
template <typename T>
Request syrk_async(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta, Matrix<T>& C);
template <typename T>
int syrk(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta, Matrix<T>& C);

/// C = alpha op(A) op(A)^H + beta C, on the uplo triangle of C, alpha and beta real, as
/// BLAS's herk (trans NoTrans or ConjTrans); in real precisions it is syrk
template <typename T>
Request herk_async(Uplo uplo, Op trans, real_type<T> alpha, const Matrix<T>& A, real_type<T> beta, Matrix<T>& C);
template <typename T>
int herk(Uplo uplo, Op trans, real_type<T> alpha, const Matrix<T>& A, real_type<T> beta, Matrix<T>& C);

/// Cholesky factorization A = L L^H (Lower) or U^H U (Upper), in place (L L^T and U^T U
/// in real precisions)
template <typename T>
Request potrf_async(Uplo uplo, Matrix<T>& A);
template <typename T>
int potrf(Uplo uplo, Matrix<T>& A);

/// Solve A X = B with A factored by potrf; X overwrites B
template <typename T>
Request potrs_async(Uplo uplo, const Matrix<T>& A, Matrix<T>& B);
template <typename T>
int potrs(Uplo uplo, const Matrix<T>& A, Matrix<T>& B);

/// Factor and solve. The synchronous form leaves B untouched when the factorization
/// fails (as LAPACK); the asynchronous form pipelines both, so B is then undefined.
template <typename T>
Request posv_async(Uplo uplo, Matrix<T>& A, Matrix<T>& B);
template <typename T>
int posv(Uplo uplo, Matrix<T>& A, Matrix<T>& B);

/// The inverse of the uplo triangle of A, in place, as LAPACK's trtri: info = i when
/// A(i,i) is exactly zero (diag NonUnit); A is then undefined (LAPACK leaves it as it was)
template <typename T>
Request trtri_async(Uplo uplo, Diag diag, Matrix<T>& A);
template <typename T>
int trtri(Uplo uplo, Diag diag, Matrix<T>& A);

/// The uplo triangle of U U^H (Upper) or L^H L (Lower), in place, as LAPACK's lauum; in
/// complex precisions the diagonal must be real, as a Cholesky factor's is
template <typename T>
Request lauum_async(Uplo uplo, Matrix<T>& A);
template <typename T>
int lauum(Uplo uplo, Matrix<T>& A);

/// The inverse of A from its factor by potrf (trtri, then lauum, as one task graph), on
/// the uplo triangle, as LAPACK's potri: info = i when the factor's (i,i) element is
/// exactly zero, A then undefined
template <typename T>
Request potri_async(Uplo uplo, Matrix<T>& A);
template <typename T>
int potri(Uplo uplo, Matrix<T>& A);

/// The inverse of A, Hermitian positive definite, on the uplo triangle: potrf, trtri and
/// lauum as one task graph, with no wait between them, so that the three overlap. info
/// is potrf's; when it is not 0 A is undefined, since the later phases may already have
/// run on its first tiles
template <typename T>
Request poinv_async(Uplo uplo, Matrix<T>& A);
template <typename T>
int poinv(Uplo uplo, Matrix<T>& A);

/// Tile QR, A = Q R, any m x n: R in A's upper triangle (its upper trapezoid if m < n), Q
/// as the reflectors below it with the factors F, which geqrf sizes for A (QrFactors:
/// not LAPACK's representation of Q). Always 0
template <typename T>
Request geqrf_async(Matrix<T>& A, QrFactors<T>& F);
template <typename T>
int geqrf(Matrix<T>& A, QrFactors<T>& F);
/// C = op(Q) C (Left) or C op(Q) (Right), Q from geqrf's A and F, op NoTrans or ConjTrans
/// (Trans in real precisions), as LAPACK's unmqr and ormqr; C has A's tiles. Always 0
template <typename T>
Request unmqr_async(Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& C);
template <typename T>
int unmqr(Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& C);
/// Tile LQ, A = L Q, any m x n: L in A's lower triangle (trapezoid if m > n), Q as the
/// reflectors above it with the factors F (the QR of A^H, conjugate-transposed). Always 0
template <typename T>
Request gelqf_async(Matrix<T>& A, QrFactors<T>& F);
template <typename T>
int gelqf(Matrix<T>& A, QrFactors<T>& F);
/// C = op(Q) C (Left) or C op(Q) (Right), Q (n x n) from gelqf's A and F, as LAPACK's
/// unmlq and ormlq. Always 0
template <typename T>
Request unmlq_async(Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& C);
template <typename T>
int unmlq(Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& C);
/// Q explicitly, as LAPACK's ungqr and orgqr: Q's first Q.n columns (Q.m == A.m,
/// Q.n <= A.m) from geqrf's A and F; unglq and orglq: Q's first Q.m rows (Q.n == A.n,
/// Q.m <= A.n) from gelqf's. Q has A's tiles. Always 0
template <typename T>
Request ungqr_async(const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& Q);
template <typename T>
int ungqr(const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& Q);
template <typename T>
Request unglq_async(const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& Q);
template <typename T>
int unglq(const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& Q);

/// Least squares or minimum norm, as LAPACK's gels: op(A) X = B with op NoTrans or
/// ConjTrans (Trans in real precisions), A m x n of full rank, B max(m, n) x nrhs. The
/// least-squares solution of an overdetermined system (m >= n, NoTrans; m < n, ConjTrans)
/// or the minimum-norm one of an underdetermined one overwrites B's first n (m) rows; A
/// holds its QR (m >= n) or LQ, in grain's tile representation. info = i where the
/// triangle's i-th diagonal element is exactly zero (A is rank-deficient): B then holds no
/// solution, as LAPACK's
template <typename T>
Request gels_async(Op trans, Matrix<T>& A, Matrix<T>& B);
template <typename T>
int gels(Op trans, Matrix<T>& A, Matrix<T>& B);

/// LU factorization with partial pivoting, P A = L U (L unit lower), in place, as
/// LAPACK's getrf: ipiv (ipiv.size() == min(m, n)) gets 1-based row indices global to A;
/// info is the first exactly zero pivot, and the factorization still completes
template <typename T>
Request getrf_async(Matrix<T>& A, Pivots& ipiv);
template <typename T>
int getrf(Matrix<T>& A, Pivots& ipiv);

/// Solve op(A) X = B with A and ipiv from getrf (A square); X overwrites B
template <typename T>
Request getrs_async(Op trans, const Matrix<T>& A, const Pivots& ipiv, Matrix<T>& B);
template <typename T>
int getrs(Op trans, const Matrix<T>& A, const Pivots& ipiv, Matrix<T>& B);

/// Factor and solve, as posv: the synchronous form leaves B untouched when the
/// factorization finds a zero pivot
template <typename T>
Request gesv_async(Matrix<T>& A, Pivots& ipiv, Matrix<T>& B);
template <typename T>
int gesv(Matrix<T>& A, Pivots& ipiv, Matrix<T>& B);

/// The inverse of A from getrf's factors and pivots, in place, as LAPACK's getri: U^-1 and
/// L^-1 (as trtri), their product, then A P. info is U's first exactly zero diagonal
/// element (1-based), A then undefined
template <typename T>
Request getri_async(Matrix<T>& A, const Pivots& ipiv);
template <typename T>
int getri(Matrix<T>& A, const Pivots& ipiv);

/// LU factorization without pivoting, A = L U (L unit lower), in place; info is the
/// first exactly zero pivot
template <typename T>
Request getrf_nopiv_async(Matrix<T>& A);
template <typename T>
int getrf_nopiv(Matrix<T>& A);

template <typename T>
Request getrs_nopiv_async(const Matrix<T>& A, Matrix<T>& B);
template <typename T>
int getrs_nopiv(const Matrix<T>& A, Matrix<T>& B);

template <typename T>
Request gesv_nopiv_async(Matrix<T>& A, Matrix<T>& B);
template <typename T>
int gesv_nopiv(Matrix<T>& A, Matrix<T>& B);

/// Mixed precision, as LAPACK's dsgesv and zcgesv (T double or std::complex<double>): A X =
/// B solved with A factored in single precision (getrf on a copy of A in float or
/// std::complex<float>), X refined in T until each column's residual r passes LAPACK's
/// test, max|r| <= sqrt(n) eps ||A||inf max|x| (eps T's unit roundoff), for at most 30
/// steps. iter is the steps taken, or negative when it fell back to T's gesv: -2 an
/// element of A, B or a residual overflowed single precision, -3 the single-precision
/// factorization found a zero pivot, -31 no convergence. A is then gesv's factors, else
/// unchanged; ipiv is the factorization's pivots, B unchanged, X of B's shape and tiles.
/// info > 0 only when the fall-back's factorization failed (X then undefined). Under
/// RuntimeOptions::gpu_math tf32, bf16 or fp16, each step's correction is GMRES's,
/// preconditioned by the factors, and iter counts the factors' applications. The
/// asynchronous form refines on a thread of the request's: its operands and iter must not
/// be used by another call until wait() returns.
template <typename T>
Request gesv_mixed_async(Matrix<T>& A, Pivots& ipiv, const Matrix<T>& B, Matrix<T>& X, int& iter);
template <typename T>
int gesv_mixed(Matrix<T>& A, Pivots& ipiv, const Matrix<T>& B, Matrix<T>& X, int& iter);

/// The same with Cholesky, as LAPACK's dsposv and zcposv: A Hermitian positive definite
/// (symmetric in real precision) on its uplo triangle, which is all it reads; iter -3 when
/// the single-precision factorization found A not positive definite, and info > 0 when the
/// fall-back's did too (potrf's info)
template <typename T>
Request posv_mixed_async(Uplo uplo, Matrix<T>& A, const Matrix<T>& B, Matrix<T>& X, int& iter);
template <typename T>
int posv_mixed(Uplo uplo, Matrix<T>& A, const Matrix<T>& B, Matrix<T>& X, int& iter);

/// A norm of A (Norm::Max, One, Inf or Frobenius), as LAPACK's lange: 0 for an empty A,
/// NaN when an element is NaN. A value, not an update: no _async form, no info.
template <typename T>
real_type<T> lange(Norm norm, const Matrix<T>& A);
/// The same norms of a symmetric (lansy) or Hermitian (lanhe: its diagonal's imaginary
/// parts not read) square A stored in its uplo triangle, as LAPACK's; in real precisions
/// lanhe is lansy
template <typename T>
real_type<T> lansy(Norm norm, Uplo uplo, const Matrix<T>& A);
template <typename T>
real_type<T> lanhe(Norm norm, Uplo uplo, const Matrix<T>& A);
/// ... of the uplo trapezoid of an m x n A, its diagonal taken as ones and not read when
/// diag is Unit, as LAPACK's lantr
template <typename T>
real_type<T> lantr(Norm norm, Uplo uplo, Diag diag, const Matrix<T>& A);

// ---- LAPACK layout (column-major arrays) ----

/// While one is alive on a thread (innermost first), the LAPACK-layout routines that
/// thread calls are distributed calls (a build with StarPU-MPI, under mpirun): every
/// process calls them with the same arguments; the arrays are read, and the outputs
/// written, on process `root` only (the others' pointers are not used), their tiles
/// placed by `distribution` for the call. Argument checks are collective, as for the
/// tiled forms. LU with partial pivoting refuses (getrf, getrs, gesv).
class DistributedLayout {
public:
    explicit DistributedLayout(const Distribution& distribution, int root = 0);
    ~DistributedLayout();
    DistributedLayout(const DistributedLayout&) = delete;
    DistributedLayout& operator=(const DistributedLayout&) = delete;
    const Distribution& distribution() const { return distribution_; }
    int root() const { return root_; }
    /// The innermost one alive on this thread, or null.
    static const DistributedLayout* current();

private:
    Distribution distribution_;
    int root_;
    const DistributedLayout* outer_;
};

/// The ladder of tile scales (largest first) grain chooses for `workload` on a call of
/// order `order` (its largest dimension) in T's precision, when the caller gives none: for
/// the workers of the Runtime alive (else this machine's cores) and the performance models
/// StarPU has of grain's kernels (else rates of the kind of unit). One scale on CPU cores
/// alone; with GPUs, from the GPUs' tile down to the cores', for the split policy "lp".
/// doc/design.md, "Automatic granularity", says how.
template <typename T>
std::vector<int> automatic_scales(Workload workload, int64_t order);

template <typename T>
int gemm(Op transa, Op transb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
         const T* b, int64_t ldb, T beta, T* c, int64_t ldc);
template <typename T>
int trsm(Side side, Uplo uplo, Op trans, Diag diag, int64_t m, int64_t n, T alpha, const T* a,
         int64_t lda, T* b, int64_t ldb);
template <typename T>
int trmm(Side side, Uplo uplo, Op trans, Diag diag, int64_t m, int64_t n, T alpha, const T* a,
         int64_t lda, T* b, int64_t ldb);
template <typename T>
int symm(Side side, Uplo uplo, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
         T beta, T* c, int64_t ldc);
template <typename T>
int hemm(Side side, Uplo uplo, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
         T beta, T* c, int64_t ldc);
template <typename T>
int syr2k(Uplo uplo, Op trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
          T beta, T* c, int64_t ldc);
template <typename T>
int her2k(Uplo uplo, Op trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
          real_type<T> beta, T* c, int64_t ldc);
template <typename T>
int syrk(Uplo uplo, Op trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, T beta, T* c,
         int64_t ldc);
template <typename T>
int herk(Uplo uplo, Op trans, int64_t n, int64_t k, real_type<T> alpha, const T* a, int64_t lda, real_type<T> beta,
         T* c, int64_t ldc);
template <typename T>
int potrf(Uplo uplo, int64_t n, T* a, int64_t lda);
template <typename T>
int potrs(Uplo uplo, int64_t n, int64_t nrhs, const T* a, int64_t lda, T* b, int64_t ldb);
template <typename T>
int posv(Uplo uplo, int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb);
template <typename T>
int trtri(Uplo uplo, Diag diag, int64_t n, T* a, int64_t lda);
template <typename T>
int lauum(Uplo uplo, int64_t n, T* a, int64_t lda);
template <typename T>
int potri(Uplo uplo, int64_t n, T* a, int64_t lda);
template <typename T>
int poinv(Uplo uplo, int64_t n, T* a, int64_t lda);
template <typename T>
int getrf(int64_t m, int64_t n, T* a, int64_t lda, int* ipiv);
template <typename T>
int getrs(Op trans, int64_t n, int64_t nrhs, const T* a, int64_t lda, const int* ipiv, T* b, int64_t ldb);
template <typename T>
int gesv(int64_t n, int64_t nrhs, T* a, int64_t lda, int* ipiv, T* b, int64_t ldb);
template <typename T>
int getri(int64_t n, T* a, int64_t lda, const int* ipiv);
template <typename T>
int gels(Op trans, int64_t m, int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb);
template <typename T>
int gesv_mixed(int64_t n, int64_t nrhs, T* a, int64_t lda, int* ipiv, const T* b, int64_t ldb, T* x, int64_t ldx,
               int* iter);
template <typename T>
int posv_mixed(Uplo uplo, int64_t n, int64_t nrhs, T* a, int64_t lda, const T* b, int64_t ldb, T* x, int64_t ldx,
               int* iter);
template <typename T>
int getrf_nopiv(int64_t m, int64_t n, T* a, int64_t lda);
template <typename T>
int getrs_nopiv(int64_t n, int64_t nrhs, const T* a, int64_t lda, T* b, int64_t ldb);
template <typename T>
int gesv_nopiv(int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb);
template <typename T>
real_type<T> lange(Norm norm, int64_t m, int64_t n, const T* a, int64_t lda);
template <typename T>
real_type<T> lansy(Norm norm, Uplo uplo, int64_t n, const T* a, int64_t lda);
template <typename T>
real_type<T> lanhe(Norm norm, Uplo uplo, int64_t n, const T* a, int64_t lda);
template <typename T>
real_type<T> lantr(Norm norm, Uplo uplo, Diag diag, int64_t m, int64_t n, const T* a, int64_t lda);

}  // namespace grain
