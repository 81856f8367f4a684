#pragma once
// The precisions grain is built for, in one place. Code that differs by precision asks
// scalar_traits<T>; code instantiated per precision uses GRAIN_FOR_EACH_PRECISION; code
// given a precision at run time (a letter) gets its type from with_precision.
#include <stdexcept>
#include <string>

// X(T) for every scalar type grain's routines take.
#define GRAIN_FOR_EACH_PRECISION(X) X(float) X(double)

namespace grain::detail {

template <typename T>
struct scalar_traits;

template <>
struct scalar_traits<float> {
    static constexpr char letter = 's';  // LAPACK's prefix: s, d, c, z
    using real = float;
    static constexpr bool is_complex = false;
};

template <>
struct scalar_traits<double> {
    static constexpr char letter = 'd';
    using real = double;
    static constexpr bool is_complex = false;
};

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
