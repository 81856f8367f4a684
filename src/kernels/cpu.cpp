// CPU tile kernels on CBLAS and LAPACKE (single-threaded BLAS inside each task).
#include "cpu.hpp"

#include <algorithm>

#include "blas.hpp"

namespace grain::detail::cpu {

using namespace kernels;

namespace {

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
    blas::trsm(Side::Left, Uplo::Lower, Op::NoTrans, Diag::Unit, n1, n2, T(1), a, lda, a12, lda);
    blas::gemm(Op::NoTrans, Op::NoTrans, m - n1, n2, n1, T(-1), a + n1, lda, a12, lda, T(1), a12 + n1, lda);
    const int info2 = getrf_nopiv_recursive(m - n1, n2, a12 + n1, lda);
    if (info == 0 && info2 != 0) info = info2 + n1;
    return info;
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
    blas::trsm(p.side, p.uplo, p.transa, p.diag, b.rows, b.cols, p.alpha, data<T>(buffers[0]), a.ld,
               data<T>(buffers[1]), b.ld);
}

template <typename T>
void syrk(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]), c = dims(buffers[1]);
    const int k = p.transa == Op::NoTrans ? a.cols : a.rows;
    blas::syrk(p.uplo, p.transa, c.rows, k, p.alpha, data<T>(buffers[0]), a.ld, p.beta,
               data<T>(buffers[1]), c.ld);
}

template <typename T>
void potrf(void* buffers[], void* cl_arg) {
    const TileArgs<T>& p = args<T>(cl_arg);
    const TileRef a = dims(buffers[0]);
    const int info = blas::potrf(p.uplo, a.rows, data<T>(buffers[0]), a.ld);
    if (info > 0) p.request->report_info(p.col_offset + info);
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
    }
}

GRAIN_DEFINE_KERNEL_FUNCTIONS

}  // namespace grain::detail::cpu
