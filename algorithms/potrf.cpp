// Cholesky factorization, right-looking: A = L L^H (Lower) or U^H U (Upper); L L^T and
// U^T U in real precisions.
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void potrf(const Context& ctx, Uplo uplo, const Matrix<T>& A) {
    const bool lower = uplo == Uplo::Lower;
    const int nt = A.nt();
    // Tile (r, c) of L, r >= c: A(r, c) for Lower; for Upper, A(c, r) is its adjoint.
    auto l = [&](int r, int c) { return lower ? tile(A, r, c) : tile(A, c, r); };
    const Op ct = detail::conj_trans<T>();
    const Op l_op = lower ? Op::NoTrans : ct;  // how a stored tile becomes its L tile
    for (int k = 0; k < nt; ++k) {
        // Priorities follow the critical path: the diagonal chain first, then the
        // tiles nearest to it.
        const int step_priority = 2 * (nt - k);
        detail::task::potrf<T>(ctx, uplo, tile(A, k, k), step_priority);
        for (int m = k + 1; m < nt; ++m) {
            // L(m,k) = A(m,k) L(k,k)^-H
            const Side side = lower ? Side::Right : Side::Left;
            detail::task::trsm(ctx, side, uplo, ct, Diag::NonUnit, T(1), tile(A, k, k), l(m, k),
                               step_priority - (m - k));
        }
        for (int n = k + 1; n < nt; ++n) {
            // A(n,n) -= L(n,k) L(n,k)^H, and A(m,n) -= L(m,k) L(n,k)^H below it
            detail::task::herk(ctx, uplo, l_op, T(-1), l(n, k), T(1), tile(A, n, n), step_priority - (n - k));
            for (int m = n + 1; m < nt; ++m) {
                const int priority = step_priority - (n - k) - (m - k);
                if (lower)
                    detail::task::gemm(ctx, Op::NoTrans, ct, T(-1), l(m, k), l(n, k), T(1), tile(A, m, n), priority);
                else  // the same update, its adjoint: A(n,m) -= L(n,k) L(m,k)^H
                    detail::task::gemm(ctx, ct, Op::NoTrans, T(-1), l(n, k), l(m, k), T(1), tile(A, n, m),
                                       priority);
            }
        }
        // Step k's column is read by nothing after it.
        for (int m = k; m < nt; ++m) detail::task::done_reading(ctx, l(m, k));
    }
}

#define GRAIN_INSTANTIATE(T) template void potrf<T>(const Context&, Uplo, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
