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
//   X(Enum, name, buffers' access modes (output last), CUDA kernel, buffer shape, split,
//     rate before history, flops as an expression of m, n, k)
// CUDA kernel: `async` (only enqueues work on its stream), `sync` (ends synchronized:
// potrf, getrf_nopiv, getrf and trtri read cuSOLVER's info back, getrf and laswp their pivots),
// or `none` (the cores run it: cuda.cpp defines nothing for it).
// Buffer shape: `tiles`, one tile per mode; `column`, a pivot block (the first mode)
// then a column of tiles that all take the last mode, as many as the task has: LU with
// partial pivoting searches and swaps rows across a whole column of tiles; or `factor`,
// the triangular factor T of a tile's block reflector (qr_inner_block(nb) x nb, the first
// mode) then one tile per mode: QR writes a tile's reflectors into the tile and its T apart;
// or `applies`, a factor then the reflectors' tile, then the tiles they apply to (the last
// mode), each whole or as a strip of its sub-tiles (TileArgs::first_strip): an update
// splits into the same update on strips of sub-tiles across the side it applies from
// (columns on the left, rows on the right), its reflectors and factor whole.
// Split: `splits` (a task may run as the same algorithm on its tiles' sub-tiles, where
// the split policy says so), `whole` (always its kernel), or `follows` (row interchanges:
// they move rows, not flops, so no policy weighs them; they split exactly where the panel
// whose pivots they apply did, so that a step's updates at the next scale wait only for
// the sub-panels they need, not for the whole panel).
// Rate before history: `own` (the LP prices a kernel it has not measured at its unit's
// default rate), or the kernel whose measured rate it follows from level to level (a
// panel's LU is trsm and gemm work on narrower columns); that kernel's row comes first.
// The flops are the leading terms of LAPACK Working Note 41's counts in real precisions
// (complex ones weigh scalar_traits::flop_weight times more),
// so that the flops of a call's tile tasks add up to the call's: gemm m x n output, inner
// k; trsm and trmm m x n right-hand side, side Left; symm and hemm m x n output, side Left;
// syrk, herk, syr2k and her2k (herk and her2k complex only: real precisions submit syrk and
// syr2k) n x n output, inner k; potrf, trtri, lauum and trtrm order n;
// getrf_nopiv and getrf (the panel) m x n; scale m x n; laswp, colswp, lacpy (a tile's
// overlap with another copied into it, the rest zeroed with whole_tile), laset (a tile
// zeroed, alpha on its diagonal) and trzero (the first exact zero on a tile's diagonal
// reported as info) move or read data only;
// geqrt m x n; tsqrt the m x n tile under an n x n triangle; ttqrt an n x n triangle under
// another; gemqrt, tsmqrt and ttmqrt the m x n tile (tsmqrt, ttmqrt: the lower of the
// pair) updated by k reflectors; the LQ kernels the same, transposed;
// lange reads an m x n tile once; lag2 (a tile converted into its paired precision's
// tile, scalar_traits::paired: mixed-precision solvers) moves data only. colswp's `column`
// is a row of tiles: its shape's buffers, a pivot block and then tiles, with columns for
// rows.
#define GRAIN_KERNEL_TABLE(X)                                                                    \
    X(Gemm, gemm, (STARPU_R, STARPU_R, STARPU_RW), async, tiles, splits, own, 2 * m * n * k)      \
    X(Trsm, trsm, (STARPU_R, STARPU_RW), async, tiles, splits, own, m * m * n)                    \
    X(Syrk, syrk, (STARPU_R, STARPU_RW), async, tiles, splits, own, n * n * k)                    \
    X(Herk, herk, (STARPU_R, STARPU_RW), async, tiles, splits, own, n * n * k)                    \
    X(Potrf, potrf, (STARPU_RW), sync, tiles, splits, own, n * n * n / 3)                         \
    X(GetrfNopiv, getrf_nopiv, (STARPU_RW), sync, tiles, splits, own, getrf_flops(m, n))          \
    X(Scale, scale, (STARPU_RW), async, tiles, splits, own, m * n)                                \
    X(Getrf, getrf, (STARPU_W, STARPU_RW), sync, column, splits, Trsm, getrf_flops(m, n))         \
    X(Laswp, laswp, (STARPU_R, STARPU_RW), sync, column, follows, own, 0)                          \
    X(Lange, lange, (STARPU_R, STARPU_W), none, tiles, whole, own, m * n)                          \
    X(Trmm, trmm, (STARPU_R, STARPU_RW), async, tiles, splits, own, m * m * n)                    \
    X(Trtri, trtri, (STARPU_RW), sync, tiles, splits, own, n * n * n / 3)                         \
    X(Lauum, lauum, (STARPU_RW), async, tiles, splits, own, n * n * n / 3)                        \
    X(Symm, symm, (STARPU_R, STARPU_R, STARPU_RW), async, tiles, splits, own, 2 * m * m * n)      \
    X(Hemm, hemm, (STARPU_R, STARPU_R, STARPU_RW), async, tiles, splits, own, 2 * m * m * n)      \
    X(Syr2k, syr2k, (STARPU_R, STARPU_R, STARPU_RW), async, tiles, splits, own, 2 * n * n * k)    \
    X(Her2k, her2k, (STARPU_R, STARPU_R, STARPU_RW), async, tiles, splits, own, 2 * n * n * k)    \
    X(Trtrm, trtrm, (STARPU_RW), none, tiles, splits, own, 2 * n * n * n / 3)                     \
    X(Colswp, colswp, (STARPU_R, STARPU_RW), none, column, whole, own, 0)                          \
    X(Lacpy, lacpy, (STARPU_R, STARPU_RW), none, tiles, whole, own, 0)                             \
    X(Laset, laset, (STARPU_W), none, tiles, whole, own, 0)                                        \
    X(Trzero, trzero, (STARPU_R), none, tiles, whole, own, 0)                                      \
    X(Lag2, lag2, (STARPU_R, STARPU_RW), none, tiles, whole, own, 0)                               \
    X(Geqrt, geqrt, (STARPU_W, STARPU_RW), none, factor, whole, own, 2 * m * n * n - 2 * n * n * n / 3) \
    X(Gemqrt, gemqrt, (STARPU_R, STARPU_R, STARPU_RW), async, applies, splits, own, 4 * m * n * k - 2 * n * k * k) \
    X(Tsqrt, tsqrt, (STARPU_W, STARPU_RW, STARPU_RW), none, factor, whole, own, 2 * m * n * n)     \
    X(Tsmqrt, tsmqrt, (STARPU_R, STARPU_R, STARPU_RW, STARPU_RW), async, applies, splits, own, 4 * m * n * k) \
    X(Ttqrt, ttqrt, (STARPU_W, STARPU_RW, STARPU_RW), none, factor, whole, own, 2 * n * n * n / 3) \
    X(Ttmqrt, ttmqrt, (STARPU_R, STARPU_R, STARPU_RW, STARPU_RW), async, applies, splits, own, 2 * m * n * k) \
    X(Gelqt, gelqt, (STARPU_W, STARPU_RW), none, factor, whole, own, 2 * n * m * m - 2 * m * m * m / 3) \
    X(Gemlqt, gemlqt, (STARPU_R, STARPU_R, STARPU_RW), none, applies, splits, own, 4 * m * n * k - 2 * m * k * k) \
    X(Tslqt, tslqt, (STARPU_W, STARPU_RW, STARPU_RW), none, factor, whole, own, 2 * n * m * m)     \
    X(Tsmlqt, tsmlqt, (STARPU_R, STARPU_R, STARPU_RW, STARPU_RW), none, applies, splits, own, 4 * m * n * k) \
    X(Ttlqt, ttlqt, (STARPU_W, STARPU_RW, STARPU_RW), none, factor, whole, own, 2 * m * m * m / 3) \
    X(Ttmlqt, ttmlqt, (STARPU_R, STARPU_R, STARPU_RW, STARPU_RW), none, applies, splits, own, 2 * m * n * k)

