#pragma once
// QR's updates from products alone, for a device whose BLAS has no gemqrt or tpmqrt
// (cuBLAS): the reflectors geqrt and tpqrt leave, applied ib at a time as LAPACK's larfb and
// tprfb apply a block, with gemm and in-place trmm. Written once over a backend `P` of the
// device's products on its memory:
//   gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc)    C = alpha op(A) op(B) + beta C
//   trmm(side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb)   B = alpha op(A) B (or B op(A))
//   copy(m, n, A, lda, B, ldb)                                    B = A
//   add(m, n, alpha, A, lda, B, ldb)                              B += alpha A
//   scratch(count)                                                count elements, kept while P lives
// and the tiles an update writes, whole or as a strip of sub-tiles (Strip).
#include <algorithm>
#include <cstdint>

#include "tile_kernels.hpp"

namespace grain::detail::kernels {

// The tile an update writes, given whole or as a strip of sub-tiles (buffers [first,
// first + parts)): stacked top to bottom when the reflectors apply from the left, side by
// side from the right. Sub-tiles of one column-major tile in memory are the strip itself;
// others are copied into scratch memory of the backend's and back when the strip ends.
template <typename T, typename P>
class Strip {
public:
    Strip(P& products, void* buffers[], int first, int parts, bool stacked)
        : products_(products), buffers_(buffers), first_(first), parts_(parts), stacked_(stacked) {
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
        copied_ = true;
        ld_ = std::max(rows_, 1);
        x_ = products_.scratch(size_t(ld_) * size_t(cols_));
        move(true);
    }
    Strip(const Strip&) = delete;
    Strip& operator=(const Strip&) = delete;
    ~Strip() {
        if (copied_) move(false);
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
            in ? products_.copy(e.rows, e.cols, part, e.ld, block, ld_) : products_.copy(e.rows, e.cols, block, ld_, part, e.ld);
            at += stacked_ ? e.rows : e.cols;
        }
    }
    P& products_;
    void** buffers_;
    int first_, parts_;
    bool stacked_;
    bool copied_ = false;
    int rows_ = 0, cols_ = 0, ld_ = 1;
    T* x_ = nullptr;
};

namespace qr_apply_detail {

// The blocks of k reflectors, ib at a time, in the order op(Q) applies them: Q^H C and
// C Q from the first, Q C and C Q^H from the last. f(first reflector, count).
template <typename F>
void for_each_block(Side side, Op trans, int k, int ib, F f) {
    const bool forward = (side == Side::Left) == (trans != Op::NoTrans);
    const int blocks = (k + ib - 1) / ib;
    for (int b = 0; b < blocks; ++b) {
        const int i = (forward ? b : blocks - 1 - b) * ib;
        f(i, std::min(ib, k - i));
    }
}

// One block of kb reflectors [I; V] (V m x kb, its last l rows upper trapezoidal; T kb x kb
// upper triangular) on [A; B] from the left (A kb x n, B m x n) or on [A B] from the right
// (A m x kb, B m x n, V n x kb), as LAPACK's tprfb: W = A + V^H B (A + B V), W = op(T) W
// (W op(T)), A -= W, B -= V W (W V^H), the triangle of V by trmm and the rest by gemm.
template <typename T, typename P>
void tprfb(P& p, Side side, Op trans, int m, int n, int kb, int l, const T* v, int ldv, const T* t, int ldt, T* a,
           int lda, T* b, int ldb, T* w) {
    const Op ct = conj_trans<T>(), op_t = trans == Op::NoTrans ? Op::NoTrans : ct;
    const T one(1), minus(-1), zero(0);
    if (side == Side::Left) {
        const int ldw = std::max(kb, 1), mp = m - l;  // mp: B's rows above V's triangle
        const T* vt = v + mp;                           // the triangle, l x l
        if (l > 0) {
            p.copy(l, n, b + mp, ldb, w, ldw);
            p.trmm(Side::Left, Uplo::Upper, ct, Diag::NonUnit, l, n, one, vt, ldv, w, ldw);
            if (mp > 0) p.gemm(ct, Op::NoTrans, l, n, mp, one, v, ldv, b, ldb, one, w, ldw);
        }
        if (kb > l) p.gemm(ct, Op::NoTrans, kb - l, n, m, one, v + int64_t(l) * ldv, ldv, b, ldb, zero, w + l, ldw);
        p.add(kb, n, one, a, lda, w, ldw);
        p.trmm(Side::Left, Uplo::Upper, op_t, Diag::NonUnit, kb, n, one, t, ldt, w, ldw);
        p.add(kb, n, minus, w, ldw, a, lda);
        if (mp > 0) p.gemm(Op::NoTrans, Op::NoTrans, mp, n, kb, minus, v, ldv, w, ldw, one, b, ldb);
        if (l > 0) {
            if (kb > l)
                p.gemm(Op::NoTrans, Op::NoTrans, l, n, kb - l, minus, vt + int64_t(l) * ldv, ldv, w + l, ldw, one,
                       b + mp, ldb);
            p.trmm(Side::Left, Uplo::Upper, Op::NoTrans, Diag::NonUnit, l, n, one, vt, ldv, w, ldw);
            p.add(l, n, minus, w, ldw, b + mp, ldb);
        }
        return;
    }
    const int ldw = std::max(m, 1), np = n - l;  // np: B's columns left of V's triangle
    const T* vt = v + np;
    T* bt = b + int64_t(np) * ldb;
    if (l > 0) {
        p.copy(m, l, bt, ldb, w, ldw);
        p.trmm(Side::Right, Uplo::Upper, Op::NoTrans, Diag::NonUnit, m, l, one, vt, ldv, w, ldw);
        if (np > 0) p.gemm(Op::NoTrans, Op::NoTrans, m, l, np, one, b, ldb, v, ldv, one, w, ldw);
    }
    if (kb > l)
        p.gemm(Op::NoTrans, Op::NoTrans, m, kb - l, n, one, b, ldb, v + int64_t(l) * ldv, ldv, zero,
               w + int64_t(l) * ldw, ldw);
    p.add(m, kb, one, a, lda, w, ldw);
    p.trmm(Side::Right, Uplo::Upper, op_t, Diag::NonUnit, m, kb, one, t, ldt, w, ldw);
    p.add(m, kb, minus, w, ldw, a, lda);
    if (np > 0) p.gemm(Op::NoTrans, ct, m, np, kb, minus, w, ldw, v, ldv, one, b, ldb);
    if (l > 0) {
        if (kb > l)
            p.gemm(Op::NoTrans, ct, m, l, kb - l, minus, w + int64_t(l) * ldw, ldw, vt + int64_t(l) * ldv, ldv, one,
                   bt, ldb);
        p.trmm(Side::Right, Uplo::Upper, ct, Diag::NonUnit, m, l, one, vt, ldv, w, ldw);
        p.add(m, l, minus, w, ldw, bt, ldb);
    }
}

}  // namespace qr_apply_detail

