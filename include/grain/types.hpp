#pragma once
// Enumerations shared by the public API (BLAS/LAPACK conventions).
#include <complex>
#include <cstdint>

namespace grain {

enum class Uplo : char { Lower = 'L', Upper = 'U' };
// ConjTrans is the conjugate transpose; in real precisions it means Trans, as in BLAS.
enum class Op : char { NoTrans = 'N', Trans = 'T', ConjTrans = 'C' };
enum class Side : char { Left = 'L', Right = 'R' };
enum class Diag : char { NonUnit = 'N', Unit = 'U' };

// The real type of a precision: herk's alpha and beta, a norm.
template <typename T>
struct real_of {
    using type = T;
};
template <typename R>
struct real_of<std::complex<R>> {
    using type = R;
};
template <typename T>
using real_type = typename real_of<T>::type;

}  // namespace grain
