// Norms: lange, lansy, lanhe and lantr, one plan for all four. A norm is a value, not an
// update: the synchronous forms only.
#include "call.hpp"
#include "grain/runtime.hpp"
#include "layout_call.hpp"

namespace grain {

using algorithms::NormShape;
using detail::Context;
using detail::Plan;

namespace {

// The norm of the elements of A that `shape` reads: each tile's partial results in a tile
// of its own, on the process holding A's, reduced on the host.
template <typename T>
real_type<T> norm_of(const char* routine, Norm norm, NormShape shape, const Matrix<T>& A) {
    Plan<T> p(routine, {&A}, {int64_t(norm), int64_t(shape.uplo), int64_t(shape.diag)});
    norm = detail::checked(routine, "norm", norm);
    if (shape.kind != NormShape::General) shape.uplo = detail::checked(routine, "uplo", shape.uplo);
    if (shape.kind == NormShape::Triangular) shape.diag = detail::checked(routine, "diag", shape.diag);
    detail::require_runtime(routine);
    if (shape.kind == NormShape::Symmetric || shape.kind == NormShape::Hermitian) detail::require_square(routine, "A", A);
    const int side = algorithms::lange_workspace_side(A.nb());
    const int64_t m = int64_t(A.mt()) * side, n = int64_t(A.nt()) * side;
    const Matrix<T> W = A.distributed()
                            ? Matrix<T>(m, n, side, Distribution::custom(Runtime::ranks(), [A](int64_t i, int64_t j) {
                                            return A.tile_rank(int(i), int(j));
                                        }))
                            : Matrix<T>(m, n, side);
    p.step({&W}, [norm, shape, &A, &W](const Context& ctx) { algorithms::lange(ctx, norm, shape, A, W); });
    detail::finish(p);
    std::vector<T> w(size_t(m) * size_t(n));
    W.to_lapack(w.data(), std::max<int64_t>(m, 1));
    return algorithms::lange_value(norm, shape, A, w.data(), std::max<int64_t>(m, 1));
}

// The LAPACK-layout forms: the m x n array as a matrix, then the tiled form.
template <typename T>
real_type<T> norm_of(const char* routine, Norm norm, NormShape shape, int64_t m, int64_t n, const T* a, int64_t lda) {
    detail::LayoutCall<T> call(routine, Workload::Product);
    norm = detail::checked(routine, "norm", norm);
    detail::require_size(routine, "m", m), detail::require_size(routine, "n", n);
    const Matrix<T> A = call.wrap("lda", m, n, a, lda, call.scales(std::max(m, n)));
    real_type<T> value = 0;
    call.run([&] {
        value = norm_of(routine, norm, shape, A);
        return 0;
    });
    return value;
}

NormShape symmetric(Uplo uplo, bool hermitian) {
    return {hermitian ? NormShape::Hermitian : NormShape::Symmetric, uplo, Diag::NonUnit};
}

}  // namespace

template <typename T>
real_type<T> lange(Norm norm, const Matrix<T>& A) {
    return norm_of("grain::lange", norm, NormShape{}, A);
}

template <typename T>
real_type<T> lansy(Norm norm, Uplo uplo, const Matrix<T>& A) {
    return norm_of("grain::lansy", norm, symmetric(uplo, false), A);
}

template <typename T>
real_type<T> lanhe(Norm norm, Uplo uplo, const Matrix<T>& A) {
    return norm_of("grain::lanhe", norm, symmetric(uplo, true), A);
}

template <typename T>
real_type<T> lantr(Norm norm, Uplo uplo, Diag diag, const Matrix<T>& A) {
    return norm_of("grain::lantr", norm, NormShape{NormShape::Triangular, uplo, diag}, A);
}

template <typename T>
real_type<T> lange(Norm norm, int64_t m, int64_t n, const T* a, int64_t lda) {
    return norm_of("grain::lange", norm, NormShape{}, m, n, a, lda);
}

template <typename T>
real_type<T> lansy(Norm norm, Uplo uplo, int64_t n, const T* a, int64_t lda) {
    return norm_of("grain::lansy", norm, symmetric(uplo, false), n, n, a, lda);
}

template <typename T>
real_type<T> lanhe(Norm norm, Uplo uplo, int64_t n, const T* a, int64_t lda) {
    return norm_of("grain::lanhe", norm, symmetric(uplo, true), n, n, a, lda);
}

template <typename T>
real_type<T> lantr(Norm norm, Uplo uplo, Diag diag, int64_t m, int64_t n, const T* a, int64_t lda) {
    return norm_of("grain::lantr", norm, NormShape{NormShape::Triangular, uplo, diag}, m, n, a, lda);
}

#define GRAIN_INSTANTIATE(T)                                                                  \
    template real_type<T> lange<T>(Norm, const Matrix<T>&);                                   \
    template real_type<T> lansy<T>(Norm, Uplo, const Matrix<T>&);                             \
    template real_type<T> lanhe<T>(Norm, Uplo, const Matrix<T>&);                             \
    template real_type<T> lantr<T>(Norm, Uplo, Diag, const Matrix<T>&);                       \
    template real_type<T> lange<T>(Norm, int64_t, int64_t, const T*, int64_t);                \
    template real_type<T> lansy<T>(Norm, Uplo, int64_t, const T*, int64_t);                   \
    template real_type<T> lanhe<T>(Norm, Uplo, int64_t, const T*, int64_t);                   \
    template real_type<T> lantr<T>(Norm, Uplo, Diag, int64_t, int64_t, const T*, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
