// A matrix converted into its paired precision, tile by tile: what a mixed-precision solve
// factors, and the corrections it adds back.
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

template <typename T>
void lag2(const Context& ctx, bool whole, Uplo uplo, bool add, int exponent, const Matrix<T>& A,
          const Matrix<paired_t<T>>& B) {
    for (int j = 0; j < A.nt(); ++j)
        for (int i = 0; i < A.mt(); ++i) {
            // A triangle's tiles: those on its side of the diagonal, the diagonal's in part.
            const bool inside = whole || (uplo == Uplo::Lower ? i >= j : i <= j);
            if (inside)
                detail::task::lag2(ctx, whole || i != j, uplo, add, exponent, detail::tile(A, i, j),
                                   detail::tile(B, i, j), 0);
        }
}

#define GRAIN_INSTANTIATE(T) \
    template void lag2<T>(const Context&, bool, Uplo, bool, int, const Matrix<T>&, const Matrix<paired_t<T>>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
