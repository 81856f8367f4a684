#pragma once
// The trailing update of step k of a right-looking LU, with or without pivoting:
// A(m, n) -= L(m, k) U(k, n) for m, n > k, the tiles nearest the panel first. No later
// step reads step k's column and row.
#include "recursion/tasks.hpp"

namespace grain::algorithms {

// Grid: a Matrix<T> or a detail::TileGrid<T>.
template <typename T, typename Grid>
void lu_trailing_update(const Context& ctx, const Grid& A, int k, int step_priority) {
    using detail::tile;
    for (int n = k + 1; n < A.nt(); ++n)
        for (int m = k + 1; m < A.mt(); ++m)
            detail::task::gemm<T>(ctx, Op::NoTrans, Op::NoTrans, T(-1), tile(A, m, k), tile(A, k, n), T(1),
                                  tile(A, m, n), step_priority - (n - k) - (m - k));
    for (int m = k; m < A.mt(); ++m) detail::task::done_reading(ctx, tile(A, m, k));
    for (int n = k + 1; n < A.nt(); ++n) detail::task::done_reading(ctx, tile(A, k, n));
}

}  // namespace grain::algorithms
