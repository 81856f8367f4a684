// C = alpha A B + beta C (Left) or alpha B A + beta C (Right), A symmetric (symm) or
// Hermitian (hemm), its uplo triangle stored: one loop nest for both, a gemm per tile off
// A's diagonal (on the stored tile, or the adjoint or transpose of its mirror).
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void symm(const Context& ctx, bool hermitian, Side side, Uplo uplo, T alpha, const Matrix<T>& A, const Matrix<T>& B,
          T beta, const Matrix<T>& C) {
    const bool left = side == Side::Left;
    const Op mirror = hermitian ? detail::conj_trans<T>() : Op::Trans;
    auto stored = [&](int r, int c) { return uplo == Uplo::Lower ? r >= c : r <= c; };
    const int kt = A.mt();
    for (int m = 0; m < C.mt(); ++m)
        for (int n = 0; n < C.nt(); ++n)
            for (int k = 0; k < kt; ++k) {
                const T step_beta = k == 0 ? beta : T(1);
                // Tile (r, c) of A as the tile stored, and the op that makes it so.
                const int r = left ? m : k, c = left ? k : n;
                const Op op = stored(r, c) ? Op::NoTrans : mirror;
                const detail::Tile<T> a = stored(r, c) ? tile(A, r, c) : tile(A, c, r);
                if (r == c)
                    detail::task::symm(ctx, hermitian, side, uplo, alpha, a, tile(B, m, n), step_beta, tile(C, m, n), 0);
                else if (left)
                    detail::task::gemm(ctx, op, Op::NoTrans, alpha, a, tile(B, k, n), step_beta, tile(C, m, n), 0);
                else
                    detail::task::gemm(ctx, Op::NoTrans, op, alpha, tile(B, m, k), a, step_beta, tile(C, m, n), 0);
            }
}

#define GRAIN_INSTANTIATE(T)                                                                                 \
    template void symm<T>(const Context&, bool, Side, Uplo, T, const Matrix<T>&, const Matrix<T>&, T,       \
                          const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
