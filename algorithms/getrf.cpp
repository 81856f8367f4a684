// LU factorization with partial pivoting, right-looking: P A = L U, L unit lower
// triangular, as LAPACK's getrf. Each step factors its panel (the column of tiles from
// the diagonal down) in one task, whose pivot search spans the whole column; applies the
// step's row interchanges to every other tile column from the diagonal down (to the right
// before their update, to the left once at the end); then the updates, as getrf_nopiv's.
#include <algorithm>
#include <vector>

#include "recursion/tasks.hpp"
#include "algorithms.hpp"
#include "lu_update.hpp"

namespace grain::algorithms {

using detail::tile;

namespace {

using detail::TileGrid;

// Tiles (k..mt-1, n) of A: the rows a step's interchanges reach, in column n.
template <typename T, typename Grid>
std::vector<detail::Tile<T>> column_from(const Grid& A, int k, int n) {
    std::vector<detail::Tile<T>> column;
    for (int m = k; m < A.mt(); ++m) column.push_back(tile(A, m, n));
    return column;
}

}  // namespace

// On a view's tiles or, for a split panel, on its column's sub-tiles (TileGrid).
template <typename T>
void getrf(const Context& ctx, const TileGrid<T>& A, const detail::PivotBlocks& ipiv) {
    const int kt = std::min(A.mt(), A.nt());
    const int steps = std::max(A.mt(), A.nt());
    for (int k = 0; k < kt; ++k) {
        const int step_priority = 2 * (steps - k);
        const int64_t first_row = int64_t(k) * A.nb();
        detail::task::getrf<T>(ctx, ipiv, k, column_from<T>(A, k, k), first_row, step_priority);
        for (int n = k + 1; n < A.nt(); ++n) {
            detail::task::laswp<T>(ctx, ipiv, k, column_from<T>(A, k, n), first_row, step_priority - (n - k));
            // U(k,n) = L(k,k)^-1 A(k,n)
            detail::task::trsm(ctx, Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, T(1), tile(A, k, k),
                               tile(A, k, n), step_priority - (n - k));
        }
        lu_trailing_update<T>(ctx, A, k, step_priority);
    }
    // The interchanges of step k on the columns of L left of it, which no task reads again.
    for (int k = 1; k < kt; ++k)
        for (int n = 0; n < k; ++n)
            detail::task::laswp<T>(ctx, ipiv, k, column_from<T>(A, k, n), int64_t(k) * A.nb(), 0);
}

template <typename T>
void laswp(const Context& ctx, const TileGrid<T>& A, const detail::PivotBlocks& ipiv, bool reverse) {
    // Column by column of sub-tiles, each sub-block's interchanges after the ones before it
    // (the reverse for P^T), as the split panel's own steps applied them.
    const int blocks = int(ipiv.blocks->size());
    for (int n = 0; n < A.nt(); ++n)
        for (int s = 0; s < blocks; ++s) {
            const int k = reverse ? blocks - 1 - s : s;
            detail::task::laswp<T>(ctx, ipiv, k, column_from<T>(A, k, n), int64_t(k) * A.nb(), 2 * (blocks - s) - n,
                                   reverse);
        }
}

template <typename T>
void getrf(const Context& ctx, const Matrix<T>& A, const detail::PivotBlocks& ipiv) {
    getrf(ctx, TileGrid<T>(A), ipiv);
    if (A.distributed()) detail::task::pivots_everywhere(ctx, ipiv);
}

// Solve op(A) X = B with the factors and pivots of getrf (A square).
template <typename T>
void getrs(const Context& ctx, Op trans, const Matrix<T>& A, const detail::PivotBlocks& ipiv, const Matrix<T>& B) {
    const int kt = A.mt();
    if (trans == Op::NoTrans) {
        // B = P B, then L Y = B, U X = Y.
        for (int n = 0; n < B.nt(); ++n)
            for (int k = 0; k < kt; ++k)
                detail::task::laswp<T>(ctx, ipiv, k, column_from<T>(B, k, n), int64_t(k) * A.nb(), 2 * (kt - k));
        trsm(ctx, Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, T(1), A, B);
        trsm(ctx, Side::Left, Uplo::Upper, Op::NoTrans, Diag::NonUnit, T(1), A, B);
        return;
    }
    // A^T = U^T L^T P: U^T Y = B, L^T Z = Y, then X = P^T Z (the interchanges in reverse);
    // the same with A^H.
    trsm(ctx, Side::Left, Uplo::Upper, trans, Diag::NonUnit, T(1), A, B);
    trsm(ctx, Side::Left, Uplo::Lower, trans, Diag::Unit, T(1), A, B);
    for (int n = 0; n < B.nt(); ++n)
        for (int k = kt - 1; k >= 0; --k)
            detail::task::laswp<T>(ctx, ipiv, k, column_from<T>(B, k, n), int64_t(k) * A.nb(), 0, true);
}

#define GRAIN_INSTANTIATE(T)                                                                    \
    template void getrf<T>(const Context&, const TileGrid<T>&, const detail::PivotBlocks&);    \
    template void getrf<T>(const Context&, const Matrix<T>&, const detail::PivotBlocks&);      \
    template void laswp<T>(const Context&, const TileGrid<T>&, const detail::PivotBlocks&, bool); \
    template void getrs<T>(const Context&, Op, const Matrix<T>&, const detail::PivotBlocks&,   \
                           const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
