#include "perf_models.hpp"

#include <cmath>
#include <limits>

namespace grain::detail {

namespace {

template <typename T>
double history_duration(Kernel kernel, int nb, int worker) {
    // A task that is never submitted, on handles with no memory, has the footprint the
    // kernel's tasks on such tiles have.
    starpu_codelet* cl = codelet<T>(kernel);
    starpu_data_handle_t tile = nullptr;
    starpu_matrix_data_register(&tile, -1, 0, uint32_t(nb), uint32_t(nb), uint32_t(nb), sizeof(T));
    starpu_task* task = starpu_task_create();
    task->cl = cl;
    for (int i = 0; i < cl->nbuffers; ++i) task->handles[i] = tile;
    const double microseconds = starpu_task_expected_length(task, starpu_worker_get_perf_archtype(worker, 0), 0);
    task->destroy = 0;
    starpu_task_destroy(task);
    starpu_data_unregister_no_coherency(tile);
    return std::isnan(microseconds) || microseconds <= 0 ? std::numeric_limits<double>::quiet_NaN()
                                                          : microseconds * 1e-6;
}

}  // namespace

double history_duration(Kernel kernel, bool double_precision, int nb, int worker) {
    return double_precision ? history_duration<double>(kernel, nb, worker) : history_duration<float>(kernel, nb, worker);
}

void load_history_models() {
    for (int k = 0; k < int(Kernel::Count); ++k) {
        history_duration<float>(Kernel(k), 1, 0);
        history_duration<double>(Kernel(k), 1, 0);
    }
}

double kernel_flops(Kernel kernel, double nb) {
    const double n3 = nb * nb * nb;
    switch (kernel) {
        case Kernel::Gemm: return 2 * n3;
        case Kernel::Trsm: return n3;
        case Kernel::Syrk: return n3;
        case Kernel::Potrf: return n3 / 3;
        case Kernel::GetrfNopiv: return 2 * n3 / 3;
        case Kernel::Scale: return nb * nb;
        case Kernel::Count: break;
    }
    return 0;
}

}  // namespace grain::detail
