// C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C (syr2k), or alpha op(A) op(B)^H +
// conj(alpha) op(B) op(A)^H + beta C with beta real (her2k), on the uplo triangle of C:
// one loop nest for both, two gemms per tile off the diagonal.
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void syr2k(const Context& ctx, bool hermitian, Uplo uplo, Op trans, T alpha, const Matrix<T>& A, const Matrix<T>& B,
           T beta, const Matrix<T>& C) {
    auto op_a = [&](int r, int c) { return trans == Op::NoTrans ? tile(A, r, c) : tile(A, c, r); };
    auto op_b = [&](int r, int c) { return trans == Op::NoTrans ? tile(B, r, c) : tile(B, c, r); };
    // The op of each term's second factor, and the second term's alpha.
    const Op second = trans != Op::NoTrans ? Op::NoTrans : hermitian ? detail::conj_trans<T>() : Op::Trans;
    const T alpha2 = hermitian ? detail::conj(alpha) : alpha;
    const int kt = trans == Op::NoTrans ? A.nt() : A.mt();
    if (kt == 0) {  // C = beta C on the triangle; BLAS's her2k returns at once if beta = 1
        if (hermitian && beta == T(1)) return;
        return scale(ctx, false, uplo, beta, C, hermitian);
    }
    for (int n = 0; n < C.nt(); ++n) {
        // The tiles of column n inside the uplo triangle, below or above the diagonal.
        const int first = uplo == Uplo::Lower ? n + 1 : 0;
        const int last = uplo == Uplo::Lower ? C.mt() : n;
        for (int k = 0; k < kt; ++k) {
            const T step_beta = k == 0 ? beta : T(1);
            detail::task::syr2k(ctx, hermitian, uplo, trans, alpha, op_a(n, k), op_b(n, k), step_beta, tile(C, n, n), 0);
            for (int m = first; m < last; ++m) {
                detail::task::gemm(ctx, trans, second, alpha, op_a(m, k), op_b(n, k), step_beta, tile(C, m, n), 0);
                detail::task::gemm(ctx, trans, second, alpha2, op_b(m, k), op_a(n, k), T(1), tile(C, m, n), 0);
            }
        }
    }
}

#define GRAIN_INSTANTIATE(T)                                                                                 \
    template void syr2k<T>(const Context&, bool, Uplo, Op, T, const Matrix<T>&, const Matrix<T>&, T,        \
                           const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
