// Inversion: trtri, lauum, potri (trtri then lauum on potrf's factor) and poinv (potrf,
// trtri and lauum as one task graph). One plan each (call.hpp).
#include "call.hpp"
#include "layout_call.hpp"

namespace grain {

using detail::Context;
using detail::Plan;

namespace {

using namespace detail;

// A routine on the uplo triangle of square A, its arguments agreed on.
template <typename T>
Plan<T> triangle_plan(const char* routine, Uplo& uplo, Matrix<T>& A, std::initializer_list<int64_t> arguments) {
    Plan<T> p(routine, {&A}, arguments);
    uplo = checked(routine, "uplo", uplo);
    require_runtime(routine);
    require_square(routine, "A", A);
    return p;
}

template <typename T>
Plan<T> trtri_plan(Uplo uplo, Diag diag, Matrix<T>& A) {
    Plan<T> p = triangle_plan("grain::trtri", uplo, A, {int64_t(uplo), int64_t(diag)});
    diag = checked(p.routine, "diag", diag);
    p.check_nan({{&A, triangle(uplo), 4}});
    p.step({&A}, [uplo, diag, &A](const Context& ctx) { algorithms::trtri(ctx, uplo, diag, A); });
    return p;
}

template <typename T>
Plan<T> lauum_plan(Uplo uplo, Matrix<T>& A) {
    Plan<T> p = triangle_plan("grain::lauum", uplo, A, {int64_t(uplo)});
    p.check_nan({{&A, triangle(uplo), 3}});
    p.step({&A}, [uplo, &A](const Context& ctx) { algorithms::lauum(ctx, uplo, A); });
    return p;
}

// potri (the factor's inverse, then its product with its adjoint) and poinv (`factor`
// first): one step, so that the phases' tasks are submitted together and each tile's run
// as soon as its own inputs are ready. Only the first phases report info, and lauum's
// tasks on a failed factor change nothing that is defined.
template <typename T>
Plan<T> inverse_plan(const char* routine, bool factor, Uplo uplo, Matrix<T>& A) {
    Plan<T> p = triangle_plan(routine, uplo, A, {int64_t(uplo)});
    p.check_nan({{&A, triangle(uplo), 3}});
    p.step({&A}, [factor, uplo, &A](const Context& ctx) {
        if (factor) algorithms::potrf(ctx, uplo, A);
        algorithms::trtri(ctx, uplo, Diag::NonUnit, A);
        algorithms::lauum(ctx, uplo, A);
    });
    return p;
}

template <typename T>
Plan<T> potri_plan(Uplo uplo, Matrix<T>& A) {
    return inverse_plan("grain::potri", false, uplo, A);
}

template <typename T>
Plan<T> poinv_plan(Uplo uplo, Matrix<T>& A) {
    return inverse_plan("grain::poinv", true, uplo, A);
}

// The LAPACK-layout forms: the array as a matrix, then the tiled form.
template <typename T, typename Tiled>
int on_triangle(const char* routine, Uplo uplo, int64_t n, T* a, int64_t lda, Tiled tiled) {
    LayoutCall<T> call(routine, Workload::Cholesky);
    uplo = checked(routine, "uplo", uplo);
    require_size(routine, "n", n);
    Matrix<T> A = call.wrap("lda", n, n, a, lda, call.scales(n));
    return call.run([&] { return tiled(uplo, A); });
}

}  // namespace

GRAIN_TILED_FORMS(trtri, (Uplo uplo, Diag diag, Matrix<T>& A), (uplo, diag, A))
GRAIN_TILED_FORMS(lauum, (Uplo uplo, Matrix<T>& A), (uplo, A))
GRAIN_TILED_FORMS(potri, (Uplo uplo, Matrix<T>& A), (uplo, A))
GRAIN_TILED_FORMS(poinv, (Uplo uplo, Matrix<T>& A), (uplo, A))

template <typename T>
int trtri(Uplo uplo, Diag diag, int64_t n, T* a, int64_t lda) {
    return on_triangle("grain::trtri", uplo, n, a, lda, [diag](Uplo u, Matrix<T>& A) { return trtri(u, diag, A); });
}

template <typename T>
int lauum(Uplo uplo, int64_t n, T* a, int64_t lda) {
    return on_triangle("grain::lauum", uplo, n, a, lda, [](Uplo u, Matrix<T>& A) { return lauum(u, A); });
}

template <typename T>
int potri(Uplo uplo, int64_t n, T* a, int64_t lda) {
    return on_triangle("grain::potri", uplo, n, a, lda, [](Uplo u, Matrix<T>& A) { return potri(u, A); });
}

template <typename T>
int poinv(Uplo uplo, int64_t n, T* a, int64_t lda) {
    return on_triangle("grain::poinv", uplo, n, a, lda, [](Uplo u, Matrix<T>& A) { return poinv(u, A); });
}

#define GRAIN_INSTANTIATE(T)                                                                                    \
    template Request trtri_async<T>(Uplo, Diag, Matrix<T>&);                                                    \
    template int trtri<T>(Uplo, Diag, Matrix<T>&);                                                              \
    template int trtri<T>(Uplo, Diag, int64_t, T*, int64_t);                                                    \
    template Request lauum_async<T>(Uplo, Matrix<T>&);                                                          \
    template int lauum<T>(Uplo, Matrix<T>&);                                                                    \
    template int lauum<T>(Uplo, int64_t, T*, int64_t);                                                          \
    template Request potri_async<T>(Uplo, Matrix<T>&);                                                          \
    template int potri<T>(Uplo, Matrix<T>&);                                                                    \
    template int potri<T>(Uplo, int64_t, T*, int64_t);                                                          \
    template Request poinv_async<T>(Uplo, Matrix<T>&);                                                          \
    template int poinv<T>(Uplo, Matrix<T>&);                                                                    \
    template int poinv<T>(Uplo, int64_t, T*, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
