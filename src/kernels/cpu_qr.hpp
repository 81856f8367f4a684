#pragma once
// The CPU tile kernels of QR and LQ, on LAPACK's tile routines: included by cpu.cpp, whose
// kernel table names them.
#include <algorithm>
#include <vector>

#include "blas.hpp"
#include "tile_kernels.hpp"

namespace grain::detail::cpu {

using namespace kernels;

// QR's and LQ's tile kernels (LQ's are QR's on the conjugate transpose: rows for columns).
// Buffer 0 is a tile's T factor: its rows are the inner block ib, by which the reflectors
// are grouped (fewer where the tile has fewer reflectors); the tiles follow. A tile's
// k = min(rows, cols) reflectors are in it below its diagonal (QR; above it for LQ) with
// R above (L below), or fill it (tsqrt, tslqt), or its upper (lower) triangle (ttqrt,
// ttlqt).
inline int inner_block(void* factor, int reflectors) { return std::max(1, std::min(dims(factor).rows, reflectors)); }

// The tile an update writes, given whole or as a strip of sub-tiles (buffers [first,
// first + parts)): stacked top to bottom when the reflectors apply from the left, side by
// side from the right. Sub-tiles of one column-major tile in memory are the strip itself;
// others are copied into a block of the strip's own and back.
template <typename T>
class Strip {
public:
    Strip(void* buffers[], int first, int parts, bool stacked)
        : buffers_(buffers), first_(first), parts_(parts), stacked_(stacked) {
        const TileRef d = dims(buffers[first]);
        rows_ = stacked ? 0 : d.rows, cols_ = stacked ? d.cols : 0;
        bool in_place = true;
        for (int b = first; b < first + parts; ++b) {
            const TileRef e = dims(buffers[b]);
            const T* next = data<T>(buffers[first]) + (stacked ? int64_t(rows_) : int64_t(cols_) * d.ld);
            in_place = in_place && e.ld == d.ld && data<T>(buffers[b]) == next;
            (stacked ? rows_ : cols_) += stacked ? e.rows : e.cols;
        }
        if (in_place) {
            x_ = data<T>(buffers[first]), ld_ = d.ld;
            return;
        }
        copy_.resize(size_t(rows_) * size_t(cols_));
        x_ = copy_.data(), ld_ = std::max(rows_, 1);
        move(true);
    }
    Strip(const Strip&) = delete;
    Strip& operator=(const Strip&) = delete;
    ~Strip() {
        if (!copy_.empty()) move(false);
    }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    T* data_ptr() const { return x_; }
    int ld() const { return ld_; }

private:
    // Between the sub-tiles and the copy, in or out.
    void move(bool in) {
        for (int b = first_, at = 0; b < first_ + parts_; ++b) {
            const TileRef e = dims(buffers_[b]);
            T* part = data<T>(buffers_[b]);
            T* block = x_ + (stacked_ ? int64_t(at) : int64_t(at) * ld_);
            for (int j = 0; j < e.cols; ++j)
                for (int i = 0; i < e.rows; ++i) {
                    T& y = block[i + int64_t(j) * ld_];
                    T& z = part[i + int64_t(j) * e.ld];
                    in ? y = z : z = y;
                }
            at += stacked_ ? e.rows : e.cols;
        }
    }
    void** buffers_;
    int first_, parts_;
    bool stacked_;
    int rows_ = 0, cols_ = 0, ld_ = 1;
    T* x_ = nullptr;
    std::vector<T> copy_;
};

// The QR (LQ) of the tile.
template <typename T, bool lq>
void own_qrt(void* buffers[]) {
    const TileRef t = dims(buffers[0]), a = dims(buffers[1]);
    const int k = std::min(a.rows, a.cols);
    if (k == 0) return;
    const int ib = inner_block(buffers[0], k);
    if constexpr (lq)
        blas::gelqt(a.rows, a.cols, ib, data<T>(buffers[1]), a.ld, data<T>(buffers[0]), t.ld);
    else
        blas::geqrt(a.rows, a.cols, ib, data<T>(buffers[1]), a.ld, data<T>(buffers[0]), t.ld);
}
template <typename T>
void geqrt(void* buffers[], void*) { own_qrt<T, false>(buffers); }
template <typename T>
void gelqt(void* buffers[], void*) { own_qrt<T, true>(buffers); }

// C = op(Q) C (Left) or C op(Q) (Right), Q the reflectors geqrt (gelqt) left in V; C whole
// or a strip of its sub-tiles.
template <typename T, bool lq>
void own_mqrt(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef t = dims(buffers[0]), v = dims(buffers[1]);
    const Strip<T> c(buffers, 2, int(STARPU_TASK_GET_NBUFFERS(p.task)) - 2, p.side == Side::Left);
    const int k = std::min(v.rows, v.cols);
    if (k == 0 || c.rows() == 0 || c.cols() == 0) return;
    const int ib = inner_block(buffers[0], k);
    const T *vs = data<T>(buffers[1]), *ts = data<T>(buffers[0]);
    if constexpr (lq)
        blas::gemlqt(p.side, p.transa, c.rows(), c.cols(), k, ib, vs, v.ld, ts, t.ld, c.data_ptr(), c.ld());
    else
        blas::gemqrt(p.side, p.transa, c.rows(), c.cols(), k, ib, vs, v.ld, ts, t.ld, c.data_ptr(), c.ld());
}
template <typename T>
void gemqrt(void* buffers[], void* cl_arg) { own_mqrt<T, false>(buffers, cl_arg); }
template <typename T>
void gemlqt(void* buffers[], void* cl_arg) { own_mqrt<T, true>(buffers, cl_arg); }

// The QR of a triangle R (A1's upper one, as wide as its columns) on top of A2: R is
// updated and the reflectors overwrite A2 whole (`triangular` false), or only its upper
// triangle, A2 being a triangle too (its rows below its columns are not read). LQ: a
// triangle L (A1's lower one, as tall as its rows) left of A2, columns for rows.
template <typename T, bool lq>
void pair_qrt(void* buffers[], bool triangular) {
    const TileRef t = dims(buffers[0]), a1 = dims(buffers[1]), a2 = dims(buffers[2]);
    const int order = lq ? a1.rows : a1.cols, across = lq ? a2.cols : a2.rows;
    const int reach = triangular ? std::min(across, order) : across;  // A2's rows (columns) the reflectors reach
    if (order == 0 || reach == 0) return;
    const int l = triangular ? reach : 0, ib = inner_block(buffers[0], order);
    if constexpr (lq)
        blas::tplqt(order, reach, l, ib, data<T>(buffers[1]), a1.ld, data<T>(buffers[2]), a2.ld, data<T>(buffers[0]), t.ld);
    else
        blas::tpqrt(reach, order, l, ib, data<T>(buffers[1]), a1.ld, data<T>(buffers[2]), a2.ld, data<T>(buffers[0]), t.ld);
}
template <typename T>
void tsqrt(void* buffers[], void*) { pair_qrt<T, false>(buffers, false); }
template <typename T>
void ttqrt(void* buffers[], void*) { pair_qrt<T, false>(buffers, true); }
template <typename T>
void tslqt(void* buffers[], void*) { pair_qrt<T, true>(buffers, false); }
template <typename T>
void ttlqt(void* buffers[], void*) { pair_qrt<T, true>(buffers, true); }

// [A1; A2] = op(Q) [A1; A2] (Left) or [A1 A2] = [A1 A2] op(Q) (Right), Q the reflectors
// pair_qrt left in V (k of them): A1's first k rows (columns) meet A2's rows (columns),
// all of them for a whole tile's reflectors, the first of V's triangle for a triangle's.
// A1 and A2 whole, or strips of sub-tiles (A1's first_strip of them).
template <typename T, bool lq>
void pair_mqrt(void* buffers[], void* cl_arg, bool triangular) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const bool left = p.side == Side::Left;
    const int parts = int(STARPU_TASK_GET_NBUFFERS(p.task)) - 2;
    const Strip<T> s1(buffers, 2, p.first_strip, left), s2(buffers, 2 + p.first_strip, parts - p.first_strip, left);
    const TileRef t = dims(buffers[0]), v = dims(buffers[1]), a1{s1.rows(), s1.cols(), s1.ld()},
                  a2{s2.rows(), s2.cols(), s2.ld()};
    const int k = lq ? v.rows : v.cols, l = triangular ? std::min(lq ? v.cols : v.rows, k) : 0;
    const int m = left && triangular ? l : a2.rows, n = !left && triangular ? l : a2.cols;
    if (k == 0 || m == 0 || n == 0) return;
    const int ib = inner_block(buffers[0], k);
    const T *vs = data<T>(buffers[1]), *ts = data<T>(buffers[0]);
    T *x1 = s1.data_ptr(), *x2 = s2.data_ptr();
    if constexpr (lq) {
        if (left && triangular) {
            // LAPACK's tpmlqt (3.11, OpenBLAS 0.3.21) is wrong on the left with a triangle:
            // op(Q) [A1; A2] is ([A1^H A2^H] op(Q)^H)^H, on the right, where it is right.
            const auto adjoint = [](int rows, int cols, const T* x, int ldx, T* y, int ldy) {
                for (int j = 0; j < cols; ++j)
                    for (int i = 0; i < rows; ++i) y[j + int64_t(i) * ldy] = conj(x[i + int64_t(j) * ldx]);
            };
            std::vector<T> y1(size_t(n) * size_t(k)), y2(size_t(n) * size_t(m));
            adjoint(k, n, x1, a1.ld, y1.data(), n);
            adjoint(m, n, x2, a2.ld, y2.data(), n);
            const Op back = p.transa == Op::NoTrans ? conj_trans<T>() : Op::NoTrans;
            blas::tpmlqt(Side::Right, back, n, m, k, l, ib, vs, v.ld, ts, t.ld, y1.data(), n, y2.data(), n);
            adjoint(n, k, y1.data(), n, x1, a1.ld);
            adjoint(n, m, y2.data(), n, x2, a2.ld);
        } else {
            blas::tpmlqt(p.side, p.transa, m, n, k, l, ib, vs, v.ld, ts, t.ld, x1, a1.ld, x2, a2.ld);
        }
    } else {
        blas::tpmqrt(p.side, p.transa, m, n, k, l, ib, vs, v.ld, ts, t.ld, x1, a1.ld, x2, a2.ld);
    }
}
template <typename T>
void tsmqrt(void* buffers[], void* cl_arg) { pair_mqrt<T, false>(buffers, cl_arg, false); }
template <typename T>
void ttmqrt(void* buffers[], void* cl_arg) { pair_mqrt<T, false>(buffers, cl_arg, true); }
template <typename T>
void tsmlqt(void* buffers[], void* cl_arg) { pair_mqrt<T, true>(buffers, cl_arg, false); }
template <typename T>
void ttmlqt(void* buffers[], void* cl_arg) { pair_mqrt<T, true>(buffers, cl_arg, true); }

}  // namespace grain::detail::cpu
