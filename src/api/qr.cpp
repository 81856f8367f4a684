// QR: geqrf and unmqr (the tile QR and the application of its Q). One plan each (call.hpp).
#include "call.hpp"
#include "src/starpu/qr_storage.hpp"

namespace grain {

using detail::Context;
using detail::Plan;

namespace {

using namespace detail;

template <typename T>
Plan<T> geqrf_plan(Matrix<T>& A, QrFactors<T>& F) {
    Plan<T> p("grain::geqrf", {&A});
    require_local(p.routine, A);
    require_runtime(p.routine);
    QrStorage<T>& storage = QrAccess::storage(F);
    storage.shape_for(A.m(), A.n(), A.nb());
    p.check_nan({{&A, Elements::All, 3}});
    p.step({&A}, [&A, &storage](const Context& ctx) { algorithms::geqrf(ctx, A, storage); });
    return p;
}

template <typename T>
Plan<T> unmqr_plan(Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& C) {
    Plan<T> p("grain::unmqr", {const_cast<Matrix<T>*>(&A), &C}, {int64_t(side), int64_t(trans)});
    require_local(p.routine, A);
    require_local(p.routine, C);
    require_runtime(p.routine);
    side = checked(p.routine, "side", side);
    trans = checked<T>(p.routine, "trans", trans);
    require(trans == Op::NoTrans || trans == conj_trans<T>(), p.routine, "trans", std::string(1, char(trans)),
            "must be NoTrans or ConjTrans (Q has no transpose of its own in complex precisions)");
    QrStorage<T>& storage = QrAccess::storage(F);
    require(storage.fits(A.m(), A.n(), A.nb()), p.routine, "F", "not A's",
            "must hold the factors geqrf computed on A");
    const int64_t order = side == Side::Left ? C.m() : C.n();
    require(order == A.m(), p.routine, side == Side::Left ? "C.m" : "C.n", std::to_string(order),
            "must equal A.m = " + std::to_string(A.m()));
    require_same_tiles(p.routine, A, "C", C);
    require_disjoint(p.routine, C, "C", A, "A");
    p.check_nan({{&C, Elements::All, 10}});
    p.step({&C}, [=, &A, &storage, &C](const Context& ctx) { algorithms::unmqr(ctx, side, trans, A, storage, C); });
    return p;
}

}  // namespace

GRAIN_TILED_FORMS(geqrf, (Matrix<T>& A, QrFactors<T>& F), (A, F))
GRAIN_TILED_FORMS(unmqr, (Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& C),
                  (side, trans, A, F, C))

#define GRAIN_INSTANTIATE(T)                                                                     \
    template Request geqrf_async<T>(Matrix<T>&, QrFactors<T>&);                                  \
    template int geqrf<T>(Matrix<T>&, QrFactors<T>&);                                            \
    template Request unmqr_async<T>(Side, Op, const Matrix<T>&, QrFactors<T>&, Matrix<T>&);      \
    template int unmqr<T>(Side, Op, const Matrix<T>&, QrFactors<T>&, Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
