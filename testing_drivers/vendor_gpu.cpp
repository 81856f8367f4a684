#include "vendor_gpu.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "src/base/scalar_traits.hpp"

namespace grain::testing::gpu {

namespace {

// Sizes in bytes, checked: std::length_error where they overflow a size_t.
size_t plus(size_t a, size_t b) {
    size_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum)) throw std::length_error("vendor baseline: a size in bytes overflows");
    return sum;
}
template <typename T>
size_t bytes_of(int64_t m, int64_t n) {  // of an m x n array of T
    size_t elements = 0, bytes = 0;
    if (m < 0 || n < 0 || __builtin_mul_overflow(size_t(m), size_t(n), &elements) ||
        __builtin_mul_overflow(elements, sizeof(T), &bytes))
        throw std::length_error("vendor baseline: an array of " + std::to_string(m) + " x " + std::to_string(n) +
                                " overflows a size in bytes");
    return bytes;
}

void check(cudaError_t s, const char* what) {
    if (s != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(s));
}
void check(cublasStatus_t s, const char* what) {
    if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(int(s)));
}
void check(cusolverStatus_t s, const char* what) {
    if (s != CUSOLVER_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(int(s)));
}

// Per precision: its CUDA data type, and cuBLAS's gemm (C = alpha A B + beta C, no
// transposes); D is cuBLAS's type for T (std::complex has cuComplex's layout).
template <typename T>
constexpr cudaDataType data_type();
#define GRAIN_VENDOR_PRECISION(T, D, P, type)                                                                  \
    template <>                                                                                                 \
    constexpr cudaDataType data_type<T>() { return type; }                                                      \
    cublasStatus_t cublas_gemm(cublasHandle_t h, int64_t m, int64_t n, int64_t k, const T* alpha, const T* a,  \
                               const T* b, const T* beta, T* c) {                                               \
        return cublas##P##gemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, reinterpret_cast<const D*>(alpha),      \
                                  reinterpret_cast<const D*>(a), m, reinterpret_cast<const D*>(b), k,           \
                                  reinterpret_cast<const D*>(beta), reinterpret_cast<D*>(c), m);                \
    }
GRAIN_VENDOR_PRECISION(float, float, S, CUDA_R_32F)
GRAIN_VENDOR_PRECISION(double, double, D, CUDA_R_64F)
GRAIN_VENDOR_PRECISION(std::complex<float>, cuComplex, C, CUDA_C_32F)
GRAIN_VENDOR_PRECISION(std::complex<double>, cuDoubleComplex, Z, CUDA_C_64F)
#undef GRAIN_VENDOR_PRECISION

// Device buffers of one baseline run, freed together; the run is skipped (NaN) when
// they would exceed the limit or the GPU's free memory.
class DeviceMemory {
public:
    DeviceMemory(int64_t memory_mib) : limit_(memory_mib > 0 ? size_t(memory_mib) << 20 : 0) {
        size_t total = 0;
        check(cudaSetDevice(0), "cudaSetDevice");
        check(cudaMemGetInfo(&free_, &total), "cudaMemGetInfo");
    }
    ~DeviceMemory() {
        for (void* p : buffers_) cudaFree(p);
    }
    bool fits(size_t bytes) const { return (limit_ == 0 || bytes <= limit_) && bytes <= free_; }
    void* get(size_t bytes) {
        void* p = nullptr;
        check(cudaMalloc(&p, std::max<size_t>(bytes, 1)), "cudaMalloc");
        buffers_.push_back(p);
        return p;
    }

private:
    size_t limit_;
    size_t free_ = 0;
    std::vector<void*> buffers_;
};

// Copies an m x n column-major host array into a packed device array (ld = m).
template <typename T>
void upload(T* device, const T* host, int64_t m, int64_t n, int64_t ld) {
    check(cudaMemcpy2D(device, bytes_of<T>(m, 1), host, bytes_of<T>(ld, 1), bytes_of<T>(m, 1), size_t(n),
                       cudaMemcpyHostToDevice),
          "cudaMemcpy2D");
}

