// CPU tile kernels on CBLAS and LAPACKE (single-threaded BLAS inside each task).
#include "cpu.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "blas.hpp"
#include "cpu_norms.hpp"  // the norms' kernel, which the table below names too
#include "cpu_panel.hpp"  // a panel spread over processes: getrf's share of it
#include "cpu_qr.hpp"  // QR's and LQ's kernels, likewise

namespace grain::detail::cpu {

using namespace kernels;

namespace {

// Triangles at most this wide are solved by the BLAS's trsm; wider ones are halved.
constexpr int trsm_leaf = 32;

// BLAS's trsm (op(A) X = alpha B, or X op(A) = alpha B), recursive on A's triangle: each
// half is solved in turn and the other half of B updated by one gemm, so that nearly all the
// flops run at gemm's rate (the BLAS's own trsm runs well below it on tiles). The half solved
// first is the one op(A)'s zero block does not couple to the other: the top one for a lower
// op(A) on the left or an upper one on the right, the bottom one otherwise.
template <typename T>
void trsm_recursive(Side side, Uplo uplo, Op trans, Diag diag, int m, int n, T alpha, const T* a, int lda,
                    T* b, int ldb) {
    const int k = side == Side::Left ? m : n;
    if (k <= trsm_leaf) {
        blas::trsm(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);
        return;
    }
    const int k1 = k / 2, k2 = k - k1;
    const T* a22 = a + k1 + int64_t(k1) * lda;
    // A's off-diagonal block, the one its triangle stores; op(A)'s is its op.
    const T* off = uplo == Uplo::Lower ? a + k1 : a + int64_t(k1) * lda;
    const bool lower = (uplo == Uplo::Lower) == (trans == Op::NoTrans);
    const bool top_first = (side == Side::Left) == lower;
    // B's two halves, by rows on the left, by columns on the right.
    T* b1 = b;
    T* b2 = side == Side::Left ? b + k1 : b + int64_t(k1) * ldb;
    const T* first_a = top_first ? a : a22;
    const T* second_a = top_first ? a22 : a;
    T* first_b = top_first ? b1 : b2;
    T* second_b = top_first ? b2 : b1;
    const int first_k = top_first ? k1 : k2, second_k = top_first ? k2 : k1;
    if (side == Side::Left) {
        trsm_recursive(side, uplo, trans, diag, first_k, n, alpha, first_a, lda, first_b, ldb);
        blas::gemm(trans, Op::NoTrans, second_k, n, first_k, T(-1), off, lda, first_b, ldb, alpha, second_b, ldb);
        trsm_recursive(side, uplo, trans, diag, second_k, n, T(1), second_a, lda, second_b, ldb);
    } else {
        trsm_recursive(side, uplo, trans, diag, m, first_k, alpha, first_a, lda, first_b, ldb);
        blas::gemm(Op::NoTrans, trans, m, second_k, first_k, T(-1), first_b, ldb, off, lda, alpha, second_b, ldb);
        trsm_recursive(side, uplo, trans, diag, m, second_k, T(1), second_a, lda, second_b, ldb);
    }
}

// LU without pivoting of an m x n column-major block, recursive on columns (the
// work is in trsm and gemm). Returns the first exactly zero pivot (1-based) or 0;
// a zero pivot's column is left unscaled, as LAPACK's getf2 does.
template <typename T>
int getrf_nopiv_recursive(int m, int n, T* a, int lda) {
    const int mn = std::min(m, n);
    if (mn == 0) return 0;
    if (mn == 1) {
        if (a[0] == T(0)) return 1;
        if (m > 1) blas::scal(m - 1, T(1) / a[0], a + 1, 1);
        return 0;
    }
    const int n1 = mn / 2, n2 = n - n1;
    T* a12 = a + int64_t(n1) * lda;
    int info = getrf_nopiv_recursive(m, n1, a, lda);
    trsm_recursive(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, n1, n2, T(1), a, lda, a12, lda);
    blas::gemm(Op::NoTrans, Op::NoTrans, m - n1, n2, n1, T(-1), a + n1, lda, a12, lda, T(1), a12 + n1, lda);
    const int info2 = getrf_nopiv_recursive(m - n1, n2, a12 + n1, lda);
    if (info == 0 && info2 != 0) info = info2 + n1;
    return info;
}

// Where line r of a column kernel's tiles (buffers 1..tiles, nb lines each but the last)
// is: its tile's buffer, and its place there. A row for laswp, a column for colswp.
std::pair<int, int> line_in_tiles(int r, int nb, int tiles) {
    const int t = std::min(r / nb, tiles - 1);
    return {1 + t, r - t * nb};
}

// The product U L of the two triangles one n x n block holds (U upper, L unit lower, as
// trtri leaves an LU's factors inverted), in place: halves, as U L's blocks are
// [U11 L11 + U12 L21, U12 L22; U22 L21, U22 L22], each block read before it is written.
template <typename T>
void trtrm_recursive(int n, T* a, int lda) {
    if (n <= 1) return;  // u11 * 1
    const int n1 = n / 2, n2 = n - n1;
    T* a12 = a + int64_t(n1) * lda;
    T* a21 = a + n1;
    T* a22 = a12 + n1;
    trtrm_recursive(n1, a, lda);
    blas::gemm(Op::NoTrans, Op::NoTrans, n1, n1, n2, T(1), a12, lda, a21, lda, T(1), a, lda);
    blas::trmm(Side::Right, Uplo::Lower, Op::NoTrans, Diag::Unit, n1, n2, T(1), a22, lda, a12, lda);
    blas::trmm(Side::Left, Uplo::Upper, Op::NoTrans, Diag::NonUnit, n2, n1, T(1), a22, lda, a21, lda);
    trtrm_recursive(n2, a22, lda);
}

}  // namespace

template <typename T>
void gemm(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]), c = dims(buffers[2]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    blas::gemm(p.transa, p.transb, c.rows, c.cols, k, p.alpha, data<T>(buffers[0]), a.ld,
               data<T>(buffers[1]), b.ld, p.beta, data<T>(buffers[2]), c.ld);
}

