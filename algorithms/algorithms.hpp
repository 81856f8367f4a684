#pragma once
// Tiled algorithms: loop nests over the tiles of matrix views that submit one task
// per tile operation through detail::task. They know nothing about where they run
// (top level or inside a tile) and never wait. Arguments are checked by the callers.
#include "recursion/context.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/base/tile_args.hpp"
#include "grain/matrix.hpp"
#include "grain/types.hpp"

namespace grain::detail {
struct PivotBlocks;
template <typename T>
class TileGrid;
template <typename T>
class QrStorage;
}

namespace grain::algorithms {

using detail::Context;
using detail::paired_t;

template <typename T>
void gemm(const Context& ctx, Op transa, Op transb, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta,
          const Matrix<T>& C);
// A may have more tiles than B's order (the last diagonal tile of a non-square LU, cut):
// the solve uses its leading square part, as the kernel does.
template <typename T>
void trsm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A,
          const Matrix<T>& B);
// B = alpha op(A) B (Left) or alpha B op(A) (Right), A triangular.
template <typename T>
void trmm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A,
          const Matrix<T>& B);
template <typename T>
void syrk(const Context& ctx, Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta, const Matrix<T>& C);
// C = alpha op(A) op(A)^H + beta C on the uplo triangle of C, alpha and beta real (their
// imaginary parts zero); in real precisions it is syrk, and submits syrk tasks.
template <typename T>
void herk(const Context& ctx, Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta, const Matrix<T>& C);
// C = alpha A B + beta C (Left) or alpha B A + beta C (Right), A symmetric, or Hermitian
// (`hermitian`), on its uplo triangle.
template <typename T>
void symm(const Context& ctx, bool hermitian, Side side, Uplo uplo, T alpha, const Matrix<T>& A, const Matrix<T>& B,
          T beta, const Matrix<T>& C);
// C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C (syr2k), or with ^H and conj(alpha)
// in the second term (`hermitian`: her2k, beta real), on the uplo triangle of C.
template <typename T>
void syr2k(const Context& ctx, bool hermitian, Uplo uplo, Op trans, T alpha, const Matrix<T>& A, const Matrix<T>& B,
           T beta, const Matrix<T>& C);
template <typename T>
void potrf(const Context& ctx, Uplo uplo, const Matrix<T>& A);
template <typename T>
void potrs(const Context& ctx, Uplo uplo, const Matrix<T>& A, const Matrix<T>& B);
// The inverse of the uplo triangle of A, in place.
template <typename T>
void trtri(const Context& ctx, Uplo uplo, Diag diag, const Matrix<T>& A);
// The uplo triangle of U U^H (Upper) or L^H L (Lower), in place.
template <typename T>
void lauum(const Context& ctx, Uplo uplo, const Matrix<T>& A);
// The product U L of A's upper triangle and its unit lower one, in place.
template <typename T>
void trtrm(const Context& ctx, const Matrix<T>& A);
// The inverse of A from getrf's factors in A and its pivots, in place.
template <typename T>
void getri(const Context& ctx, const Matrix<T>& A, const detail::PivotBlocks& ipiv);
template <typename T>
void getrf_nopiv(const Context& ctx, const Matrix<T>& A);
// C = alpha C on the whole view, or only on its uplo triangle (whole false); `hermitian`
// also makes the diagonal real (herk's C = beta C)
template <typename T>
void scale(const Context& ctx, bool whole, Uplo uplo, T alpha, const Matrix<T>& C, bool hermitian = false);
template <typename T>
void getrs_nopiv(const Context& ctx, const Matrix<T>& A, const Matrix<T>& B);
// B = 2^exponent A in B's precision, A's paired one (scalar_traits::paired), or B +=
// 2^exponent A (`add`), on the whole of A or (not `whole`) its uplo triangle; A and B have the same
// tiles. A conversion that narrows reports info 1 where an element overflows.
template <typename T>
void lag2(const Context& ctx, bool whole, Uplo uplo, bool add, int exponent, const Matrix<T>& A,
          const Matrix<paired_t<T>>& B);