namespace grain::detail {

#define GRAIN_KERNEL_ENUM(E, name, modes, cuda, shape, split, rate, flops) E,
enum class Kernel { GRAIN_KERNEL_TABLE(GRAIN_KERNEL_ENUM) Count };
constexpr size_t kernel_count = size_t(Kernel::Count);

// The most buffers a kernel has.
constexpr int max_kernel_buffers = 4;

// The inner block of QR's tile kernels on nb x nb tiles: the rows of a tile's T factor. Its
// reflectors are applied ib at a time, so a smaller ib costs fewer extra flops in the
// updates, a larger one runs them at a higher rate.
constexpr int qr_inner_block(int nb) { return nb < 32 ? (nb > 0 ? nb : 1) : 32; }

enum class CudaKernel { None, Sync, Async };

struct KernelInfo {
    const char* name;
    int nbuffers;  // a column kernel's: the pivot block and one tile
    std::array<starpu_data_access_mode, max_kernel_buffers> modes;
    CudaKernel cuda;
    bool column;  // a pivot block, then a column of tiles (the last mode)
    bool factor;  // a tile's T factor, then tiles
    bool applies;  // a factor, the reflectors' tile, then the tiles updated, whole or in strips
    bool splits;   // `splits` or `follows`
    bool follows;  // splits where its panel did, the policy not asked
    int rate_from;  // the kernel whose rate the LP borrows before history, or -1
};

namespace kernel_table_detail {
// The table's words for its CUDA, shape, split and rate columns.
constexpr CudaKernel async = CudaKernel::Async, sync = CudaKernel::Sync, none = CudaKernel::None;
enum Shape { tiles, column, factor, applies };
enum Split { whole, splits, follows };
// `own`, or a kernel's name: the kernels' order, from -1.
enum Rate { own = -1, GRAIN_KERNEL_TABLE(GRAIN_KERNEL_ENUM) };

template <typename... Modes>
constexpr KernelInfo row(const char* name, CudaKernel cuda, Shape shape, Split split, int rate, Modes... modes) {
    static_assert(sizeof...(Modes) <= max_kernel_buffers, "raise max_kernel_buffers");
    return {name,          int(sizeof...(Modes)), {modes...},         cuda,
            shape == column, shape == factor || shape == applies, shape == applies, split != whole, split == follows,
            rate};
}
// m x n LU, either shape: max(m, n) min(m, n)^2 - min(m, n)^3 / 3.
constexpr double getrf_flops(double m, double n) {
    const double small = m < n ? m : n, large = m < n ? n : m;
    return large * small * small - small * small * small / 3;
}
}  // namespace kernel_table_detail

#define GRAIN_KERNEL_INFO(E, name, modes, cuda, shape, split, rate, flops)                                 \
    kernel_table_detail::row(#name, kernel_table_detail::cuda, kernel_table_detail::shape,                  \
                             kernel_table_detail::split, kernel_table_detail::rate, GRAIN_UNPAREN modes),
#define GRAIN_UNPAREN(...) __VA_ARGS__
inline constexpr KernelInfo kernel_rows[] = {GRAIN_KERNEL_TABLE(GRAIN_KERNEL_INFO)};
#undef GRAIN_UNPAREN
#undef GRAIN_KERNEL_INFO
#undef GRAIN_KERNEL_ENUM
static_assert(sizeof(kernel_rows) / sizeof(kernel_rows[0]) == kernel_count, "one row per kernel");

// The LP updates the kernels' durations in the table's order: a kernel whose rate another
// borrows comes before it.
constexpr bool lenders_come_first() {
    for (size_t k = 0; k < kernel_count; ++k)
        if (kernel_rows[k].rate_from >= int(k)) return false;
    return true;
}
static_assert(lenders_come_first(), "a kernel's rate comes from a row above it");

inline const KernelInfo& kernel_info(Kernel kernel) { return kernel_rows[size_t(kernel)]; }

inline const char* kernel_name(Kernel kernel) { return kernel_info(kernel).name; }

// Floating-point operations of `kernel` on the dimensions its row's formula names.
constexpr double kernel_flops(Kernel kernel, double m, double n, double k) {
    using kernel_table_detail::getrf_flops;
    switch (kernel) {
#define GRAIN_KERNEL_FLOPS(E, name, modes, cuda, shape, split, rate, flops) \
    case Kernel::E: return flops;
        GRAIN_KERNEL_TABLE(GRAIN_KERNEL_FLOPS)
#undef GRAIN_KERNEL_FLOPS
        case Kernel::Count: break;
    }
    return 0;
}

// ... on nb x nb tiles.
constexpr double kernel_flops(Kernel kernel, double nb) { return kernel_flops(kernel, nb, nb, nb); }

// What a kernel's duration is scaled by from one tile size to another: its flops on nb x nb
// tiles, or its tile's elements for a kernel that only moves data (laswp).
constexpr double kernel_work(Kernel kernel, double nb) {
    const double flops = kernel_flops(kernel, nb);
    return flops > 0 ? flops : nb * nb;
}

}  // namespace grain::detail
