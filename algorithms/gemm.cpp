// C = alpha op(A) op(B) + beta C
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void gemm(const Context& ctx, Op transa, Op transb, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta,
          const Matrix<T>& C) {
    // Tile (r, c) of op(A) is A(r, c), or A(c, r) transposed by the kernel.
    auto op_a = [&](int r, int c) { return transa == Op::NoTrans ? tile(A, r, c) : tile(A, c, r); };
    auto op_b = [&](int r, int c) { return transb == Op::NoTrans ? tile(B, r, c) : tile(B, c, r); };
    const int kt = transa == Op::NoTrans ? A.nt() : A.mt();
    if (kt == 0) return scale(ctx, true, Uplo::Lower, beta, C);  // C = beta C
    for (int m = 0; m < C.mt(); ++m) {
        for (int n = 0; n < C.nt(); ++n) {
            for (int k = 0; k < kt; ++k)
                detail::task::gemm(ctx, transa, transb, alpha, op_a(m, k), op_b(k, n), k == 0 ? beta : T(1),
                                   tile(C, m, n), 0);
        }
    }
}

#define GRAIN_INSTANTIATE(T) template void gemm<T>(const Context&, Op, Op, T, const Matrix<T>&, const Matrix<T>&, T, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
