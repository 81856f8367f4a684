#pragma once
// A synchronous call's outputs go back to the caller as soon as each tile is final.
#include "grain/matrix.hpp"

namespace grain::detail {

// With a memory node besides main memory (GPUs), asks for every tile of `view` that this
// process holds to come home once its last task submitted so far ends, so that the
// copies overlap the rest of the call; nothing otherwise. Returns at once.
template <typename T>
void write_back(const Matrix<T>& view);

}  // namespace grain::detail