// C = op(Q) C (Left: C m x n, V m x k) or C op(Q) (Right: V n x k), Q = I - V T V^H as
// geqrt leaves it: V unit lower trapezoidal (R above it is not read), T ib x k. Each block
// is tprfb's with the block's first kb rows of C as its A and V's unit triangle there as
// its identity: the triangle's rows (columns) of C are moved into place by a unit trmm.
template <typename T, typename P>
void gemqrt(P& p, Side side, Op trans, int m, int n, int k, int ib, const T* v, int ldv, const T* t, int ldt, T* c,
            int ldc) {
    const bool left = side == Side::Left;
    const Op ct = conj_trans<T>(), op_t = trans == Op::NoTrans ? Op::NoTrans : ct;
    const T one(1), minus(-1);
    T* w = p.scratch(size_t(ib) * size_t(std::max(left ? n : m, 1)));
    qr_apply_detail::for_each_block(side, trans, k, ib, [&](int i, int kb) {
        const T* v1 = v + i + int64_t(i) * ldv;  // kb x kb, unit lower
        const T* v2 = v1 + kb;                   // the rows below it
        const T* ti = t + int64_t(i) * ldt;
        if (left) {
            const int below = m - i - kb, ldw = std::max(kb, 1);
            T *c1 = c + i, *c2 = c + i + kb;
            p.copy(kb, n, c1, ldc, w, ldw);
            p.trmm(Side::Left, Uplo::Lower, ct, Diag::Unit, kb, n, one, v1, ldv, w, ldw);
            if (below > 0) p.gemm(ct, Op::NoTrans, kb, n, below, one, v2, ldv, c2, ldc, one, w, ldw);
            p.trmm(Side::Left, Uplo::Upper, op_t, Diag::NonUnit, kb, n, one, ti, ldt, w, ldw);
            if (below > 0) p.gemm(Op::NoTrans, Op::NoTrans, below, n, kb, minus, v2, ldv, w, ldw, one, c2, ldc);
            p.trmm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, kb, n, one, v1, ldv, w, ldw);
            p.add(kb, n, minus, w, ldw, c1, ldc);
        } else {
            const int beyond = n - i - kb, ldw = std::max(m, 1);
            T *c1 = c + int64_t(i) * ldc, *c2 = c + int64_t(i + kb) * ldc;
            p.copy(m, kb, c1, ldc, w, ldw);
            p.trmm(Side::Right, Uplo::Lower, Op::NoTrans, Diag::Unit, m, kb, one, v1, ldv, w, ldw);
            if (beyond > 0) p.gemm(Op::NoTrans, Op::NoTrans, m, kb, beyond, one, c2, ldc, v2, ldv, one, w, ldw);
            p.trmm(Side::Right, Uplo::Upper, op_t, Diag::NonUnit, m, kb, one, ti, ldt, w, ldw);
            if (beyond > 0) p.gemm(Op::NoTrans, ct, m, beyond, kb, minus, w, ldw, v2, ldv, one, c2, ldc);
            p.trmm(Side::Right, Uplo::Lower, ct, Diag::Unit, m, kb, one, v1, ldv, w, ldw);
            p.add(m, kb, minus, w, ldw, c1, ldc);
        }
    });
}

