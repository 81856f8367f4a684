#include "tasks.hpp"

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>

#include "codelets.hpp"
#include "grain/errors.hpp"

namespace grain::detail {

namespace {

void task_done(void* request) { static_cast<RequestState*>(request)->task_finished(); }

template <typename T>
void submit(const Context& ctx, Kernel kernel, const TileArgs<T>& args,
            std::initializer_list<starpu_data_handle_t> handles, int priority) {
    starpu_task* task = starpu_task_create();
    task->cl = codelet<T>(kernel);
    int i = 0;
    for (starpu_data_handle_t h : handles) task->handles[i++] = h;
    // StarPU frees cl_arg with free() once the task is done.
    void* arg = std::malloc(sizeof(TileArgs<T>));
    if (!arg) throw std::bad_alloc();
    TileArgs<T> with_request = args;
    with_request.request = ctx.request;
    std::memcpy(arg, &with_request, sizeof with_request);
    task->cl_arg = arg;
    task->cl_arg_size = sizeof with_request;
    task->cl_arg_free = 1;
    task->priority = priority;
    task->callback_func = task_done;
    task->callback_arg = ctx.request;
    ctx.request->task_submitted();
    const int ret = starpu_task_submit(task);
    if (ret != 0) {
        ctx.request->task_finished();
        starpu_task_destroy(task);
        throw runtime_error(std::string("grain: starpu_task_submit failed: ") + std::strerror(-ret));
    }
}

}  // namespace

namespace task {

template <typename T>
void gemm(const Context& ctx, Op transa, Op transb, T alpha, Tile A, Tile B, T beta, Tile C, int priority) {
    TileArgs<T> args;
    args.transa = transa, args.transb = transb, args.alpha = alpha, args.beta = beta;
    submit(ctx, Kernel::Gemm, args, {A.handle, B.handle, C.handle}, priority);
}

template <typename T>
void trsm(const Context& ctx, Side side, Uplo uplo, Op trans, Diag diag, T alpha, Tile A, Tile B,
          int priority) {
    TileArgs<T> args;
    args.side = side, args.uplo = uplo, args.transa = trans, args.diag = diag, args.alpha = alpha;
    submit(ctx, Kernel::Trsm, args, {A.handle, B.handle}, priority);
}

template <typename T>
void syrk(const Context& ctx, Uplo uplo, Op trans, T alpha, Tile A, T beta, Tile C, int priority) {
    TileArgs<T> args;
    args.uplo = uplo, args.transa = trans, args.alpha = alpha, args.beta = beta;
    submit(ctx, Kernel::Syrk, args, {A.handle, C.handle}, priority);
}

template <typename T>
void potrf(const Context& ctx, Uplo uplo, Tile A, int priority) {
    TileArgs<T> args;
    args.uplo = uplo, args.col_offset = A.col_offset;
    submit(ctx, Kernel::Potrf, args, {A.handle}, priority);
}

template <typename T>
void getrf_nopiv(const Context& ctx, Tile A, int priority) {
    TileArgs<T> args;
    args.col_offset = A.col_offset;
    submit(ctx, Kernel::GetrfNopiv, args, {A.handle}, priority);
}

template <typename T>
void scale(const Context& ctx, bool whole_tile, Uplo uplo, T alpha, Tile C, int priority) {
    TileArgs<T> args;
    args.whole_tile = whole_tile, args.uplo = uplo, args.alpha = alpha;
    submit(ctx, Kernel::Scale, args, {C.handle}, priority);
}

#define GRAIN_INSTANTIATE(T)                                                                            \
    template void gemm<T>(const Context&, Op, Op, T, Tile, Tile, T, Tile, int);                        \
    template void trsm<T>(const Context&, Side, Uplo, Op, Diag, T, Tile, Tile, int);                   \
    template void syrk<T>(const Context&, Uplo, Op, T, Tile, T, Tile, int);                            \
    template void potrf<T>(const Context&, Uplo, Tile, int);                                           \
    template void getrf_nopiv<T>(const Context&, Tile, int);                                           \
    template void scale<T>(const Context&, bool, Uplo, T, Tile, int);
GRAIN_INSTANTIATE(float)
GRAIN_INSTANTIATE(double)
#undef GRAIN_INSTANTIATE

}  // namespace task
}  // namespace grain::detail