// Copies a packed device array (ld = m) back into an m x n column-major host array.
template <typename T>
void download(T* host, const T* device, int64_t m, int64_t n, int64_t ld) {
    check(cudaMemcpy2D(host, bytes_of<T>(ld, 1), device, bytes_of<T>(m, 1), bytes_of<T>(m, 1), size_t(n),
                       cudaMemcpyDeviceToHost),
          "cudaMemcpy2D");
}

// Host arrays pinned for a baseline run, outside its timing, and unpinned together.
class PinnedSet {
public:
    PinnedSet() = default;
    PinnedSet(const PinnedSet&) = delete;
    PinnedSet& operator=(const PinnedSet&) = delete;
    ~PinnedSet() {
        for (void* p : arrays_) cudaHostUnregister(p);
    }
    // The m x n column-major array at host (leading dimension ld).
    template <typename T>
    void add(const T* host, int64_t m, int64_t n, int64_t ld) {
        if (m <= 0 || n <= 0) return;
        void* p = const_cast<T*>(host);
        check(cudaHostRegister(p, plus(bytes_of<T>(ld, n - 1), bytes_of<T>(m, 1)), cudaHostRegisterDefault),
              "cudaHostRegister");
        arrays_.push_back(p);
    }

private:
    std::vector<void*> arrays_;
};

template <typename F>
double timed(F&& f) {
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const auto t0 = std::chrono::steady_clock::now();
    f();
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The vendor's call three ways (vendor_gpu.hpp): from pageable host arrays, from the
// same arrays pinned (pin(set) adds them to a PinnedSet, untimed), and alone on operands
// uploaded before its clock starts.
template <typename Pin, typename Up, typename Call, typename Down>
VendorTimes three_ways(Pin pin, Up up, Call call, Down down) {
    VendorTimes t;
    t.pageable = timed([&] { up(), call(), down(); });
    {
        PinnedSet pinned;
        pin(pinned);
        t.pinned = timed([&] { up(), call(), down(); });
    }
    up();
    t.resident = timed(call);
    return t;
}

struct Solver {
    cusolverDnHandle_t handle = nullptr;
    cusolverDnParams_t params = nullptr;
    Solver() {
        check(cusolverDnCreate(&handle), "cusolverDnCreate");
        check(cusolverDnCreateParams(&params), "cusolverDnCreateParams");
    }
    ~Solver() {
        cusolverDnDestroyParams(params);
        cusolverDnDestroy(handle);
    }
};

// potrf, getrf (with or without pivots) and geqrf: upload, ask for workspaces, factor,
// download the factors and `extra` bytes beside them (getrf's pivots, geqrf's scalars;
// none: 0), as a caller would.
template <typename T, typename Size, typename Factor>
VendorTimes factorization(int64_t m, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib,
                          size_t extra, Size size, Factor factor) {
    DeviceMemory memory(memory_mib);
    const size_t bytes = bytes_of<T>(m, n);
    if (!memory.fits(plus(bytes, extra))) return {};
    Solver solver;
    T* d = static_cast<T*>(memory.get(bytes));
    void* d_extra = extra ? memory.get(extra) : nullptr;
    std::vector<char> host_extra(extra);
    size_t device_work = 0, host_work = 0;
    check(size(solver, d, d_extra, &device_work, &host_work), "cusolver bufferSize");
    if (!memory.fits(plus(plus(bytes, extra), device_work))) return {};
    void* work = memory.get(device_work);
    std::vector<char> host(host_work);
    int* info = static_cast<int*>(memory.get(sizeof(int)));
    return three_ways(
        [&](PinnedSet& p) { p.add(a, m, n, lda), p.add(result, m, n, ldr); }, [&] { upload(d, a, m, n, lda); },
        [&] {
            check(factor(solver, d, d_extra, work, device_work, host.data(), host_work, info),
                  "cusolver factorization");
        },
        [&] {
            download(result, d, m, n, ldr);
            if (extra) check(cudaMemcpy(host_extra.data(), d_extra, extra, cudaMemcpyDeviceToHost), "download");
        });
}

// cuSOLVER's Q^H C after geqrf (legacy API: ormqr in real precisions, unmqr in complex).
#define GRAIN_VENDOR_APPLY_Q(T, D, NAME, OP)                                                                   \
    cusolverStatus_t apply_q_work(cusolverDnHandle_t h, int m, int n, int k, const T* a, int lda, const T* tau, \
                                  const T* c, int ldc, int* lwork) {                                           \
        return cusolverDn##NAME##_bufferSize(h, CUBLAS_SIDE_LEFT, OP, m, n, k, reinterpret_cast<const D*>(a),  \
                                             lda, reinterpret_cast<const D*>(tau), reinterpret_cast<const D*>(c), \
                                             ldc, lwork);                                                      \
    }                                                                                                           \
    cusolverStatus_t apply_q(cusolverDnHandle_t h, int m, int n, int k, const T* a, int lda, const T* tau, T* c, \
                             int ldc, T* work, int lwork, int* info) {                                         \
        return cusolverDn##NAME(h, CUBLAS_SIDE_LEFT, OP, m, n, k, reinterpret_cast<const D*>(a), lda,          \
                                reinterpret_cast<const D*>(tau), reinterpret_cast<D*>(c), ldc,                 \
                                reinterpret_cast<D*>(work), lwork, info);                                      \
    }
