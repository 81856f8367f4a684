// CUDA tile kernels: the cuSOLVER factorizations here (trtri, lauum, potrf, getrf with
// and without pivoting, laswp), the cuBLAS products in cuda_blas.hpp; all enqueued on the
// StarPU worker's stream.
#include "cuda.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <vector>

#include "cuda_blas.hpp"

namespace grain::detail::cuda {

namespace {

// cuSOLVER's 64-bit API names the precision by a cudaDataType.
template <typename T>
constexpr cudaDataType data_type();

// Precision overloads of the cuSOLVER calls; D is the library's type for T.
#define GRAIN_CUSOLVER_OVERLOADS(T, D, P, TYPE)                                                           \
    template <>                                                                                           \
    constexpr cudaDataType data_type<T>() {                                                               \
        return TYPE;                                                                                      \
    }                                                                                                     \
    inline cusolverStatus_t lauum_work(cusolverDnHandle_t h, Uplo u, int n, T* a, int lda, int* lwork) {  \
        return cusolverDn##P##lauum_bufferSize(h, cublas(u), n, dev<D>(a), lda, lwork);                   \
    }                                                                                                     \
    inline cusolverStatus_t lauum(cusolverDnHandle_t h, Uplo u, int n, T* a, int lda, T* work, int lwork, \
                                  int* info) {                                                            \
        return cusolverDn##P##lauum(h, cublas(u), n, dev<D>(a), lda, dev<D>(work), lwork, info);          \
    }                                                                                                     \
    inline cusolverStatus_t potrf_work(cusolverDnHandle_t h, Uplo u, int n, T* a, int lda, int* lwork) {  \
        return cusolverDn##P##potrf_bufferSize(h, cublas(u), n, dev<D>(a), lda, lwork);                   \
    }                                                                                                     \
    inline cusolverStatus_t potrf(cusolverDnHandle_t h, Uplo u, int n, T* a, int lda, T* work, int lwork, \
                                  int* info) {                                                            \
        return cusolverDn##P##potrf(h, cublas(u), n, dev<D>(a), lda, dev<D>(work), lwork, info);          \
    }                                                                                                     \
    inline cusolverStatus_t getrf_work(cusolverDnHandle_t h, int m, int n, T* a, int lda, int* lwork) {   \
        return cusolverDn##P##getrf_bufferSize(h, m, n, dev<D>(a), lda, lwork);                           \
    }                                                                                                     \
    /* A null pivot array makes cuSOLVER factor without pivoting. */                                     \
    inline cusolverStatus_t getrf(cusolverDnHandle_t h, int m, int n, T* a, int lda, T* work, int* ipiv,  \
                                  int* info) {                                                            \
        return cusolverDn##P##getrf(h, m, n, dev<D>(a), lda, dev<D>(work), ipiv, info);                   \
    }                                                                                                     \
    inline cusolverStatus_t laswp(cusolverDnHandle_t h, int n, T* a, int lda, int k2, const int* ipiv,    \
                                  int incx) {                                                             \
        return cusolverDn##P##laswp(h, n, dev<D>(a), lda, 1, k2, ipiv, incx);                             \
    }
GRAIN_CUSOLVER_OVERLOADS(float, float, S, CUDA_R_32F)
GRAIN_CUSOLVER_OVERLOADS(double, double, D, CUDA_R_64F)
GRAIN_CUSOLVER_OVERLOADS(std::complex<float>, cuComplex, C, CUDA_C_32F)
GRAIN_CUSOLVER_OVERLOADS(std::complex<double>, cuDoubleComplex, Z, CUDA_C_64F)
#undef GRAIN_CUSOLVER_OVERLOADS

// What grain keeps per CUDA worker: its cuSOLVER handle on the worker's stream, the
// device word cuSOLVER writes info into, and a workspace grown to the largest request
// (allocated once per worker and size, freed at shutdown).
struct WorkerState {
    cusolverDnHandle_t solver = nullptr;
    int* info = nullptr;
    void* work = nullptr;
    size_t work_bytes = 0;
    std::vector<char> diagonal;  // host copy of a factored tile's diagonal
    std::vector<int> pivots;     // host copy of a pivot block
    std::vector<char> host_work;  // cuSOLVER's host workspace (trtri)
};
std::array<WorkerState, STARPU_NMAXWORKERS> workers;

WorkerState& local() { return workers[size_t(starpu_worker_get_id_check())]; }

void* workspace(WorkerState& w, size_t bytes) {
    if (bytes > w.work_bytes) {
        if (w.work) check(cudaFree(w.work), "cudaFree");
        check(cudaMalloc(&w.work, bytes), "cudaMalloc (cuSOLVER workspace)");
        w.work_bytes = bytes;
    }
    return w.work;
}

// cuSOLVER's info, read back on the worker's stream (the factorization must end
// before its info is known).
int read_info(const WorkerState& w) {
    int info = 0;
    const cudaStream_t stream = starpu_cuda_get_local_stream();
    check(cudaMemcpyAsync(&info, w.info, sizeof info, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (info)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return info;
}

void start_worker(void*) {
    WorkerState& w = local();
    check(cusolverDnCreate(&w.solver), "cusolverDnCreate");
    check(cusolverDnSetStream(w.solver, starpu_cuda_get_local_stream()), "cusolverDnSetStream");
    check(cudaMalloc(reinterpret_cast<void**>(&w.info), sizeof(int)), "cudaMalloc (info)");
}

void stop_worker(void*) {
    WorkerState& w = local();
    if (w.work) cudaFree(w.work);
    if (w.info) cudaFree(w.info);
    if (w.solver) cusolverDnDestroy(w.solver);
    w = WorkerState{};
}

}  // namespace

void start_workers() {
    starpu_cublas_init();
    starpu_execute_on_each_worker(start_worker, nullptr, STARPU_CUDA);
}

void stop_workers() {
    starpu_execute_on_each_worker(stop_worker, nullptr, STARPU_CUDA);
    starpu_cublas_shutdown();
}

// cuSOLVER's trtri, with its device and host workspaces; its info, as LAPACK's, is the
// first exactly zero diagonal element.
template <typename T>
void trtri(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]);
    T* x = data<T>(buffers[0]);
    WorkerState& w = local();
    size_t device_bytes = 0, host_bytes = 0;
    check(cusolverDnXtrtri_bufferSize(w.solver, cublas(p.uplo), cublas(p.diag), a.rows, data_type<T>(), x, a.ld,
                                      &device_bytes, &host_bytes),
          "cusolver trtri bufferSize");
    void* device = workspace(w, std::max<size_t>(device_bytes, 1));
    w.host_work.resize(std::max<size_t>(host_bytes, 1));
    check(cusolverDnXtrtri(w.solver, cublas(p.uplo), cublas(p.diag), a.rows, data_type<T>(), x, a.ld, device,
                           device_bytes, w.host_work.data(), host_bytes, w.info),
          "cusolver trtri");
    if (const int info = read_info(w); info > 0) p.request->report_info(p.col_offset + info);
}

// cuSOLVER's lauum: no info but an argument's, which grain's are not.
template <typename T>
void lauum(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]);
    T* x = data<T>(buffers[0]);
    WorkerState& w = local();
    int lwork = 0;
    check(lauum_work(w.solver, p.uplo, a.rows, x, a.ld, &lwork), "cusolver lauum bufferSize");
    T* work = static_cast<T*>(workspace(w, sizeof(T) * size_t(std::max(lwork, 1))));
    check(lauum(w.solver, p.uplo, a.rows, x, a.ld, work, lwork, w.info), "cusolver lauum");
}

