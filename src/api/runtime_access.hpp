#pragma once
// What the routines need of the Runtime alive.
#include "recursion/recursion.hpp"

namespace grain::detail {

// The recursion layer of the Runtime alive; throws grain::runtime_error naming
// `routine` if none is.
Recursion& active_recursion(const char* routine);

// Whether the Runtime alive checks inputs for NaN (RuntimeOptions::nancheck).
bool nan_check_on();

}  // namespace grain::detail