GRAIN_VENDOR_APPLY_Q(float, float, Sormqr, CUBLAS_OP_T)
GRAIN_VENDOR_APPLY_Q(double, double, Dormqr, CUBLAS_OP_T)
GRAIN_VENDOR_APPLY_Q(std::complex<float>, cuComplex, Cunmqr, CUBLAS_OP_C)
GRAIN_VENDOR_APPLY_Q(std::complex<double>, cuDoubleComplex, Zunmqr, CUBLAS_OP_C)
#undef GRAIN_VENDOR_APPLY_Q

}  // namespace

std::string device_name() {
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
    return properties.name;
}

template <typename T>
VendorTimes gemm(int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta,
                 const T* c, int64_t ldc, T* result, int64_t ldr, int64_t memory_mib) {
    DeviceMemory memory(memory_mib);
    const size_t bytes = plus(plus(bytes_of<T>(m, k), bytes_of<T>(k, n)), bytes_of<T>(m, n));
    if (!memory.fits(bytes)) return {};
    T* da = static_cast<T*>(memory.get(bytes_of<T>(m, k)));
    T* db = static_cast<T*>(memory.get(bytes_of<T>(k, n)));
    T* dc = static_cast<T*>(memory.get(bytes_of<T>(m, n)));
    cublasHandle_t handle = nullptr;
    check(cublasCreate(&handle), "cublasCreate");
    std::unique_ptr<cublasContext, decltype(&cublasDestroy)> owner(handle, cublasDestroy);
    return three_ways(
        [&](PinnedSet& p) { p.add(a, m, k, lda), p.add(b, k, n, ldb), p.add(c, m, n, ldc), p.add(result, m, n, ldr); },
        [&] { upload(da, a, m, k, lda), upload(db, b, k, n, ldb), upload(dc, c, m, n, ldc); },
        [&] { check(cublas_gemm(handle, m, n, k, &alpha, da, db, &beta, dc), "cublas gemm"); },
        [&] { download(result, dc, m, n, ldr); });
}