// A cuSOLVER factorization of the tile: its workspace size, then the call; its info
// is folded into the request as the global column. cuSOLVER 13's potrf misses a
// failure on the last column of its 64-column panels (seen on an H100:
// doc/results/tuning-history.md#cusolver-info), so
// the factor's diagonal is read back too and the first failing pivot on it (`fails`)
// counts as well: the LAPACK info is the smaller of the two.
// `reserved` bytes at the workspace's start are the caller's (getrf's panel copy).
template <typename T, typename Query, typename Factor, typename Fails>
void factorization(const TileArgs<T>& p, TileRef a, T* x, size_t reserved, Query query, Factor factor, Fails fails) {
    WorkerState& w = local();
    int lwork = 0;
    check(query(w.solver, p, a, x, &lwork), "cusolver bufferSize");
    char* space = static_cast<char*>(workspace(w, reserved + sizeof(T) * size_t(std::max(lwork, 1))));
    T* work = reinterpret_cast<T*>(space + reserved);
    check(factor(w.solver, p, a, x, work, lwork, w.info), "cusolver factorization");
    const int k = std::min(a.rows, a.cols);
    w.diagonal.resize(sizeof(T) * size_t(k));
    T* diagonal = reinterpret_cast<T*>(w.diagonal.data());
    check(cudaMemcpy2DAsync(diagonal, sizeof(T), x, sizeof(T) * (size_t(a.ld) + 1), sizeof(T), size_t(k),
                            cudaMemcpyDeviceToHost, starpu_cuda_get_local_stream()),
          "cudaMemcpy2DAsync (diagonal)");
    int info = read_info(w);  // synchronizes the stream, so the diagonal is there too
    for (int j = 0; j < (info > 0 ? info - 1 : k); ++j)
        if (fails(diagonal[j])) {
            info = j + 1;
            break;
        }
    if (info > 0) p.request->report_info(p.col_offset + info);
}

