// A matrix norm (LAPACK's lange): every tile's partial results in a task of its own, then
// their reduction on the host. The partial results' layout is the CPU kernel's
// (src/kernels/cpu.cpp, lange).
#include <algorithm>
#include <cmath>
#include <vector>

#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::tile;

int lange_workspace_side(int nb) {
    // Room for a tile's column or row sums, and for Frobenius's three values.
    int side = 1;
    while (side * side < std::max(nb, 3)) ++side;
    return side;
}

template <typename T>
void lange(const Context& ctx, Norm norm, const Matrix<T>& A, const Matrix<T>& W) {
    detail::TileArgs<T> args;
    args.norm = norm;
    for (int j = 0; j < A.nt(); ++j)
        for (int i = 0; i < A.mt(); ++i) detail::submit_task(ctx, detail::Kernel::Lange, args, {tile(A, i, j), tile(W, i, j)}, 0);
}

template <typename T>
real_type<T> lange_value(Norm norm, const Matrix<T>& A, const T* w, int64_t ldw) {
    using R = real_type<T>;
    const int64_t side = lange_workspace_side(A.nb());
    // Element k of tile (i, j)'s partial results.
    auto part = [&](int i, int j, int k) { return std::real(w[i * side + k % side + (j * side + k / side) * ldw]); };
    // The larger of two, NaN winning, as LAPACK's lange compares.
    auto larger = [](R best, R v) { return best < v || std::isnan(v) ? v : best; };
    R value = 0;
    if (norm == Norm::Max) {
        for (int j = 0; j < A.nt(); ++j)
            for (int i = 0; i < A.mt(); ++i) value = larger(value, part(i, j, 0));
    } else if (norm == Norm::One || norm == Norm::Inf) {
        // A column's sum (One) adds its tiles' partial sums down the tile column; a row's
        // (Inf), along the tile row.
        const bool one = norm == Norm::One;
        const int lines = one ? A.nt() : A.mt(), across = one ? A.mt() : A.nt();
        for (int l = 0; l < lines; ++l) {
            const int width = one ? A.tile_cols(l) : A.tile_rows(l);
            std::vector<R> sums(size_t(width), R(0));
            for (int t = 0; t < across; ++t)
                for (int k = 0; k < width; ++k) sums[size_t(k)] += one ? part(t, l, k) : part(l, t, k);
            for (R s : sums) value = larger(value, s);
        }
    } else {
        // LAPACK's combination of two lassq pairs, tile by tile; NaN, then infinity, win.
        R scale = 0, sumsq = 1, special = 0;
        for (int j = 0; j < A.nt(); ++j)
            for (int i = 0; i < A.mt(); ++i) {
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

#define GRAIN_INSTANTIATE(T)                                                          \
    template void lange<T>(const Context&, Norm, const Matrix<T>&, const Matrix<T>&); \
    template real_type<T> lange_value<T>(Norm, const Matrix<T>&, const T*, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
