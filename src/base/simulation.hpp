#pragma once
// Whether StarPU simulates the machine (built with SimGrid): it then times each kernel
// from its performance model and runs none, and copies no data. grain allocates no
// storage of its own for a matrix there (its tiles get addresses nothing reads), and
// reads no values (the NaN check, copies in and out of a matrix).
#include <starpu.h>

namespace grain::detail {

#ifdef STARPU_SIMGRID
constexpr bool simulated = true;
#else
constexpr bool simulated = false;
#endif

}  // namespace grain::detail
