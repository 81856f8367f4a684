// LU factorization without pivoting, right-looking: A = L U, L unit lower triangular.
#include <algorithm>

#include "recursion/tasks.hpp"
#include "algorithms.hpp"
#include "lu_update.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void getrf_nopiv(const Context& ctx, const Matrix<T>& A) {
    const int kt = std::min(A.mt(), A.nt());
    const int steps = std::max(A.mt(), A.nt());
    for (int k = 0; k < kt; ++k) {
        const int step_priority = 2 * (steps - k);
        detail::task::getrf_nopiv<T>(ctx, tile(A, k, k), step_priority);
        for (int m = k + 1; m < A.mt(); ++m)  // L(m,k) = A(m,k) U(k,k)^-1
            detail::task::trsm(ctx, Side::Right, Uplo::Upper, Op::NoTrans, Diag::NonUnit, T(1), tile(A, k, k),
                               tile(A, m, k), step_priority - (m - k));
        for (int n = k + 1; n < A.nt(); ++n)  // U(k,n) = L(k,k)^-1 A(k,n)
            detail::task::trsm(ctx, Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, T(1), tile(A, k, k),
                               tile(A, k, n), step_priority - (n - k));
        lu_trailing_update<T>(ctx, A, k, step_priority);
    }
}

#define GRAIN_INSTANTIATE(T) template void getrf_nopiv<T>(const Context&, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
