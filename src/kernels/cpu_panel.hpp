#pragma once
// LU with partial pivoting of a panel whose tiles lie on several processes: this process's
// share (kernel getrf with TileArgs::share set). Included by cpu.cpp.
//
// Buffers: a pivot block (the step's on the diagonal tile's process, a scratch block on
// the others), then the other processes' ready tokens and this
// process's turn (they only order the task: after every share's inputs, and after this
// process's shares submitted before), then this process's tiles of the column, top to
// bottom. The
// panel's first tile (its top rows, where U is) is the diagonal tile's process's, the first
// of PanelShare::ranks. The column is factored as LAPACK's recursive getrf2 does, on
// columns: the left half, U12 on the diagonal tile's process (sent to the others), each
// process's rows of A22 updated by one gemm, then the right half. For each column the
// processes send their largest candidate to the first, which picks the pivot (the largest
// |a| as LAPACK's i?amax measures it, the first row on a tie) and tells them; the pivot's
// row and the column's top row trade places whole, between processes where they differ.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "blas.hpp"
#include "src/base/panel_share.hpp"
#include "tile_kernels.hpp"

namespace grain::detail::cpu {

using namespace kernels;

namespace panel_detail {

// i?amax's measure: |a| for real a, |re| + |im| for complex.
template <typename T>
double magnitude(T v) {
    if constexpr (scalar_traits<T>::is_complex)
        return double(std::abs(v.real())) + double(std::abs(v.imag()));
    else
        return double(std::abs(v));
}

template <typename T>
struct Candidate {
    double size = -1;  // -1: no row
    int64_t row = -1;  // in the panel
    T value{};
};

// The pivot of a column as the first process tells the others.
template <typename T>
struct Choice {
    int64_t row;
    T value;
};

}  // namespace panel_detail

template <typename T>
void getrf_share(void* buffers[], const TileArgs<T>& p) {
    using namespace panel_detail;
    const PanelShare& s = *p.share;
    const PanelMessages& mail = *s.messages;
    const int processes = int(s.ranks.size());
    const bool first = s.me == 0;
    const int tiles_before = processes + 1;  // the pivot block, the others' tokens, the turn
    // This process's tiles: where each of the column's is among the buffers (-1: elsewhere).
    std::vector<int> buffer(s.holder.size(), -1);
    for (size_t t = 0, b = size_t(tiles_before); t < s.holder.size(); ++t)
        if (s.holder[t] == s.me) buffer[t] = int(b++);
    const int w = dims(buffers[tiles_before]).cols;
    const int nb = s.tile_rows;
    auto holder_of = [&](int64_t row) { return s.holder[size_t(row / nb)]; };
    auto at = [&](int64_t row, int col) -> T& {
        void* b = buffers[buffer[size_t(row / nb)]];
        return data<T>(b)[row % nb + int64_t(col) * dims(b).ld];
    };
    // This process's tiles with their rows from `row` down (the first tile's rows above it
    // skipped): f(tile's data, ld, its first row there, rows).
    auto each_tile_from = [&](int64_t row, auto&& f) {
        for (size_t t = 0; t < s.holder.size(); ++t) {
            if (buffer[t] < 0) continue;
            void* b = buffers[buffer[t]];
            const int start = int(std::clamp<int64_t>(row - int64_t(t) * nb, 0, dims(b).rows));
            if (start < dims(b).rows) f(data<T>(b), dims(b).ld, start, dims(b).rows - start, int64_t(t) * nb);
        }
    };
    int* ipiv = pivots(buffers[0]);
    int info = 0;
    std::vector<T> swap_row(static_cast<size_t>(w));

    auto pivot_column = [&](int j) {
        Candidate<T> mine;
        each_tile_from(j, [&](T* a, int ld, int start, int rows, int64_t base) {
            for (int i = start; i < start + rows; ++i) {
                const T v = a[i + int64_t(j) * ld];
                if (magnitude(v) > mine.size || mine.row < 0) mine = {magnitude(v), base + i, v};
            }
        });
        Choice<T> choice{};
        if (first) {
            for (int q = 1; q < processes; ++q) {
                Candidate<T> other;
                mail.receive(&other, sizeof other, s.ranks[size_t(q)], s.tag);
                if (other.row >= 0 && (other.size > mine.size || (other.size == mine.size && other.row < mine.row)))
                    mine = other;
            }
            choice = {mine.row, mine.value};
            for (int q = 1; q < processes; ++q) mail.send(&choice, sizeof choice, s.ranks[size_t(q)], s.tag);
        } else {
            mail.send(&mine, sizeof mine, s.ranks[0], s.tag);
            mail.receive(&choice, sizeof choice, s.ranks[0], s.tag);
        }
        const int64_t r = choice.row;
        // Rows j and r trade places across the whole panel.
        const int where = holder_of(r);
        if (first && where == 0) {
            for (int c = 0; c < w; ++c) std::swap(at(j, c), at(r, c));
        } else if (first) {
            for (int c = 0; c < w; ++c) swap_row[size_t(c)] = at(j, c);
            mail.send(swap_row.data(), sizeof(T) * size_t(w), s.ranks[size_t(where)], s.tag);
            mail.receive(swap_row.data(), sizeof(T) * size_t(w), s.ranks[size_t(where)], s.tag);
            for (int c = 0; c < w; ++c) at(j, c) = swap_row[size_t(c)];
        } else if (where == s.me) {
            mail.receive(swap_row.data(), sizeof(T) * size_t(w), s.ranks[0], s.tag);
            for (int c = 0; c < w; ++c) std::swap(swap_row[size_t(c)], at(r, c));
            mail.send(swap_row.data(), sizeof(T) * size_t(w), s.ranks[0], s.tag);
        }
        ipiv[j] = int(r) + 1;
        // L's column j below the pivot, as LAPACK's getf2: unscaled where the pivot is zero.
        if (choice.value == T(0)) {
            if (info == 0) info = j + 1;
            return;
        }
        const T inverse = T(1) / choice.value;
        each_tile_from(j + 1, [&](T* a, int ld, int start, int rows, int64_t) {
            for (int i = start; i < start + rows; ++i) a[i + int64_t(j) * ld] *= inverse;
        });
    };

    std::vector<T> u;
    auto factor = [&](auto&& self, int c0, int c1) -> void {
        if (c1 - c0 == 1) return pivot_column(c0);
        const int mid = c0 + (c1 - c0) / 2, h = mid - c0, right = c1 - mid;
        self(self, c0, mid);
        // U12 = L11^-1 A12 on the top rows, which the first process holds; then sent.
        u.assign(size_t(h) * size_t(right), T(0));
        if (first) {
            T* a = data<T>(buffers[buffer[0]]);
            const int ld = dims(buffers[buffer[0]]).ld;
            blas::trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, h, right, T(1), a + c0 + int64_t(c0) * ld, ld,
                       a + c0 + int64_t(mid) * ld, ld);
            for (int c = 0; c < right; ++c)
                std::copy(a + c0 + int64_t(mid + c) * ld, a + mid + int64_t(mid + c) * ld, u.data() + int64_t(c) * h);
            for (int q = 1; q < processes; ++q) mail.send(u.data(), sizeof(T) * u.size(), s.ranks[size_t(q)], s.tag);
        } else {
            mail.receive(u.data(), sizeof(T) * u.size(), s.ranks[0], s.tag);
        }
        each_tile_from(mid, [&](T* a, int ld, int start, int rows, int64_t) {
            blas::gemm(Op::NoTrans, Op::NoTrans, rows, right, h, T(-1), a + start + int64_t(c0) * ld, ld, u.data(), h,
                       T(1), a + start + int64_t(mid) * ld, ld);
        });
        self(self, mid, c1);
    };
    factor(factor, 0, w);
    for (int j = 0; j < w; ++j) ipiv[j] += int(p.row_offset);
    if (first && info > 0) p.request->report_info(p.col_offset + info);
}

}  // namespace grain::detail::cpu
