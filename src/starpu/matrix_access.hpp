#pragma once
// What grain's own layers see of a grain::Matrix view beyond its public interface: the
// tiles it shares and where the view starts in them.
#include "grain/matrix.hpp"
#include "tile_storage.hpp"

namespace grain::detail {

struct MatrixAccess {
    // The view of a whole grid of tiles, which it does not own.
    template <typename T>
    static Matrix<T> view(TileStorage<T>& grid) { return Matrix<T>(grid); }
    template <typename T>
    static TileStorage<T>& storage(const Matrix<T>& A) { return *A.storage_; }
    // This view's first tile in its storage.
    template <typename T>
    static int first_tile_row(const Matrix<T>& A) { return A.i0_; }
    template <typename T>
    static int first_tile_col(const Matrix<T>& A) { return A.j0_; }
};

}  // namespace grain::detail
