#pragma once
// The LAPACK-layout forms: a user's column-major arrays as matrices, then the tiled
// synchronous form on them.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "checks.hpp"
#include "collective.hpp"
#include "grain/routines.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/starpu/distributed.hpp"

namespace grain::detail {

// The ladder of the LAPACK-layout routines on a call of `workload` and size `order` in
// `precision` (scalar_traits' letter): GRAIN_SCALES (e.g. "1024,512,256", largest first) if
// set, else the tile size GRAIN_NB if set, else automatic_scales (from the priors alone
// where `distributed`: every process must choose the same).
std::vector<int> layout_scales(Workload workload, int64_t order, char precision, bool distributed);

// A LAPACK-layout call's arrays as matrices: wrapped in place on one process. Under a
// DistributedLayout, distributed matrices that run() fills from the root's arrays before
// the call and whose outputs (arrays given as T*) it brings back into the root's arrays
// after. A distributed call is collective from its first statement: the processes agree
// in run(), before the scatter, or in the destructor of a call that threw before (a bad
// argument on one process), so that no process waits for another that stopped.
template <typename T>
class LayoutCall {
public:
    LayoutCall(const char* routine, Workload workload)
        : routine_(routine),
          workload_(workload),
          layout_(DistributedLayout::current()),
          agreement_(routine, layout_ != nullptr) {}

    const char* routine() const { return routine_; }
    // The ladder of the call's matrices, `order` its largest dimension.
    std::vector<int> scales(int64_t order) const {
        return layout_scales(workload_, order, scalar_traits<T>::letter, layout_ != nullptr);
    }
    // A read-only array (only ever accessed in read mode) and an output.
    Matrix<T> wrap(const char* ld_name, int64_t rows, int64_t cols, const T* a, int64_t ld,
                   const std::vector<int>& scales) {
        return place(ld_name, rows, cols, a, ld, scales, false);
    }
    Matrix<T> wrap(const char* ld_name, int64_t rows, int64_t cols, T* a, int64_t ld, const std::vector<int>& scales) {
        return place(ld_name, rows, cols, a, ld, scales, true);
    }

    // The pivots' array, checked before run(): on every process, or under a
    // DistributedLayout on the root only.
    void require_pivots_array(const int* ipiv, int64_t count) {
        const bool needed = !layout_ || mpi::rank() == layout_->root();
        require(!needed || ipiv || count == 0, routine_, "ipiv", "nullptr", "must point to " + text(count) + " integers");
    }
    // The pivot indices of a call on every process: `ipiv` itself, or under a
    // DistributedLayout the root's `ipiv` there (the others may pass null) and a buffer of
    // the call's elsewhere; `input` (getrs's), the root's indices are copied into it. Inside
    // run(), after the processes agree.
    int* pivots(int* ipiv, int64_t count, bool input) {
        if (!layout_) return ipiv;
        const bool root = mpi::rank() == layout_->root();
        if (!root) {
            pivots_.assign(size_t(count), 0);
            ipiv = pivots_.data();
        }
        if (input) mpi::broadcast(ipiv, sizeof(int) * size_t(count), layout_->root());
        return ipiv;
    }

    template <typename Call>
    int run(Call call) {
        agreement_.agree();
        if (layout_)
            for (Array& x : arrays_) x.M.scatter_from(layout_->root(), x.a, x.ld);
        const int info = call();
        for (Array& x : arrays_)
            if (x.output) x.M.gather_to(layout_->root(), const_cast<T*>(x.a), x.ld);
        return info;
    }

private:
    struct Array {
        Matrix<T> M;
        const T* a;
        int64_t ld;
        bool output;
    };

    Matrix<T> place(const char* ld_name, int64_t rows, int64_t cols, const T* a, int64_t ld,
                    const std::vector<int>& scales, bool output) {
        require(ld >= std::max<int64_t>(1, rows), routine_, ld_name, text(ld), "must be >= max(1, " + text(rows) + ")");
        if (!layout_) return Matrix<T>(rows, cols, scales, const_cast<T*>(a), ld);
        const bool root = mpi::rank() == layout_->root();
        require(!root || a || rows == 0 || cols == 0, routine_, "array", "nullptr", "must point to the matrix on the root");
        for (int64_t v : {rows, cols, int64_t(scales.front())}) agreement_.add(v);
        arrays_.push_back({Matrix<T>(rows, cols, scales, layout_->distribution()), a, ld, output});
        return arrays_.back().M;
    }

    const char* routine_;
    Workload workload_;
    const DistributedLayout* layout_;
    Collective agreement_;  // a process that throws before run() agrees as it unwinds
    std::vector<Array> arrays_;
    std::vector<int> pivots_;
};

// The LAPACK-layout solves: n x n A (read only where `a` is const), n x nrhs B, then the
// tiled form `tiled(A, B)`; `call`'s enum arguments are checked by the caller.
template <typename T, typename APointer, typename Tiled>
int layout_solve(LayoutCall<T>& call, int64_t n, int64_t nrhs, APointer a, int64_t lda, T* b, int64_t ldb,
                 Tiled tiled) {
    require_size(call.routine(), "n", n), require_size(call.routine(), "nrhs", nrhs);
    const std::vector<int> scales = call.scales(n);
    Matrix<T> A = call.wrap("lda", n, n, a, lda, scales);
    Matrix<T> B = call.wrap("ldb", n, nrhs, b, ldb, scales);
    return call.run([&] { return tiled(A, B); });
}

// The LAPACK-layout factorizations: m x n A, then the tiled form `tiled(A)`.
template <typename T, typename Tiled>
int layout_factor(LayoutCall<T>& call, int64_t m, int64_t n, T* a, int64_t lda, Tiled tiled) {
    require_size(call.routine(), "m", m), require_size(call.routine(), "n", n);
    const std::vector<int> scales = call.scales(std::max(m, n));
    Matrix<T> A = call.wrap("lda", m, n, a, lda, scales);
    return call.run([&] { return tiled(A); });
}

}  // namespace grain::detail
