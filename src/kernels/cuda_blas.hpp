#pragma once
// The cuBLAS tile kernels: the products (gemm, trsm, trmm, symm, hemm, syrk, herk, syr2k,
// her2k), the tile scale and QR's updates (qr_apply.hpp on DeviceProducts), on the StarPU
// worker's cuBLAS handle. cuda.cpp makes the kernel table of them and of its cuSOLVER
// factorizations.
#include <starpu_cublas_v2.h>

#include <algorithm>
#include <complex>
#include <type_traits>
#include <vector>

#include "cuda_support.hpp"
#include "qr_apply.hpp"
#include "gpu_math.hpp"

namespace grain::detail::cuda {

// Precision overloads of the cuBLAS calls, so the kernels are written once; D is the
// library's type for T.
#define GRAIN_CUBLAS_OVERLOADS(T, D, P)                                                                   \
    inline cublasStatus_t trmm(cublasHandle_t h, Side s, Uplo u, Op t, Diag d, int m, int n, T alpha,     \
                               const T* a, int lda, T* b, int ldb) {                                      \
        /* cuBLAS's trmm writes C; B as C makes it BLAS's, in place */                                   \
        return cublas##P##trmm(h, cublas(s), cublas(u), cublas<T>(t), cublas(d), m, n, dev<D>(&alpha),    \
                               dev<D>(a), lda, dev<D>(b), ldb, dev<D>(b), ldb);                           \
    }                                                                                                     \
    inline cublasStatus_t symm(cublasHandle_t h, Side s, Uplo u, int m, int n, T alpha, const T* a, int lda, \
                               const T* b, int ldb, T beta, T* c, int ldc) {                              \
        return cublas##P##symm(h, cublas(s), cublas(u), m, n, dev<D>(&alpha), dev<D>(a), lda, dev<D>(b),  \
                               ldb, dev<D>(&beta), dev<D>(c), ldc);                                       \
    }                                                                                                     \
    inline cublasStatus_t syr2k(cublasHandle_t h, Uplo u, Op t, int n, int k, T alpha, const T* a, int lda, \
                                const T* b, int ldb, T beta, T* c, int ldc) {                             \
        return cublas##P##syr2k(h, cublas(u), cublas<T>(t), n, k, dev<D>(&alpha), dev<D>(a), lda,         \
                                dev<D>(b), ldb, dev<D>(&beta), dev<D>(c), ldc);                           \
    }                                                                                                     \
    inline cublasStatus_t gemm(cublasHandle_t h, Op ta, Op tb, int m, int n, int k, T alpha, const T* a,  \
                               int lda, const T* b, int ldb, T beta, T* c, int ldc) {                     \
        return cublas##P##gemm(h, cublas<T>(ta), cublas<T>(tb), m, n, k, dev<D>(&alpha), dev<D>(a), lda,  \
                               dev<D>(b), ldb, dev<D>(&beta), dev<D>(c), ldc);                            \
    }                                                                                                     \
    inline cublasStatus_t trsm(cublasHandle_t h, Side s, Uplo u, Op t, Diag d, int m, int n, T alpha,     \
                               const T* a, int lda, T* b, int ldb) {                                      \
        return cublas##P##trsm(h, cublas(s), cublas(u), cublas<T>(t), cublas(d), m, n, dev<D>(&alpha),    \
                               dev<D>(a), lda, dev<D>(b), ldb);                                           \
    }                                                                                                     \
    inline cublasStatus_t syrk(cublasHandle_t h, Uplo u, Op t, int n, int k, T alpha, const T* a, int lda, \
                               T beta, T* c, int ldc) {                                                   \
        return cublas##P##syrk(h, cublas(u), cublas<T>(t), n, k, dev<D>(&alpha), dev<D>(a), lda,          \
                               dev<D>(&beta), dev<D>(c), ldc);                                            \
    }                                                                                                     \
    inline cublasStatus_t scal(cublasHandle_t h, int n, T alpha, T* x) {                                  \
        return cublas##P##scal(h, n, dev<D>(&alpha), dev<D>(x), 1);                                       \
    }                                                                                                     \
    /* B += alpha A: geam in place, B as its first operand and its result */                             \
    inline cublasStatus_t add(cublasHandle_t h, int m, int n, T alpha, const T* a, int lda, T* b, int ldb) { \
        const T one(1);                                                                                   \
        return cublas##P##geam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, dev<D>(&one), dev<D>(b), ldb,           \
                               dev<D>(&alpha), dev<D>(a), lda, dev<D>(b), ldb);                           \
    }
