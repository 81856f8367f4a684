#pragma once
// The floating-point operations of one run of a routine, the numerator of the GFlop/s
// columns: counted by the library's kernel table, so that the driver and the library
// count alike.
#include <string>

namespace grain::testing::driver {

struct Case;

// op: a routine's name, as -o gives it.
double routine_flops(const std::string& op, const Case& c);

}  // namespace grain::testing::driver
