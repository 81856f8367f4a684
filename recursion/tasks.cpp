#include "tasks.hpp"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "grain/errors.hpp"
#include "recursion.hpp"
#include "src/base/constants.hpp"
#include "src/base/request_state.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/starpu/distributed.hpp"
#include "src/starpu/codelets.hpp"
#include "src/starpu/kernel_task.hpp"
#include "src/starpu/pivot_storage.hpp"
#include "submit.hpp"

namespace grain::detail {

using namespace submission;

template <typename T>
void submit_task(const Context& ctx, Kernel kernel, TileArgs<T> args, std::initializer_list<Tile<T>> tiles, int priority) {
    const Tile<T>& out = *(tiles.end() - 1);
    if (ctx.counting) {
        ++ctx.counting->tasks[size_t(kernel)];
        ctx.counting->tile_tasks[size_t(kernel)] += 1;
        return;
    }
    // A distributed matrix's tasks run on the rank owning their output tile: every rank
    // submits every top-level task, and StarPU-MPI moves the inputs. Only that rank
    // decides on a split, which stays local: the others see the task whole, so no
    // message depends on a decision (doc/distributed.md).
    if (!(out.grid->distributed() && mpi::active())) return submit_here(ctx, kernel, args, tiles, priority, nullptr);
    // The other processes post their part of this task's transfers whatever happens here:
    // a failure now would leave them waiting, so it ends every process.
    starpu_data_handle_t handles[max_kernel_buffers];
    int n = 0;
    const int owner = out.grid->owner(out.i, out.j);
    try {
        for (const Tile<T>& t : tiles) handles[n++] = t.use();
        if (starpu_task* built = mpi::build(codelet<T>(kernel), handles, n, owner))
            submit_here(ctx, kernel, args, tiles, priority, built);
        mpi::after_submit(codelet<T>(kernel), handles, n, owner);
    } catch (const std::exception& e) {
        mpi::abort_all(e.what());
    }
}

int64_t composed_priority(int64_t parent, int priority, int level, int levels) {
    const int bits = priority_bits / levels;  // per level
    const int64_t half = int64_t(1) << (bits - 1);
    const int64_t local = std::clamp<int64_t>(priority, 1 - half, half - 1);
    return parent + local * (int64_t(1) << (bits * (levels - 1 - level)));
}

std::array<double, kernel_count> split_children(Kernel parent, int nb, int child_nb, char precision) {
    // One nb x nb tile per buffer, as grids of child_nb sub-tiles with a shape and no
    // memory: counting mode never touches their tiles. The task counts do not depend on
    // the kernel's arguments on square tiles, so the defaults do; they depend on the
    // precision only where real precisions submit syrk for herk.
    return with_precision(precision, [&](auto zero) {
        using T = decltype(zero);
        TileStorage<T> a(nb, nb, {child_nb}, nullptr, nb), b(nb, nb, {child_nb}, nullptr, nb),
            c(nb, nb, {child_nb}, nullptr, nb);
        const Matrix<T> sub[] = {MatrixAccess::view(a), MatrixAccess::view(b), MatrixAccess::view(c)};
        if (!kernel_info(parent).applies)
            return count_tasks([&](const Context& ctx) { algorithms::refine(ctx, parent, TileArgs<T>{}, sub); }).tile_tasks;
        // An update's split: its strips (reflectors in a, the tiles it writes in b, and c for
        // a pair), counted whole.
        std::vector<std::vector<Matrix<T>>> children{{sub[1]}};
        if (kernel_info(parent).nbuffers == 4) children.push_back({sub[2]});
        return count_tasks([&](const Context& ctx) {
            for (const auto& strips : sub_strips(true, children))
                submit_update(ctx, parent, TileArgs<T>{}, nullptr, tile(sub[0], 0, 0), strips, 0);
        }).tile_tasks;
    });
}

namespace task {

template <typename T>
void gemm(const Context& ctx, Op transa, Op transb, T alpha, Tile<T> A, Tile<T> B, T beta, Tile<T> C,
          int priority) {
    TileArgs<T> args;
    args.transa = transa, args.transb = transb, args.alpha = alpha, args.beta = beta;
    submit_task(ctx, Kernel::Gemm, args, {A, B, C}, priority);
}

template <typename T>
void trsm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, Tile<T> A, Tile<T> B,
          int priority) {
    TileArgs<T> args;
    args.side = side, args.uplo = uplo, args.transa = trans, args.diag = diag, args.alpha = alpha;
    submit_task(ctx, Kernel::Trsm, args, {A, B}, priority);
}

template <typename T>
void trmm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, Tile<T> A, Tile<T> B,
          int priority) {
    TileArgs<T> args;
    args.side = side, args.uplo = uplo, args.transa = trans, args.diag = diag, args.alpha = alpha;
    submit_task(ctx, Kernel::Trmm, args, {A, B}, priority);
}

