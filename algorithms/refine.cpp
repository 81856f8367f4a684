// Each kernel's algorithm: what a task of the kernel runs as when it splits.
#include "recursion/tasks.hpp"
#include "algorithms.hpp"

namespace grain::algorithms {

using detail::Kernel;

template <typename T>
void refine(const Context& ctx, Kernel kernel, const detail::TileArgs<T>& p, const Matrix<T>* sub) {
    switch (kernel) {
        case Kernel::Gemm: return gemm(ctx, p.transa, p.transb, p.alpha, sub[0], sub[1], p.beta, sub[2]);
        case Kernel::Trsm: return trsm(ctx, p.side, p.uplo, p.transa, p.diag, p.alpha, sub[0], sub[1]);
        case Kernel::Trmm: return trmm(ctx, p.side, p.uplo, p.transa, p.diag, p.alpha, sub[0], sub[1]);
        case Kernel::Trtri: return trtri(ctx, p.uplo, p.diag, sub[0]);
        case Kernel::Lauum: return lauum(ctx, p.uplo, sub[0]);
        case Kernel::Trtrm: return trtrm(ctx, sub[0]);
        case Kernel::Symm:
        case Kernel::Hemm:
            return symm(ctx, kernel == Kernel::Hemm, p.side, p.uplo, p.alpha, sub[0], sub[1], p.beta, sub[2]);
        case Kernel::Syr2k:
        case Kernel::Her2k:
            return syr2k(ctx, kernel == Kernel::Her2k, p.uplo, p.transa, p.alpha, sub[0], sub[1], p.beta, sub[2]);
        case Kernel::Syrk: return syrk(ctx, p.uplo, p.transa, p.alpha, sub[0], p.beta, sub[1]);
        case Kernel::Herk: return herk(ctx, p.uplo, p.transa, p.alpha, sub[0], p.beta, sub[1]);
        case Kernel::Potrf: return potrf(ctx, p.uplo, sub[0]);
        case Kernel::GetrfNopiv: return getrf_nopiv(ctx, sub[0]);
        case Kernel::Scale: return scale(ctx, p.whole_tile, p.uplo, p.alpha, sub[0], p.real_diagonal);
        // Counting mode only (split_children): a split panel is refined by its column of
        // sub-tiles (recursion/tasks.cpp, submit_column).
        case Kernel::Getrf: return getrf(ctx, detail::TileGrid<T>(sub[0]), detail::PivotBlocks{});
        default: break;  // a kernel that never splits (its table row)
    }
}

#define GRAIN_INSTANTIATE(T) \
    template void refine<T>(const Context&, Kernel, const detail::TileArgs<T>&, const Matrix<T>*);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::algorithms
