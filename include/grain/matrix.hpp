#pragma once
// grain::Matrix<T>: an m x n matrix cut into nb x nb tiles (edge tiles are smaller).
//
// A Matrix is a view: copies and sub() share the same tiles, and a routine given a
// view writes through it. A matrix may carry a ladder of tile scales, e.g.
// {3840, 1920, 960, 480}: its tiles are of the first scale, and a task on a tile may be
// split into the same algorithm on the tile's sub-tiles of the next scale. The tiles either live in storage the matrix owns
// (tile-contiguous, allocated through StarPU so it can be pinned) or in a user's
// column-major array, which is then used in place and must outlive the matrix.
// Each tile gets its StarPU handle when a routine first uses it; the last view to go
// unregisters the handles, which brings the data back to the storage.
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "distribution.hpp"
#include "types.hpp"

namespace grain {

namespace detail {
template <typename T>
class TileStorage;
struct MatrixAccess;  // grain's own layers: the tiles behind a view
}

template <typename T>
class Matrix {
public:
    /// An m x n matrix in storage of its own (zero-filled), on the ladder grain chooses for
    /// `workload` on a call of order max(m, n) on this machine (grain::automatic_scales):
    /// the matrices of one call with the same largest dimension get the same tiles.
    explicit Matrix(int64_t m, int64_t n, Workload workload = Workload::Cholesky);
    /// The same with nb x nb tiles.
    Matrix(int64_t m, int64_t n, int nb);
    /// The same with a ladder of tile scales, largest first; each divides the one above.
    Matrix(int64_t m, int64_t n, std::vector<int> scales);
    /// An m x n matrix over a user's column-major array a with leading dimension lda.
    Matrix(int64_t m, int64_t n, int nb, T* a, int64_t lda);
    Matrix(int64_t m, int64_t n, std::vector<int> scales, T* a, int64_t lda);
    /// An m x n matrix distributed over the processes of a run under mpirun (a Runtime
    /// must be alive; distribution.ranks() must equal Runtime::ranks()): each process
    /// holds the tiles `distribution` gives it, zero-filled, and routines run each task
    /// on the process owning the tile it writes. Every process must construct the same
    /// distributed matrices in the same order, and call the same routines on them.
    Matrix(int64_t m, int64_t n, int nb, const Distribution& distribution);
    Matrix(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution);
    /// The same over tiles the application holds already: local_tile(i, j) gives where
    /// this process's tile (i, j) is, column-major with its rows (nb, fewer in the last
    /// tile row) as leading dimension; it must outlive the matrix.
    Matrix(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution,
           const std::function<T*(int64_t i, int64_t j)>& local_tile);

    int64_t m() const { return m_; }
    int64_t n() const { return n_; }
    int nb() const { return nb_; }  ///< the tile size at this view's level
    const std::vector<int>& scales() const;  ///< the whole ladder, level 0 first
    int level() const;                       ///< 0 for user matrices
    int mt() const { return mt_; }  ///< number of tile rows
    int nt() const { return nt_; }  ///< number of tile columns
    int tile_rows(int i) const;     ///< rows of tile row i
    int tile_cols(int j) const;     ///< columns of tile column j

    /// Copy a column-major array (leading dimension lda) into the matrix, and back.
    /// Distributed: from_lapack copies this process's tiles only (a is the whole matrix,
    /// read where those tiles are); to_lapack, a collective, gives every process the
    /// whole matrix.
    void from_lapack(const T* a, int64_t lda);
    void to_lapack(T* a, int64_t lda) const;
    /// Distributed, collectives: the whole matrix from the column-major array a on
    /// process `root` into the processes' tiles (a is read on root only), and back into a
    /// on root (written on root only).
    void scatter_from(int root, const T* a, int64_t lda);
    void gather_to(int root, T* a, int64_t lda) const;

    /// Whether the matrix is distributed over several processes, and the process (rank)
    /// holding tile (i, j) of this view (this process's rank if it is not distributed).
    bool distributed() const;
    int tile_rank(int i, int j) const;

    /// The view of tiles [i1, i2] x [j1, j2] (inclusive, as in SLATE).
    Matrix sub(int i1, int i2, int j1, int j2) const;

private:
    friend struct detail::MatrixAccess;
    Matrix() = default;
    explicit Matrix(detail::TileStorage<T>& grid);  // a view of a whole grid it does not own
    std::shared_ptr<detail::TileStorage<T>> storage_;
    int64_t m_ = 0, n_ = 0;
    int nb_ = 0, mt_ = 0, nt_ = 0, i0_ = 0, j0_ = 0;
};

extern template class Matrix<float>;
extern template class Matrix<double>;
extern template class Matrix<std::complex<float>>;
extern template class Matrix<std::complex<double>>;

}  // namespace grain
