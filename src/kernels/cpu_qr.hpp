#pragma once
// The CPU tile kernels of QR and LQ, on LAPACK's tile routines: included by cpu.cpp, whose
// kernel table names them.
#include <algorithm>
#include <vector>

#include "blas.hpp"
#include "qr_apply.hpp"
#include "tile_kernels.hpp"

namespace grain::detail::cpu {

using namespace kernels;

// QR's and LQ's tile kernels (LQ's are QR's on the conjugate transpose: rows for columns).
// Buffer 0 is a tile's T factor: its rows are the inner block ib, by which the reflectors
// are grouped (fewer where the tile has fewer reflectors); the tiles follow. A tile's
// k = min(rows, cols) reflectors are in it below its diagonal (QR; above it for LQ) with
// R above (L below), or fill it (tsqrt, tslqt), or its upper (lower) triangle (ttqrt,
// ttlqt).

// The host's products for the updates' strips (qr_apply.hpp), and for its products-only
// updates, which the tests hold to LAPACK's gemqrt and tpmqrt.
template <typename T>
class HostProducts {
public:
    void gemm(Op ta, Op tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c,
              int ldc) {
        blas::gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }
    void trmm(Side s, Uplo u, Op t, Diag d, int m, int n, T alpha, const T* a, int lda, T* b, int ldb) {
        blas::trmm(s, u, t, d, m, n, alpha, a, lda, b, ldb);
    }
    void copy(int m, int n, const T* a, int lda, T* b, int ldb) {
        for (int j = 0; j < n; ++j) std::copy_n(a + int64_t(j) * lda, m, b + int64_t(j) * ldb);
    }
    void add(int m, int n, T alpha, const T* a, int lda, T* b, int ldb) {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) b[i + int64_t(j) * ldb] += alpha * a[i + int64_t(j) * lda];
    }
    T* scratch(size_t count) {
        blocks_.emplace_back(std::max<size_t>(count, 1));
        return blocks_.back().data();
    }

private:
    std::vector<std::vector<T>> blocks_;  // a moved vector keeps its data where it was
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
    HostProducts<T> host;
    own_update<T>(host, buffers, p, [&](int m, int n, int k, int ib, const T* v, int ldv, const T* t, int ldt, T* c, int ldc) {
        if constexpr (lq)
            blas::gemlqt(p.side, p.transa, m, n, k, ib, v, ldv, t, ldt, c, ldc);
        else
            blas::gemqrt(p.side, p.transa, m, n, k, ib, v, ldv, t, ldt, c, ldc);
    });
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

// The update of a pair (qr_apply.hpp's pair_update) by LAPACK's tpmqrt (tpmlqt).
template <typename T, bool lq>
void pair_mqrt(void* buffers[], void* cl_arg, bool triangular) {
    const TileArgs<T>& p = args<T>(cl_arg);
    HostProducts<T> host;
    pair_update<T>(host, buffers, p, lq, triangular,
                   [&](int m, int n, int k, int l, int ib, const T* vs, int ldv, const T* ts, int ldt, T* x1, int ld1,
                       T* x2, int ld2) {
        if constexpr (lq) {
            if (p.side == Side::Left && triangular) {
                // LAPACK's tpmlqt (3.11, OpenBLAS 0.3.21) is wrong on the left with a triangle:
                // op(Q) [A1; A2] is ([A1^H A2^H] op(Q)^H)^H, on the right, where it is right.
                const auto adjoint = [](int rows, int cols, const T* x, int ldx, T* y, int ldy) {
                    for (int j = 0; j < cols; ++j)
                        for (int i = 0; i < rows; ++i) y[j + int64_t(i) * ldy] = conj(x[i + int64_t(j) * ldx]);
                };
                std::vector<T> y1(size_t(n) * size_t(k)), y2(size_t(n) * size_t(m));
                adjoint(k, n, x1, ld1, y1.data(), n);
                adjoint(m, n, x2, ld2, y2.data(), n);
                const Op back = p.transa == Op::NoTrans ? conj_trans<T>() : Op::NoTrans;
                blas::tpmlqt(Side::Right, back, n, m, k, l, ib, vs, ldv, ts, ldt, y1.data(), n, y2.data(), n);
                adjoint(n, k, y1.data(), n, x1, ld1);
                adjoint(n, m, y2.data(), n, x2, ld2);
            } else {
                blas::tpmlqt(p.side, p.transa, m, n, k, l, ib, vs, ldv, ts, ldt, x1, ld1, x2, ld2);
            }
        } else {
            blas::tpmqrt(p.side, p.transa, m, n, k, l, ib, vs, ldv, ts, ldt, x1, ld1, x2, ld2);
        }
    });
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
