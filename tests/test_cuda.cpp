// The CUDA kernels (built with GRAIN_USE_CUDA): each codelet run on a GPU worker
// against the same codelet on a CPU worker on the same tiles, cuSOLVER's info folded
// into the request, and a factorization larger than the GPU memory it may use.
// Skipped, saying so, when no GPU is visible.
#include <cuda_runtime.h>
#include <starpu.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "recursion/counters.hpp"
#include "src/base/request_state.hpp"
#include "src/starpu/codelets.hpp"
#include "src/starpu/matrix_access.hpp"

namespace grain::test {
namespace {

using detail::Kernel;
using detail::TileArgs;

#define GRAIN_NEED_GPU() \
    if (visible_gpus() == 0) GTEST_SKIP() << "no CUDA device visible: GPU tests skipped"

// One StarPU worker of the given type (the first).
int worker_of(starpu_worker_archtype type) { return starpu_worker_get_by_type(type, 0); }

// A StarPU matrix over the array.
template <typename T>
starpu_data_handle_t registered(Array<T>& x) {
    starpu_data_handle_t h;
    starpu_matrix_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(x.data()), uint32_t(x.ld()),
                                uint32_t(x.m), uint32_t(x.n), sizeof(T));
    return h;
}

// Runs one codelet on the given worker, on tiles registered over the arrays.
template <typename T>
int64_t run_on(int worker, Kernel kernel, TileArgs<T> args, std::vector<Array<T>*> tiles) {
    detail::RequestState request;
    args.request = &request;
    std::vector<starpu_data_handle_t> handles;
    for (Array<T>* t : tiles) handles.push_back(registered(*t));
    starpu_task* task = starpu_task_create();
    task->cl = detail::codelet<T>(kernel);
    for (size_t i = 0; i < handles.size(); ++i) task->handles[i] = handles[i];
    task->cl_arg = &args;
    task->cl_arg_size = sizeof args;
    task->execute_on_a_specific_worker = 1;
    task->workerid = unsigned(worker);
    task->synchronous = 1;
    EXPECT_EQ(starpu_task_submit(task), 0);
    for (starpu_data_handle_t h : handles) starpu_data_unregister(h);
    return request.info;
}

// Runs one task of variable buffers on the given worker, as the task layer submits it: a
// column kernel (getrf's panel, laswp: a pivot block, then a column of tiles) or an update
// (a T factor, the reflectors' tile, then the tiles or strips it writes); each buffer takes
// the table's mode of its place, those past the table's the last.
template <typename T>
int64_t run_task_on(int worker, Kernel kernel, TileArgs<T> args, const std::vector<starpu_data_handle_t>& handles) {
    detail::RequestState request;
    args.request = &request;
    starpu_task* task = starpu_task_create();
    task->cl = detail::codelet<T>(kernel);
    task->nbuffers = int(handles.size());
    const detail::KernelInfo& info = detail::kernel_info(kernel);
    for (size_t i = 0; i < handles.size(); ++i) {
        STARPU_TASK_SET_HANDLE(task, handles[i], i);
        STARPU_TASK_SET_MODE(task, info.modes[std::min(i, size_t(info.nbuffers - 1))], i);
    }
    args.task = task;
    task->cl_arg = &args;
    task->cl_arg_size = sizeof args;
    task->execute_on_a_specific_worker = 1;
    task->workerid = unsigned(worker);
    task->synchronous = 1;
    task->destroy = 0;  // args.task is read while it runs; destroyed below
    EXPECT_EQ(starpu_task_submit(task), 0);
    starpu_task_destroy(task);
    for (starpu_data_handle_t h : handles) starpu_data_unregister(h);
    return request.info;
}

// A column kernel's task: a pivot block over `pivots`, then the tiles of a column.
template <typename T>
int64_t run_column_on(int worker, Kernel kernel, TileArgs<T> args, std::vector<int>& pivots,
                      std::vector<Array<T>*> tiles) {
    std::vector<starpu_data_handle_t> handles(1);
    starpu_vector_data_register(&handles[0], STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(pivots.data()),
                                uint32_t(pivots.size()), sizeof(int));
    for (Array<T>* t : tiles) handles.push_back(registered(*t));
    return run_task_on(worker, kernel, args, handles);
}

template <typename T>
double max_difference(const Array<T>& a, const Array<T>& b) {
    double d = 0;
    for (int64_t j = 0; j < a.n; ++j)
        for (int64_t i = 0; i < a.m; ++i) d = std::max(d, double(std::abs(a(i, j) - b(i, j))));
    return d;
}

template <typename T>
class CudaKernels : public ::testing::Test {};
TYPED_TEST_SUITE(CudaKernels, Precisions);

// Every kernel on square and edge (non-square) tiles gives the CPU kernel's result
// up to rounding.
TYPED_TEST(CudaKernels, MatchCpuKernels) {
    using T = TypeParam;
    GRAIN_NEED_GPU();
    const int cpu = worker_of(STARPU_CPU_WORKER), gpu = worker_of(STARPU_CUDA_WORKER);
    ASSERT_GE(gpu, 0);
    const double tolerance = 200 * double(std::numeric_limits<real_t<T>>::epsilon()) * 64;
    struct Case {
        Kernel kernel;
        TileArgs<T> args;
        std::vector<std::pair<int, int>> shapes;  // of each buffer
        std::vector<Kind> kinds;
    };
    TileArgs<T> gemm_args;
    // ConjTrans where there is one (it is Trans in real precisions).
    const Op ct = detail::conj_trans<T>();
    gemm_args.transa = Op::NoTrans, gemm_args.transb = ct, gemm_args.alpha = T(-1), gemm_args.beta = T(1);
    TileArgs<T> trsm_args;
    trsm_args.side = Side::Right, trsm_args.uplo = Uplo::Lower, trsm_args.transa = ct, trsm_args.alpha = T(1);
    TileArgs<T> syrk_args;
    syrk_args.uplo = Uplo::Lower, syrk_args.transa = Op::NoTrans, syrk_args.alpha = T(-1), syrk_args.beta = T(1);
    TileArgs<T> herk_args = syrk_args;  // syrk's kernel in real precisions
    herk_args.transa = ct;
    TileArgs<T> potrf_args;
    potrf_args.uplo = Uplo::Lower;
    TileArgs<T> trmm_args;
    trmm_args.side = Side::Left, trmm_args.uplo = Uplo::Upper, trmm_args.transa = ct, trmm_args.alpha = T(0.5);
    TileArgs<T> lower_args;  // trtri and lauum
    lower_args.uplo = Uplo::Lower;
    TileArgs<T> symm_args;  // and hemm's
    symm_args.side = Side::Left, symm_args.uplo = Uplo::Lower, symm_args.alpha = T(1.5), symm_args.beta = T(-1);
    TileArgs<T> syr2k_args = syrk_args;  // and her2k's
    TileArgs<T> scale_args;
    scale_args.whole_tile = false, scale_args.uplo = Uplo::Upper, scale_args.alpha = T(0.5);
    const std::vector<Case> cases = {
        {Kernel::Gemm, gemm_args, {{64, 40}, {37, 40}, {64, 37}}, {Kind::General, Kind::General, Kind::General}},
        {Kernel::Trsm, trsm_args, {{40, 40}, {64, 40}}, {Kind::Spd, Kind::General}},
        {Kernel::Syrk, syrk_args, {{64, 21}, {64, 64}}, {Kind::General, Kind::General}},
        {Kernel::Herk, herk_args, {{21, 64}, {64, 64}}, {Kind::General, Kind::Spd}},
        {Kernel::Potrf, potrf_args, {{61, 61}}, {Kind::Spd}},
        {Kernel::GetrfNopiv, TileArgs<T>{}, {{64, 45}}, {Kind::DiagonallyDominant}},
        {Kernel::Scale, scale_args, {{45, 64}}, {Kind::General}},
        {Kernel::Trmm, trmm_args, {{40, 40}, {40, 64}}, {Kind::Spd, Kind::General}},
        {Kernel::Symm, symm_args, {{40, 40}, {40, 64}, {40, 64}}, {Kind::Spd, Kind::General, Kind::General}},
        {Kernel::Hemm, symm_args, {{40, 40}, {40, 64}, {40, 64}}, {Kind::Spd, Kind::General, Kind::General}},
        {Kernel::Syr2k, syr2k_args, {{64, 21}, {64, 21}, {64, 64}}, {Kind::General, Kind::General, Kind::General}},
        {Kernel::Her2k, syr2k_args, {{64, 21}, {64, 21}, {64, 64}}, {Kind::General, Kind::General, Kind::Spd}},
        {Kernel::Trtri, lower_args, {{50, 50}}, {Kind::LowerTriangular}},
        {Kernel::Lauum, lower_args, {{50, 50}}, {Kind::Spd}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(detail::kernel_name(c.kernel));
        std::vector<Array<T>> on_cpu, on_gpu;
        for (size_t i = 0; i < c.shapes.size(); ++i) {
            on_cpu.push_back(random_array<T>(c.shapes[i].first, c.shapes[i].second, c.kinds[i], rng()));
            on_gpu.push_back(on_cpu.back());
        }
        std::vector<Array<T>*> cpu_tiles, gpu_tiles;
        for (size_t i = 0; i < on_cpu.size(); ++i) cpu_tiles.push_back(&on_cpu[i]), gpu_tiles.push_back(&on_gpu[i]);
        EXPECT_EQ(run_on(cpu, c.kernel, c.args, cpu_tiles), 0);
        EXPECT_EQ(run_on(gpu, c.kernel, c.args, gpu_tiles), 0);
        const Array<T>& out_cpu = on_cpu.back();
        const Array<T>& out_gpu = on_gpu.back();
        const double scale = std::max<double>(1.0, double(blas::lange('M', int(out_cpu.m), int(out_cpu.n), out_cpu.data(),
                                                               int(out_cpu.ld()))));
        if (c.kernel == Kernel::Potrf || c.kernel == Kernel::Syrk || c.kernel == Kernel::Herk ||
            c.kernel == Kernel::Trtri || c.kernel == Kernel::Lauum || c.kernel == Kernel::Syr2k ||
            c.kernel == Kernel::Her2k) {
            // Only the lower triangle is defined.
            double d = 0;
            for (int64_t j = 0; j < out_cpu.n; ++j)
                for (int64_t i = j; i < out_cpu.m; ++i) d = std::max(d, double(std::abs(out_cpu(i, j) - out_gpu(i, j))));
            EXPECT_LE(d / scale, tolerance);
        } else {
            EXPECT_LE(max_difference(out_cpu, out_gpu) / scale, tolerance);
        }
    }
}

// RuntimeOptions::gpu_math: a single-precision gemm on the GPU is IEEE under fp32, and under
// tf32, bf16 and fp16 rounds its inputs to that format (an error above IEEE's, within the
// format's bound 2 u k max|a| max|b|); double precisions are IEEE under every setting.
TYPED_TEST(CudaKernels, GpuMathRoundsSingleProducts) {
    using T = TypeParam;
    GRAIN_NEED_GPU();
    const int cpu = worker_of(STARPU_CPU_WORKER), gpu = worker_of(STARPU_CUDA_WORKER);
    const int m = 64, n = 48, k = 256;
    TileArgs<T> args;
    args.alpha = T(1), args.beta = T(0);
    const Array<T> a = random_array<T>(m, k, Kind::General, rng()), b = random_array<T>(k, n, Kind::General, rng());
    Array<T> ca = a, cb = b, reference(m, n);
    EXPECT_EQ(run_on(cpu, Kernel::Gemm, args, {&ca, &cb, &reference}), 0);
    const auto error = [&](const char* math) {
        test_runtime().set_gpu_math(math);
        Array<T> ga = a, gb = b, c(m, n);
        EXPECT_EQ(run_on(gpu, Kernel::Gemm, args, {&ga, &gb, &c}), 0);
        test_runtime().set_gpu_math("fp32");
        return max_difference(reference, c);
    };
    const double ieee = error("fp32"), largest = k;  // |a| |b| <= 1/2: their parts are in [-0.5, 0.5)
    EXPECT_LE(ieee, largest * 2 * double(std::numeric_limits<real_t<T>>::epsilon()));
    // Each format's unit roundoff: 10, 7 and 10 bits after the point.
    for (auto [math, u] : {std::pair{"tf32", 0x1p-11}, {"bf16", 0x1p-8}, {"fp16", 0x1p-11}}) {
        SCOPED_TRACE(math);
        const double d = error(math);
        if constexpr (std::is_same_v<real_t<T>, float>) {
            EXPECT_GT(d, 2 * ieee) << "the inputs were not rounded";
            EXPECT_LE(d, 2 * u * largest);
        } else {
            EXPECT_EQ(d, ieee);
        }
    }
}

// cuSOLVER's info reaches the request as the global column, as on CPU.
TYPED_TEST(CudaKernels, FactorizationInfo) {
    using T = TypeParam;
    GRAIN_NEED_GPU();
    const int gpu = worker_of(STARPU_CUDA_WORKER);
    Array<T> spd = random_array<T>(48, 48, Kind::Spd, rng());
    spd(20, 20) = T(-1);  // the leading minor of order 21 is not positive definite
    TileArgs<T> potrf_args;
    potrf_args.uplo = Uplo::Lower;
    potrf_args.col_offset = 100;
    EXPECT_EQ(run_on(gpu, Kernel::Potrf, potrf_args, {&spd}), 121);

    Array<T> general(48, 48);  // the identity with an exact zero pivot in column 31
    for (int i = 0; i < 48; ++i) general(i, i) = T(1);
    general(30, 30) = T(0);
    TileArgs<T> getrf_args;
    getrf_args.col_offset = 7;
    EXPECT_EQ(run_on(gpu, Kernel::GetrfNopiv, getrf_args, {&general}), 38);

    Array<T> triangle = random_array<T>(48, 48, Kind::LowerTriangular, rng());
    triangle(12, 12) = T(0);
    TileArgs<T> trtri_args;
    trtri_args.uplo = Uplo::Lower;
    trtri_args.col_offset = 16;
    EXPECT_EQ(run_on(gpu, Kernel::Trtri, trtri_args, {&triangle}), 29);
}

// The column kernels on a GPU against the same kernels on a core, on a column of three
// tiles (the last shorter) whose first row is global row 40: the same pivots (global,
// 1-based), the same factors up to rounding, and info; laswp in both orders, bit for bit.
TYPED_TEST(CudaKernels, ColumnKernelsMatchCpuKernels) {
    using T = TypeParam;
    GRAIN_NEED_GPU();
    const int gpu = worker_of(STARPU_CUDA_WORKER), cpu = worker_of(STARPU_CPU_WORKER);
    const double eps = std::numeric_limits<real_t<T>>::epsilon();
    TileArgs<T> panel;
    panel.row_offset = 40;
    panel.col_offset = 40;
    for (bool singular : {false, true}) {
        std::vector<Array<T>> on_gpu = {random_array<T>(32, 24, Kind::General, rng()),
                                        random_array<T>(32, 24, Kind::General, rng()),
                                        random_array<T>(9, 24, Kind::General, rng())};
        if (singular)
            for (Array<T>& t : on_gpu)
                for (int64_t i = 0; i < t.m; ++i) t(i, 5) = T(0);
        std::vector<Array<T>> on_cpu = on_gpu;
        std::vector<int> gpu_pivots(24), cpu_pivots(24);
        const int64_t gpu_info = run_column_on(gpu, Kernel::Getrf, panel, gpu_pivots, {&on_gpu[0], &on_gpu[1], &on_gpu[2]});
        const int64_t cpu_info = run_column_on(cpu, Kernel::Getrf, panel, cpu_pivots, {&on_cpu[0], &on_cpu[1], &on_cpu[2]});
        EXPECT_EQ(gpu_info, cpu_info);
        EXPECT_EQ(cpu_info, singular ? 46 : 0);
        EXPECT_EQ(gpu_pivots, cpu_pivots);
        for (size_t t = 0; t < on_gpu.size(); ++t) EXPECT_LE(max_difference(on_gpu[t], on_cpu[t]), 1e3 * eps);
        for (Op order : {Op::NoTrans, Op::Trans}) {
            TileArgs<T> swap;
            swap.row_offset = 40;
            swap.transa = order;
            std::vector<Array<T>> x = {random_array<T>(32, 7, Kind::General, rng()),
                                       random_array<T>(32, 7, Kind::General, rng()),
                                       random_array<T>(9, 7, Kind::General, rng())};
            std::vector<Array<T>> y = x;
            run_column_on(gpu, Kernel::Laswp, swap, cpu_pivots, {&x[0], &x[1], &x[2]});
            run_column_on(cpu, Kernel::Laswp, swap, cpu_pivots, {&y[0], &y[1], &y[2]});
            for (size_t t = 0; t < x.size(); ++t) EXPECT_EQ(max_difference(x[t], y[t]), 0.0);
        }
    }
}

// QR's updates on a GPU (cuBLAS products, src/kernels/qr_apply.hpp) against LAPACK's on a
// core: both sides and ops; geqrt's reflectors on a whole tile and on a strip of two
// sub-tiles apart in memory; tpqrt's of a whole tile (tsmqrt) and of a triangle (ttmqrt).
TYPED_TEST(CudaKernels, QrUpdatesMatchCpuKernels) {
    using T = TypeParam;
    GRAIN_NEED_GPU();
    const int gpu = worker_of(STARPU_CUDA_WORKER), cpu = worker_of(STARPU_CPU_WORKER);
    const double tolerance = 200 * double(std::numeric_limits<real_t<T>>::epsilon()) * 64;
    const int nb = 40, ib = 8, other = 24;
    Array<T> v = random_array<T>(nb, nb, Kind::General, rng()), t(ib, nb);
    ASSERT_EQ(blas::geqrt(nb, nb, ib, v.data(), int(v.ld()), t.data(), int(t.ld())), 0);
    std::vector<Array<T>> pair_v, pair_t;
    for (const int l : {0, nb}) {
        Array<T> r = random_array<T>(nb, nb, Kind::General, rng());
        pair_v.push_back(random_array<T>(nb, nb, Kind::General, rng()));
        pair_t.emplace_back(ib, nb);
        ASSERT_EQ(blas::tpqrt(nb, nb, l, ib, r.data(), int(r.ld()), pair_v.back().data(), int(pair_v.back().ld()),
                              pair_t.back().data(), int(pair_t.back().ld())), 0);
    }
    for (const Side side : {Side::Left, Side::Right})
        for (const Op trans : {Op::NoTrans, detail::conj_trans<T>()}) {
            TileArgs<T> args;
            args.side = side, args.transa = trans;
            const bool left = side == Side::Left;
            // The tiles written: C whole, C as a strip of two parts, and a pair's A1 and A2.
            const auto tile = [&](int across) {
                return left ? random_array<T>(across, other, Kind::General, rng())
                            : random_array<T>(other, across, Kind::General, rng());
            };
            struct Case {
                Kernel kernel;
                Array<T>*v, *t;
                std::vector<Array<T>> tiles;
                int first_strip;
            };
            std::vector<Case> cases;
            cases.push_back({Kernel::Gemqrt, &v, &t, {tile(nb)}, 1});
            cases.push_back({Kernel::Gemqrt, &v, &t, {tile(25), tile(nb - 25)}, 1});
            cases.push_back({Kernel::Tsmqrt, &pair_v[0], &pair_t[0], {tile(nb), tile(nb)}, 1});
            cases.push_back({Kernel::Ttmqrt, &pair_v[1], &pair_t[1], {tile(nb), tile(nb)}, 1});
            for (Case& c : cases) {
                SCOPED_TRACE(std::string(detail::kernel_name(c.kernel)) + (left ? " left " : " right ") +
                             (trans == Op::NoTrans ? "N" : "C") + " parts " + std::to_string(c.tiles.size()));
                std::vector<Array<T>> on_gpu = c.tiles, on_cpu = c.tiles;
                TileArgs<T> a = args;
                a.first_strip = c.first_strip;
                for (auto [worker, tiles] : {std::pair{gpu, &on_gpu}, std::pair{cpu, &on_cpu}}) {
                    std::vector<starpu_data_handle_t> handles{registered(*c.t), registered(*c.v)};
                    for (Array<T>& x : *tiles) handles.push_back(registered(x));
                    EXPECT_EQ(run_task_on(worker, c.kernel, a, handles), 0);
                }
                for (size_t i = 0; i < on_cpu.size(); ++i) {
                    const double scale = std::max<double>(
                        1.0, double(blas::lange('M', int(on_cpu[i].m), int(on_cpu[i].n), on_cpu[i].data(), int(on_cpu[i].ld()))));
                    EXPECT_LE(max_difference(on_cpu[i], on_gpu[i]) / scale, tolerance) << "tile " << i;
                    EXPECT_GT(max_difference(on_cpu[i], c.tiles[i]), 0.0) << "tile " << i << " unchanged";
                }
            }
        }
}

// LU with partial pivoting with GPU workers (panels and interchanges where the scheduler
// puts them): the pivots are still LAPACKE's and the factors' residual is small.
TYPED_TEST(CudaKernels, GetrfWithUpdatesOnGpus) {
    using T = TypeParam;
    GRAIN_NEED_GPU();
    EXPECT_NE(detail::codelet<T>(Kernel::Getrf)->cuda_funcs[0], nullptr);
    EXPECT_NE(detail::codelet<T>(Kernel::Laswp)->cuda_funcs[0], nullptr);
    const int64_t n = 300;
    const Array<T> A = random_array<T>(n, n, Kind::General, rng());
    Matrix<T> tA = tiles_of(A, 64);
    Pivots ipiv(n);
    ASSERT_EQ(getrf(tA, ipiv), 0);
    const std::vector<int> p(ipiv.data(), ipiv.data() + n);
    expect_lapacke_pivots(A, p);
    EXPECT_LT(testing::factor_residual(permuted(A, p), testing::lu_product(to_array(tA))), 60);
}

// Pinned for CUDA or not (cudaPointerGetAttributes: registered host memory is "host").
bool pinned(const void* p) {
    cudaPointerAttributes a{};
    return cudaPointerGetAttributes(&a, p) == cudaSuccess && a.type == cudaMemoryTypeHost;
}

// A user's page-aligned array is pinned tile column by tile column as routines first use
// them (src/base/pin_ranges.hpp), and unpinned when the last view of it goes.
TEST(CudaPinning, ColumnsArePinnedAsRoutinesFirstUseThem) {
    GRAIN_NEED_GPU();
    const int64_t n = 4 * 512;  // 4 tile columns of 512 x 2048 doubles: 8 MiB each
    Array<double> A = random_array<double>(n, n, Kind::Spd, rng());
    const auto column = [&](int j) { return A.data() + int64_t(j) * 512 * n; };
    {
        Matrix<double> tA(n, n, 512, A.data(), n);
        Matrix<double> corner = tA.sub(0, 0, 0, 0);  // tile (0, 0) only
        ASSERT_EQ(potrf(Uplo::Lower, corner), 0);
        EXPECT_TRUE(pinned(column(0)));
        EXPECT_TRUE(pinned(column(0) + 512 * n - 1));
        EXPECT_FALSE(pinned(column(1)));
        EXPECT_FALSE(pinned(column(3) + 512 * n - 1));
        ASSERT_EQ(potrf(Uplo::Lower, tA), 0);
        for (int j = 0; j < 4; ++j) EXPECT_TRUE(pinned(column(j))) << "column " << j;
    }
    for (int j = 0; j < 4; ++j) EXPECT_FALSE(pinned(column(j))) << "column " << j;
}

// A matrix's own storage is pinned from when it is made until it goes; a caller's array in
// a grain::Pinned from the Pinned's start to its end, and no call unpins it.
TEST(CudaPinning, OwnStorageAndPinnedArraysStayPinned) {
    GRAIN_NEED_GPU();
    const int64_t n = 1500;
    const double* tile = nullptr;
    {
        Matrix<double> tA(n, n, 512);
        tile = detail::MatrixAccess::storage(tA).tile_data(1, 1);
        EXPECT_TRUE(pinned(tile)) << "a matrix's own storage, before any call";
        const Array<double> A = random_array<double>(n, n, Kind::Spd, rng());
        tA.from_lapack(A.data(), n);
        ASSERT_EQ(potrf(Uplo::Lower, tA), 0);
        EXPECT_TRUE(pinned(tile));
    }
    Array<double> B = random_array<double>(n, n, Kind::Spd, rng());
    {
        const Pinned keep(B.data(), n, n, n);
        ASSERT_TRUE(keep.pinned());
        ASSERT_EQ(potrf(Uplo::Lower, n, B.data(), n), 0);
        EXPECT_TRUE(pinned(B.data() + n * n - 1)) << "a call unpinned an array in a grain::Pinned";
    }
    EXPECT_FALSE(pinned(B.data()));
}

}  // namespace
}  // namespace grain::test