// [A; B] = op(Q) [A; B] (Left: A k x n, B m x n, V m x k) or [A B] = [A B] op(Q) (Right:
// A m x k, B m x n, V n x k), Q = I - [I; V] T [I; V]^H as tpqrt leaves it: V pentagonal,
// its last l rows upper trapezoidal (0: a whole tile's, tsqrt's; k: a triangle's, ttqrt's).
// Block i reaches B's first rows (columns) down to the block's last row of V's triangle,
// as LAPACK's tpmqrt.
template <typename T, typename P>
void tpmqrt(P& p, Side side, Op trans, int m, int n, int k, int l, int ib, const T* v, int ldv, const T* t, int ldt,
            T* a, int lda, T* b, int ldb) {
    const bool left = side == Side::Left;
    const int across = left ? m : n;  // B's rows (columns) that V spans
    T* w = p.scratch(size_t(ib) * size_t(std::max(left ? n : m, 1)));
    qr_apply_detail::for_each_block(side, trans, k, ib, [&](int i, int kb) {
        const int reach = std::min(across - l + i + kb, across);
        const int lb = i + 1 >= l ? 0 : reach - across + l - i;
        const T* vi = v + int64_t(i) * ldv;
        const T* ti = t + int64_t(i) * ldt;
        if (left)
            qr_apply_detail::tprfb(p, side, trans, reach, n, kb, lb, vi, ldv, ti, ldt, a + i, lda, b, ldb, w);
        else
            qr_apply_detail::tprfb(p, side, trans, m, reach, kb, lb, vi, ldv, ti, ldt, a + int64_t(i) * lda, lda, b,
                                   ldb, w);
    });
}

// The inner block of a T factor (buffer 0 of every QR kernel): its rows, fewer where the
// tile has fewer reflectors.
inline int inner_block(void* factor, int reflectors) { return std::max(1, std::min(dims(factor).rows, reflectors)); }

// An update task of one tile (gemqrt, gemlqt) on device memory of `P`: buffer 0 the T factor,
// 1 the reflectors' tile V, then C whole or as a strip. apply(m, n, k, ib, V, ldv, T, ldt,
// C, ldc), C m x n, k = V's reflectors.
template <typename T, typename P, typename Apply>
void own_update(P& products, void* buffers[], const TileArgs<T>& p, Apply apply) {
    const TileRef t = dims(buffers[0]), v = dims(buffers[1]);
    const Strip<T, P> c(products, buffers, 2, int(STARPU_TASK_GET_NBUFFERS(p.task)) - 2, p.side == Side::Left);
    const int k = std::min(v.rows, v.cols);
    if (k == 0 || c.rows() == 0 || c.cols() == 0) return;
    apply(c.rows(), c.cols(), k, inner_block(buffers[0], k), data<T>(buffers[1]), v.ld, data<T>(buffers[0]), t.ld,
          c.data_ptr(), c.ld());
}

// An update task of a pair (tsmqrt, ttmqrt and LQ's): [A1; A2] = op(Q) [A1; A2] (Left) or
// [A1 A2] = [A1 A2] op(Q) (Right), Q the reflectors tpqrt (tplqt) left in V, k of them: A1's
// first k rows (columns) meet A2's rows (columns), all of them for a whole tile's
// reflectors, the first l of V's triangle for a triangle's. A1 and A2 whole, or strips of
// sub-tiles (A1's first_strip of them). apply(m, n, k, l, ib, V, ldv, T, ldt, A1, ld1, A2,
// ld2), A2 m x n as LAPACK's tpmqrt (tpmlqt) reads it.
template <typename T, typename P, typename Apply>
void pair_update(P& products, void* buffers[], const TileArgs<T>& p, bool lq, bool triangular, Apply apply) {
    const bool left = p.side == Side::Left;
    const int parts = int(STARPU_TASK_GET_NBUFFERS(p.task)) - 2;
    const Strip<T, P> s1(products, buffers, 2, p.first_strip, left),
        s2(products, buffers, 2 + p.first_strip, parts - p.first_strip, left);
    const TileRef t = dims(buffers[0]), v = dims(buffers[1]);
    const int k = lq ? v.rows : v.cols, l = triangular ? std::min(lq ? v.cols : v.rows, k) : 0;
    const int m = left && triangular ? l : s2.rows(), n = !left && triangular ? l : s2.cols();
    if (k == 0 || m == 0 || n == 0) return;
    apply(m, n, k, l, inner_block(buffers[0], k), data<T>(buffers[1]), v.ld, data<T>(buffers[0]), t.ld,
          s1.data_ptr(), s1.ld(), s2.data_ptr(), s2.ld());
}

}  // namespace grain::detail::kernels
