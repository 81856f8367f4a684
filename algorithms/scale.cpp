// C = alpha C, on the whole view or on its uplo triangle (gemm, syrk and herk with k = 0;
// herk's, `hermitian`, also drops the imaginary parts of the diagonal, as BLAS's herk does).
#include "algorithms.hpp"
#include "recursion/tasks.hpp"

namespace grain::algorithms {

using detail::tile;

template <typename T>
void scale(const Context& ctx, bool whole, Uplo uplo, T alpha, const Matrix<T>& C, bool hermitian) {
    for (int n = 0; n < C.nt(); ++n)
        for (int m = 0; m < C.mt(); ++m) {
            const bool inside = whole || (uplo == Uplo::Lower ? m > n : m < n);
            if (inside || m == n) detail::task::scale(ctx, inside, uplo, alpha, tile(C, m, n), 0, hermitian && m == n);
        }
}

#define GRAIN_INSTANTIATE(T) template void scale<T>(const Context&, bool, Uplo, T, const Matrix<T>&, bool);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
