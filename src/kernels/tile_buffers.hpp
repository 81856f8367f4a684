#pragma once
// What every tile kernel (CPU or CUDA) reads from its StarPU buffers and arguments.
#include <starpu.h>

#include <algorithm>
#include <utility>

#include "../codelets.hpp"

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
