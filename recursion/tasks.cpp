#include "tasks.hpp"

#include <algorithm>
#include <initializer_list>

#include "algorithms/algorithms.hpp"
#include "recursion.hpp"
#include "src/kernel_task.hpp"

namespace grain::detail {

namespace {

// Whether the policy splits the task whose output is `out` (never in counting mode).
template <typename T>
bool split(const Context& ctx, Kernel op, const Tile<T>& out) {
    if (ctx.counting) return false;
    const TileStorage<T>& grid = *out.grid;
    return ctx.recursion->decide({op, grid.level(), int(grid.scales().size()), out.i, out.j, &grid.scales(),
                                  sizeof(T) == sizeof(double), out.handle(),
                                  grid.writers_in_flight(out.i, out.j) > 0});
}

template <typename T>
int64_t global_priority(const Context& ctx, const Tile<T>& out, int priority) {
    return composed_priority(ctx.priority_base, priority, ctx.level, int(out.grid->scales().size()));
}

// The task is not split: insert its kernel (or count it, in counting mode). Its output
// tile is the last of `tiles`.
template <typename T>
void kernel(const Context& ctx, Kernel op, TileArgs<T> args, std::initializer_list<Tile<T>> tiles, int priority) {
    if (ctx.counting) {
        ++ctx.counting[size_t(op)];
        return;
    }
    starpu_data_handle_t handles[3];
    int n = 0;
    for (const Tile<T>& t : tiles) handles[n++] = t.handle();
    const Tile<T>& out = *(tiles.end() - 1);
    args.writers = &out.grid->writers_in_flight(out.i, out.j);
    insert_kernel(ctx, op, args, handles, n, int(global_priority(ctx, *tiles.begin(), priority)));
}

// The context of the algorithm run on the sub-tiles of `out`, for a task of this priority.
template <typename T>
Context below(const Context& ctx, const Tile<T>& out, int priority) {
    return {ctx.request, ctx.recursion, ctx.level + 1, ctx.col_offset + out.col_offset, nullptr,
            global_priority(ctx, out, priority)};
}

}  // namespace

int64_t composed_priority(int64_t parent, int priority, int level, int levels) {
    const int bits = 30 / levels;  // per level, within StarPU's int priorities
    const int64_t half = int64_t(1) << (bits - 1);
    const int64_t local = std::clamp<int64_t>(priority, 1 - half, half - 1);
    return parent + local * (int64_t(1) << (bits * (levels - 1 - level)));
}

std::array<int64_t, size_t(Kernel::Count)> split_children(Kernel parent, int nb, int child_nb) {
    // Grids with a shape and no memory: counting mode never touches their tiles.
    TileStorage<double> a(nb, nb, {child_nb}, nullptr, nb), b(nb, nb, {child_nb}, nullptr, nb),
        c(nb, nb, {child_nb}, nullptr, nb);
    const Matrix<double> A(a), B(b), C(c);
    return count_tasks([&](const Context& ctx) {
        switch (parent) {
            case Kernel::Gemm: algorithms::gemm(ctx, Op::NoTrans, Op::Trans, -1.0, A, B, 1.0, C); break;
            case Kernel::Trsm:
                algorithms::trsm(ctx, Side::Right, Uplo::Lower, Op::Trans, Diag::NonUnit, 1.0, A, B);
                break;
            case Kernel::Syrk: algorithms::syrk(ctx, Uplo::Lower, Op::NoTrans, -1.0, A, 1.0, C); break;
            case Kernel::Potrf: algorithms::potrf(ctx, Uplo::Lower, A); break;
            case Kernel::GetrfNopiv: algorithms::getrf_nopiv(ctx, A); break;
            case Kernel::Scale: algorithms::scale(ctx, true, Uplo::Lower, 1.0, C); break;
            case Kernel::Count: break;
        }
    });
}

namespace task {

template <typename T>
void gemm(const Context& ctx, Op transa, Op transb, T alpha, Tile<T> A, Tile<T> B, T beta, Tile<T> C,
          int priority) {
    if (split(ctx, Kernel::Gemm, C))
        return algorithms::gemm(below(ctx, C, priority), transa, transb, alpha, A.children(), B.children(), beta,
                                C.children());
    TileArgs<T> args;
    args.transa = transa, args.transb = transb, args.alpha = alpha, args.beta = beta;
    kernel(ctx, Kernel::Gemm, args, {A, B, C}, priority);
}

template <typename T>
void trsm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, Tile<T> A, Tile<T> B,
          int priority) {
    if (split(ctx, Kernel::Trsm, B)) {
        const Matrix<T> b = B.children();
        Matrix<T> a = A.children();
        // In the LU of a non-square matrix the last diagonal tile is not square: the
        // solve uses its leading square part, as the kernel does.
        const int order = side == Side::Left ? b.mt() : b.nt();
        if (a.mt() != order || a.nt() != order) a = a.sub(0, order - 1, 0, order - 1);
        return algorithms::trsm(below(ctx, B, priority), side, uplo, trans, diag, alpha, a, b);
    }
    TileArgs<T> args;
    args.side = side, args.uplo = uplo, args.transa = trans, args.diag = diag, args.alpha = alpha;
    kernel(ctx, Kernel::Trsm, args, {A, B}, priority);
}

template <typename T>
void syrk(const Context& ctx, Uplo uplo, Op trans, T alpha, Tile<T> A, T beta, Tile<T> C, int priority) {
    if (split(ctx, Kernel::Syrk, C))
        return algorithms::syrk(below(ctx, C, priority), uplo, trans, alpha, A.children(), beta, C.children());
    TileArgs<T> args;
    args.uplo = uplo, args.transa = trans, args.alpha = alpha, args.beta = beta;
    kernel(ctx, Kernel::Syrk, args, {A, C}, priority);
}

template <typename T>
void potrf(const Context& ctx, Uplo uplo, Tile<T> A, int priority) {
    if (split(ctx, Kernel::Potrf, A)) return algorithms::potrf(below(ctx, A, priority), uplo, A.children());
    TileArgs<T> args;
    args.uplo = uplo, args.col_offset = ctx.col_offset + A.col_offset;
    kernel(ctx, Kernel::Potrf, args, {A}, priority);
}

template <typename T>
void getrf_nopiv(const Context& ctx, Tile<T> A, int priority) {
    if (split(ctx, Kernel::GetrfNopiv, A)) return algorithms::getrf_nopiv(below(ctx, A, priority), A.children());
    TileArgs<T> args;
    args.col_offset = ctx.col_offset + A.col_offset;
    kernel(ctx, Kernel::GetrfNopiv, args, {A}, priority);
}

template <typename T>
void scale(const Context& ctx, bool whole_tile, Uplo uplo, T alpha, Tile<T> C, int priority) {
    if (split(ctx, Kernel::Scale, C))
        return algorithms::scale(below(ctx, C, priority), whole_tile, uplo, alpha, C.children());
    TileArgs<T> args;
    args.whole_tile = whole_tile, args.uplo = uplo, args.alpha = alpha;
    kernel(ctx, Kernel::Scale, args, {C}, priority);
}

#define GRAIN_INSTANTIATE(T)                                                                            \
    template void gemm<T>(const Context&, Op, Op, T, Tile<T>, Tile<T>, T, Tile<T>, int);               \
    template void trsm<T>(const Context&, Side, Uplo, Op, Diag, T, Tile<T>, Tile<T>, int);             \
    template void syrk<T>(const Context&, Uplo, Op, T, Tile<T>, T, Tile<T>, int);                      \
    template void potrf<T>(const Context&, Uplo, Tile<T>, int);                                        \
    template void getrf_nopiv<T>(const Context&, Tile<T>, int);                                        \
    template void scale<T>(const Context&, bool, Uplo, T, Tile<T>, int);
GRAIN_INSTANTIATE(float)
GRAIN_INSTANTIATE(double)
#undef GRAIN_INSTANTIATE

}  // namespace task
}  // namespace grain::detail
