// Tile QR (Buttari, Langou, Kurzak, Dongarra; Chameleon's hierarchical trees): step k
// factors column k of tiles from the diagonal down, one block reflector per tile
// operation, and applies each to the tiles right of it. A tile is either factored on its
// own (geqrt) or eliminated against another tile's triangle R: a whole tile (tsqrt) or a
// triangle (ttqrt). The tree says which: Flat eliminates every tile against the diagonal
// one; Binary factors every tile, then eliminates their triangles pairwise, in log2 rounds.
// unmqr replays the same eliminations (in reverse to apply Q rather than Q^H).
#include <algorithm>
#include <vector>

#include "recursion/tasks.hpp"
#include "algorithms.hpp"
#include "src/starpu/qr_storage.hpp"

namespace grain::algorithms {

using detail::QrFactor;
using detail::tile;

namespace {

// One operation of a step: tile `row` factored on its own (pivot == row), or eliminated
// against tile `pivot`'s triangle, as a whole tile or as a triangle.
struct Elimination {
    int pivot, row;
    bool triangular;
    bool own() const { return pivot == row; }
};

// The operations of step k on a column of tile rows k..mt-1, in an order that respects
// their dependencies.
std::vector<Elimination> eliminations(QrTree tree, int mt, int k) {
    std::vector<Elimination> ops;
    if (tree == QrTree::Flat) {
        ops.push_back({k, k, false});
        for (int i = k + 1; i < mt; ++i) ops.push_back({k, i, false});
        return ops;
    }
    for (int i = k; i < mt; ++i) ops.push_back({i, i, false});
    for (int stride = 1; k + stride < mt; stride *= 2)
        for (int p = k; p + stride < mt; p += 2 * stride) ops.push_back({p, p + stride, true});
    return ops;
}

// Applies the block reflector of `e` (step k, its factors in F, its reflectors in A) to C's
// tiles: rows of C on the left, columns on the right.
template <typename T>
void apply(const Context& ctx, Side side, Op trans, const Matrix<T>& A, detail::QrStorage<T>& F,
           const Matrix<T>& C, int k, const Elimination& e, int first, int priority) {
    const bool left = side == Side::Left;
    const int count = left ? C.nt() : C.mt();
    auto at = [&](int r, int j) { return left ? tile(C, r, j) : tile(C, j, r); };
    for (int j = first; j < count; ++j) {
        if (e.own())
            detail::task::gemqrt(ctx, side, trans, F.at(QrFactor::Own, e.row, k), tile(A, e.row, k), at(e.row, j),
                                 priority - (j - first));
        else
            detail::task::pair_mqrt(ctx, e.triangular, side, trans, F.at(QrFactor::Elimination, e.row, k),
                                    tile(A, e.row, k), at(e.pivot, j), at(e.row, j), priority - (j - first));
    }
}

}  // namespace

template <typename T>
void geqrf(const Context& ctx, const Matrix<T>& A, detail::QrStorage<T>& F) {
    const int kt = std::min(A.mt(), A.nt());
    for (int k = 0; k < kt; ++k) {
        const int step_priority = 3 * (kt - k);
        for (const Elimination& e : eliminations(F.tree(), A.mt(), k)) {
            if (e.own())
                detail::task::geqrt(ctx, F.at(QrFactor::Own, e.row, k), tile(A, e.row, k), step_priority);
            else
                detail::task::pair_qrt(ctx, e.triangular, F.at(QrFactor::Elimination, e.row, k), tile(A, e.pivot, k),
                                       tile(A, e.row, k), step_priority);
            apply(ctx, Side::Left, detail::conj_trans<T>(), A, F, A, k, e, k + 1, step_priority - 1);
        }
    }
}

template <typename T>
void unmqr(const Context& ctx, Side side, Op trans, const Matrix<T>& A, detail::QrStorage<T>& F, const Matrix<T>& C) {
    const int kt = std::min(A.mt(), A.nt());
    // Q = H_0 H_1 ... in the order geqrf made them: Q^H C and C Q apply them in that order.
    const bool forward = (side == Side::Left) == (trans != Op::NoTrans);
    for (int s = 0; s < kt; ++s) {
        const int k = forward ? s : kt - 1 - s;
        std::vector<Elimination> ops = eliminations(F.tree(), A.mt(), k);
        if (!forward) std::reverse(ops.begin(), ops.end());
        for (const Elimination& e : ops) apply(ctx, side, trans, A, F, C, k, e, 0, 3 * (kt - s));
    }
}

#define GRAIN_INSTANTIATE(T)                                                                    \
    template void geqrf<T>(const Context&, const Matrix<T>&, detail::QrStorage<T>&);            \
    template void unmqr<T>(const Context&, Side, Op, const Matrix<T>&, detail::QrStorage<T>&,   \
                           const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
