// QR and LQ: geqrf and gelqf (the tile factorizations), unmqr and unmlq (their Q applied).
// One plan each (call.hpp).
#include "call.hpp"
#include "layout_call.hpp"
#include "src/starpu/qr_storage.hpp"

namespace grain {

using detail::Context;
using detail::Plan;

namespace {

using namespace detail;

// geqrf, and gelqf (`lq`): the factorization, its factors in F.
template <typename T>
Plan<T> factor_plan(const char* routine, bool lq, Matrix<T>& A, QrFactors<T>& F) {
    Plan<T> p(routine, {&A});
    require_local(p.routine, A);
    require_runtime(p.routine);
    QrStorage<T>& storage = QrAccess::storage(F);
    storage.shape_for(A.m(), A.n(), A.nb(), lq);
    p.check_nan({{&A, Elements::All, 3}});
    p.step({&A}, [lq, &A, &storage](const Context& ctx) { algorithms::geqrf(ctx, lq, A, storage); });
    return p;
}

template <typename T>
Plan<T> geqrf_plan(Matrix<T>& A, QrFactors<T>& F) { return factor_plan("grain::geqrf", false, A, F); }
template <typename T>
Plan<T> gelqf_plan(Matrix<T>& A, QrFactors<T>& F) { return factor_plan("grain::gelqf", true, A, F); }

// unmqr, and unmlq (`lq`): C = op(Q) C or C op(Q), Q from the factorization's A and F.
template <typename T>
Plan<T> apply_plan(const char* routine, bool lq, Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F,
                   Matrix<T>& C) {
    Plan<T> p(routine, {const_cast<Matrix<T>*>(&A), &C}, {int64_t(side), int64_t(trans)});
    require_local(p.routine, A);
    require_local(p.routine, C);
    require_runtime(p.routine);
    side = checked(p.routine, "side", side);
    trans = checked<T>(p.routine, "trans", trans);
    require(trans == Op::NoTrans || trans == conj_trans<T>(), p.routine, "trans", std::string(1, char(trans)),
            "must be NoTrans or ConjTrans (Q has no transpose of its own in complex precisions)");
    QrStorage<T>& storage = QrAccess::storage(F);
    require(storage.fits(A.m(), A.n(), A.nb(), lq), p.routine, "F", "not A's",
            std::string("must hold the factors ") + (lq ? "gelqf" : "geqrf") + " computed on A");
    // Q is m x m for a QR, n x n for an LQ.
    const int64_t order = side == Side::Left ? C.m() : C.n(), q_order = lq ? A.n() : A.m();
    require(order == q_order, p.routine, side == Side::Left ? "C.m" : "C.n", std::to_string(order),
            std::string("must equal ") + (lq ? "A.n = " : "A.m = ") + std::to_string(q_order));
    require_same_tiles(p.routine, A, "C", C);
    require_disjoint(p.routine, C, "C", A, "A");
    p.check_nan({{&C, Elements::All, 10}});
    p.step({&C}, [=, &A, &storage, &C](const Context& ctx) { algorithms::unmqr(ctx, lq, side, trans, A, storage, C); });
    return p;
}

template <typename T>
Plan<T> unmqr_plan(Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& C) {
    return apply_plan("grain::unmqr", false, side, trans, A, F, C);
}
template <typename T>
Plan<T> unmlq_plan(Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& C) {
    return apply_plan("grain::unmlq", true, side, trans, A, F, C);
}

// ungqr, and unglq (`lq`): Q's leading columns (rows) from the factorization's A and F.
template <typename T>
Plan<T> explicit_plan(const char* routine, bool lq, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& Q) {
    Plan<T> p(routine, {const_cast<Matrix<T>*>(&A), &Q});
    require_local(p.routine, A);
    require_local(p.routine, Q);
    require_runtime(p.routine);
    QrStorage<T>& storage = QrAccess::storage(F);
    require(storage.fits(A.m(), A.n(), A.nb(), lq), p.routine, "F", "not A's",
            std::string("must hold the factors ") + (lq ? "gelqf" : "geqrf") + " computed on A");
    // Q's rows (columns) are the order of Q, m for a QR, n for an LQ; it has at most as many
    // columns (rows).
    const int64_t order = lq ? A.n() : A.m(), along = lq ? Q.n() : Q.m(), across = lq ? Q.m() : Q.n();
    require(along == order, p.routine, lq ? "Q.n" : "Q.m", std::to_string(along),
            std::string("must equal ") + (lq ? "A.n = " : "A.m = ") + std::to_string(order));
    require(across <= order, p.routine, lq ? "Q.m" : "Q.n", std::to_string(across),
            std::string("must be at most ") + (lq ? "A.n = " : "A.m = ") + std::to_string(order));
    require_same_tiles(p.routine, A, "Q", Q);
    require_disjoint(p.routine, Q, "Q", A, "A");
    p.step({&Q}, [lq, &A, &storage, &Q](const Context& ctx) { algorithms::ungqr(ctx, lq, A, storage, Q); });
    return p;
}

template <typename T>
Plan<T> ungqr_plan(const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& Q) {
    return explicit_plan("grain::ungqr", false, A, F, Q);
}
template <typename T>
Plan<T> unglq_plan(const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& Q) {
    return explicit_plan("grain::unglq", true, A, F, Q);
}

// gels: a least-squares or minimum-norm solution into B, on A's QR (m >= n) or LQ, its
// factors and the solve's workspace the request's own.
template <typename T>
Plan<T> gels_plan(Op trans, Matrix<T>& A, Matrix<T>& B) {
    Plan<T> p("grain::gels", {&A, &B}, {int64_t(trans)});
    require_local(p.routine, A);
    require_local(p.routine, B);
    require_runtime(p.routine);
    trans = checked<T>(p.routine, "trans", trans);
    require(trans == Op::NoTrans || trans == conj_trans<T>(), p.routine, "trans", std::string(1, char(trans)),
            "must be NoTrans or ConjTrans (Trans in real precisions), as LAPACK's");
    const int64_t rows = std::max(A.m(), A.n());
    require(B.m() == rows, p.routine, "B.m", std::to_string(B.m()), "must equal max(A.m, A.n) = " + std::to_string(rows));
    require_same_tiles(p.routine, A, "B", B);
    require_disjoint(p.routine, B, "B", A, "A");
    p.check_nan({{&A, Elements::All, 4}, {&B, Elements::All, 6}});
    auto F = std::make_shared<QrFactors<T>>();
    QrStorage<T>& storage = QrAccess::storage(*F);
    storage.shape_for(A.m(), A.n(), A.nb(), A.m() < A.n());
    auto X = std::make_shared<Matrix<T>>(std::min(A.m(), A.n()), B.n(), A.scales());
    p.step({&A, &B}, [=, &A, &B, &storage](const Context& ctx) {
        if (ctx.request) ctx.request->scratch.insert(ctx.request->scratch.end(), {F, X});
        if (X->m() > 0) algorithms::gels(ctx, trans, A, storage, B, *X);
    });
    return p;
}

}  // namespace

GRAIN_TILED_FORMS(gels, (Op trans, Matrix<T>& A, Matrix<T>& B), (trans, A, B))
GRAIN_TILED_FORMS(geqrf, (Matrix<T>& A, QrFactors<T>& F), (A, F))
GRAIN_TILED_FORMS(gelqf, (Matrix<T>& A, QrFactors<T>& F), (A, F))
GRAIN_TILED_FORMS(unmqr, (Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& C),
                  (side, trans, A, F, C))
GRAIN_TILED_FORMS(unmlq, (Side side, Op trans, const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& C),
                  (side, trans, A, F, C))
GRAIN_TILED_FORMS(ungqr, (const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& Q), (A, F, Q))
GRAIN_TILED_FORMS(unglq, (const Matrix<T>& A, QrFactors<T>& F, Matrix<T>& Q), (A, F, Q))

// The LAPACK-layout gels: A m x n and B max(m, n) x nrhs on the tiles of the larger order.
template <typename T>
int gels(Op trans, int64_t m, int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb) {
    detail::LayoutCall<T> call("grain::gels", Workload::Qr);
    require_size(call.routine(), "m", m), require_size(call.routine(), "n", n);
    require_size(call.routine(), "nrhs", nrhs);
    const std::vector<int> scales = call.scales(std::max(m, n));
    Matrix<T> A = call.wrap("lda", m, n, a, lda, scales);
    Matrix<T> B = call.wrap("ldb", std::max(m, n), nrhs, b, ldb, scales);
    return call.run([&] { return gels(trans, A, B); });
}

#define GRAIN_INSTANTIATE(T)                                                                     \
    template Request geqrf_async<T>(Matrix<T>&, QrFactors<T>&);                                  \
    template int geqrf<T>(Matrix<T>&, QrFactors<T>&);                                            \
    template Request gelqf_async<T>(Matrix<T>&, QrFactors<T>&);                                  \
    template int gelqf<T>(Matrix<T>&, QrFactors<T>&);                                            \
    template Request unmqr_async<T>(Side, Op, const Matrix<T>&, QrFactors<T>&, Matrix<T>&);      \
    template int unmqr<T>(Side, Op, const Matrix<T>&, QrFactors<T>&, Matrix<T>&);                \
    template Request unmlq_async<T>(Side, Op, const Matrix<T>&, QrFactors<T>&, Matrix<T>&);      \
    template int unmlq<T>(Side, Op, const Matrix<T>&, QrFactors<T>&, Matrix<T>&);                \
    template Request gels_async<T>(Op, Matrix<T>&, Matrix<T>&);                                   \
    template int gels<T>(Op, Matrix<T>&, Matrix<T>&);                                             \
    template int gels<T>(Op, int64_t, int64_t, int64_t, T*, int64_t, T*, int64_t);                 \
    template Request ungqr_async<T>(const Matrix<T>&, QrFactors<T>&, Matrix<T>&);                  \
    template int ungqr<T>(const Matrix<T>&, QrFactors<T>&, Matrix<T>&);                            \
    template Request unglq_async<T>(const Matrix<T>&, QrFactors<T>&, Matrix<T>&);                  \
    template int unglq<T>(const Matrix<T>&, QrFactors<T>&, Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
