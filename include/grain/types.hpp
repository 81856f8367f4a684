#pragma once
// Enumerations shared by the public API (BLAS/LAPACK conventions).
#include <cstdint>

namespace grain {

enum class Uplo : char { Lower = 'L', Upper = 'U' };
enum class Op : char { NoTrans = 'N', Trans = 'T' };
enum class Side : char { Left = 'L', Right = 'R' };
enum class Diag : char { NonUnit = 'N', Unit = 'U' };

}  // namespace grain
