// Solve A X = B with the Cholesky factor of A: two triangular solves.
#include "algorithms.hpp"

namespace grain::algorithms {

template <typename T>
void potrs(const Context& ctx, Uplo uplo, const Matrix<T>& A, const Matrix<T>& B) {
    // Lower: L L^H X = B; Upper: U^H U X = B.
    const Op first = uplo == Uplo::Lower ? Op::NoTrans : detail::conj_trans<T>();
    trsm(ctx, Side::Left, uplo, first, Diag::NonUnit, T(1), A, B);
    trsm(ctx, Side::Left, uplo, adjoint<T>(first), Diag::NonUnit, T(1), A, B);
}

#define GRAIN_INSTANTIATE(T) template void potrs<T>(const Context&, Uplo, const Matrix<T>&, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
