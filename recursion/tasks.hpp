#pragma once
// The one interface through which algorithms submit tile operations. Each one is a
// recursive task: the recursion layer asks the split policy, and either inserts the
// kernel or runs the same algorithm on the tile's sub-tiles, one level down.
#include <starpu.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "context.hpp"
#include "src/starpu/matrix_access.hpp"
#include "grain/matrix.hpp"
#include "grain/types.hpp"
#include "src/base/kernel_table.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/base/tile_args.hpp"
#include "src/starpu/tile_storage.hpp"

namespace grain::detail {

class PivotStorage;

// Tile (i, j) of a view: its grid and place in it, and where its first column is in
// the view.
template <typename T>
struct Tile {
    TileStorage<T>* grid;
    int i, j;
    int64_t col_offset;

    // The tile's handle for a task about to use it (TileStorage::use: registered, its
    // pin ordered, on first use).
    starpu_data_handle_t use() const { return grid->use(i, j); }
    // The view of the tile's sub-tiles, at the next scale (planned on the first split).
    Matrix<T> split() const { return MatrixAccess::view(grid->split(i, j)); }
};

// The StarPU handles of a Pivots object's blocks, one per step of the view an LU works
// on, and the storage that plans their sub-blocks when a panel splits (both null in
// counting mode, which submits nothing).
struct PivotBlocks {
    PivotStorage* storage = nullptr;
    const std::vector<starpu_data_handle_t>* blocks = nullptr;
    starpu_data_handle_t at(int k) const { return blocks ? (*blocks)[size_t(k)] : nullptr; }
};

template <typename T>
Tile<T> tile(const Matrix<T>& A, int i, int j) {
    return {&MatrixAccess::storage(A), MatrixAccess::first_tile_row(A) + i, MatrixAccess::first_tile_col(A) + j,
            int64_t(j) * A.nb()};
}

// The tiles an LU works on: a Matrix view's, or, where an LU's panel splits, the sub-tiles
// of its column of tiles stacked into one grid (each tile has a grid of children of its
// own, so the column's sub-tiles are in no single Matrix). One algorithm runs on both.
template <typename T>
class TileGrid {
public:
    explicit TileGrid(const Matrix<T>& A) : mt_(A.mt()), nt_(A.nt()), nb_(A.nb()), view_(&A) {}
    // The sub-tiles of `column` (tiles of one width, top to bottom), at the next scale.
    static TileGrid children_of(const std::vector<Tile<T>>& column) {
        TileGrid g;
        std::vector<Matrix<T>> parts;
        for (const Tile<T>& t : column) parts.push_back(t.split());
        g.nb_ = parts.front().nb();
        g.nt_ = parts.front().nt();
        for (const Matrix<T>& p : parts) g.mt_ += p.mt();
        g.tiles_.reserve(size_t(g.mt_) * size_t(g.nt_));
        for (int j = 0; j < g.nt_; ++j)
            for (const Matrix<T>& p : parts)
                for (int i = 0; i < p.mt(); ++i) g.tiles_.push_back(tile(p, i, j));
        return g;
    }
    int mt() const { return mt_; }
    int nt() const { return nt_; }
    int nb() const { return nb_; }
    Tile<T> at(int i, int j) const {
        return view_ ? tile(*view_, i, j) : tiles_[size_t(i) + size_t(j) * size_t(mt_)];
    }

private:
    TileGrid() = default;
    int mt_ = 0, nt_ = 0, nb_ = 0;
    const Matrix<T>* view_ = nullptr;
    std::vector<Tile<T>> tiles_;  // column-major, where there is no view
};

template <typename T>
Tile<T> tile(const TileGrid<T>& A, int i, int j) { return A.at(i, j); }

// The StarPU priority of a task at `level` of a ladder of `levels` scales whose own
// priority in its loop nest is `priority`, below a parent task of composed priority
// `parent` (0 at the top). Priorities compose down the recursion so that the sub-tasks
// of an urgent task come before those of a less urgent one: each level's priority gets
// its own range of bits (clamped to it), the top level's weighing most; with one level
// it is the loop nest's priority.
int64_t composed_priority(int64_t parent, int priority, int level, int levels);

// The tasks `algorithms` (a function of their Context) submit at their top level: they
// run in counting mode, which neither splits nor submits.
template <typename Algorithms>
CountedTasks count_tasks(Algorithms algorithms) {
    CountedTasks count;
    algorithms(Context{nullptr, nullptr, 0, 0, &count});
    return count;
}

// The tasks of each kind (Kernel order) one split of a `parent` task in `precision`
// (scalar_traits' letter) creates when its nb x nb tiles are cut into child_nb sub-tiles,
// as child_nb x child_nb tile tasks (CountedTasks::tile_tasks): the algorithm itself, run
// in counting mode on one tile's worth of sub-tiles.
std::array<double, kernel_count> split_children(Kernel parent, int nb, int child_nb, char precision);

// A task of `kernel` (a `tiles` kernel) with arguments `args` on `tiles` (in the kernel's
// buffer order, its output last), of loop-nest priority `priority`: counted in counting
// mode; else, where its row splits, the split policy decides whether it runs its kernel or
// its algorithm (algorithms::refine) on the tiles' sub-tiles, one level down. The typed
// entries below fill `args` for the kernels the factorizations share.
template <typename T>
void submit_task(const Context& ctx, Kernel kernel, TileArgs<T> args, std::initializer_list<Tile<T>> tiles,
                 int priority);

namespace task {

template <typename T>
void gemm(const Context& ctx, Op transa, Op transb, T alpha, Tile<T> A, Tile<T> B, T beta, Tile<T> C,
          int priority);
template <typename T>
void trsm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, Tile<T> A, Tile<T> B,
          int priority);
template <typename T>
void trmm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, Tile<T> A, Tile<T> B,
          int priority);
