#include "perf_models.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace grain::detail {

namespace {

template <typename T>
KernelFootprints tile_footprints(int nb) {
    // Tasks that are never submitted, on a handle with no memory, have the footprints
    // the kernels' tasks on such tiles have.
    starpu_data_handle_t tile = nullptr;
    starpu_matrix_data_register(&tile, -1, 0, uint32_t(nb), uint32_t(nb), uint32_t(nb), sizeof(T));
    KernelFootprints footprints{};
    for (int k = 0; k < int(Kernel::Count); ++k) {
        starpu_codelet* cl = codelet<T>(Kernel(k));
        starpu_task* task = starpu_task_create();
        task->cl = cl;
        for (int i = 0; i < cl->nbuffers; ++i) task->handles[i] = tile;
        // The footprint of the task's data (no architecture: with one, StarPU 1.3 reads
        // the model's per-architecture state, which exists once the model is loaded).
        footprints[size_t(k)] = starpu_task_footprint(cl->model, task, nullptr, 0);
        task->destroy = 0;
        starpu_task_destroy(task);
    }
    starpu_data_unregister_no_coherency(tile);
    return footprints;
}

template <typename T>
double history_duration(Kernel kernel, uint32_t footprint, int worker) {
    const double microseconds = starpu_perfmodel_history_based_expected_perf(
        codelet<T>(kernel)->model, starpu_worker_get_perf_archtype(worker, 0), footprint);
    return std::isnan(microseconds) || microseconds <= 0 ? std::numeric_limits<double>::quiet_NaN()
                                                          : microseconds * 1e-6;
}

}  // namespace

KernelFootprints tile_footprints(bool double_precision, int nb) {
    return double_precision ? tile_footprints<double>(nb) : tile_footprints<float>(nb);
}

double history_duration(Kernel kernel, bool double_precision, uint32_t footprint, int worker) {
    return double_precision ? history_duration<double>(kernel, footprint, worker)
                            : history_duration<float>(kernel, footprint, worker);
}

void load_history_models() {
    // Dumping a model reads it from disk as a duration query does, without asking it about
    // a footprint: asking about one it has no history for turns calibration on for the
    // whole run and prints StarPU's "not calibrated enough" warning (so did the query this
    // replaces, on 1x1 tiles, at every start).
    FILE* sink = std::fopen("/dev/null", "w");
    if (!sink) return;  // then the first query reads each model
    for (int k = 0; k < int(Kernel::Count); ++k) {
        starpu_perfmodel_dump_xml(sink, codelet<float>(Kernel(k))->model);
        starpu_perfmodel_dump_xml(sink, codelet<double>(Kernel(k))->model);
    }
    std::fclose(sink);
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