template <typename T>
void syrk(const Context& ctx, Uplo uplo, Op trans, T alpha, Tile<T> A, T beta, Tile<T> C, int priority) {
    TileArgs<T> args;
    args.uplo = uplo, args.transa = trans, args.alpha = alpha, args.beta = beta;
    submit_task(ctx, Kernel::Syrk, args, {A, C}, priority);
}

template <typename T>
void herk(const Context& ctx, Uplo uplo, Op trans, T alpha, Tile<T> A, T beta, Tile<T> C, int priority) {
    TileArgs<T> args;
    args.uplo = uplo, args.transa = trans, args.alpha = alpha, args.beta = beta;
    submit_task(ctx, scalar_traits<T>::is_complex ? Kernel::Herk : Kernel::Syrk, args, {A, C}, priority);
}

template <typename T>
void symm(const Context& ctx, bool hermitian, Side side, Uplo uplo, T alpha, Tile<T> A, Tile<T> B, T beta,
          Tile<T> C, int priority) {
    TileArgs<T> args;
    args.side = side, args.uplo = uplo, args.alpha = alpha, args.beta = beta;
    const Kernel kernel = hermitian && scalar_traits<T>::is_complex ? Kernel::Hemm : Kernel::Symm;
    submit_task(ctx, kernel, args, {A, B, C}, priority);
}

template <typename T>
void syr2k(const Context& ctx, bool hermitian, Uplo uplo, Op trans, T alpha, Tile<T> A, Tile<T> B, T beta,
           Tile<T> C, int priority) {
    TileArgs<T> args;
    args.uplo = uplo, args.transa = trans, args.alpha = alpha, args.beta = beta;
    const Kernel kernel = hermitian && scalar_traits<T>::is_complex ? Kernel::Her2k : Kernel::Syr2k;
    submit_task(ctx, kernel, args, {A, B, C}, priority);
}

template <typename T>
void potrf(const Context& ctx, Uplo uplo, Tile<T> A, int priority) {
    TileArgs<T> args;
    args.uplo = uplo;
    submit_task(ctx, Kernel::Potrf, args, {A}, priority);
}

template <typename T>
void trtri(const Context& ctx, Uplo uplo, Diag diag, Tile<T> A, int priority) {
    TileArgs<T> args;
    args.uplo = uplo, args.diag = diag;
    submit_task(ctx, Kernel::Trtri, args, {A}, priority);
}

template <typename T>
void lauum(const Context& ctx, Uplo uplo, Tile<T> A, int priority) {
    TileArgs<T> args;
    args.uplo = uplo;
    submit_task(ctx, Kernel::Lauum, args, {A}, priority);
}

template <typename T>
void trtrm(const Context& ctx, Tile<T> A, int priority) {
    submit_task(ctx, Kernel::Trtrm, TileArgs<T>{}, {A}, priority);
}

template <typename T>
void getrf_nopiv(const Context& ctx, Tile<T> A, int priority) {
    submit_task(ctx, Kernel::GetrfNopiv, TileArgs<T>{}, {A}, priority);
}

template <typename T>
void scale(const Context& ctx, bool whole_tile, Uplo uplo, T alpha, Tile<T> C, int priority, bool real_diagonal) {
    TileArgs<T> args;
    args.whole_tile = whole_tile, args.uplo = uplo, args.alpha = alpha, args.real_diagonal = real_diagonal;
    submit_task(ctx, Kernel::Scale, args, {C}, priority);
}

