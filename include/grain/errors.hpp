#pragma once
// Exceptions thrown by grain. Numerical failures are not exceptions: they are
// returned as LAPACK-style info values.
#include <stdexcept>
#include <string>

namespace grain {

/// An argument of a grain call is invalid; the message names the routine, the
/// argument and its value, e.g. "grain::potrf: nb = -1: must be positive".
class invalid_argument : public std::invalid_argument {
public:
    invalid_argument(const std::string& routine, const std::string& argument,
                     const std::string& value, const std::string& why)
        : std::invalid_argument(routine + ": " + argument + " = " + value + ": " + why),
          argument_(argument) {}
    const std::string& argument() const noexcept { return argument_; }

private:
    std::string argument_;
};

/// The runtime could not do what was asked (StarPU failed to start, no runtime, ...).
class runtime_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace grain
