// A matrix norm (LAPACK's lange, lansy, lanhe and lantr): every stored tile's partial
// results in a task of its own, then their reduction on the host. The partial results'
// layout is the CPU kernel's (src/kernels/cpu.cpp, lange).
#include <algorithm>
#include <cmath>
#include <vector>

#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

namespace {

// Whether tile (i, j) holds elements the norm reads: all of a general matrix, the tiles
// on and on the uplo side of the diagonal otherwise.
bool stored(const NormShape& shape, int i, int j) {
    return shape.kind == NormShape::General || (shape.uplo == Uplo::Upper ? i <= j : i >= j);
}

bool mirrored(const NormShape& shape) {
    return shape.kind == NormShape::Symmetric || shape.kind == NormShape::Hermitian;
}

// A symmetric matrix's row sums are its column sums: both its norms 'I' and 'O' are taken
// as the latter.
Norm as_computed(Norm norm, const NormShape& shape) {
    return mirrored(shape) && norm == Norm::Inf ? Norm::One : norm;
}

}  // namespace

int lange_workspace_side(int nb) {
    // Room for a tile's column and row sums, and for Frobenius's three values.
    int side = 1;
    while (side * side < std::max(2 * nb, 3)) ++side;
    return side;
}

template <typename T>
void lange(const Context& ctx, Norm norm, const NormShape& shape, const Matrix<T>& A, const Matrix<T>& W) {
    detail::TileArgs<T> args;
    args.norm = as_computed(norm, shape);
    args.uplo = shape.uplo;
    args.diag = shape.kind == NormShape::Triangular ? shape.diag : Diag::NonUnit;
    args.real_diagonal = shape.kind == NormShape::Hermitian;
    args.mirrored = mirrored(shape);
    for (int j = 0; j < A.nt(); ++j)
        for (int i = 0; i < A.mt(); ++i) {
            if (!stored(shape, i, j)) continue;
            // A diagonal tile of a triangular or symmetric matrix: only its uplo triangle.
            args.whole_tile = shape.kind == NormShape::General || i != j;
            detail::submit_task(ctx, detail::Kernel::Lange, args, {tile(A, i, j), tile(W, i, j)}, 0);
        }
}

template <typename T>
real_type<T> lange_value(Norm norm, const NormShape& shape, const Matrix<T>& A, const T* w, int64_t ldw) {
    using R = real_type<T>;
    norm = as_computed(norm, shape);
    const int64_t side = lange_workspace_side(A.nb());
    // Element k of tile (i, j)'s partial results.
    auto part = [&](int i, int j, int k) { return std::real(w[i * side + k % side + (j * side + k / side) * ldw]); };
    // The larger of two, NaN winning, as LAPACK's lange compares.
    auto larger = [](R best, R v) { return best < v || std::isnan(v) ? v : best; };
    // A unit diagonal is not read: LAPACK's lantr counts it as ones of its own.
    const int64_t order = std::min(A.m(), A.n());
    const bool unit = shape.kind == NormShape::Triangular && shape.diag == Diag::Unit && order > 0;
    R value = 0;
    if (norm == Norm::Max) {
        value = unit ? R(1) : R(0);
        for (int j = 0; j < A.nt(); ++j)
            for (int i = 0; i < A.mt(); ++i)
                if (stored(shape, i, j)) value = larger(value, part(i, j, 0));
    } else if (norm == Norm::One || norm == Norm::Inf) {
        // A column's sum (One) adds its tiles' partial sums down the tile column; a row's
        // (Inf), along the tile row. A symmetric matrix's column also holds the row sums of
        // the stored tiles across from it, which its kernel wrote after their column sums.
        const bool one = norm == Norm::One;
        const int lines = one ? A.nt() : A.mt(), across = one ? A.mt() : A.nt();
        for (int l = 0; l < lines; ++l) {
            const int width = one ? A.tile_cols(l) : A.tile_rows(l);
            std::vector<R> sums(size_t(width), R(0));
            // lantr's unit diagonal: a one in each of the first min(m, n) lines, and, as
            // LAPACK's loops run, in every column of a lower trapezoid and every row of an
            // upper one.
            const bool every = one == (shape.uplo == Uplo::Lower);
            for (int k = 0; unit && k < width; ++k)
                if (every || int64_t(l) * A.nb() + k < order) sums[size_t(k)] = 1;
            for (int t = 0; t < across; ++t) {
                const int i = one ? t : l, j = one ? l : t;
                if (stored(shape, i, j))
                    for (int k = 0; k < width; ++k) sums[size_t(k)] += part(i, j, k);
                if (mirrored(shape) && t != l && stored(shape, l, t))
                    for (int k = 0; k < width; ++k) sums[size_t(k)] += part(l, t, A.tile_cols(t) + k);
            }
            for (R s : sums) value = larger(value, s);
        }
    } else {
        // LAPACK's combination of lassq pairs, tile by tile (a unit diagonal is the pair
        // (1, min(m, n))); NaN, then infinity, win.
        R scale = unit ? R(1) : R(0), sumsq = unit ? R(order) : R(1), special = 0;
        for (int j = 0; j < A.nt(); ++j)
            for (int i = 0; i < A.mt(); ++i) {
                if (!stored(shape, i, j)) continue;
                const R s = part(i, j, 0), q = part(i, j, 1), x = part(i, j, 2);
                if (std::isnan(x) || (std::isinf(x) && !std::isnan(special))) special = x;
                if (s == 0) continue;
                if (s > scale) {
                    sumsq = q + sumsq * (scale / s) * (scale / s);
                    scale = s;
                } else {
                    sumsq += q * (s / scale) * (s / scale);
                }
            }
        value = special != 0 ? special : scale * std::sqrt(sumsq);
    }
    return value;
}

#define GRAIN_INSTANTIATE(T)                                                                               \
    template void lange<T>(const Context&, Norm, const NormShape&, const Matrix<T>&, const Matrix<T>&); \
    template real_type<T> lange_value<T>(Norm, const NormShape&, const Matrix<T>&, const T*, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