template <typename T>
VendorTimes potrf(Uplo uplo, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib) {
    const cublasFillMode_t fill = uplo == Uplo::Lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    return factorization<T>(
        n, n, a, lda, result, ldr, memory_mib, 0,
        [&](Solver& s, T* d, void*, size_t* device_work, size_t* host_work) {
            return cusolverDnXpotrf_bufferSize(s.handle, s.params, fill, n, data_type<T>(), d, n, data_type<T>(),
                                               device_work, host_work);
        },
        [&](Solver& s, T* d, void*, void* work, size_t device_work, void* host, size_t host_work, int* info) {
            return cusolverDnXpotrf(s.handle, s.params, fill, n, data_type<T>(), d, n, data_type<T>(), work,
                                    device_work, host, host_work, info);
        });
}

// LU with partial pivoting, or without (a null pivot array, as grain's getrf_nopiv).
template <typename T>
VendorTimes lu(int64_t m, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib, bool pivoting) {
    return factorization<T>(
        m, n, a, lda, result, ldr, memory_mib, pivoting ? size_t(std::min(m, n)) * sizeof(int64_t) : 0,
        [&](Solver& s, T* d, void*, size_t* device_work, size_t* host_work) {
            return cusolverDnXgetrf_bufferSize(s.handle, s.params, m, n, data_type<T>(), d, m, data_type<T>(),
                                               device_work, host_work);
        },
        [&](Solver& s, T* d, void* pivots, void* work, size_t device_work, void* host, size_t host_work, int* info) {
            return cusolverDnXgetrf(s.handle, s.params, m, n, data_type<T>(), d, m, static_cast<int64_t*>(pivots),
                                    data_type<T>(), work,
                                    device_work, host, host_work, info);
        });
}

template <typename T>
VendorTimes getrf_nopiv(int64_t m, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib) {
    return lu(m, n, a, lda, result, ldr, memory_mib, false);
}

template <typename T>
VendorTimes getrf(int64_t m, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib) {
    return lu(m, n, a, lda, result, ldr, memory_mib, true);
}

template <typename T>
VendorTimes geqrf(int64_t m, int64_t n, const T* a, int64_t lda, T* result, int64_t ldr, int64_t memory_mib) {
    return factorization<T>(
        m, n, a, lda, result, ldr, memory_mib, size_t(std::min(m, n)) * sizeof(T),
        [&](Solver& s, T* d, void* tau, size_t* device_work, size_t* host_work) {
            return cusolverDnXgeqrf_bufferSize(s.handle, s.params, m, n, data_type<T>(), d, m, data_type<T>(), tau,
                                               data_type<T>(), device_work, host_work);
        },
        [&](Solver& s, T* d, void* tau, void* work, size_t device_work, void* host, size_t host_work, int* info) {
            return cusolverDnXgeqrf(s.handle, s.params, m, n, data_type<T>(), d, m, data_type<T>(), tau,
                                    data_type<T>(), work, device_work, host, host_work, info);
        });
}

template <typename T>
VendorTimes unmqr(int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* c, int64_t ldc, T* result,
                  int64_t ldr, int64_t memory_mib) {
    DeviceMemory memory(memory_mib);
    const int64_t k = std::min(m, n);
    const size_t bytes = plus(plus(bytes_of<T>(m, n), bytes_of<T>(k, 1)), bytes_of<T>(m, nrhs));
    if (!memory.fits(bytes)) return {};
    Solver solver;
    T* d = static_cast<T*>(memory.get(bytes_of<T>(m, n)));
    T* tau = static_cast<T*>(memory.get(bytes_of<T>(k, 1)));
    T* dc = static_cast<T*>(memory.get(bytes_of<T>(m, nrhs)));
    int* info = static_cast<int*>(memory.get(sizeof(int)));
    // The factors, untimed, as the driver's own unmqr runs after an untimed geqrf.
    size_t device_work = 0, host_work = 0;
    upload(d, a, m, n, lda);
    check(cusolverDnXgeqrf_bufferSize(solver.handle, solver.params, m, n, data_type<T>(), d, m, data_type<T>(), tau,
                                      data_type<T>(), &device_work, &host_work),
          "cusolver geqrf bufferSize");
    int lwork = 0;
    check(apply_q_work(solver.handle, int(m), int(nrhs), int(k), d, int(m), tau, dc, int(m), &lwork),
          "cusolver ormqr bufferSize");
    const size_t apply_bytes = bytes_of<T>(std::max(lwork, 1), 1);
    if (!memory.fits(plus(bytes, std::max(device_work, apply_bytes)))) return {};
    void* work = memory.get(std::max(device_work, apply_bytes));
    std::vector<char> host(host_work);
    check(cusolverDnXgeqrf(solver.handle, solver.params, m, n, data_type<T>(), d, m, data_type<T>(), tau,
                           data_type<T>(), work, device_work, host.data(), host_work, info),
          "cusolver geqrf");
    return three_ways(
        [&](PinnedSet& p) { p.add(c, m, nrhs, ldc), p.add(result, m, nrhs, ldr); },
        [&] { upload(dc, c, m, nrhs, ldc); },
        [&] {
            check(apply_q(solver.handle, int(m), int(nrhs), int(k), d, int(m), tau, dc, int(m), static_cast<T*>(work),
                          lwork, info),
                  "cusolver ormqr");
        },
        [&] { download(result, dc, m, nrhs, ldr); });
}

