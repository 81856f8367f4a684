#pragma once
// What the tile kernels of every device (cpu.cpp, cuda.cpp) have in common: one StarPU
// codelet function per row of the kernel table, and what they read from their StarPU
// buffers and arguments.
#include <starpu.h>

#include <algorithm>
#include <array>
#include <utility>

#include "src/base/kernel_table.hpp"
#include "src/base/request_state.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/base/tile_args.hpp"

namespace grain::detail::kernels {

// A device's kernel functions, in the table's order.
using KernelFunctions = std::array<void (*)(void**, void*), kernel_count>;

// Defines, after a device's kernel templates (one named as each table row), its
// functions<T>() for every precision: the CPU's for every row (GRAIN_CPU_KERNEL), a GPU's
// for the rows whose CUDA column is not `none` (GRAIN_CUDA_KERNEL), null for the others.
#define GRAIN_CPU_KERNEL(E, name, modes, cuda, shape, split, rate, flops) &name<T>,
#define GRAIN_CUDA_KERNEL(E, name, modes, cuda, shape, split, rate, flops) GRAIN_CUDA_KERNEL_##cuda(name)
#define GRAIN_CUDA_KERNEL_async(name) &name<T>,
#define GRAIN_CUDA_KERNEL_sync(name) &name<T>,
#define GRAIN_CUDA_KERNEL_none(name) nullptr,
#define GRAIN_INSTANTIATE_KERNEL_FUNCTIONS(T) template kernels::KernelFunctions functions<T>();
#define GRAIN_DEFINE_KERNEL_FUNCTIONS(DEVICE)                                                                  \
    template <typename T>                                                                                      \
    kernels::KernelFunctions functions() {                                                                     \
        return {GRAIN_KERNEL_TABLE(DEVICE)};                                                                   \
    }                                                                                                          \
    GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE_KERNEL_FUNCTIONS)

struct TileRef {
    int rows, cols, ld;
};

template <typename T>
T* data(void* buffer) { return reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffer)); }
inline TileRef dims(void* buffer) {
    return {int(STARPU_MATRIX_GET_NX(buffer)), int(STARPU_MATRIX_GET_NY(buffer)), int(STARPU_MATRIX_GET_LD(buffer))};
}
// A column kernel's pivot block: 1-based row indices, global to the routine's matrix.
inline int* pivots(void* buffer) { return reinterpret_cast<int*>(STARPU_VECTOR_GET_PTR(buffer)); }
inline int pivot_count(void* buffer) { return int(STARPU_VECTOR_GET_NX(buffer)); }
// A column kernel's tiles (buffers 1..column_tiles), and their rows together.
inline int column_tiles(starpu_task* task) { return int(STARPU_TASK_GET_NBUFFERS(task)) - 1; }
inline int column_rows(void* buffers[], starpu_task* task) {
    int rows = 0;
    for (int t = 1; t <= column_tiles(task); ++t) rows += dims(buffers[t]).rows;
    return rows;
}
template <typename T>
const TileArgs<T>& args(void* cl_arg) { return *static_cast<const TileArgs<T>*>(cl_arg); }

// The rows [first, last) of column j that the scale kernel touches.
template <typename T>
std::pair<int, int> scaled_rows(const TileArgs<T>& p, int j, int rows) {
    int first = 0, last = rows;
    if (!p.whole_tile && p.uplo == Uplo::Lower) first = std::min(j, rows);
    if (!p.whole_tile && p.uplo == Uplo::Upper) last = std::min(j + 1, rows);
    return {first, last};
}

}  // namespace grain::detail::kernels