template <typename T>
void syrk(const Context& ctx, Uplo uplo, Op trans, T alpha, Tile<T> A, T beta, Tile<T> C, int priority);
// herk's kernel in complex precisions, syrk's in real ones (where they are the same).
template <typename T>
void herk(const Context& ctx, Uplo uplo, Op trans, T alpha, Tile<T> A, T beta, Tile<T> C, int priority);
// symm's kernel, or hemm's (`hermitian`, complex precisions only): C = alpha A B + beta C
// or alpha B A + beta C, A symmetric or Hermitian (its uplo triangle).
template <typename T>
void symm(const Context& ctx, bool hermitian, Side side, Uplo uplo, T alpha, Tile<T> A, Tile<T> B, T beta,
          Tile<T> C, int priority);
// syr2k's kernel, or her2k's (`hermitian`, complex precisions only; beta real).
template <typename T>
void syr2k(const Context& ctx, bool hermitian, Uplo uplo, Op trans, T alpha, Tile<T> A, Tile<T> B, T beta,
           Tile<T> C, int priority);
template <typename T>
void potrf(const Context& ctx, Uplo uplo, Tile<T> A, int priority);
template <typename T>
void trtri(const Context& ctx, Uplo uplo, Diag diag, Tile<T> A, int priority);
template <typename T>
void lauum(const Context& ctx, Uplo uplo, Tile<T> A, int priority);
// The product U L of the tile's upper triangle and its unit lower one, in place.
template <typename T>
void trtrm(const Context& ctx, Tile<T> A, int priority);
template <typename T>
void getrf_nopiv(const Context& ctx, Tile<T> A, int priority);
// C = alpha C on the whole tile, or on its uplo triangle only (whole_tile false); with
// real_diagonal, the tile's diagonal loses its imaginary parts (herk's C = beta C)
template <typename T>
void scale(const Context& ctx, bool whole_tile, Uplo uplo, T alpha, Tile<T> C, int priority,
           bool real_diagonal = false);

