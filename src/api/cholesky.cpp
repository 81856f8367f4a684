// Cholesky: potrf, potrs and posv (factor, then solve). One plan each (call.hpp).
#include "call.hpp"
#include "layout_call.hpp"

namespace grain {

using detail::Context;
using detail::Plan;

namespace {

using namespace detail;

template <typename T>
Plan<T> potrf_plan(Uplo uplo, Matrix<T>& A) {
    Plan<T> p("grain::potrf", {&A}, {int64_t(uplo)});
    uplo = checked(p.routine, "uplo", uplo);
    require_runtime(p.routine);
    require_square(p.routine, "A", A);
    p.check_nan({{&A, triangle(uplo), 3}});
    p.step({&A}, [uplo, &A](const Context& ctx) { algorithms::potrf(ctx, uplo, A); });
    return p;
}

// potrs, and posv's solve: A factored by potrf.
template <typename T>
Plan<T> solve_plan(const char* routine, bool factor, Uplo uplo, Matrix<T>& A, Matrix<T>& B) {
    Plan<T> p(routine, {&A, &B}, {int64_t(uplo)});
    uplo = checked(routine, "uplo", uplo);
    check_solve(routine, A, B);
    p.check_nan({{&A, triangle(uplo), 4}, {&B, Elements::All, 6}});
    if (factor) p.step({&A}, [uplo, &A](const Context& ctx) { algorithms::potrf(ctx, uplo, A); });
    p.step({&B}, [uplo, &A, &B](const Context& ctx) { algorithms::potrs(ctx, uplo, A, B); });
    return p;
}

template <typename T>
Plan<T> potrs_plan(Uplo uplo, const Matrix<T>& A, Matrix<T>& B) {
    // Only read: potrs submits no task that writes A.
    return solve_plan("grain::potrs", false, uplo, const_cast<Matrix<T>&>(A), B);
}

template <typename T>
Plan<T> posv_plan(Uplo uplo, Matrix<T>& A, Matrix<T>& B) {
    return solve_plan("grain::posv", true, uplo, A, B);
}

}  // namespace

GRAIN_TILED_FORMS(potrf, (Uplo uplo, Matrix<T>& A), (uplo, A))
GRAIN_TILED_FORMS(potrs, (Uplo uplo, const Matrix<T>& A, Matrix<T>& B), (uplo, A, B))
GRAIN_TILED_FORMS(posv, (Uplo uplo, Matrix<T>& A, Matrix<T>& B), (uplo, A, B))

template <typename T>
int potrf(Uplo uplo, int64_t n, T* a, int64_t lda) {
    detail::LayoutCall<T> call("grain::potrf", Workload::Cholesky);
    uplo = detail::checked(call.routine(), "uplo", uplo);
    detail::require_size(call.routine(), "n", n);
    const std::vector<int> scales = call.scales(n);
    Matrix<T> A = call.wrap("lda", n, n, a, lda, scales);
    return call.run([&] { return potrf(uplo, A); });
}

template <typename T>
int potrs(Uplo uplo, int64_t n, int64_t nrhs, const T* a, int64_t lda, T* b, int64_t ldb) {
    detail::LayoutCall<T> call("grain::potrs", Workload::Cholesky);
    uplo = detail::checked(call.routine(), "uplo", uplo);
    return detail::layout_solve(call, n, nrhs, a, lda, b, ldb,
                                [&](const Matrix<T>& A, Matrix<T>& B) { return potrs(uplo, A, B); });
}

template <typename T>
int posv(Uplo uplo, int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb) {
    detail::LayoutCall<T> call("grain::posv", Workload::Cholesky);
    uplo = detail::checked(call.routine(), "uplo", uplo);
    return detail::layout_solve(call, n, nrhs, a, lda, b, ldb,
                                [&](Matrix<T>& A, Matrix<T>& B) { return posv(uplo, A, B); });
}

#define GRAIN_INSTANTIATE(T)                                                                                    \
    template Request potrf_async<T>(Uplo, Matrix<T>&);                                                          \
    template int potrf<T>(Uplo, Matrix<T>&);                                                                    \
    template int potrf<T>(Uplo, int64_t, T*, int64_t);                                                          \
    template Request potrs_async<T>(Uplo, const Matrix<T>&, Matrix<T>&);                                        \
    template int potrs<T>(Uplo, const Matrix<T>&, Matrix<T>&);                                                  \
    template int potrs<T>(Uplo, int64_t, int64_t, const T*, int64_t, T*, int64_t);                              \
    template Request posv_async<T>(Uplo, Matrix<T>&, Matrix<T>&);                                               \
    template int posv<T>(Uplo, Matrix<T>&, Matrix<T>&);                                                         \
    template int posv<T>(Uplo, int64_t, int64_t, T*, int64_t, T*, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