template <typename T>
void potrf(void* buffers[], void* cl_arg) {
    factorization<T>(
        args<T>(cl_arg), dims(buffers[0]), data<T>(buffers[0]), 0,
        [](cusolverDnHandle_t h, const TileArgs<T>& p, TileRef a, T* x, int* lwork) {
            return potrf_work(h, p.uplo, a.rows, x, a.ld, lwork);
        },
        [](cusolverDnHandle_t h, const TileArgs<T>& p, TileRef a, T* x, T* work, int lwork, int* info) {
            return potrf(h, p.uplo, a.rows, x, a.ld, work, lwork, info);
        },
        // LAPACK: the minor is not positive definite (a Hermitian one's diagonal is real)
        [](T d) { return !(std::real(d) > 0); });
}

// LU of an m x n block (`x`, leading dimension a.ld), pivots into `ipiv` (null: none).
template <typename T>
void lu(const TileArgs<T>& p, TileRef a, T* x, size_t reserved, int* ipiv) {
    factorization<T>(
        p, a, x, reserved,
        [](cusolverDnHandle_t h, const TileArgs<T>&, TileRef b, T* y, int* lwork) {
            return getrf_work(h, b.rows, b.cols, y, b.ld, lwork);
        },
        [ipiv](cusolverDnHandle_t h, const TileArgs<T>&, TileRef b, T* y, T* work, int, int* info) {
            return getrf(h, b.rows, b.cols, y, b.ld, work, ipiv, info);
        },
        [](T d) { return d == T(0); });  // LAPACK: an exactly zero pivot
}

template <typename T>
void getrf_nopiv(void* buffers[], void* cl_arg) {
    lu<T>(args<T>(cl_arg), dims(buffers[0]), data<T>(buffers[0]), 0, nullptr);
}