// cuSOLVER's name of a precision: `lowest` in the type of T's parts (real or complex).
template <typename T>
cusolverPrecType_t irs_precision(const std::string& lowest) {
    constexpr bool complex = detail::scalar_traits<T>::is_complex;
    if (lowest == "fp64") return complex ? CUSOLVER_C_64F : CUSOLVER_R_64F;
    if (lowest == "fp32") return complex ? CUSOLVER_C_32F : CUSOLVER_R_32F;
    if (lowest == "tf32") return complex ? CUSOLVER_C_TF32 : CUSOLVER_R_TF32;
    if (lowest == "bf16") return complex ? CUSOLVER_C_16BF : CUSOLVER_R_16BF;
    if (lowest == "fp16") return complex ? CUSOLVER_C_16F : CUSOLVER_R_16F;
    throw std::invalid_argument("vendor baseline: no precision " + lowest);
}

template <typename T>
VendorTimes solve_mixed(bool cholesky, Uplo uplo, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* b,
                        int64_t ldb, T* x, int64_t ldx, const std::string& lowest, int64_t memory_mib, int& steps) {
    steps = 0;
    DeviceMemory memory(memory_mib);
    const size_t bytes = plus(bytes_of<T>(n, n), plus(bytes_of<T>(n, nrhs), bytes_of<T>(n, nrhs)));
    if (!memory.fits(bytes)) return {};
    Solver solver;
    T* da = static_cast<T*>(memory.get(bytes_of<T>(n, n)));
    T* db = static_cast<T*>(memory.get(bytes_of<T>(n, nrhs)));
    T* dx = static_cast<T*>(memory.get(bytes_of<T>(n, nrhs)));
    int* info = static_cast<int*>(memory.get(sizeof(int)));
    const auto pin = [&](PinnedSet& p) { p.add(a, n, n, lda), p.add(b, n, nrhs, ldb), p.add(x, n, nrhs, ldx); };
    const auto up = [&] { upload(da, a, n, n, lda), upload(db, b, n, nrhs, ldb); };
    if (cholesky) {
        const cublasFillMode_t fill = uplo == Uplo::Lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
        size_t device_work = 0, host_work = 0;
        check(cusolverDnXpotrf_bufferSize(solver.handle, solver.params, fill, n, data_type<T>(), da, n,
                                          data_type<T>(), &device_work, &host_work),
              "cusolver potrf bufferSize");
        if (!memory.fits(plus(bytes, device_work))) return {};
        void* work = memory.get(device_work);
        std::vector<char> host(host_work);
        return three_ways(pin, up,
                          [&] {
                              check(cusolverDnXpotrf(solver.handle, solver.params, fill, n, data_type<T>(), da, n,
                                                     data_type<T>(), work, device_work, host.data(), host_work, info),
                                    "cusolver potrf");
                              check(cusolverDnXpotrs(solver.handle, solver.params, fill, n, nrhs, data_type<T>(), da,
                                                     n, data_type<T>(), db, n, info),
                                    "cusolver potrs");
                          },
                          [&] { download(x, db, n, nrhs, ldx); });
    }
    cusolverDnIRSParams_t params = nullptr;
    check(cusolverDnIRSParamsCreate(&params), "cusolverDnIRSParamsCreate");
    std::unique_ptr<std::remove_pointer_t<cusolverDnIRSParams_t>, decltype(&cusolverDnIRSParamsDestroy)> params_owner(
        params, cusolverDnIRSParamsDestroy);
    check(cusolverDnIRSParamsSetSolverPrecisions(params, irs_precision<T>("fp64"), irs_precision<T>(lowest)),
          "cusolverDnIRSParamsSetSolverPrecisions");
    // As grain's: classical steps from float's factors, GMRES's from tensor cores'.
    check(cusolverDnIRSParamsSetRefinementSolver(
              params, lowest == "fp32" ? CUSOLVER_IRS_REFINE_CLASSICAL : CUSOLVER_IRS_REFINE_GMRES),
          "cusolverDnIRSParamsSetRefinementSolver");
    check(cusolverDnIRSParamsSetMaxIters(params, 30), "cusolverDnIRSParamsSetMaxIters");
    check(cusolverDnIRSParamsEnableFallback(params), "cusolverDnIRSParamsEnableFallback");
    cusolverDnIRSInfos_t infos = nullptr;
    check(cusolverDnIRSInfosCreate(&infos), "cusolverDnIRSInfosCreate");
    std::unique_ptr<std::remove_pointer_t<cusolverDnIRSInfos_t>, decltype(&cusolverDnIRSInfosDestroy)> infos_owner(
        infos, cusolverDnIRSInfosDestroy);
    size_t work_bytes = 0;
    check(cusolverDnIRSXgesv_bufferSize(solver.handle, params, int(n), int(nrhs), &work_bytes),
          "cusolverDnIRSXgesv_bufferSize");
    if (!memory.fits(plus(bytes, work_bytes))) return {};
    void* work = memory.get(work_bytes);
    return three_ways(pin, up,
                      [&] {
                          check(cusolverDnIRSXgesv(solver.handle, params, infos, int(n), int(nrhs), da, int(n), db,
                                                   int(n), dx, int(n), work, work_bytes, &steps, info),
                                "cusolverDnIRSXgesv");
                      },
                      [&] { download(x, dx, n, nrhs, ldx); });
}

