#include "gpu_math.hpp"

#include <atomic>

namespace grain::detail {

namespace {
std::atomic<GpuMath> setting{GpuMath::Fp32};
}

void set_gpu_math(GpuMath math) { setting = math; }
GpuMath gpu_math() { return setting.load(); }

}  // namespace grain::detail
