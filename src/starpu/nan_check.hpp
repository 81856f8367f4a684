#pragma once
// LAPACKE's NaN check of an input matrix, run as StarPU tasks on the CPU workers so
// that it reads each tile where StarPU keeps it valid and scans the tiles in parallel.
#include "grain/matrix.hpp"

namespace grain::detail {

// Which elements a routine reads: all of them, or one triangle (diagonal included)
// of a square matrix, as LAPACKE's triangular checks do.
enum class Elements { All, Lower, Upper };

// Whether an element of A that the routine reads is NaN. Waits for the tasks already
// writing A; submits its own tasks and waits for them. Inf is not NaN.
template <typename T>
bool has_nan(const Matrix<T>& A, Elements elements);

}  // namespace grain::detail
