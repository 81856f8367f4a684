// LU: getrf, getrs, gesv and getri (partial pivoting), and getrf_nopiv, getrs_nopiv and
// gesv_nopiv (none). One plan each (call.hpp).
#include "call.hpp"
#include "layout_call.hpp"
#include "src/starpu/pivot_storage.hpp"

namespace grain {

using detail::Context;
using detail::Plan;

namespace {

using namespace detail;

// The pivots' blocks for A's steps, after checking that they are as many as A's.
template <typename T>
PivotBlocks pivot_blocks(const char* routine, const Matrix<T>& A, const Pivots& ipiv, int64_t count) {
    require(ipiv.size() == count, routine, "ipiv.size()", text(ipiv.size()),
            "must equal min(A.m, A.n) = " + text(count));
    PivotStorage& storage = PivotAccess::storage(ipiv);
    return {&storage, &storage.blocks(A.nb())};
}

// On a distributed A, the blocks owned by the ranks of their steps' diagonal tiles (where
// the panels run), registered with StarPU-MPI in the call's step, once the ranks agree.
template <typename T>
void distribute(const Matrix<T>& A, const PivotBlocks& blocks) {
    if (!A.distributed()) return;
    std::vector<int> owners;
    for (int k = 0; k < int(blocks.blocks->size()); ++k) {
        const Tile<T> diagonal = tile(A, k, k);
        owners.push_back(diagonal.grid->owner(diagonal.i, diagonal.j));
    }
    blocks.storage->distribute(A.nb(), owners);
}

template <typename T>
Plan<T> getrf_plan(Matrix<T>& A, Pivots& ipiv) {
    Plan<T> p("grain::getrf", {&A});
    require_runtime(p.routine);
    require_disjoint(p.routine, ipiv, A, "A");
    const PivotBlocks blocks = pivot_blocks(p.routine, A, ipiv, std::min(A.m(), A.n()));
    p.check_nan({{&A, Elements::All, 3}});
    p.step({&A}, [blocks, &A](const Context& ctx) {
        distribute(A, blocks);
        algorithms::getrf(ctx, A, blocks);
    });
    return p;
}

// getrs, and gesv's solve (after its factorization, `factor`).
template <typename T>
Plan<T> pivoted_solve_plan(const char* routine, bool factor, Op trans, Matrix<T>& A, const Pivots& ipiv,
                           Matrix<T>& B) {
    Plan<T> p(routine, {&A, &B}, factor ? std::initializer_list<int64_t>{} : std::initializer_list<int64_t>{int64_t(trans)});
    if (!factor) trans = checked<T>(routine, "trans", trans);
    check_solve(routine, A, B);
    // gesv writes the pivots; getrs reads them while it writes B.
    if (factor) require_disjoint(routine, ipiv, A, "A");
    require_disjoint(routine, ipiv, B, "B");
    const PivotBlocks blocks = pivot_blocks(routine, A, ipiv, A.n());
    if (!factor) p.check_pivots(ipiv, A.n());
    p.check_nan({{&A, Elements::All, factor ? 3 : 4}, {&B, Elements::All, factor ? 6 : 7}});
    if (factor)
        p.step({&A}, [blocks, &A](const Context& ctx) {
            distribute(A, blocks);
            algorithms::getrf(ctx, A, blocks);
        });
    p.step({&B}, [=, &A, &B](const Context& ctx) {
        distribute(A, blocks);
        algorithms::getrs(ctx, trans, A, blocks, B);
    });
    return p;
}

template <typename T>
Plan<T> getrs_plan(Op trans, const Matrix<T>& A, const Pivots& ipiv, Matrix<T>& B) {
    // Only read: getrs submits no task that writes A.
    return pivoted_solve_plan("grain::getrs", false, trans, const_cast<Matrix<T>&>(A), ipiv, B);
}

template <typename T>
Plan<T> gesv_plan(Matrix<T>& A, Pivots& ipiv, Matrix<T>& B) {
    return pivoted_solve_plan("grain::gesv", true, Op::NoTrans, A, ipiv, B);
}

// The inverse from getrf's factors and pivots, in place; info is U's first zero on the
// diagonal, A then undefined (the later phases run on the tiles trtri could invert).
template <typename T>
Plan<T> getri_plan(Matrix<T>& A, const Pivots& ipiv) {
    Plan<T> p("grain::getri", {&A});
    require_local(p.routine, A);
    require_runtime(p.routine);
    require_square(p.routine, "A", A);
    require_disjoint(p.routine, ipiv, A, "A");
    const PivotBlocks blocks = pivot_blocks(p.routine, A, ipiv, A.n());
    p.check_pivots(ipiv, A.n());
    p.check_nan({{&A, Elements::All, 2}});
    p.step({&A}, [blocks, &A](const Context& ctx) { algorithms::getri(ctx, A, blocks); });
    return p;
}

template <typename T>
Plan<T> getrf_nopiv_plan(Matrix<T>& A) {
    Plan<T> p("grain::getrf_nopiv", {&A});
    require_runtime(p.routine);
    p.check_nan({{&A, Elements::All, 3}});
    p.step({&A}, [&A](const Context& ctx) { algorithms::getrf_nopiv(ctx, A); });
    return p;
}

// getrs_nopiv, and gesv_nopiv's solve.
template <typename T>
Plan<T> nopiv_solve_plan(const char* routine, bool factor, Matrix<T>& A, Matrix<T>& B) {
    Plan<T> p(routine, {&A, &B});
    check_solve(routine, A, B);
    p.check_nan({{&A, Elements::All, 3}, {&B, Elements::All, 5}});
    if (factor) p.step({&A}, [&A](const Context& ctx) { algorithms::getrf_nopiv(ctx, A); });
    p.step({&B}, [&A, &B](const Context& ctx) { algorithms::getrs_nopiv(ctx, A, B); });
    return p;
}

template <typename T>
Plan<T> getrs_nopiv_plan(const Matrix<T>& A, Matrix<T>& B) {
    return nopiv_solve_plan("grain::getrs_nopiv", false, const_cast<Matrix<T>&>(A), B);
}

template <typename T>
Plan<T> gesv_nopiv_plan(Matrix<T>& A, Matrix<T>& B) {
    return nopiv_solve_plan("grain::gesv_nopiv", true, A, B);
}

}  // namespace

GRAIN_TILED_FORMS(getrf, (Matrix<T>& A, Pivots& ipiv), (A, ipiv))
GRAIN_TILED_FORMS(getrs, (Op trans, const Matrix<T>& A, const Pivots& ipiv, Matrix<T>& B), (trans, A, ipiv, B))
GRAIN_TILED_FORMS(gesv, (Matrix<T>& A, Pivots& ipiv, Matrix<T>& B), (A, ipiv, B))
GRAIN_TILED_FORMS(getri, (Matrix<T>& A, const Pivots& ipiv), (A, ipiv))
GRAIN_TILED_FORMS(getrf_nopiv, (Matrix<T>& A), (A))
GRAIN_TILED_FORMS(getrs_nopiv, (const Matrix<T>& A, Matrix<T>& B), (A, B))
GRAIN_TILED_FORMS(gesv_nopiv, (Matrix<T>& A, Matrix<T>& B), (A, B))

template <typename T>
int getrf(int64_t m, int64_t n, T* a, int64_t lda, int* ipiv) {
    detail::LayoutCall<T> call("grain::getrf", Workload::PivotedLu);
    call.require_pivots_array(ipiv, std::min(m, n));
    return detail::layout_factor(call, m, n, a, lda, [&](Matrix<T>& A) {
        Pivots p(std::min(m, n), call.pivots(ipiv, std::min(m, n), false));
        return getrf(A, p);
    });
}

template <typename T>
int getrs(Op trans, int64_t n, int64_t nrhs, const T* a, int64_t lda, const int* ipiv, T* b, int64_t ldb) {
    detail::LayoutCall<T> call("grain::getrs", Workload::PivotedLu);
    trans = detail::checked<T>(call.routine(), "trans", trans);
    call.require_pivots_array(ipiv, n);
    return detail::layout_solve(call, n, nrhs, a, lda, b, ldb, [&](const Matrix<T>& A, Matrix<T>& B) {
        // Only read: the Pivots object writes nothing unless a factorization runs on it.
        const Pivots p(n, call.pivots(const_cast<int*>(ipiv), n, true));
        return getrs(trans, A, p, B);
    });
}

template <typename T>
int gesv(int64_t n, int64_t nrhs, T* a, int64_t lda, int* ipiv, T* b, int64_t ldb) {
    detail::LayoutCall<T> call("grain::gesv", Workload::PivotedLu);
    call.require_pivots_array(ipiv, n);
    return detail::layout_solve(call, n, nrhs, a, lda, b, ldb, [&](Matrix<T>& A, Matrix<T>& B) {
        Pivots p(n, call.pivots(ipiv, n, false));
        return gesv(A, p, B);
    });
}

template <typename T>
int getri(int64_t n, T* a, int64_t lda, const int* ipiv) {
    detail::LayoutCall<T> call("grain::getri", Workload::PivotedLu);
    detail::require_size(call.routine(), "n", n);
    Matrix<T> A = call.wrap("lda", n, n, a, lda, call.scales(n));
    return call.run([&] {
        // Only read: the Pivots object writes nothing unless a factorization runs on it.
        const Pivots p(n, const_cast<int*>(ipiv));
        return getri(A, p);
    });
}

template <typename T>
int getrf_nopiv(int64_t m, int64_t n, T* a, int64_t lda) {
    detail::LayoutCall<T> call("grain::getrf_nopiv", Workload::Lu);
    return detail::layout_factor(call, m, n, a, lda, [](Matrix<T>& A) { return getrf_nopiv(A); });
}

template <typename T>
int getrs_nopiv(int64_t n, int64_t nrhs, const T* a, int64_t lda, T* b, int64_t ldb) {
    detail::LayoutCall<T> call("grain::getrs_nopiv", Workload::Lu);
    return detail::layout_solve(call, n, nrhs, a, lda, b, ldb,
                                [](const Matrix<T>& A, Matrix<T>& B) { return getrs_nopiv(A, B); });
}

template <typename T>
int gesv_nopiv(int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb) {
    detail::LayoutCall<T> call("grain::gesv_nopiv", Workload::Lu);
    return detail::layout_solve(call, n, nrhs, a, lda, b, ldb,
                                [](Matrix<T>& A, Matrix<T>& B) { return gesv_nopiv(A, B); });
}

#define GRAIN_INSTANTIATE(T)                                                                                    \
    template Request getrf_async<T>(Matrix<T>&, Pivots&);                                                       \
    template int getrf<T>(Matrix<T>&, Pivots&);                                                                 \
    template int getrf<T>(int64_t, int64_t, T*, int64_t, int*);                                                 \
    template Request getrs_async<T>(Op, const Matrix<T>&, const Pivots&, Matrix<T>&);                           \
    template int getrs<T>(Op, const Matrix<T>&, const Pivots&, Matrix<T>&);                                     \
    template int getrs<T>(Op, int64_t, int64_t, const T*, int64_t, const int*, T*, int64_t);                    \
    template Request gesv_async<T>(Matrix<T>&, Pivots&, Matrix<T>&);                                            \
    template int gesv<T>(Matrix<T>&, Pivots&, Matrix<T>&);                                                      \
    template int gesv<T>(int64_t, int64_t, T*, int64_t, int*, T*, int64_t);                                     \
    template Request getri_async<T>(Matrix<T>&, const Pivots&);                                                 \
    template int getri<T>(Matrix<T>&, const Pivots&);                                                           \
    template int getri<T>(int64_t, T*, int64_t, const int*);                                                    \
    template Request getrf_nopiv_async<T>(Matrix<T>&);                                                          \
    template int getrf_nopiv<T>(Matrix<T>&);                                                                    \
    template int getrf_nopiv<T>(int64_t, int64_t, T*, int64_t);                                                 \
    template Request getrs_nopiv_async<T>(const Matrix<T>&, Matrix<T>&);                                        \
    template int getrs_nopiv<T>(const Matrix<T>&, Matrix<T>&);                                                  \
    template int getrs_nopiv<T>(int64_t, int64_t, const T*, int64_t, T*, int64_t);                              \
    template Request gesv_nopiv_async<T>(Matrix<T>&, Matrix<T>&);                                               \
    template int gesv_nopiv<T>(Matrix<T>&, Matrix<T>&);                                                         \
    template int gesv_nopiv<T>(int64_t, int64_t, T*, int64_t, T*, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