// A column task's tiles (buffers 1..n) as one column-major block at the workspace's
// start, or back: cuSOLVER's getrf and laswp work on one matrix. Device to device, on
// the worker's stream. Returns the block's shape.
template <typename T>
TileRef column_block(void* buffers[], const TileArgs<T>& p, T* block, bool in) {
    const int tiles = column_tiles(p.task);
    TileRef b{column_rows(buffers, p.task), dims(buffers[1]).cols, 0};
    b.ld = std::max(b.rows, 1);
    const cudaStream_t stream = starpu_cuda_get_local_stream();
    for (int t = 1, first = 0; t <= tiles; first += dims(buffers[t]).rows, ++t) {
        const TileRef d = dims(buffers[t]);
        T* tile = data<T>(buffers[t]);
        T* part = block + first;
        const size_t width = sizeof(T) * size_t(d.rows);
        check(in ? cudaMemcpy2DAsync(part, sizeof(T) * size_t(b.ld), tile, sizeof(T) * size_t(d.ld), width,
                                     size_t(b.cols), cudaMemcpyDeviceToDevice, stream)
                 : cudaMemcpy2DAsync(tile, sizeof(T) * size_t(d.ld), part, sizeof(T) * size_t(b.ld), width,
                                     size_t(b.cols), cudaMemcpyDeviceToDevice, stream),
              "cudaMemcpy2DAsync (column)");
    }
    return b;
}

// A pivot block (device) shifted by `shift` through the host: cuSOLVER's pivots are
// local to the block it factors, grain's global. Synchronizes the stream.
inline void shift_pivots(int* block, int count, int shift, int* to) {
    WorkerState& w = local();
    w.pivots.resize(size_t(count));
    const cudaStream_t stream = starpu_cuda_get_local_stream();
    check(cudaMemcpyAsync(w.pivots.data(), block, sizeof(int) * size_t(count), cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync (pivots)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    for (int& v : w.pivots) v += shift;
    check(cudaMemcpyAsync(to, w.pivots.data(), sizeof(int) * size_t(count), cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync (pivots)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");  // the host copy is reused
}

// LU with partial pivoting of a panel (column task): cuSOLVER's getrf on a contiguous
// copy of the column, its pivots written to the block and made global.
template <typename T>
void getrf(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    WorkerState& w = local();
    const int rows = column_rows(buffers, p.task), cols = dims(buffers[1]).cols;
    const size_t bytes = sizeof(T) * size_t(rows) * size_t(cols);
    // The workspace holds the copy and cuSOLVER's own: sized for both before the copy,
    // so that the factorization's request does not move it.
    int lwork = 0;
    check(getrf_work(w.solver, rows, cols, static_cast<T*>(workspace(w, bytes)), std::max(rows, 1), &lwork),
          "cusolver bufferSize");
    T* block = static_cast<T*>(workspace(w, bytes + sizeof(T) * size_t(std::max(lwork, 1))));
    const TileRef b = column_block<T>(buffers, p, block, true);
    int* ipiv = pivots(buffers[0]);
    lu<T>(p, b, block, bytes, ipiv);
    column_block<T>(buffers, p, block, false);
    shift_pivots(ipiv, pivot_count(buffers[0]), int(p.row_offset), ipiv);
}

// Row interchanges of one step on a column (column task): cuSOLVER's laswp on a
// contiguous copy, its pivots made local in the workspace; in reverse with transa =
// Trans (LAPACK's incx = -1).
template <typename T>
void laswp(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const int count = pivot_count(buffers[0]);
    const size_t bytes = sizeof(T) * size_t(column_rows(buffers, p.task)) * size_t(dims(buffers[1]).cols);
    char* space = static_cast<char*>(workspace(local(), bytes + sizeof(int) * size_t(count)));
    T* block = reinterpret_cast<T*>(space);
    int* local_pivots = reinterpret_cast<int*>(space + bytes);
    shift_pivots(pivots(buffers[0]), count, -int(p.row_offset), local_pivots);
    const TileRef b = column_block<T>(buffers, p, block, true);
    check(laswp(local().solver, b.cols, block, b.ld, count, local_pivots, p.transa == Op::Trans ? -1 : 1),
          "cusolver laswp");
    column_block<T>(buffers, p, block, false);
    check(cudaStreamSynchronize(starpu_cuda_get_local_stream()), "cudaStreamSynchronize");
}

GRAIN_DEFINE_KERNEL_FUNCTIONS(GRAIN_CUDA_KERNEL)

}  // namespace grain::detail::cuda
