// C = alpha op(A) op(A)^T + beta C (syrk) or alpha op(A) op(A)^H + beta C (herk), on the
// uplo triangle of C: one loop nest for both.
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

namespace {

template <typename T>
void rank_k(const Context& ctx, bool hermitian, Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta,
            const Matrix<T>& C) {
    auto op_a = [&](int r, int c) { return trans == Op::NoTrans ? tile(A, r, c) : tile(A, c, r); };
    // The op of the second factor: op(A)^H's for herk, op(A)^T's for syrk.
    const Op second = trans != Op::NoTrans ? Op::NoTrans : hermitian ? detail::conj_trans<T>() : Op::Trans;
    const int kt = trans == Op::NoTrans ? A.nt() : A.mt();
    if (kt == 0) {  // C = beta C on the triangle; BLAS's herk returns at once if beta = 1
        if (hermitian && beta == T(1)) return;
        return scale(ctx, false, uplo, beta, C, hermitian);
    }
    for (int n = 0; n < C.nt(); ++n) {
        // The tiles of column n inside the uplo triangle, below or above the diagonal.
        const int first = uplo == Uplo::Lower ? n + 1 : 0;
        const int last = uplo == Uplo::Lower ? C.mt() : n;
        for (int k = 0; k < kt; ++k) {
            const T step_beta = k == 0 ? beta : T(1);
            if (hermitian)
                detail::task::herk(ctx, uplo, trans, alpha, op_a(n, k), step_beta, tile(C, n, n), 0);
            else
                detail::task::syrk(ctx, uplo, trans, alpha, op_a(n, k), step_beta, tile(C, n, n), 0);
            for (int m = first; m < last; ++m)
                detail::task::gemm(ctx, trans, second, alpha, op_a(m, k), op_a(n, k), step_beta, tile(C, m, n), 0);
        }
    }
}

}  // namespace

template <typename T>
void syrk(const Context& ctx, Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta, const Matrix<T>& C) {
    rank_k(ctx, false, uplo, trans, alpha, A, beta, C);
}

template <typename T>
void herk(const Context& ctx, Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta, const Matrix<T>& C) {
    rank_k(ctx, true, uplo, trans, alpha, A, beta, C);
}

#define GRAIN_INSTANTIATE(T)                                                                             \
    template void syrk<T>(const Context&, Uplo, Op, T, const Matrix<T>&, T, const Matrix<T>&);         \
    template void herk<T>(const Context&, Uplo, Op, T, const Matrix<T>&, T, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
