#pragma once
// The kernel table: every tile kernel grain has, in one list. What each layer needs per
// kernel is derived from it: the Kernel enum and names (here), the device functions each
// kernel layer defines (kernels/tile_kernels.hpp), the codelets and their performance
// models (starpu/codelets.cpp), the task counters and statistics (recursion/), the LP's
// task types (lp/) and the flops the driver reports. Adding a kernel: doc/design.md.
#include <starpu.h>

#include <array>
#include <cstddef>

// One row per kernel:
//   X(Enum, name, buffers' access modes (output last), CUDA kernel, buffer shape, flops
//     as an expression of m, n, k)
// CUDA kernel: `async` (only enqueues work on its stream) or `sync` (ends synchronized:
// potrf, getrf_nopiv and getrf read cuSOLVER's info back, getrf and laswp their pivots).
// Buffer shape: `tiles`, one tile per mode; or `column`, a pivot block (the first mode)
// then a column of tiles that all take the last mode, as many as the task has: LU with
// partial pivoting searches and swaps rows across a whole column of tiles.
// The flops are the leading terms of LAPACK Working Note 41's counts in real precisions
// (complex ones weigh scalar_traits::flop_weight times more),
// so that the flops of a call's tile tasks add up to the call's: gemm m x n output, inner
// k; trsm m x n right-hand side, side Left; syrk and herk (complex only: real precisions
// submit syrk) n x n output, inner k; potrf order n;
// getrf_nopiv and getrf (the panel) m x n; scale m x n; laswp moves data only.
#define GRAIN_KERNEL_TABLE(X)                                                      \
    X(Gemm, gemm, (STARPU_R, STARPU_R, STARPU_RW), async, tiles, 2 * m * n * k)     \
    X(Trsm, trsm, (STARPU_R, STARPU_RW), async, tiles, m * m * n)                   \
    X(Syrk, syrk, (STARPU_R, STARPU_RW), async, tiles, n * n * k)                   \
    X(Herk, herk, (STARPU_R, STARPU_RW), async, tiles, n * n * k)                   \
    X(Potrf, potrf, (STARPU_RW), sync, tiles, n * n * n / 3)                        \
    X(GetrfNopiv, getrf_nopiv, (STARPU_RW), sync, tiles, getrf_flops(m, n))         \
    X(Scale, scale, (STARPU_RW), async, tiles, m * n)                               \
    X(Getrf, getrf, (STARPU_W, STARPU_RW), sync, column, getrf_flops(m, n))         \
    X(Laswp, laswp, (STARPU_R, STARPU_RW), sync, column, 0)

namespace grain::detail {

enum class Kernel {
#define GRAIN_KERNEL_ENUM(E, name, modes, cuda, shape, flops) E,
    GRAIN_KERNEL_TABLE(GRAIN_KERNEL_ENUM)
#undef GRAIN_KERNEL_ENUM
    Count
};
constexpr size_t kernel_count = size_t(Kernel::Count);

// The most buffers a kernel has.
constexpr int max_kernel_buffers = 3;

struct KernelInfo {
    const char* name;
    int nbuffers;  // a column kernel's: the pivot block and one tile
    std::array<starpu_data_access_mode, max_kernel_buffers> modes;
    bool cuda_async;
    bool column;  // a pivot block, then a column of tiles (the last mode)
};

namespace kernel_table_detail {
// The table's words for its CUDA and shape columns.
constexpr bool async = true, sync = false;
constexpr bool tiles = false, column = true;

template <typename... Modes>
constexpr KernelInfo row(const char* name, bool cuda_async, bool shape, Modes... modes) {
    static_assert(sizeof...(Modes) <= max_kernel_buffers, "raise max_kernel_buffers");
    return {name, int(sizeof...(Modes)), {modes...}, cuda_async, shape};
}
// m x n LU, either shape: max(m, n) min(m, n)^2 - min(m, n)^3 / 3.
constexpr double getrf_flops(double m, double n) {
    const double small = m < n ? m : n, large = m < n ? n : m;
    return large * small * small - small * small * small / 3;
}
}  // namespace kernel_table_detail

inline const KernelInfo& kernel_info(Kernel kernel) {
    static constexpr KernelInfo rows[] = {
#define GRAIN_KERNEL_INFO(E, name, modes, cuda, shape, flops) \
    kernel_table_detail::row(#name, kernel_table_detail::cuda, kernel_table_detail::shape, GRAIN_UNPAREN modes),
#define GRAIN_UNPAREN(...) __VA_ARGS__
        GRAIN_KERNEL_TABLE(GRAIN_KERNEL_INFO)
#undef GRAIN_UNPAREN
#undef GRAIN_KERNEL_INFO
    };
    static_assert(sizeof(rows) / sizeof(rows[0]) == kernel_count, "one row per kernel");
    return rows[size_t(kernel)];
}

inline const char* kernel_name(Kernel kernel) { return kernel_info(kernel).name; }

// Floating-point operations of `kernel` on the dimensions its row's formula names.
constexpr double kernel_flops(Kernel kernel, double m, double n, double k) {
    using kernel_table_detail::getrf_flops;
    switch (kernel) {
#define GRAIN_KERNEL_FLOPS(E, name, modes, cuda, shape, flops) \
    case Kernel::E: return flops;
        GRAIN_KERNEL_TABLE(GRAIN_KERNEL_FLOPS)
#undef GRAIN_KERNEL_FLOPS
        case Kernel::Count: break;
    }
    return 0;
}

// ... on nb x nb tiles.
constexpr double kernel_flops(Kernel kernel, double nb) { return kernel_flops(kernel, nb, nb, nb); }

}  // namespace grain::detail
