#pragma once
// The GPU vendor baselines of grain_testing --vendor on GPU runs: cuBLAS gemm and
// cuSOLVER potrf / getrf without pivoting, alone on GPU 0, in the driver's process.
// Each time covers what a caller with host arrays waits for, as grain's does: copying
// the operands to the GPU, the call, and copying the result back into `result` (ld
// `ldr`; the operands are left as they are). Host arrays are pinned first, untimed, as
// grain's copies of them were when grain kept tiles of its own. NaN when the operands do
// not fit in `memory_mib` (when > 0) or in the GPU's free memory: cuSOLVER cannot run
// what does not fit, where grain can.
#include <cstddef>
#include <cstdint>
#include <string>

#include "grain/types.hpp"

namespace grain::testing::gpu {

// GPU 0's name, as CUDA gives it (e.g. "NVIDIA H100 80GB HBM3").
std::string device_name();

// Pins `bytes` of host memory from `host` for transfers (cudaHostRegister), and unpins
// it; std::runtime_error where CUDA refuses.
void pin_host(const void* host, size_t bytes);
void unpin_host(const void* host);

template <typename T>
double gemm(int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta,
            const T* c, int64_t ldc, T* result, int64_t ldr, int64_t memory_mib);
template <typename T>
double potrf(Uplo uplo, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib);
template <typename T>
double getrf_nopiv(int64_t m, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib);
// With partial pivoting; the pivots come back to the host too (in the time).
template <typename T>
double getrf(int64_t m, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib);

}  // namespace grain::testing::gpu
