// Solve A X = B with the LU factors of getrf_nopiv: L Y = B, then U X = Y.
#include "algorithms.hpp"

namespace grain::algorithms {

template <typename T>
void getrs_nopiv(const Context& ctx, const Matrix<T>& A, const Matrix<T>& B) {
    trsm(ctx, Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, T(1), A, B);
    trsm(ctx, Side::Left, Uplo::Upper, Op::NoTrans, Diag::NonUnit, T(1), A, B);
}

template void getrs_nopiv<float>(const Context&, const Matrix<float>&, const Matrix<float>&);
template void getrs_nopiv<double>(const Context&, const Matrix<double>&, const Matrix<double>&);

}  // namespace grain::algorithms
