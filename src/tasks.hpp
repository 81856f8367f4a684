#pragma once
// The one interface through which algorithms submit tile operations. Every tile
// task of every algorithm goes through these functions, so that the layer deciding
// how a tile operation runs sits in one place.
#include <starpu.h>

#include <cstdint>

#include "grain/matrix.hpp"
#include "grain/types.hpp"
#include "request_state.hpp"
#include "tile_storage.hpp"

namespace grain::detail {

// Tile (i, j) of a view: its handle and where its first column is in the view.
struct Tile {
    starpu_data_handle_t handle;
    int64_t col_offset;
};

template <typename T>
Tile tile(const Matrix<T>& A, int i, int j) {
    return {A.storage().handle(A.first_tile_row() + i, A.first_tile_col() + j), int64_t(j) * A.nb()};
}

namespace task {

template <typename T>
void gemm(const Context& ctx, Op transa, Op transb, T alpha, Tile A, Tile B, T beta, Tile C, int priority);
template <typename T>
void trsm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, Tile A, Tile B,
          int priority);
template <typename T>
void syrk(const Context& ctx, Uplo uplo, Op trans, T alpha, Tile A, T beta, Tile C, int priority);
template <typename T>
void potrf(const Context& ctx, Uplo uplo, Tile A, int priority);
template <typename T>
void getrf_nopiv(const Context& ctx, Tile A, int priority);
// C = alpha C on the whole tile, or on its uplo triangle only (whole_tile false)
template <typename T>
void scale(const Context& ctx, bool whole_tile, Uplo uplo, T alpha, Tile C, int priority);

}  // namespace task
}  // namespace grain::detail
