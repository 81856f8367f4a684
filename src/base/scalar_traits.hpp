#pragma once
// The precisions grain is built for, in one place. Code that differs by precision asks
// scalar_traits<T>; code instantiated per precision uses GRAIN_FOR_EACH_PRECISION; code
// given a precision at run time (a letter) gets its type from with_precision.
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>

#include "grain/types.hpp"

// X(T) for every scalar type grain's routines take.
#define GRAIN_FOR_EACH_PRECISION(X) X(float) X(double) X(std::complex<float>) X(std::complex<double>)

namespace grain::detail {

template <typename T>
struct scalar_traits;

// letter: LAPACK's prefix (s, d, c, z); real: the type of a norm, of herk's alpha and
// beta; paired: the other precision of its pair (double and float, complex double and
// complex float), which mixed-precision solvers factor in; flop_weight: flops per
// real-precision flop of the same formula, by LAPACK Working Note 41's weights (a complex
// multiply is 6 flops and an add 2: 8 per multiply-add, 4x).
template <>
struct scalar_traits<float> {
    static constexpr char letter = 's';
    using real = float;
    using paired = double;
    static constexpr bool is_complex = false;
    static constexpr double flop_weight = 1;
};

template <>
struct scalar_traits<double> {
    static constexpr char letter = 'd';
    using real = double;
    using paired = float;
    static constexpr bool is_complex = false;
    static constexpr double flop_weight = 1;
};

template <typename R>
struct scalar_traits<std::complex<R>> {
    static constexpr char letter = scalar_traits<R>::letter == 's' ? 'c' : 'z';
    using real = R;
    using paired = std::complex<typename scalar_traits<R>::paired>;
    static constexpr bool is_complex = true;
    static constexpr double flop_weight = 4;
};

template <typename T>
using real_t = typename scalar_traits<T>::real;
template <typename T>
using paired_t = typename scalar_traits<T>::paired;

// The op that transposes a matrix in a Hermitian or symmetric positive definite
// algorithm: A^H in complex precisions, A^T in real ones (where ConjTrans means Trans).
template <typename T>
constexpr Op conj_trans() { return scalar_traits<T>::is_complex ? Op::ConjTrans : Op::Trans; }

// Whether x is NaN; a complex number is when either part is (as LAPACK's disnan on both).
template <typename T>
bool is_nan(const T& x) {
    if constexpr (scalar_traits<T>::is_complex)
        return std::isnan(x.real()) || std::isnan(x.imag());
    else
        return std::isnan(x);
}

// x's conjugate, of x's type (std::conj of a real number is complex).
template <typename T>
T conj(const T& x) {
    if constexpr (scalar_traits<T>::is_complex)
        return std::conj(x);
    else
        return x;
}

// Calls f(T()) for the precision whose letter is `letter`, and returns what it returns.
template <typename F>
decltype(auto) with_precision(char letter, F&& f) {
#define GRAIN_WITH_PRECISION(T) \
    if (letter == scalar_traits<T>::letter) return f(T());
    GRAIN_FOR_EACH_PRECISION(GRAIN_WITH_PRECISION)
#undef GRAIN_WITH_PRECISION
    throw std::logic_error(std::string("grain: no precision '") + letter + "'");
}

}  // namespace grain::detail
