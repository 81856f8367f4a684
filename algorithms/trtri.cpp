// Triangular inverse, in place, one block column of the triangle per step: after step k
// the leading k + 1 block columns hold the inverse of the leading (k + 1) x (k + 1) blocks
// (LAPACK's trtri, tile by tile). Each step first inverts its diagonal tile, which depends
// on nothing before it, and then multiplies by that inverse where LAPACK solves with the
// tile: the tile kernels' trmm runs near gemm's rate, their trsm well below it.
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void trtri(const Context& ctx, Uplo uplo, Diag diag, const Matrix<T>& A) {
    const bool lower = uplo == Uplo::Lower;
    const int nt = A.nt();
    // Tile (r, c) of L, r >= c: A(r, c) for Lower; for Upper, A(c, r), its transpose.
    auto l = [&](int r, int c) { return lower ? tile(A, r, c) : tile(A, c, r); };
    // L's products, as the stored triangle's: what multiplies L from the right
    // multiplies U from the left.
    const Side right = lower ? Side::Right : Side::Left, left = lower ? Side::Left : Side::Right;
    for (int k = 0; k < nt; ++k) {
        const int step_priority = 2 * (nt - k);
        // L(k,k)^-1 first: the step's products read it
        detail::task::trtri(ctx, uplo, diag, tile(A, k, k), step_priority + 1);
        // L(m,k) = -L(m,k) L(k,k)^-1 below the diagonal tile
        for (int m = k + 1; m < nt; ++m)
            detail::task::trmm(ctx, right, uplo, Op::NoTrans, diag, T(-1), tile(A, k, k), l(m, k),
                               step_priority - (m - k));
        // L(m,n) += L(m,k) L(k,n) left of column k, with row k not yet multiplied
        for (int m = k + 1; m < nt; ++m)
            for (int n = 0; n < k; ++n) {
                const int priority = step_priority - (m - k) - 1;
                if (lower)
                    detail::task::gemm(ctx, Op::NoTrans, Op::NoTrans, T(1), l(m, k), l(k, n), T(1), l(m, n), priority);
                else
                    detail::task::gemm(ctx, Op::NoTrans, Op::NoTrans, T(1), l(k, n), l(m, k), T(1), l(m, n), priority);
            }
        // L(k,n) = L(k,k)^-1 L(k,n)
        for (int n = 0; n < k; ++n)
            detail::task::trmm(ctx, left, uplo, Op::NoTrans, diag, T(1), tile(A, k, k), l(k, n), step_priority);
    }
}

#define GRAIN_INSTANTIATE(T) template void trtri<T>(const Context&, Uplo, Diag, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
