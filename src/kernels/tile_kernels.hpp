#pragma once
// What the tile kernels of every device (cpu/, cuda/) have in common: the set of
// kernels each device provides (one per Kernel, as StarPU codelet functions), and what
// they read from their StarPU buffers and arguments.
#include <starpu.h>

#include <algorithm>
#include <utility>

#include "../codelets.hpp"

// Declares, in a device's namespace, its kernel functions for T = float or double.
#define GRAIN_DECLARE_TILE_KERNELS                                       \
    template <typename T> void gemm(void* buffers[], void* cl_arg);        \
    template <typename T> void trsm(void* buffers[], void* cl_arg);        \
    template <typename T> void syrk(void* buffers[], void* cl_arg);        \
    template <typename T> void potrf(void* buffers[], void* cl_arg);       \
    template <typename T> void getrf_nopiv(void* buffers[], void* cl_arg); \
    template <typename T> void scale(void* buffers[], void* cl_arg);
// Instantiates them, in the device's source file.
#define GRAIN_INSTANTIATE_TILE_KERNELS(T)          \
    template void gemm<T>(void*[], void*);        \
    template void trsm<T>(void*[], void*);        \
    template void syrk<T>(void*[], void*);        \
    template void potrf<T>(void*[], void*);       \
    template void getrf_nopiv<T>(void*[], void*); \
    template void scale<T>(void*[], void*);

namespace grain::detail::kernels {

struct TileRef {
    int rows, cols, ld;
};

template <typename T>
T* data(void* buffer) { return reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffer)); }
inline TileRef dims(void* buffer) {
    return {int(STARPU_MATRIX_GET_NX(buffer)), int(STARPU_MATRIX_GET_NY(buffer)), int(STARPU_MATRIX_GET_LD(buffer))};
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
