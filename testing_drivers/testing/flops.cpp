#include "testing_drivers/testing/flops.hpp"

#include <cmath>

#include "src/base/scalar_traits.hpp"
#include "testing_drivers/testing/runners.hpp"

namespace grain::testing::driver {

double routine_flops(const Operation& operation, const Case& c) {
    // Complex precisions weigh LAPACK Working Note 41's complex operations (scalar_traits).
    return operation.flops(c) *
           grain::detail::with_precision(c.precision, [](auto zero) { return grain::detail::scalar_traits<decltype(zero)>::flop_weight; });
}

double fp64_peak_gflops(const std::string& gpu_name) {
    // The first entry whose words the name contains: the PCIe and NVL boards before the
    // SXM ones, whose names ("NVIDIA H100 80GB HBM3") say no form factor.
    static const struct {
        const char* words;
        double tflops;
    } peaks[] = {{"H100 PCIe", 51}, {"H100 NVL", 60}, {"H200 NVL", 60}, {"H100", 67}, {"H200", 67}};
    for (const auto& p : peaks)
        if (gpu_name.find(p.words) != std::string::npos) return p.tflops * 1e3;
    return std::nan("");
}

}  // namespace grain::testing::driver
