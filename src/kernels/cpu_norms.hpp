#pragma once
// The CPU kernel of the norms (lange, lansy, lanhe, lantr): included by cpu.cpp, whose
// kernel table names it.
#include <algorithm>
#include <cmath>
#include <vector>

#include "tile_kernels.hpp"

namespace grain::detail::cpu {

using namespace kernels;

// A norm's partial results on one tile (buffer 0), written as real values into the first
// elements of its workspace tile (buffer 1) for algorithms::lange_value: Max, the largest
// |a_ij|; One, the tile's column sums (then, for a mirrored tile off the diagonal, its row
// sums: its transpose's column sums); Inf, its row sums; Frobenius, LAPACK's lassq pair
// (scale, sum of squares: the sum of |a_ij|^2 is scale^2 times it) and then NaN if an
// element was NaN, infinity if one was infinite, else 0. A NaN anywhere makes the norm
// NaN, as LAPACK's lange.
template <typename T>
void lange(void* buffers[], void* cl_arg) {
    using R = real_type<T>;
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]);
    const T* x = data<T>(buffers[0]);
    T* w = data<T>(buffers[1]);
    // f(i, j, |a_ij|, twice) on the elements the norm reads: a diagonal tile's (not
    // whole_tile) uplo triangle only, its diagonal skipped when unit and read as real when
    // Hermitian; `twice` for an element standing for its transpose too (mirrored, off the
    // diagonal).
    auto each = [&](auto&& f) {
        for (int j = 0; j < a.cols; ++j) {
            int first = 0, last = a.rows;
            if (!p.whole_tile && p.uplo == Uplo::Upper) last = std::min(j + 1, a.rows);
            if (!p.whole_tile && p.uplo == Uplo::Lower) first = std::min(j, a.rows);
            for (int i = first; i < last; ++i) {
                const T v = x[i + int64_t(j) * a.ld];
                const bool diagonal = !p.whole_tile && i == j;
                if (!diagonal) {
                    f(i, j, R(std::abs(v)), p.mirrored);
                } else if (p.diag == Diag::NonUnit) {
                    f(i, j, R(std::abs(p.real_diagonal ? T(std::real(v)) : v)), false);
                }
            }
        }
    };
    if (p.norm == Norm::Max) {
        R largest = 0;
        each([&](int, int, R v, bool) {
            if (largest < v || std::isnan(v)) largest = v;
        });
        w[0] = T(largest);
    } else if (p.norm == Norm::One || p.norm == Norm::Inf) {
        // A mirrored element on a diagonal tile adds to its row's column too; one on a tile
        // off the diagonal, to the row sums written after the column sums.
        const bool one = p.norm == Norm::One, rows_after = one && p.mirrored && p.whole_tile;
        std::vector<R> sums(size_t(one ? a.cols : a.rows) + size_t(rows_after ? a.rows : 0), R(0));
        if (p.whole_tile) {
            // Every element, column by column: the inner loop a stream the compiler
            // vectorizes (the per-element test above would keep it from doing so). A row
            // sum takes each element once, or twice where it stands for its transpose too.
            R* __restrict rows = sums.data() + (one ? a.cols : 0);
            const R weight = one ? R(1) : p.mirrored ? R(2) : R(1);
            const bool row_sums = !one || p.mirrored;
            for (int j = 0; j < a.cols; ++j) {
                const T* __restrict column = x + int64_t(j) * a.ld;
                if (row_sums)
                    for (int i = 0; i < a.rows; ++i) rows[i] += weight * R(std::abs(column[i]));
                if (one) {
                    R total = 0;
                    for (int i = 0; i < a.rows; ++i) total += R(std::abs(column[i]));
                    sums[size_t(j)] = total;
                }
            }
        } else {
            each([&](int i, int j, R v, bool twice) {
                sums[size_t(one ? j : i)] += v;
                if (twice) sums[size_t(rows_after ? a.cols + i : i)] += v;
            });
        }
        for (size_t k = 0; k < sums.size(); ++k) w[k] = T(sums[k]);
    } else {
        R scale = 0, sumsq = 1, special = 0;
        each([&](int, int, R v, bool twice) {
            const R weight = twice ? R(2) : R(1);
            if (std::isnan(v)) {
                special = v;
            } else if (std::isinf(v)) {
                if (!std::isnan(special)) special = v;
            } else if (v > scale) {
                sumsq = weight + sumsq * (scale / v) * (scale / v);
                scale = v;
            } else if (v > 0) {
                sumsq += weight * (v / scale) * (v / scale);
            }
        });
        w[0] = T(scale), w[1] = T(sumsq), w[2] = T(special);
    }
}

}  // namespace grain::detail::cpu
