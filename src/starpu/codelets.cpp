#include "codelets.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "src/base/scalar_traits.hpp"
#include "src/kernels/cpu.hpp"
#ifdef GRAIN_USE_CUDA
#include "src/kernels/cuda.hpp"
#endif

namespace grain::detail {

namespace {

#if defined(STARPU_SIMGRID) && !defined(GRAIN_USE_CUDA)
// Simulated GPUs (StarPU built with SimGrid) run no kernel: StarPU only needs a CUDA
// implementation to exist, and times it from the kernel's CUDA performance model.
void simulated_only(void**, void*) {
    std::fprintf(stderr, "grain: a simulated CUDA kernel was called\n");
    std::abort();
}
#endif

// The CUDA kernel of row k: null in a build without CUDA kernels.
template <typename T>
starpu_cuda_func_t cuda_function([[maybe_unused]] size_t k) {
#ifdef GRAIN_USE_CUDA
    static const kernels::KernelFunctions functions = cuda::functions<T>();
    return functions[k];
#elif defined(STARPU_SIMGRID)
    return simulated_only;
#else
    return nullptr;
#endif
}

// The codelets and performance models of one precision. Built once, in place
// (codelets point to their models), and never moved.
template <typename T>
class CodeletTable {
public:
    CodeletTable() {
        const kernels::KernelFunctions cpu = cpu::functions<T>();
        for (size_t k = 0; k < kernel_count; ++k) {
            const KernelInfo& info = kernel_info(Kernel(k));
            names_[k] = std::string("grain_") + scalar_traits<T>::letter + info.name;
            starpu_perfmodel& model = models_[k];
            model.type = STARPU_HISTORY_BASED;
            model.symbol = names_[k].c_str();
            starpu_codelet& cl = codelets_[k];
            starpu_codelet_init(&cl);
            cl.cpu_funcs[0] = cpu[k];
            if (starpu_cuda_func_t cuda = cuda_function<T>(k)) {
                cl.cuda_funcs[0] = cuda;
                cl.cuda_flags[0] = info.cuda_async ? STARPU_CUDA_ASYNC : 0;
            }
            cl.nbuffers = info.nbuffers;
            for (int i = 0; i < info.nbuffers; ++i) cl.modes[i] = info.modes[size_t(i)];
            cl.model = &model;
            cl.name = names_[k].c_str();
        }
    }
    CodeletTable(const CodeletTable&) = delete;
    CodeletTable& operator=(const CodeletTable&) = delete;

    starpu_codelet* get(Kernel kernel) { return &codelets_[size_t(kernel)]; }

private:
    std::array<std::string, kernel_count> names_;
    std::array<starpu_perfmodel, kernel_count> models_{};
    std::array<starpu_codelet, kernel_count> codelets_{};
};

}  // namespace

template <typename T>
starpu_codelet* codelet(Kernel kernel) {
    static CodeletTable<T> table;
    return table.get(kernel);
}

#define GRAIN_INSTANTIATE(T) template starpu_codelet* codelet<T>(Kernel);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::detail
