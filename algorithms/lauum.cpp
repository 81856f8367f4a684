// The product of a triangle with its adjoint, in place: L^H L (Lower) or U U^H (Upper).
// Step k adds row k of L's terms to the blocks above and left of it, then makes row k
// its own (LAPACK's lauum, tile by tile).
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void lauum(const Context& ctx, Uplo uplo, const Matrix<T>& A) {
    const bool lower = uplo == Uplo::Lower;
    const int nt = A.nt();
    // Tile (r, c) of L, r >= c: A(r, c) for Lower; for Upper, A(c, r), its adjoint.
    auto l = [&](int r, int c) { return lower ? tile(A, r, c) : tile(A, c, r); };
    const Op ct = detail::conj_trans<T>();
    for (int k = 0; k < nt; ++k) {
        const int step_priority = 2 * (nt - k);
        for (int n = 0; n < k; ++n) {
            // A(n,n) += L(k,n)^H L(k,n), and A(m,n) += L(k,m)^H L(k,n) below it
            detail::task::herk(ctx, uplo, lower ? ct : Op::NoTrans, T(1), l(k, n), T(1), tile(A, n, n),
                               step_priority - (k - n));
            for (int m = n + 1; m < k; ++m) {
                const int priority = step_priority - (k - n) - (m - n);
                if (lower)
                    detail::task::gemm(ctx, ct, Op::NoTrans, T(1), l(k, m), l(k, n), T(1), l(m, n), priority);
                else  // the same update, its adjoint: A(n,m) += U(n,k) U(m,k)^H
                    detail::task::gemm(ctx, Op::NoTrans, ct, T(1), l(k, n), l(k, m), T(1), l(m, n), priority);
            }
        }
        // L(k,n) = L(k,k)^H L(k,n), then the diagonal tile's own product
        for (int n = 0; n < k; ++n)
            detail::task::trmm(ctx, lower ? Side::Left : Side::Right, uplo, ct, Diag::NonUnit, T(1), tile(A, k, k),
                               l(k, n), step_priority);
        detail::task::lauum(ctx, uplo, tile(A, k, k), step_priority);
    }
}

#define GRAIN_INSTANTIATE(T) template void lauum<T>(const Context&, Uplo, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
