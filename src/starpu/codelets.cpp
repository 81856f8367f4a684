#include "codelets.hpp"

#include <algorithm>
#include <array>
#include <atomic>
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
    return kernel_info(Kernel(k)).cuda == CudaKernel::None ? nullptr : simulated_only;
#else
    return nullptr;
#endif
}

std::atomic<int> cpu_limit{0};

// StarPU's can_execute hook of the codelets that have a CUDA kernel: a CPU worker runs a
// task unless GPUs run too and one of its tiles is larger than the limit, or the task is
// one only the cores may run (a share of a panel spread over processes).
int within_cpu_limit(unsigned worker, starpu_task* task, unsigned) {
    const int limit = cpu_limit.load(std::memory_order_relaxed);
    if (limit <= 0 || starpu_worker_get_type(int(worker)) != STARPU_CPU_WORKER ||
        starpu_cuda_worker_get_count() == 0 || task->where == STARPU_CPU)  // only the cores may run it
        return 1;
    uint32_t side = 0;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
        if (starpu_data_get_interface_id(h) == STARPU_MATRIX_INTERFACE_ID)
            side = std::max({side, starpu_matrix_get_nx(h), starpu_matrix_get_ny(h)});
    }
    return side <= uint32_t(limit);
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
                cl.cuda_flags[0] = info.cuda == CudaKernel::Async ? STARPU_CUDA_ASYNC : 0;
                cl.can_execute = within_cpu_limit;
            }
            // A column kernel's task, and an update's, says how many buffers it has, and
            // their modes.
            const bool variable = info.column || info.applies;
            cl.nbuffers = variable ? STARPU_VARIABLE_NBUFFERS : info.nbuffers;
            if (!variable)
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

// Never destroyed: StarPU reads the models (their names) until it shuts down, which a
// Runtime owned by a static object (libgrain_lapack's session) does after this table
// would otherwise be gone.
template <typename T>
starpu_codelet* codelet(Kernel kernel) {
    static CodeletTable<T>* const table = new CodeletTable<T>();
    return table->get(kernel);
}

void set_cpu_tile_limit(int limit) { cpu_limit = limit; }
int cpu_tile_limit() { return cpu_limit.load(); }

#define GRAIN_INSTANTIATE(T) template starpu_codelet* codelet<T>(Kernel);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

int gpu_count() {
    if (!starpu_is_initialized()) return 0;
    int gpus = 0;
    for (unsigned node = 0; node < starpu_memory_nodes_get_count(); ++node)
        gpus += starpu_node_get_kind(node) == STARPU_CUDA_RAM;
    return gpus;
}

}  // namespace grain::detail
