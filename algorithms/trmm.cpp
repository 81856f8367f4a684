// Triangular product: B = alpha op(A) B (Left) or alpha B op(A) (Right), in place.
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void trmm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A,
          const Matrix<T>& B) {
    const bool left = side == Side::Left;
    const bool op_lower = (uplo == Uplo::Lower) == (trans == Op::NoTrans);  // op(A) is lower triangular
    // Block k of the product reads the blocks of B on one side of k (before k for a lower
    // op(A) on the left, after it for an upper one; the reverse on the right): those go
    // last, so that each block is read before it is overwritten.
    const bool forward = left != op_lower;
    const int kt = A.mt();
    // Tile (r, c) of op(A).
    auto op_a = [&](int r, int c) { return trans == Op::NoTrans ? tile(A, r, c) : tile(A, c, r); };
    for (int step = 0; step < kt; ++step) {
        const int k = forward ? step : kt - 1 - step;
        const int priority = 2 * (kt - step);
        const int first = forward ? k + 1 : 0, last = forward ? kt : k;  // the blocks block k reads
        // Block k times its diagonal tile, then the others' terms added to it.
        if (left) {
            for (int n = 0; n < B.nt(); ++n)
                detail::task::trmm(ctx, side, uplo, trans, diag, alpha, tile(A, k, k), tile(B, k, n), priority);
            for (int m = first; m < last; ++m)
                for (int n = 0; n < B.nt(); ++n)
                    detail::task::gemm(ctx, trans, Op::NoTrans, alpha, op_a(k, m), tile(B, m, n), T(1), tile(B, k, n),
                                       priority - 1);
        } else {
            for (int m = 0; m < B.mt(); ++m)
                detail::task::trmm(ctx, side, uplo, trans, diag, alpha, tile(A, k, k), tile(B, m, k), priority);
            for (int n = first; n < last; ++n)
                for (int m = 0; m < B.mt(); ++m)
                    detail::task::gemm(ctx, Op::NoTrans, trans, alpha, tile(B, m, n), op_a(n, k), T(1), tile(B, m, k),
                                       priority - 1);
        }
    }
}

#define GRAIN_INSTANTIATE(T) template void trmm<T>(const Context&, Side, Uplo, Op, Diag, T, const Matrix<T>&, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