template <typename T>
void getrf(const Context& ctx, const PivotBlocks& pivots, int k, const std::vector<Tile<T>>& column,
           int64_t first_row, int priority) {
    submit_column(ctx, Kernel::Getrf, TileArgs<T>{}, pivots, k, column, first_row, priority);
}

template <typename T>
void laswp(const Context& ctx, const PivotBlocks& pivots, int k, const std::vector<Tile<T>>& column,
           int64_t first_row, int priority, bool reverse) {
    TileArgs<T> args;
    args.transa = reverse ? Op::Trans : Op::NoTrans;
    submit_column(ctx, Kernel::Laswp, args, pivots, k, column, first_row, priority);
}

// A row of tiles takes a column task's place: the pivot block, then the tiles; colswp
// never splits (its row's `whole`).
template <typename T>
void colswp(const Context& ctx, const PivotBlocks& pivots, int k, const std::vector<Tile<T>>& row,
            int64_t first_col, int priority) {
    submit_column(ctx, Kernel::Colswp, TileArgs<T>{}, pivots, k, row, first_col, priority);
}

template <typename T>
void lacpy(const Context& ctx, bool zero_rest, Tile<T> A, Tile<T> B, int priority) {
    TileArgs<T> args;
    args.whole_tile = zero_rest;
    submit_task(ctx, Kernel::Lacpy, args, {A, B}, priority);
}

template <typename T>
void laset(const Context& ctx, T diagonal, Tile<T> B, int priority) {
    TileArgs<T> args;
    args.alpha = diagonal;
    submit_task(ctx, Kernel::Laset, args, {B}, priority);
}

template <typename T>
void trzero(const Context& ctx, Tile<T> A, int priority) {
    submit_task(ctx, Kernel::Trzero, TileArgs<T>{}, {A}, priority);
}

// Its tiles are of two precisions, which no other task has: counted, or decided (which
// counts it; it never splits) and inserted, on this process's tiles only.
template <typename T>
void lag2(const Context& ctx, bool whole, Uplo uplo, bool add, int exponent, Tile<T> A, Tile<paired_t<T>> B,
          int priority) {
    if (ctx.counting) {
        ++ctx.counting->tasks[size_t(Kernel::Lag2)];
        ctx.counting->tile_tasks[size_t(Kernel::Lag2)] += 1;
        return;
    }
    if (A.grid->distributed() || B.grid->distributed())
        throw runtime_error("grain: internal error: a precision conversion on a distributed matrix");
    ctx.recursion->decide(site(Kernel::Lag2, B, below(ctx, B, priority).top_priority));
    prepare_access(A, false, false);
    prepare_access(B, true, false);
    TileArgs<T> args;
    args.whole_tile = whole, args.uplo = uplo, args.exponent = exponent, args.beta = add ? T(1) : T(0);
    const starpu_data_handle_t handles[] = {A.use(), B.use()};
    insert(ctx, Kernel::Lag2, args, B, handles, 2, global_priority(ctx, B, priority));
}

template <typename T>
void own_qrt(const Context& ctx, bool lq, starpu_data_handle_t factor, Tile<T> A, int priority) {
    submit_factor(ctx, lq ? Kernel::Gelqt : Kernel::Geqrt, TileArgs<T>{}, factor, {A}, priority);
}

template <typename T>
void own_mqrt(const Context& ctx, bool lq, Side side, Op trans, starpu_data_handle_t factor, Tile<T> V, Tile<T> C,
              int priority) {
    TileArgs<T> args;
    args.side = side, args.transa = trans;
    submit_update(ctx, lq ? Kernel::Gemlqt : Kernel::Gemqrt, args, factor, V, {{C}}, priority);
}

template <typename T>
void pair_qrt(const Context& ctx, bool lq, bool triangular, starpu_data_handle_t factor, Tile<T> A1, Tile<T> A2,
              int priority) {
    const Kernel kernel = triangular ? (lq ? Kernel::Ttlqt : Kernel::Ttqrt) : (lq ? Kernel::Tslqt : Kernel::Tsqrt);
    submit_factor(ctx, kernel, TileArgs<T>{}, factor, {A1, A2}, priority);
}

