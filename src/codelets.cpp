#include "codelets.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "kernels/cpu.hpp"
#ifdef GRAIN_USE_CUDA
#include "kernels/cuda.hpp"
#endif

namespace grain::detail {

namespace {

template <typename T>
constexpr char precision_letter() { return sizeof(T) == sizeof(float) ? 's' : 'd'; }

struct KernelRow {
    Kernel kernel;
    const char* name;
    starpu_cpu_func_t cpu;
    starpu_cuda_func_t cuda;  // null in a build without CUDA kernels
    bool cuda_async;          // the CUDA kernel only enqueues work on the worker's stream
    std::initializer_list<starpu_data_access_mode> modes;
};

#if defined(STARPU_SIMGRID) && !defined(GRAIN_USE_CUDA)
// Simulated GPUs (StarPU built with SimGrid) run no kernel: StarPU only needs a CUDA
// implementation to exist, and times it from the kernel's CUDA performance model.
void simulated_only(void**, void*) {
    std::fprintf(stderr, "grain: a simulated CUDA kernel was called\n");
    std::abort();
}
#endif

// The codelets and performance models of one precision. Built once, in place
// (codelets point to their models), and never moved.
template <typename T>
class KernelTable {
public:
    KernelTable() {
#ifdef GRAIN_USE_CUDA
#define GRAIN_CUDA(f) cuda::f<T>
#elif defined(STARPU_SIMGRID)
#define GRAIN_CUDA(f) simulated_only
#else
#define GRAIN_CUDA(f) nullptr
#endif
        // potrf and getrf read cuSOLVER's info back, so they end synchronized.
        const KernelRow rows[] = {
            {Kernel::Gemm, "gemm", cpu::gemm<T>, GRAIN_CUDA(gemm), true, {STARPU_R, STARPU_R, STARPU_RW}},
            {Kernel::Trsm, "trsm", cpu::trsm<T>, GRAIN_CUDA(trsm), true, {STARPU_R, STARPU_RW}},
            {Kernel::Syrk, "syrk", cpu::syrk<T>, GRAIN_CUDA(syrk), true, {STARPU_R, STARPU_RW}},
            {Kernel::Potrf, "potrf", cpu::potrf<T>, GRAIN_CUDA(potrf), false, {STARPU_RW}},
            {Kernel::GetrfNopiv, "getrf_nopiv", cpu::getrf_nopiv<T>, GRAIN_CUDA(getrf_nopiv), false, {STARPU_RW}},
            {Kernel::Scale, "scale", cpu::scale<T>, GRAIN_CUDA(scale), true, {STARPU_RW}},
        };
#undef GRAIN_CUDA
        static_assert(sizeof(rows) / sizeof(rows[0]) == size_t(Kernel::Count), "one row per kernel");
        for (const KernelRow& row : rows) {
            const size_t k = size_t(row.kernel);
            names_[k] = std::string("grain_") + precision_letter<T>() + row.name;
            starpu_perfmodel& model = models_[k];
            model.type = STARPU_HISTORY_BASED;
            model.symbol = names_[k].c_str();
            starpu_codelet& cl = codelets_[k];
            starpu_codelet_init(&cl);
            cl.cpu_funcs[0] = row.cpu;
            if (row.cuda) {
                cl.cuda_funcs[0] = row.cuda;
                cl.cuda_flags[0] = row.cuda_async ? STARPU_CUDA_ASYNC : 0;
            }
            cl.nbuffers = int(row.modes.size());
            int i = 0;
            for (starpu_data_access_mode mode : row.modes) cl.modes[i++] = mode;
            cl.model = &model;
            cl.name = names_[k].c_str();
        }
    }
    KernelTable(const KernelTable&) = delete;
    KernelTable& operator=(const KernelTable&) = delete;

    starpu_codelet* get(Kernel kernel) { return &codelets_[size_t(kernel)]; }

private:
    std::array<std::string, size_t(Kernel::Count)> names_;
    std::array<starpu_perfmodel, size_t(Kernel::Count)> models_{};
    std::array<starpu_codelet, size_t(Kernel::Count)> codelets_{};
};

}  // namespace

template <typename T>
starpu_codelet* codelet(Kernel kernel) {
    static KernelTable<T> table;
    return table.get(kernel);
}

template starpu_codelet* codelet<float>(Kernel);
template starpu_codelet* codelet<double>(Kernel);

}  // namespace grain::detail
