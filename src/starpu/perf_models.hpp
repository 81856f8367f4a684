#pragma once
// What the performance models say about a kernel on square tiles of one size.
#include <array>
#include <cstdint>

#include "src/base/kernel_table.hpp"

namespace grain::detail {

using KernelFootprints = std::array<uint32_t, kernel_count>;

// What StarPU keys each kernel's history by on nb x nb tiles (either precision): the
// footprint of such a task, computed without registering anything; for a column kernel,
// of a column of one tile.
KernelFootprints tile_footprints(int nb);

// Expected duration in seconds of `kernel` in `precision` (scalar_traits' letter) on
// worker `worker` for tasks of `footprint`
// (from tile_footprints), from the codelet's history model, which must be loaded
// (load_history_models); NaN while the model has too few measurements for that footprint,
// and then StarPU measures this run's tasks of the model (it says so, once per model).
double history_duration(Kernel kernel, char precision, uint32_t footprint, int worker);

// Reads the history models of every kernel and precision from disk now, without
// asking them anything.
void load_history_models();

}  // namespace grain::detail
