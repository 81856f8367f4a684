#pragma once
// RuntimeOptions::gpu_math: what the GPUs' single-precision tile products run as. The
// Runtime sets it; the CUDA gemm kernel reads it where it runs, the mixed-precision solvers
// where they choose their refinement (and FP16's scaling).
namespace grain::detail {

enum class GpuMath { Fp32, Tf32, Bf16, Fp16 };
void set_gpu_math(GpuMath math);
GpuMath gpu_math();

}  // namespace grain::detail