// The panel of step k of an LU with partial pivoting: the column of tiles `column` (its
// first tile on the diagonal, its first row first_row of the view), pivots written to
// block k of `pivots`. Its split is the same LU on the column's sub-tiles.
template <typename T>
void getrf(const Context& ctx, const PivotBlocks& pivots, int k, const std::vector<Tile<T>>& column,
           int64_t first_row, int priority);
// The interchanges of block k of `pivots` (of the step whose first row is first_row) on
// a column of tiles starting at that row; in reverse order if `reverse` (P^T).
template <typename T>
void laswp(const Context& ctx, const PivotBlocks& pivots, int k, const std::vector<Tile<T>>& column,
           int64_t first_row, int priority, bool reverse = false);
// The call has submitted its last task reading tile t: on a distributed matrix the copies
// other processes received of it are dropped after their readers, so that a call holds
// about a panel's worth of them, not every tile it ever received.
template <typename T>
void done_reading(const Context& ctx, Tile<T> t);
// After a distributed factorization: every block of `pivots` to every rank, into the
// indices there, so that ipiv is LAPACK's whole array on every process once the call's
// tasks are done.
void pivots_everywhere(const Context& ctx, const PivotBlocks& pivots);
// The column interchanges of block k of `pivots`, in reverse order, on a row of tiles
// whose first column is the step's, first_col of the view (A P, getri's last phase).
template <typename T>
void colswp(const Context& ctx, const PivotBlocks& pivots, int k, const std::vector<Tile<T>>& row,
            int64_t first_col, int priority);

// B's overlap with A copied from A; with zero_rest, the rest of B zeroed. B zeroed, its
// diagonal set to `diagonal`. A's first exact zero on its diagonal reported as info.
template <typename T>
void lacpy(const Context& ctx, bool zero_rest, Tile<T> A, Tile<T> B, int priority);
template <typename T>
void laset(const Context& ctx, T diagonal, Tile<T> B, int priority);
template <typename T>
void trzero(const Context& ctx, Tile<T> A, int priority);
// B = 2^exponent A in B's precision, A's paired one (scalar_traits::paired), or B +=
// 2^exponent A (`add`); only the uplo triangle where not `whole`. A narrowing conversion reports info 1
// where an element overflows (the kernel table's lag2). It never splits.
template <typename T>
void lag2(const Context& ctx, bool whole, Uplo uplo, bool add, int exponent, Tile<T> A, Tile<paired_t<T>> B,
          int priority);

// QR's tile kernels, or LQ's (`lq`: the same on the conjugate transpose, rows for
// columns); `factor` is the T of the block reflector the kernel writes or applies (a
// QrStorage handle). They never split.
// The QR of tile A, its reflectors below its diagonal, R above.
template <typename T>
void own_qrt(const Context& ctx, bool lq, starpu_data_handle_t factor, Tile<T> A, int priority);
// C = op(Q) C (Left) or C op(Q) (Right), Q own_qrt's reflectors in V.
template <typename T>
void own_mqrt(const Context& ctx, bool lq, Side side, Op trans, starpu_data_handle_t factor, Tile<T> V, Tile<T> C,
              int priority);
// The QR of the triangle R of A1 on top of A2 (a tile; a triangle, `triangular`): R
// updated, the reflectors in A2.
template <typename T>
void pair_qrt(const Context& ctx, bool lq, bool triangular, starpu_data_handle_t factor, Tile<T> A1, Tile<T> A2,
              int priority);
// [A1; A2] = op(Q) [A1; A2] (Left) or [A1 A2] op(Q) (Right), Q pair_qrt's reflectors in V.
template <typename T>
void pair_mqrt(const Context& ctx, bool lq, bool triangular, Side side, Op trans, starpu_data_handle_t factor,
               Tile<T> V, Tile<T> A1, Tile<T> A2, int priority);

}  // namespace task
}  // namespace grain::detail
