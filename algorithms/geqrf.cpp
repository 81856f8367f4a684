// Tile QR and LQ (Buttari, Langou, Kurzak, Dongarra; Chameleon's hierarchical trees): step k
// factors column k of tiles from the diagonal down, one block reflector per tile
// operation, and applies each to the tiles right of it. A tile is either factored on its
// own (geqrt) or eliminated against another tile's triangle R: a whole tile (tsqrt) or a
// triangle (ttqrt). The tree says which: Flat eliminates every tile against the diagonal
// one; Binary factors every tile, then eliminates their triangles pairwise, in log2 rounds.
// unmqr replays the same eliminations (in reverse to apply Q rather than Q^H). An LQ is the
// same on the conjugate transpose: tile rows for tile columns, LQ's kernels, updates on the
// right.
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
// their dependencies. Flat: every tile against the diagonal one. Binary: the rows cut into
// domains of `domain` tiles, each eliminated flat against its first, whose triangles are
// then eliminated pairwise in log2(domains) rounds.
std::vector<Elimination> eliminations(QrTree tree, int domain, int mt, int k) {
    if (tree == QrTree::Flat) domain = mt;
    std::vector<int> heads;
    for (int h = k; h < mt; h += domain) heads.push_back(h);
    std::vector<Elimination> ops;
    // The domains' chains side by side, their i-th operations together.
    for (int i = 0; i < domain; ++i)
        for (int h : heads)
            if (h + i < mt) ops.push_back({i == 0 ? h + i : h, h + i, false});
    const int count = int(heads.size());
    for (int stride = 1; stride < count; stride *= 2)
        for (int p = 0; p + stride < count; p += 2 * stride) ops.push_back({heads[size_t(p)], heads[size_t(p + stride)], true});
    return ops;
}

// Applies the block reflector of `e` (step k of a QR, or of an LQ: `lq`; its factors in F,
// its reflectors in A) to C's tiles: its rows on the left, its columns on the right.
template <typename T>
void apply(const Context& ctx, bool lq, Side side, Op trans, const Matrix<T>& A, detail::QrStorage<T>& F,
           const Matrix<T>& C, int k, const Elimination& e, int first, int priority) {
    const bool left = side == Side::Left;
    const int count = left ? C.nt() : C.mt();
    const detail::Tile<T> V = lq ? tile(A, k, e.row) : tile(A, e.row, k);
    auto at = [&](int r, int j) { return left ? tile(C, r, j) : tile(C, j, r); };
    for (int j = first; j < count; ++j) {
        const int p = priority - (j - first);
        if (e.own())
            detail::task::own_mqrt(ctx, lq, side, trans, F.at(QrFactor::Own, e.row, k), V, at(e.row, j), p);
        else
            detail::task::pair_mqrt(ctx, lq, e.triangular, side, trans, F.at(QrFactor::Elimination, e.row, k), V,
                                    at(e.pivot, j), at(e.row, j), p);
    }
}

}  // namespace

template <typename T>
void geqrf(const Context& ctx, bool lq, const Matrix<T>& A, detail::QrStorage<T>& F) {
    // An LQ is a QR of A's conjugate transpose: its tile (r, c) is A's (c, r).
    const int rows = lq ? A.nt() : A.mt(), kt = std::min(A.mt(), A.nt());
    auto at = [&](int r, int c) { return lq ? tile(A, c, r) : tile(A, r, c); };
    for (int k = 0; k < kt; ++k) {
        const int step_priority = 3 * (kt - k);
        for (const Elimination& e : eliminations(F.tree(), F.domain(), rows, k)) {
            if (e.own())
                detail::task::own_qrt(ctx, lq, F.at(QrFactor::Own, e.row, k), at(e.row, k), step_priority);
            else
                detail::task::pair_qrt(ctx, lq, e.triangular, F.at(QrFactor::Elimination, e.row, k), at(e.pivot, k),
                                       at(e.row, k), step_priority);
            apply(ctx, lq, lq ? Side::Right : Side::Left, detail::conj_trans<T>(), A, F, A, k, e, k + 1,
                  step_priority - 1);
        }
    }
}

template <typename T>
void unmqr(const Context& ctx, bool lq, Side side, Op trans, const Matrix<T>& A, detail::QrStorage<T>& F,
           const Matrix<T>& C) {
    const int rows = lq ? A.nt() : A.mt(), kt = std::min(A.mt(), A.nt());
    // A QR's Q = H_0 H_1 ... in the order geqrf made them: Q^H C and C Q apply them in that
    // order. An LQ's Q is the reverse product (its Q^H is a QR's Q): Q C and C Q^H do.
    const bool forward = ((side == Side::Left) == (trans != Op::NoTrans)) != lq;
    for (int s = 0; s < kt; ++s) {
        const int k = forward ? s : kt - 1 - s;
        std::vector<Elimination> ops = eliminations(F.tree(), F.domain(), rows, k);
        if (!forward) std::reverse(ops.begin(), ops.end());
        for (const Elimination& e : ops) apply(ctx, lq, side, trans, A, F, C, k, e, 0, 3 * (kt - s));
    }
}

#define GRAIN_INSTANTIATE(T)                                                                        \
    template void geqrf<T>(const Context&, bool, const Matrix<T>&, detail::QrStorage<T>&);          \
    template void unmqr<T>(const Context&, bool, Side, Op, const Matrix<T>&, detail::QrStorage<T>&, \
                           const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
