#include "testing_drivers/testing/flops.hpp"

#include <cmath>
#include <stdexcept>

#include "src/base/kernel_table.hpp"
#include "src/base/scalar_traits.hpp"
#include "testing_drivers/testing/runners.hpp"

namespace grain::testing::driver {

using grain::detail::Kernel;
using grain::detail::kernel_flops;

namespace {

double real_flops(const std::string& op, const Case& c) {
    const double m = double(c.m), n = double(c.n), k = double(c.k), nrhs = double(c.nrhs);
    // The kernel table's counts (the leading terms of LAPACK Working Note 41) for the
    // runs' shapes: trsm solves m x n B from the left, syrk updates n x n C with inner k,
    // the solves factor n x n A and solve n x nrhs B by two triangular solves.
    const double solve = 2 * kernel_flops(Kernel::Trsm, n, nrhs, 0);
    if (op == "gemm") return kernel_flops(Kernel::Gemm, m, n, k);
    if (op == "trsm") return kernel_flops(Kernel::Trsm, m, n, 0);
    if (op == "syrk" || op == "herk") return kernel_flops(Kernel::Syrk, 0, n, k);
    if (op == "potrf") return kernel_flops(Kernel::Potrf, 0, n, 0);
    if (op == "potrs") return solve;
    if (op == "posv") return kernel_flops(Kernel::Potrf, 0, n, 0) + solve;
    if (op == "getrf_nopiv") return kernel_flops(Kernel::GetrfNopiv, m, n, 0);
    if (op == "gesv_nopiv") return kernel_flops(Kernel::GetrfNopiv, n, n, 0) + solve;
    if (op == "getrf") return kernel_flops(Kernel::Getrf, m, n, 0);
    if (op == "getrs") return solve;
    if (op == "gesv") return kernel_flops(Kernel::Getrf, n, n, 0) + solve;
    throw std::logic_error("routine_flops: no flop count for " + op);
}

}  // namespace

double routine_flops(const std::string& op, const Case& c) {
    // Complex precisions weigh LAPACK Working Note 41's complex operations (scalar_traits).
    return real_flops(op, c) *
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
