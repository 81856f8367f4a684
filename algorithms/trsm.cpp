// Triangular solve: op(A) X = alpha B (Left) or X op(A) = alpha B (Right); X overwrites B.
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void trsm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& whole_A,
          const Matrix<T>& B) {
    const bool left = side == Side::Left;
    const int order = left ? B.mt() : B.nt();
    const Matrix<T> A = whole_A.mt() == order && whole_A.nt() == order ? whole_A
                                                                      : whole_A.sub(0, order - 1, 0, order - 1);
    const bool op_lower = (uplo == Uplo::Lower) == (trans == Op::NoTrans);  // op(A) is lower triangular
    // Left with a lower op(A), or Right with an upper one, solves the first block first.
    const bool forward = left == op_lower;
    const int kt = A.mt();
    // Tile (r, c) of op(A).
    auto op_a = [&](int r, int c) { return trans == Op::NoTrans ? tile(A, r, c) : tile(A, c, r); };
    for (int step = 0; step < kt; ++step) {
        const int k = forward ? step : kt - 1 - step;
        const T step_alpha = step == 0 ? alpha : T(1);  // alpha scales B once, on its first update
        const int priority = 2 * (kt - step);
        // Solve block k, then remove its contribution from the blocks after it.
        if (left) {
            for (int n = 0; n < B.nt(); ++n)
                detail::task::trsm(ctx, side, uplo, trans, diag, step_alpha, tile(A, k, k), tile(B, k, n), priority);
            for (int m = forward ? k + 1 : 0; m < (forward ? kt : k); ++m)
                for (int n = 0; n < B.nt(); ++n)
                    detail::task::gemm(ctx, trans, Op::NoTrans, T(-1), op_a(m, k), tile(B, k, n), step_alpha,
                                       tile(B, m, n), priority - 1);
        } else {
            for (int m = 0; m < B.mt(); ++m)
                detail::task::trsm(ctx, side, uplo, trans, diag, step_alpha, tile(A, k, k), tile(B, m, k), priority);
            for (int n = forward ? k + 1 : 0; n < (forward ? kt : k); ++n)
                for (int m = 0; m < B.mt(); ++m)
                    detail::task::gemm(ctx, Op::NoTrans, trans, T(-1), tile(B, m, k), op_a(k, n), step_alpha,
                                       tile(B, m, n), priority - 1);
        }
        // Block k of op(A) and the solved block k of X are read no more: other processes
        // drop their copies now rather than at the call's end.
        for (int i = 0; i < kt; ++i)
            if (i == k || (i > k) == forward) detail::task::done_reading(ctx, left ? op_a(i, k) : op_a(k, i));
        for (int i = 0; i < (left ? B.nt() : B.mt()); ++i)
            detail::task::done_reading(ctx, left ? tile(B, k, i) : tile(B, i, k));
    }
}

#define GRAIN_INSTANTIATE(T) template void trsm<T>(const Context&, Side, Uplo, Op, Diag, T, const Matrix<T>&, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
