#pragma once
// The floating-point operations of one run of a routine, the numerator of the GFlop/s
// columns: each operation counts by the library's kernel table (its entry), so that the
// driver and the library count alike.
#include <string>

namespace grain::testing::driver {

struct Case;
struct Operation;

double routine_flops(const Operation& operation, const Case& c);

// A GPU's FP64 peak on its tensor cores in GFlop/s, from its CUDA device name (NVIDIA's
// data sheets); NaN for a GPU not in the table.
double fp64_peak_gflops(const std::string& gpu_name);

}  // namespace grain::testing::driver