GRAIN_CUBLAS_OVERLOADS(float, float, S)
GRAIN_CUBLAS_OVERLOADS(double, double, D)
GRAIN_CUBLAS_OVERLOADS(std::complex<float>, cuComplex, C)
GRAIN_CUBLAS_OVERLOADS(std::complex<double>, cuDoubleComplex, Z)
#undef GRAIN_CUBLAS_OVERLOADS

// C = alpha op(A) op(A)^H + beta C, alpha and beta real; in real precisions it is syrk.
inline cublasStatus_t herk(cublasHandle_t h, Uplo u, Op t, int n, int k, float alpha, const std::complex<float>* a,
                           int lda, float beta, std::complex<float>* c, int ldc) {
    return cublasCherk(h, cublas(u), cublas<std::complex<float>>(t), n, k, &alpha, dev<cuComplex>(a), lda, &beta,
                       dev<cuComplex>(c), ldc);
}
inline cublasStatus_t herk(cublasHandle_t h, Uplo u, Op t, int n, int k, double alpha,
                           const std::complex<double>* a, int lda, double beta, std::complex<double>* c, int ldc) {
    return cublasZherk(h, cublas(u), cublas<std::complex<double>>(t), n, k, &alpha, dev<cuDoubleComplex>(a), lda,
                       &beta, dev<cuDoubleComplex>(c), ldc);
}
template <typename T, typename = std::enable_if_t<!scalar_traits<T>::is_complex>>
cublasStatus_t herk(cublasHandle_t h, Uplo u, Op t, int n, int k, T alpha, const T* a, int lda, T beta, T* c,
                    int ldc) {
    return syrk(h, u, t, n, k, alpha, a, lda, beta, c, ldc);
}

// hemm and her2k (beta real); symm and syr2k in real precisions.
#define GRAIN_CUDA_HERMITIAN(T, D, P)                                                                        \
    inline cublasStatus_t hemm(cublasHandle_t h, Side s, Uplo u, int m, int n, T alpha, const T* a, int lda, \
                               const T* b, int ldb, T beta, T* c, int ldc) {                                 \
        return cublas##P##hemm(h, cublas(s), cublas(u), m, n, dev<D>(&alpha), dev<D>(a), lda, dev<D>(b), ldb, \
                               dev<D>(&beta), dev<D>(c), ldc);                                               \
    }                                                                                                        \
    inline cublasStatus_t her2k(cublasHandle_t h, Uplo u, Op t, int n, int k, T alpha, const T* a, int lda,  \
                                const T* b, int ldb, real_t<T> beta, T* c, int ldc) {                        \
        return cublas##P##her2k(h, cublas(u), cublas<T>(t), n, k, dev<D>(&alpha), dev<D>(a), lda, dev<D>(b), \
                                ldb, &beta, dev<D>(c), ldc);                                                 \
    }
