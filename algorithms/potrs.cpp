// Solve A X = B with the Cholesky factor of A: two triangular solves.
#include "algorithms.hpp"

namespace grain::algorithms {

template <typename T>
void potrs(const Context& ctx, Uplo uplo, const Matrix<T>& A, const Matrix<T>& B) {
    // Lower: L L^T X = B; Upper: U^T U X = B.
    const Op first = uplo == Uplo::Lower ? Op::NoTrans : Op::Trans;
    trsm(ctx, Side::Left, uplo, first, Diag::NonUnit, T(1), A, B);
    trsm(ctx, Side::Left, uplo, transposed(first), Diag::NonUnit, T(1), A, B);
}

template void potrs<float>(const Context&, Uplo, const Matrix<float>&, const Matrix<float>&);
template void potrs<double>(const Context&, Uplo, const Matrix<double>&, const Matrix<double>&);

}  // namespace grain::algorithms