template <typename T>
void pair_mqrt(const Context& ctx, bool lq, bool triangular, Side side, Op trans, starpu_data_handle_t factor,
               Tile<T> V, Tile<T> A1, Tile<T> A2, int priority) {
    TileArgs<T> args;
    args.side = side, args.transa = trans;
    const Kernel kernel =
        triangular ? (lq ? Kernel::Ttmlqt : Kernel::Ttmqrt) : (lq ? Kernel::Tsmlqt : Kernel::Tsmqrt);
    submit_update(ctx, kernel, args, factor, V, {{A1}, {A2}}, priority);
}

template <typename T>
void done_reading(const Context& ctx, Tile<T> t) {
    if (ctx.counting || !(t.grid->distributed() && mpi::active())) return;
    mpi::flush(t.use());
}

void pivots_everywhere(const Context& ctx, const PivotBlocks& pivots) {
    if (ctx.counting || !mpi::active()) return;
    for (size_t b = 0; b < pivots.blocks->size(); ++b) {
        const starpu_data_handle_t block = (*pivots.blocks)[b];
        mpi::bring_everywhere(block);
        if (!pivots.storage->home_here(b)) submit_copy_out(block, pivots.storage->block_data(b), ctx.request);
    }
}

#define GRAIN_INSTANTIATE(T)                                                                            \
    template void lacpy<T>(const Context&, bool, Tile<T>, Tile<T>, int);                               \
    template void laset<T>(const Context&, T, Tile<T>, int);                                           \
    template void done_reading<T>(const Context&, Tile<T>);                                            \
    template void trzero<T>(const Context&, Tile<T>, int);                                             \
    template void lag2<T>(const Context&, bool, Uplo, bool, int, Tile<T>, Tile<paired_t<T>>, int);     \
    template void own_qrt<T>(const Context&, bool, starpu_data_handle_t, Tile<T>, int);                \
    template void own_mqrt<T>(const Context&, bool, Side, Op, starpu_data_handle_t, Tile<T>, Tile<T>, int); \
    template void pair_qrt<T>(const Context&, bool, bool, starpu_data_handle_t, Tile<T>, Tile<T>, int); \
    template void pair_mqrt<T>(const Context&, bool, bool, Side, Op, starpu_data_handle_t, Tile<T>, Tile<T>, \
                               Tile<T>, int);                                                           \
    template void getrf<T>(const Context&, const PivotBlocks&, int, const std::vector<Tile<T>>&, int64_t, int); \
    template void laswp<T>(const Context&, const PivotBlocks&, int, const std::vector<Tile<T>>&, int64_t, int, bool); \
    template void gemm<T>(const Context&, Op, Op, T, Tile<T>, Tile<T>, T, Tile<T>, int);               \
    template void trsm<T>(const Context&, Side, Uplo, Op, Diag, T, Tile<T>, Tile<T>, int);             \
    template void trmm<T>(const Context&, Side, Uplo, Op, Diag, T, Tile<T>, Tile<T>, int);             \
    template void trtri<T>(const Context&, Uplo, Diag, Tile<T>, int);                                  \
    template void lauum<T>(const Context&, Uplo, Tile<T>, int);                                        \
    template void trtrm<T>(const Context&, Tile<T>, int);                                              \
    template void colswp<T>(const Context&, const PivotBlocks&, int, const std::vector<Tile<T>>&, int64_t, int); \
    template void syrk<T>(const Context&, Uplo, Op, T, Tile<T>, T, Tile<T>, int);                      \
    template void herk<T>(const Context&, Uplo, Op, T, Tile<T>, T, Tile<T>, int);                      \
    template void symm<T>(const Context&, bool, Side, Uplo, T, Tile<T>, Tile<T>, T, Tile<T>, int);      \
    template void syr2k<T>(const Context&, bool, Uplo, Op, T, Tile<T>, Tile<T>, T, Tile<T>, int);       \
    template void potrf<T>(const Context&, Uplo, Tile<T>, int);                                        \
    template void getrf_nopiv<T>(const Context&, Tile<T>, int);                                        \
    template void scale<T>(const Context&, bool, Uplo, T, Tile<T>, int, bool);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace task

#define GRAIN_INSTANTIATE(T) \
    template void submit_task<T>(const Context&, Kernel, TileArgs<T>, std::initializer_list<Tile<T>>, int);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::detail
