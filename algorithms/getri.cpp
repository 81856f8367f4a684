// The inverse from an LU's factors and pivots, as LAPACK's getri: A^-1 = U^-1 L^-1 P. Both
// triangles are inverted in place (they share only the diagonal tiles, whose halves each
// trtri reads alone), their product U^-1 L^-1 formed in place (trtrm), then its columns
// interchanged in the steps' reverse order. No workspace: where LAPACK copies L out to
// solve X L = U^-1, the product of the two inverted triangles takes as many flops.
#include <algorithm>
#include <vector>

#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void trtrm(const Context& ctx, const Matrix<T>& A) {
    const int nt = A.nt();
    // Step k adds the terms U(i,k) L(k,j) of index k to the blocks above and left of the
    // diagonal tile k (U's column k and L's row k are still as trtri left them), then
    // makes column k and row k their own products, then the diagonal tile.
    for (int k = 0; k < nt; ++k) {
        const int step_priority = 2 * (nt - k);
        for (int j = 0; j < k; ++j)
            for (int i = 0; i < k; ++i)
                detail::task::gemm(ctx, Op::NoTrans, Op::NoTrans, T(1), tile(A, i, k), tile(A, k, j), T(1),
                                   tile(A, i, j), step_priority - (k - std::min(i, j)));
        for (int i = 0; i < k; ++i)
            detail::task::trmm(ctx, Side::Right, Uplo::Lower, Op::NoTrans, Diag::Unit, T(1), tile(A, k, k),
                               tile(A, i, k), step_priority);
        for (int j = 0; j < k; ++j)
            detail::task::trmm(ctx, Side::Left, Uplo::Upper, Op::NoTrans, Diag::NonUnit, T(1), tile(A, k, k),
                               tile(A, k, j), step_priority);
        detail::task::trtrm(ctx, tile(A, k, k), step_priority);
    }
}

template <typename T>
void getri(const Context& ctx, const Matrix<T>& A, const detail::PivotBlocks& ipiv) {
    trtri(ctx, Uplo::Upper, Diag::NonUnit, A);
    trtri(ctx, Uplo::Lower, Diag::Unit, A);
    trtrm(ctx, A);
    // A P: step k's interchanges reach columns k nb and right of it, on every tile row.
    for (int k = A.nt() - 1; k >= 0; --k)
        for (int m = 0; m < A.mt(); ++m) {
            std::vector<detail::Tile<T>> row;
            for (int n = k; n < A.nt(); ++n) row.push_back(tile(A, m, n));
            detail::task::colswp<T>(ctx, ipiv, k, row, int64_t(k) * A.nb(), 0);
        }
}

#define GRAIN_INSTANTIATE(T)                                      \
    template void trtrm<T>(const Context&, const Matrix<T>&);     \
    template void getri<T>(const Context&, const Matrix<T>&, const detail::PivotBlocks&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