GRAIN_CUDA_HERMITIAN(std::complex<float>, cuComplex, C)
GRAIN_CUDA_HERMITIAN(std::complex<double>, cuDoubleComplex, Z)
#undef GRAIN_CUDA_HERMITIAN
template <typename T, typename = std::enable_if_t<!scalar_traits<T>::is_complex>>
cublasStatus_t hemm(cublasHandle_t h, Side s, Uplo u, int m, int n, T alpha, const T* a, int lda, const T* b, int ldb,
                    T beta, T* c, int ldc) {
    return symm(h, s, u, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
template <typename T, typename = std::enable_if_t<!scalar_traits<T>::is_complex>>
cublasStatus_t her2k(cublasHandle_t h, Uplo u, Op t, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb,
                     T beta, T* c, int ldc) {
    return syr2k(h, u, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// A tile product: in single precisions on tensor cores where RuntimeOptions::gpu_math
// asks (cuBLAS rounds the inputs to its format and sums in single), else IEEE.
template <typename T>
cublasStatus_t product(cublasHandle_t h, Op ta, Op tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b,
                       int ldb, T beta, T* c, int ldc) {
    if constexpr (std::is_same_v<real_t<T>, float>) {
        const GpuMath math = gpu_math();
        if (math != GpuMath::Fp32) {
            const cublasComputeType_t compute = math == GpuMath::Tf32   ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                : math == GpuMath::Bf16 ? CUBLAS_COMPUTE_32F_FAST_16BF
                                                                        : CUBLAS_COMPUTE_32F_FAST_16F;
            const cudaDataType type = scalar_traits<T>::is_complex ? CUDA_C_32F : CUDA_R_32F;
            return cublasGemmEx(h, cublas<T>(ta), cublas<T>(tb), m, n, k, &alpha, a, type, lda, b, type, ldb, &beta,
                                c, type, ldc, compute, CUBLAS_GEMM_DEFAULT);
        }
    }
    return gemm(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <typename T>
void gemm(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]), c = dims(buffers[2]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    check(product(starpu_cublas_get_local_handle(), p.transa, p.transb, c.rows, c.cols, k, p.alpha,
                  data<T>(buffers[0]), a.ld, data<T>(buffers[1]), b.ld, p.beta, data<T>(buffers[2]), c.ld),
          "cublas gemm");
}

template <typename T>
void trsm(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]);
    check(trsm(starpu_cublas_get_local_handle(), p.side, p.uplo, p.transa, p.diag, b.rows, b.cols, p.alpha,
               data<T>(buffers[0]), a.ld, data<T>(buffers[1]), b.ld),
          "cublas trsm");
}

template <typename T>
void trmm(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]);
    check(trmm(starpu_cublas_get_local_handle(), p.side, p.uplo, p.transa, p.diag, b.rows, b.cols, p.alpha,
               data<T>(buffers[0]), a.ld, data<T>(buffers[1]), b.ld),
          "cublas trmm");
}

template <typename T>
void symm(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]), c = dims(buffers[2]);
    check(symm(starpu_cublas_get_local_handle(), p.side, p.uplo, c.rows, c.cols, p.alpha, data<T>(buffers[0]), a.ld,
               data<T>(buffers[1]), b.ld, p.beta, data<T>(buffers[2]), c.ld),
          "cublas symm");
}

template <typename T>
void hemm(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]), c = dims(buffers[2]);
    check(hemm(starpu_cublas_get_local_handle(), p.side, p.uplo, c.rows, c.cols, p.alpha, data<T>(buffers[0]), a.ld,
               data<T>(buffers[1]), b.ld, p.beta, data<T>(buffers[2]), c.ld),
          "cublas hemm");
}

template <typename T>
void syr2k(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]), c = dims(buffers[2]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    check(syr2k(starpu_cublas_get_local_handle(), p.uplo, p.transa, c.rows, k, p.alpha, data<T>(buffers[0]), a.ld,
                data<T>(buffers[1]), b.ld, p.beta, data<T>(buffers[2]), c.ld),
          "cublas syr2k");
}

// beta is real (her2k's): its imaginary part is zero.
template <typename T>
void her2k(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]), c = dims(buffers[2]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    check(her2k(starpu_cublas_get_local_handle(), p.uplo, p.transa, c.rows, k, p.alpha, data<T>(buffers[0]), a.ld,
                data<T>(buffers[1]), b.ld, std::real(p.beta), data<T>(buffers[2]), c.ld),
          "cublas her2k");
}

// alpha and beta are real (herk's): their imaginary parts are zero.
template <typename T>
void herk(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), c = dims(buffers[1]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    check(herk(starpu_cublas_get_local_handle(), p.uplo, p.transa, c.rows, k, std::real(p.alpha),
               data<T>(buffers[0]), a.ld, std::real(p.beta), data<T>(buffers[1]), c.ld),
          "cublas herk");
}

template <typename T>
void syrk(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), c = dims(buffers[1]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    check(syrk(starpu_cublas_get_local_handle(), p.uplo, p.transa, c.rows, k, p.alpha, data<T>(buffers[0]), a.ld,
               p.beta, data<T>(buffers[1]), c.ld),
          "cublas syrk");
}