template <typename T>
void trsm(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]);
    trsm_recursive(p.side, p.uplo, p.transa, p.diag, b.rows, b.cols, p.alpha, data<T>(buffers[0]), a.ld,
                   data<T>(buffers[1]), b.ld);
}

template <typename T>
void trmm(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]);
    blas::trmm(p.side, p.uplo, p.transa, p.diag, b.rows, b.cols, p.alpha, data<T>(buffers[0]), a.ld,
               data<T>(buffers[1]), b.ld);
}

template <typename T>
void symm(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]), c = dims(buffers[2]);
    blas::symm(p.side, p.uplo, c.rows, c.cols, p.alpha, data<T>(buffers[0]), a.ld, data<T>(buffers[1]), b.ld, p.beta,
               data<T>(buffers[2]), c.ld);
}

template <typename T>
void hemm(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]), c = dims(buffers[2]);
    blas::hemm(p.side, p.uplo, c.rows, c.cols, p.alpha, data<T>(buffers[0]), a.ld, data<T>(buffers[1]), b.ld, p.beta,
               data<T>(buffers[2]), c.ld);
}

template <typename T>
void syr2k(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]), c = dims(buffers[2]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    blas::syr2k(p.uplo, p.transa, c.rows, k, p.alpha, data<T>(buffers[0]), a.ld, data<T>(buffers[1]), b.ld, p.beta,
                data<T>(buffers[2]), c.ld);
}

// beta is real (her2k's): its imaginary part is zero.
template <typename T>
void her2k(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]), c = dims(buffers[2]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    blas::her2k(p.uplo, p.transa, c.rows, k, p.alpha, data<T>(buffers[0]), a.ld, data<T>(buffers[1]), b.ld,
                std::real(p.beta), data<T>(buffers[2]), c.ld);
}

template <typename T>
void syrk(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), c = dims(buffers[1]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    blas::syrk(p.uplo, p.transa, c.rows, k, p.alpha, data<T>(buffers[0]), a.ld, p.beta,
               data<T>(buffers[1]), c.ld);
}

// alpha and beta are real (herk's): their imaginary parts are zero.
template <typename T>
void herk(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), c = dims(buffers[1]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    blas::herk(p.uplo, p.transa, c.rows, k, std::real(p.alpha), data<T>(buffers[0]), a.ld, std::real(p.beta),
               data<T>(buffers[1]), c.ld);
}

template <typename T>
void potrf(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]);
    const int info = blas::potrf(p.uplo, a.rows, data<T>(buffers[0]), a.ld);
    if (info > 0) p.request->report_info(p.col_offset + info);
}

// LAPACK's trtri leaves a tile with an exactly zero diagonal element as it was.
template <typename T>
void trtri(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]);
    const int info = blas::trtri(p.uplo, p.diag, a.rows, data<T>(buffers[0]), a.ld);
    if (info > 0) p.request->report_info(p.col_offset + info);
}

template <typename T>
void lauum(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]);
    blas::lauum(p.uplo, a.rows, data<T>(buffers[0]), a.ld);
}

template <typename T>
void getrf_nopiv(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]);
    const int info = getrf_nopiv_recursive(a.rows, a.cols, data<T>(buffers[0]), a.ld);
    if (info > 0) p.request->report_info(p.col_offset + info);
}