// LU with partial pivoting, its pivots in blocks of A.nb() (one per step).
template <typename T>
void getrf(const Context& ctx, const Matrix<T>& A, const detail::PivotBlocks& ipiv);
template <typename T>
void getrf(const Context& ctx, const detail::TileGrid<T>& A, const detail::PivotBlocks& ipiv);
// A laswp split with its panel: the interchanges of each sub-block of `ipiv` (in reverse
// order with `reverse`), on the sub-tiles of its column (TileGrid), from the sub-block's
// first row down.
template <typename T>
void laswp(const Context& ctx, const detail::TileGrid<T>& A, const detail::PivotBlocks& ipiv, bool reverse);
template <typename T>
void getrs(const Context& ctx, Op trans, const Matrix<T>& A, const detail::PivotBlocks& ipiv, const Matrix<T>& B);

// Tile QR: A = Q R, R in A's upper triangle, Q as the reflectors left below it and the T
// factors in F (sized for A), each step's tiles eliminated in the order of F's tree; or
// (`lq`) tile LQ, A = L Q, L in A's lower triangle, the reflectors above it.
template <typename T>
void geqrf(const Context& ctx, bool lq, const Matrix<T>& A, detail::QrStorage<T>& F);
// C = op(Q) C (Left) or C op(Q) (Right), Q from geqrf's A and F (an LQ's, `lq`).
template <typename T>
void unmqr(const Context& ctx, bool lq, Side side, Op trans, const Matrix<T>& A, detail::QrStorage<T>& F,
           const Matrix<T>& C);

// D's overlap with S copied from S, tile by tile (S and D of one tile size); with
// zero_rest, the rest of D zeroed.
template <typename T>
void lacpy(const Context& ctx, bool zero_rest, const Matrix<T>& S, const Matrix<T>& D);
// Q's first Q.n columns (QR: Q is A.m x A.m) or first Q.m rows (LQ, `lq`: A.n x A.n), from
// geqrf's A and F.
template <typename T>
void ungqr(const Context& ctx, bool lq, const Matrix<T>& A, detail::QrStorage<T>& F, const Matrix<T>& Q);
// LAPACK's gels: A factored (QR, or LQ when m < n; its factors in F, sized for it), B
// (max(m, n) x nrhs) overwritten by the solution, X a k x nrhs workspace of A's tiles.
template <typename T>
void gels(const Context& ctx, Op trans, const Matrix<T>& A, detail::QrStorage<T>& F, const Matrix<T>& B,
          const Matrix<T>& X);

// Which elements of A a norm reads, as LAPACK's norm routines: all (lange); the uplo
// triangle of a symmetric or Hermitian matrix, each element off the diagonal standing for
// its transpose too, a Hermitian diagonal read as real (lansy, lanhe); the uplo trapezoid,
// its diagonal not read when unit (lantr).
struct NormShape {
    enum Kind { General, Symmetric, Hermitian, Triangular } kind = General;
    Uplo uplo = Uplo::Lower;
    Diag diag = Diag::NonUnit;
};

// A norm of A, in two parts around a wait. lange submits, for each tile of A the shape
// reads, its partial results into the first elements of the tile of W at the same place (W
// has A's tile grid, with tiles of lange_workspace_side(A.nb()) elements a side);
// lange_value reduces W's copy in host memory, a column-major array `w` of leading
// dimension ldw, to the norm.
int lange_workspace_side(int nb);
template <typename T>
void lange(const Context& ctx, Norm norm, const NormShape& shape, const Matrix<T>& A, const Matrix<T>& W);
template <typename T>
real_type<T> lange_value(Norm norm, const NormShape& shape, const Matrix<T>& A, const T* w, int64_t ldw);

// The algorithm a task of `kernel` with arguments `args` runs as when it splits, on its
// tiles' sub-tiles `sub` (in the kernel's buffer order): the one place that knows each
// kernel's algorithm.
template <typename T>
void refine(const Context& ctx, detail::Kernel kernel, const detail::TileArgs<T>& args, const Matrix<T>* sub);

// The op of op(A)^H: the transpose that conjugates in complex precisions.
template <typename T>
Op adjoint(Op op) { return op == Op::NoTrans ? detail::conj_trans<T>() : Op::NoTrans; }

}  // namespace grain::algorithms
