#include "perf_models.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "codelets.hpp"
#include "src/base/scalar_traits.hpp"

namespace grain::detail {

namespace {

template <typename T>
double history_duration(Kernel kernel, uint32_t footprint, int worker) {
    const double microseconds = starpu_perfmodel_history_based_expected_perf(
        codelet<T>(kernel)->model, starpu_worker_get_perf_archtype(worker, 0), footprint);
    return std::isnan(microseconds) || microseconds <= 0 ? std::numeric_limits<double>::quiet_NaN()
                                                          : microseconds * 1e-6;
}

}  // namespace

KernelFootprints tile_footprints(int nb) {
    // A history model without a footprint or size function (ours) keys a task by its
    // data: StarPU 1.3 folds each buffer's footprint into a CRC, and a matrix's is the CRC
    // of nx and ny over the interface's id (src/datawizard/footprint.c). Computed from the
    // sizes: asking StarPU needs a registered handle, whose registration can cost
    // milliseconds inside a run (doc/results/tuning-history.md#tile-footprints).
    // Codelets.TileFootprintsAreWhatStarPUComputes holds this to StarPU's own.
    const uint32_t tile = starpu_hash_crc32c_be(starpu_hash_crc32c_be(uint32_t(nb), uint32_t(nb)),
                                                uint32_t(STARPU_MATRIX_INTERFACE_ID));
    // A column kernel's depends on its column's height: that of a one-tile column, with
    // its pivot block (a vector's is the CRC of its length), the LP's kind. A square LU
    // whose order is a multiple of the tile ends on one, and so does a split panel's LU
    // where its own last sub-panel splits; a tall LU ends on a taller column.
    const uint32_t pivots =
        starpu_hash_crc32c_be(starpu_hash_crc32c_be(uint32_t(nb), 0), uint32_t(STARPU_VECTOR_INTERFACE_ID));
    // A factor kernel's first buffer is a tile's T factor, qr_inner_block(nb) x nb.
    const uint32_t factor = starpu_hash_crc32c_be(
        starpu_hash_crc32c_be(uint32_t(qr_inner_block(nb)), uint32_t(nb)), uint32_t(STARPU_MATRIX_INTERFACE_ID));
    KernelFootprints footprints{};
    for (size_t k = 0; k < kernel_count; ++k) {
        const KernelInfo& info = kernel_info(Kernel(k));
        const bool first_apart = info.column || info.factor;
        uint32_t footprint = info.column ? starpu_hash_crc32c_be(pivots, 0) : info.factor ? starpu_hash_crc32c_be(factor, 0) : 0;
        for (int i = first_apart ? 1 : 0; i < info.nbuffers; ++i) footprint = starpu_hash_crc32c_be(tile, footprint);
        footprints[size_t(k)] = footprint;
    }
    return footprints;
}

double history_duration(Kernel kernel, char precision, uint32_t footprint, int worker) {
    return with_precision(precision, [&](auto t) { return history_duration<decltype(t)>(kernel, footprint, worker); });
}

void load_history_models() {
    // A query by footprint (history_duration) does not read a model from disk: on one not
    // read yet it dereferences the model's unset state (StarPU 1.3). Whoever asks durations
    // calls this first. Dumping a model reads it without asking it about a footprint:
    // asking about one it has no history for turns calibration on for the whole run and
    // prints StarPU's "not calibrated enough" warning (so did the task-based query this
    // replaces, on 1x1 tiles, at every start).
    FILE* sink = std::fopen("/dev/null", "w");
    if (!sink) sink = std::tmpfile();
    if (!sink) throw std::runtime_error("grain: cannot open /dev/null or a temporary file to read the performance models");
    for (size_t k = 0; k < kernel_count; ++k) {
#define GRAIN_DUMP(T) starpu_perfmodel_dump_xml(sink, codelet<T>(Kernel(k))->model);
        GRAIN_FOR_EACH_PRECISION(GRAIN_DUMP)
#undef GRAIN_DUMP
    }
    std::fclose(sink);
}

}  // namespace grain::detail