// The worker's cuBLAS products on its stream for qr_apply.hpp, with stream-ordered scratch
// memory freed after the work enqueued before the end of its life.
template <typename T>
class DeviceProducts {
public:
    DeviceProducts() : h_(starpu_cublas_get_local_handle()), stream_(starpu_cuda_get_local_stream()) {}
    DeviceProducts(const DeviceProducts&) = delete;
    DeviceProducts& operator=(const DeviceProducts&) = delete;
    ~DeviceProducts() {
        for (void* block : blocks_) check(cudaFreeAsync(block, stream_), "cudaFreeAsync");
    }
    void gemm(Op ta, Op tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c,
              int ldc) {
        check(cuda::gemm(h_, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc), "cublas gemm");
    }
    void trmm(Side s, Uplo u, Op t, Diag d, int m, int n, T alpha, const T* a, int lda, T* b, int ldb) {
        check(cuda::trmm(h_, s, u, t, d, m, n, alpha, a, lda, b, ldb), "cublas trmm");
    }
    void copy(int m, int n, const T* a, int lda, T* b, int ldb) {
        if (m > 0 && n > 0)
            check(cudaMemcpy2DAsync(b, sizeof(T) * size_t(ldb), a, sizeof(T) * size_t(lda), sizeof(T) * size_t(m),
                                    size_t(n), cudaMemcpyDeviceToDevice, stream_),
                  "cudaMemcpy2DAsync");
    }
    void add(int m, int n, T alpha, const T* a, int lda, T* b, int ldb) {
        if (m > 0 && n > 0) check(cuda::add(h_, m, n, alpha, a, lda, b, ldb), "cublas geam");
    }
    T* scratch(size_t count) {
        void* block = nullptr;
        check(cudaMallocAsync(&block, sizeof(T) * std::max<size_t>(count, 1), stream_), "cudaMallocAsync");
        blocks_.push_back(block);
        return static_cast<T*>(block);
    }

private:
    cublasHandle_t h_;
    cudaStream_t stream_;
    std::vector<void*> blocks_;
};

// QR's updates (cuBLAS has no gemqrt or tpmqrt): V and T whole, the tiles whole or strips.
template <typename T>
void gemqrt(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    DeviceProducts<T> device;
    own_update<T>(device, buffers, p,
                  [&](int m, int n, int k, int ib, const T* v, int ldv, const T* t, int ldt, T* c, int ldc) {
                      kernels::gemqrt(device, p.side, p.transa, m, n, k, ib, v, ldv, t, ldt, c, ldc);
                  });
}
template <typename T>
void pair_mqrt(void* buffers[], void* cl_arg, bool triangular) {
    const TileArgs<T>& p = args<T>(cl_arg);
    DeviceProducts<T> device;
    pair_update<T>(device, buffers, p, false, triangular,
                   [&](int m, int n, int k, int l, int ib, const T* v, int ldv, const T* t, int ldt, T* a, int lda,
                       T* b, int ldb) {
                       kernels::tpmqrt(device, p.side, p.transa, m, n, k, l, ib, v, ldv, t, ldt, a, lda, b, ldb);
                   });
}
template <typename T>
void tsmqrt(void* buffers[], void* cl_arg) { pair_mqrt<T>(buffers, cl_arg, false); }
template <typename T>
void ttmqrt(void* buffers[], void* cl_arg) { pair_mqrt<T>(buffers, cl_arg, true); }

// Only gemm and syrk with k = 0 scale a tile: one cuBLAS scal per column is enough.
template <typename T>
void scale(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef c = dims(buffers[0]);
    T* x = data<T>(buffers[0]);
    const cublasHandle_t h = starpu_cublas_get_local_handle();
    for (int j = 0; j < c.cols; ++j) {
        const auto [first, last] = scaled_rows(p, j, c.rows);
        if (last > first) check(scal(h, last - first, p.alpha, x + first + int64_t(j) * c.ld), "cublas scal");
        if constexpr (scalar_traits<T>::is_complex)
            if (p.real_diagonal && j < c.rows)  // the imaginary part: the second half of the element
                check(cudaMemsetAsync(reinterpret_cast<char*>(x + j + int64_t(j) * c.ld) + sizeof(real_t<T>), 0,
                                      sizeof(real_t<T>), starpu_cuda_get_local_stream()),
                      "cudaMemsetAsync (diagonal)");
    }
}

}  // namespace grain::detail::cuda
