#pragma once
// The GPU vendor baselines of grain_testing --vendor on GPU runs: cuBLAS gemm and
// cuSOLVER potrf / getrf / geqrf / ormqr, alone on GPU 0, in the driver's process. Each is timed three
// ways (VendorTimes), so that grain is compared like for like: from pinned host arrays,
// pinned untimed (as grain's with --pinned); from pageable arrays, which the copies
// stage (as grain's without, which grain pins in its time); and the call alone on
// operands already on the GPU, the roofline. The host times cover what a caller with
// host arrays waits for: copying the operands to the GPU, the call, and copying the
// result back into `result` (ld `ldr`; the operands are left as they are).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "grain/types.hpp"

namespace grain::testing::gpu {

// GPU 0's name, as CUDA gives it (e.g. "NVIDIA H100 80GB HBM3").
std::string device_name();

// Seconds; NaN when the operands do not fit in `memory_mib` (when > 0) or in the GPU's
// free memory: cuSOLVER cannot run what does not fit, where grain can.
struct VendorTimes {
    double pinned = std::numeric_limits<double>::quiet_NaN();
    double pageable = std::numeric_limits<double>::quiet_NaN();
    double resident = std::numeric_limits<double>::quiet_NaN();
};

template <typename T>
VendorTimes gemm(int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta,
            const T* c, int64_t ldc, T* result, int64_t ldr, int64_t memory_mib);
template <typename T>
VendorTimes potrf(Uplo uplo, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib);
template <typename T>
VendorTimes getrf_nopiv(int64_t m, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib);
// With partial pivoting; the pivots come back to the host too (in the time).
template <typename T>
VendorTimes getrf(int64_t m, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib);
// QR (LAPACK's representation: the scalars come back to the host too, in the time).
template <typename T>
VendorTimes geqrf(int64_t m, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib);
// C = Q^H C (m x nrhs), Q from the QR of the m x n A, which runs first, untimed.
template <typename T>
VendorTimes unmqr(int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* c, int64_t ldc, T* result,
                  int64_t ldr, int64_t memory_mib);

// X (n x nrhs, ld ldx) of A X = B as a mixed-precision caller gets it from the vendor, T
// double or complex double: gesv by cuSOLVER's IRS solver (LU in `lowest`, "fp32", "tf32",
// "bf16" or "fp16"; classical refinement from fp32, GMRES's from the others, as grain's;
// at most 30 iterations, then its fall-back), posv (`cholesky`: cuSOLVER has no IRS posv) by its potrf and potrs in
// T. A and B go up, X comes back, in the time; `steps` gets IRS's iteration count
// (negative where it fell back; 0 for posv).
template <typename T>
VendorTimes solve_mixed(bool cholesky, Uplo uplo, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* b,
                        int64_t ldb, T* x, int64_t ldx, const std::string& lowest, int64_t memory_mib, int& steps);

}  // namespace grain::testing::gpu
