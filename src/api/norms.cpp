// Norms: lange. A norm is a value, not an update: the synchronous forms only.
#include "call.hpp"
#include "grain/runtime.hpp"
#include "layout_call.hpp"

namespace grain {

using detail::Context;
using detail::Plan;

template <typename T>
real_type<T> lange(Norm norm, const Matrix<T>& A) {
    Plan<T> p("grain::lange", {&A}, {int64_t(norm)});
    norm = detail::checked(p.routine, "norm", norm);
    detail::require_runtime(p.routine);
    // The tiles' partial results, each in a tile of its own on the process holding A's.
    const int side = algorithms::lange_workspace_side(A.nb());
    const int64_t m = int64_t(A.mt()) * side, n = int64_t(A.nt()) * side;
    const Matrix<T> W = A.distributed()
                            ? Matrix<T>(m, n, side, Distribution::custom(Runtime::ranks(), [A](int64_t i, int64_t j) {
                                            return A.tile_rank(int(i), int(j));
                                        }))
                            : Matrix<T>(m, n, side);
    p.step({&W}, [norm, &A, &W](const Context& ctx) { algorithms::lange(ctx, norm, A, W); });
    detail::finish(p);
    std::vector<T> w(size_t(m) * size_t(n));
    W.to_lapack(w.data(), std::max<int64_t>(m, 1));
    return algorithms::lange_value(norm, A, w.data(), std::max<int64_t>(m, 1));
}

template <typename T>
real_type<T> lange(Norm norm, int64_t m, int64_t n, const T* a, int64_t lda) {
    detail::LayoutCall<T> call("grain::lange", Workload::Product);
    norm = detail::checked(call.routine(), "norm", norm);
    detail::require_size(call.routine(), "m", m), detail::require_size(call.routine(), "n", n);
    const Matrix<T> A = call.wrap("lda", m, n, a, lda, call.scales(std::max(m, n)));
    real_type<T> value = 0;
    call.run([&] {
        value = lange(norm, A);
        return 0;
    });
    return value;
}

#define GRAIN_INSTANTIATE(T)                                       \
    template real_type<T> lange<T>(Norm, const Matrix<T>&);        \
    template real_type<T> lange<T>(Norm, int64_t, int64_t, const T*, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
