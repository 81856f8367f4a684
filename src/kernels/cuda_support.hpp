#pragma once
// What grain's CUDA kernels (cuda_blas.hpp, cuda.cpp) share: failing loudly on a library
// error, grain's enums and scalars as cuBLAS and cuSOLVER spell them.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cstdio>
#include <cstdlib>

#include "tile_kernels.hpp"

namespace grain::detail::cuda {

using namespace kernels;

[[noreturn]] inline void fail(const char* what, int status) {
    // A failing library call inside a worker cannot be reported to the caller; as
    // StarPU does for its own CUDA errors, say what failed and stop.
    std::fprintf(stderr, "grain: %s failed with status %d\n", what, status);
    std::abort();
}
inline void check(cublasStatus_t s, const char* what) { if (s != CUBLAS_STATUS_SUCCESS) fail(what, int(s)); }
inline void check(cusolverStatus_t s, const char* what) { if (s != CUSOLVER_STATUS_SUCCESS) fail(what, int(s)); }
inline void check(cudaError_t s, const char* what) { if (s != cudaSuccess) fail(what, int(s)); }

// In real precisions cuBLAS takes CUBLAS_OP_C as CUBLAS_OP_T; grain passes T there all the same.
template <typename T>
cublasOperation_t cublas(Op op) {
    if (op == Op::NoTrans) return CUBLAS_OP_N;
    return op == Op::ConjTrans && scalar_traits<T>::is_complex ? CUBLAS_OP_C : CUBLAS_OP_T;
}
inline cublasFillMode_t cublas(Uplo uplo) { return uplo == Uplo::Lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER; }
inline cublasSideMode_t cublas(Side side) { return side == Side::Left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT; }
inline cublasDiagType_t cublas(Diag diag) { return diag == Diag::Unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT; }

// grain's scalars as the CUDA libraries type them (std::complex has cuComplex's layout).
template <typename D, typename T>
D* dev(T* x) { return reinterpret_cast<D*>(x); }
template <typename D, typename T>
const D* dev(const T* x) { return reinterpret_cast<const D*>(x); }

}  // namespace grain::detail::cuda