template <typename T>
void scale(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef c = dims(buffers[0]);
    T* x = data<T>(buffers[0]);
    for (int j = 0; j < c.cols; ++j) {
        const auto [first, last] = scaled_rows(p, j, c.rows);
        for (int i = first; i < last; ++i) x[i + int64_t(j) * c.ld] *= p.alpha;
        if (p.real_diagonal && j < c.rows) x[j + int64_t(j) * c.ld] = std::real(x[j + int64_t(j) * c.ld]);
    }
}

// LU with partial pivoting of a column of tiles (buffers 1..n, the panel of one step):
// LAPACK's getrf on the column, in place where it is one column-major block, else on a
// contiguous copy (the pivot search spans the column's tiles). The pivots (buffer 0)
// become global, as info (the first exactly zero pivot) does. The panel still completes,
// as LAPACK's does.
template <typename T>
void getrf(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    if (p.share) return getrf_share(buffers, p);
    const int tiles = column_tiles(p.task), rows = column_rows(buffers, p.task);
    const int cols = dims(buffers[1]).cols;
    std::vector<T> panel;
    auto copy = [&](bool in) {
        panel.resize(size_t(rows) * size_t(cols));
        for (int t = 1, first = 0; t <= tiles; first += dims(buffers[t]).rows, ++t) {
            const TileRef d = dims(buffers[t]);
            T* tile = data<T>(buffers[t]);
            for (int j = 0; j < cols; ++j) {
                T* x = tile + int64_t(j) * d.ld;
                T* y = panel.data() + int64_t(j) * rows + first;
                in ? std::copy(x, x + d.rows, y) : std::copy(y, y + d.rows, x);
            }
        }
    };
    // Tiles of a user's column-major array (one leading dimension, each tile's rows
    // right after the last's) are the panel itself: no copy.
    bool in_place = true;
    for (int t = 2; t <= tiles; ++t)
        in_place = in_place && dims(buffers[t]).ld == dims(buffers[1]).ld &&
                   data<T>(buffers[t]) == data<T>(buffers[t - 1]) + dims(buffers[t - 1]).rows;
    int* ipiv = pivots(buffers[0]);
    static_assert(sizeof(lapack_int) == sizeof(int), "pivot blocks hold LAPACK's integers");
    int info = 0;
    if (in_place) {
        info = blas::getrf(rows, cols, data<T>(buffers[1]), dims(buffers[1]).ld, ipiv);
    } else {
        copy(true);
        info = blas::getrf(rows, cols, panel.data(), std::max(rows, 1), ipiv);
        copy(false);
    }
    for (int i = 0; i < pivot_count(buffers[0]); ++i) ipiv[i] += int(p.row_offset);
    if (info > 0) p.request->report_info(p.col_offset + info);
}

// Row interchanges of one step (the pivot block, buffer 0) on a column of tiles (buffers
// 1..n) whose first row is the step's first: LAPACK's laswp across tiles; in reverse
// order with transa = Trans. Column by column, as LAPACK's: the rows of a tile are
// strided, its columns contiguous (row by row is slower: doc/results/2026-11-27-getrf-cores.md).
template <typename T>
void laswp(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const int tiles = column_tiles(p.task);
    const int nb = dims(buffers[1]).rows;  // every tile of the column but the last
    const int cols = dims(buffers[1]).cols;
    struct Row {
        T* first;  // the row's element in column 0
        int64_t ld;
    };
    auto row = [&](int r) {
        const auto [b, i] = line_in_tiles(r, nb, tiles);
        return Row{data<T>(buffers[b]) + i, dims(buffers[b]).ld};
    };
    const int* ipiv = pivots(buffers[0]);
    const int count = pivot_count(buffers[0]);
    std::vector<std::pair<Row, Row>> swaps;  // in the order they apply
    for (int step = 0; step < count; ++step) {
        const int i = p.transa == Op::Trans ? count - 1 - step : step;  // P^T: in reverse
        const int k = ipiv[i] - 1 - int(p.row_offset);
        if (k != i) swaps.push_back({row(i), row(k)});
    }
    // The pivot rows are in random order, so each swap's first touch of a cache line
    // would wait on memory: reading the column in order first lets the hardware
    // prefetcher stream it, and the swaps then hit the cache.
    constexpr int line = std::max(1, int(64 / sizeof(T)));  // elements per cache line
    volatile real_type<T> sink = 0;
    for (int j = 0; j < cols; ++j) {
        real_type<T> sum = 0;
        for (int t = 1; t <= tiles; ++t) {
            const TileRef d = dims(buffers[t]);
            const T* x = data<T>(buffers[t]) + int64_t(j) * d.ld;
            for (int i = 0; i < d.rows; i += line) sum += std::real(x[i]);
        }
        sink = sum;
        for (const auto& [x, y] : swaps) std::swap(x.first[j * x.ld], y.first[j * y.ld]);
    }
    (void)sink;
}