#define GRAIN_INSTANTIATE(T)                                                                                    \
    template VendorTimes gemm<T>(int64_t, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, const T*, \
                            int64_t, T*, int64_t, int64_t);                                                     \
    template VendorTimes potrf<T>(Uplo, int64_t, const T*, int64_t, T*, int64_t, int64_t);                           \
    template VendorTimes getrf_nopiv<T>(int64_t, int64_t, const T*, int64_t, T*, int64_t, int64_t);                   \
    template VendorTimes getrf<T>(int64_t, int64_t, const T*, int64_t, T*, int64_t, int64_t);                         \
    template VendorTimes geqrf<T>(int64_t, int64_t, const T*, int64_t, T*, int64_t, int64_t);                         \
    template VendorTimes unmqr<T>(int64_t, int64_t, int64_t, const T*, int64_t, const T*, int64_t, T*, int64_t, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE
#define GRAIN_INSTANTIATE(T)                                                                                       \
    template VendorTimes solve_mixed<T>(bool, Uplo, int64_t, int64_t, const T*, int64_t, const T*, int64_t, T*, \
                                        int64_t, const std::string&, int64_t, int&);
GRAIN_INSTANTIATE(double)
GRAIN_INSTANTIATE(std::complex<double>)
#undef GRAIN_INSTANTIATE

}  // namespace grain::testing::gpu
