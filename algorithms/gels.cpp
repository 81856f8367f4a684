// ungqr and unglq: Q's leading columns or rows explicitly. gels: least squares and
// minimum-norm solutions, as LAPACK's: a QR of A when m >= n, an LQ when m < n, then Q
// applied to B and a triangular solve. The solve runs on X, k x nrhs (k = min(m, n)): B's
// first k rows, which its tiles need not end on, copied into tiles of their own and back.
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

// D's overlap with S copied from S, tile by tile; with zero_rest, the rest of D zeroed.
template <typename T>
void lacpy(const Context& ctx, bool zero_rest, const Matrix<T>& S, const Matrix<T>& D) {
    for (int j = 0; j < D.nt(); ++j)
        for (int i = 0; i < D.mt(); ++i) {
            if (i < S.mt() && j < S.nt())
                detail::task::lacpy(ctx, zero_rest, tile(S, i, j), tile(D, i, j), 0);
            else if (zero_rest)
                detail::task::laset(ctx, T(0), tile(D, i, j), 0);
        }
}

template <typename T>
void gels(const Context& ctx, Op trans, const Matrix<T>& A, detail::QrStorage<T>& F, const Matrix<T>& B,
          const Matrix<T>& X) {
    const bool lq = A.m() < A.n(), adjoint = trans != Op::NoTrans;
    const Op ct = detail::conj_trans<T>();
    const int kt = X.mt();
    const Matrix<T> triangle = A.sub(0, kt - 1, 0, kt - 1), top = B.sub(0, kt - 1, 0, B.nt() - 1);
    const Uplo uplo = lq ? Uplo::Lower : Uplo::Upper;
    geqrf(ctx, lq, A, F);
    // As LAPACK's trtrs: an exact zero on R's (L's) diagonal is info, the solve left to run.
    for (int k = 0; k < kt; ++k) detail::task::trzero(ctx, tile(triangle, k, k), 0);
    // Least squares (QR, NoTrans; LQ, ConjTrans): X = R^-1 (Q^H B)_k, or L^-H (Q B)_k.
    // Minimum norm (QR, ConjTrans; LQ, NoTrans): B = Q [R^-H B_k; 0], or Q^H [L^-1 B_k; 0].
    const bool least_squares = lq == adjoint;
    if (least_squares) unmqr(ctx, lq, Side::Left, lq ? Op::NoTrans : ct, A, F, B);
    lacpy(ctx, false, top, X);
    trsm(ctx, Side::Left, uplo, trans, Diag::NonUnit, T(1), triangle, X);
    if (least_squares) return lacpy(ctx, false, X, top);
    lacpy(ctx, true, X, B);
    unmqr(ctx, lq, Side::Left, lq ? ct : Op::NoTrans, A, F, B);
}

template <typename T>
void ungqr(const Context& ctx, bool lq, const Matrix<T>& A, detail::QrStorage<T>& F, const Matrix<T>& Q) {
    // Q's leading columns (QR) or rows (LQ) are Q applied to the identity's.
    for (int j = 0; j < Q.nt(); ++j)
        for (int i = 0; i < Q.mt(); ++i) detail::task::laset(ctx, T(i == j ? 1 : 0), tile(Q, i, j), 0);
    unmqr(ctx, lq, lq ? Side::Right : Side::Left, Op::NoTrans, A, F, Q);
}

#define GRAIN_INSTANTIATE(T)                                                                                    \
    template void lacpy<T>(const Context&, bool, const Matrix<T>&, const Matrix<T>&);                          \
    template void gels<T>(const Context&, Op, const Matrix<T>&, detail::QrStorage<T>&, const Matrix<T>&,       \
                          const Matrix<T>&);                                                              \
    template void ungqr<T>(const Context&, bool, const Matrix<T>&, detail::QrStorage<T>&, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
