#pragma once
// The floating-point operations of one run of a routine, the numerator of the GFlop/s
// columns: counted by the library's kernel table, so that the driver and the library
// count alike.
#include <string>

namespace grain::testing::driver {

struct Case;

// op: a routine's name, as -o gives it.
double routine_flops(const std::string& op, const Case& c);

// A GPU's FP64 peak on its tensor cores in GFlop/s, from its CUDA device name (NVIDIA's
// data sheets); NaN for a GPU not in the table.
double fp64_peak_gflops(const std::string& gpu_name);

}  // namespace grain::testing::driver