template <typename T>
void trtrm(void* buffers[], void*) {
    const TileRef a = dims(buffers[0]);
    trtrm_recursive(a.rows, data<T>(buffers[0]), a.ld);
}

// Column interchanges of one step (the pivot block, buffer 0), in reverse order, on a row
// of tiles (buffers 1..n) whose first column is the step's first: getri's last phase,
// A P. Columns are contiguous: each swap exchanges two runs of memory.
template <typename T>
void colswp(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const int tiles = column_tiles(p.task);
    const int nb = dims(buffers[1]).cols;  // every tile of the row but the last
    const int rows = dims(buffers[1]).rows;
    auto column = [&](int c) {
        const auto [b, j] = line_in_tiles(c, nb, tiles);
        return data<T>(buffers[b]) + int64_t(j) * dims(buffers[b]).ld;
    };
    const int* ipiv = pivots(buffers[0]);
    for (int i = pivot_count(buffers[0]) - 1; i >= 0; --i) {
        const int k = ipiv[i] - 1 - int(p.row_offset);
        if (k != i) std::swap_ranges(column(i), column(i) + rows, column(k));
    }
}

// The rows and columns the two tiles share, copied from the first into the second; with
// whole_tile, the rest of the second zeroed.
template <typename T>
void lacpy(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]);
    const T* x = data<T>(buffers[0]);
    T* y = data<T>(buffers[1]);
    for (int j = 0; j < b.cols; ++j)
        for (int i = 0; i < b.rows; ++i) {
            const bool shared = i < a.rows && j < a.cols;
            if (shared) y[i + int64_t(j) * b.ld] = x[i + int64_t(j) * a.ld];
            else if (p.whole_tile) y[i + int64_t(j) * b.ld] = T(0);
        }
}

template <typename T>
void laset(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]);
    T* x = data<T>(buffers[0]);
    for (int j = 0; j < a.cols; ++j) std::fill(x + int64_t(j) * a.ld, x + int64_t(j) * a.ld + a.rows, T(0));
    for (int i = 0; i < std::min(a.rows, a.cols); ++i) x[i + int64_t(i) * a.ld] = p.alpha;
}

// Where a triangular solve would divide by zero: LAPACK's trtrs reports it as info.
template <typename T>
void trzero(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]);
    const T* x = data<T>(buffers[0]);
    for (int i = 0; i < std::min(a.rows, a.cols); ++i)
        if (x[i + int64_t(i) * a.ld] == T(0)) return p.request->report_info(p.col_offset + i + 1);
}

// 2^exponent times the first tile in its paired precision, into the second (its uplo
// triangle only when not whole_tile), or added to it (beta 1: a refinement's x + dx); the
// product, exact, in the wider precision. Narrowing, an element beyond the narrower type's largest reports
// info 1, as LAPACK's dlag2s: the conversion would overflow; its part is then inf, as the
// other elements still convert.
template <typename T>
void lag2(void* buffers[], void* cl_arg) {
    using U = paired_t<T>;
    constexpr bool narrows = sizeof(U) < sizeof(T);
    using W = std::conditional_t<narrows, T, U>;
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), b = dims(buffers[1]);
    const T* x = data<T>(buffers[0]);
    U* y = data<U>(buffers[1]);
    const real_t<W> scale = std::ldexp(real_t<W>(1), p.exponent);
    const real_t<W> limit = real_t<W>(std::numeric_limits<real_t<U>>::max());
    const auto beyond = [&](real_t<W> v) { return narrows && (v > limit || v < -limit); };
    bool overflow = false;
    for (int j = 0; j < b.cols; ++j) {
        const auto [first, last] = scaled_rows(p, j, std::min(a.rows, b.rows));
        for (int i = first; i < last; ++i) {
            const W v = W(x[i + int64_t(j) * a.ld]) * scale;
            if constexpr (scalar_traits<T>::is_complex)
                overflow = overflow || beyond(v.real()) || beyond(v.imag());
            else
                overflow = overflow || beyond(v);
            U& out = y[i + int64_t(j) * b.ld];
            out = U(v) + (p.beta == T(0) ? U(0) : out);
        }
    }
    if (overflow) p.request->report_info(1);
}

GRAIN_DEFINE_KERNEL_FUNCTIONS(GRAIN_CPU_KERNEL)

}  // namespace grain::detail::cpu
