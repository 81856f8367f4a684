// Solve A X = B with the LU factors of getrf_nopiv: L Y = B, then U X = Y.
#include "algorithms.hpp"

namespace grain::algorithms {

template <typename T>
void getrs_nopiv(const Context& ctx, const Matrix<T>& A, const Matrix<T>& B) {
    trsm(ctx, Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, T(1), A, B);
    trsm(ctx, Side::Left, Uplo::Upper, Op::NoTrans, Diag::NonUnit, T(1), A, B);
}

#define GRAIN_INSTANTIATE(T) template void getrs_nopiv<T>(const Context&, const Matrix<T>&, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
