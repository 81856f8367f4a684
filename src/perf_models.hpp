#pragma once
// What the performance models say about a kernel on square tiles of one size.
#include "codelets.hpp"

namespace grain::detail {

// Expected duration in seconds of `kernel` on nb x nb tiles on worker `worker`, from
// the codelet's history model; NaN while the model has no measurement for that size.
double history_duration(Kernel kernel, bool double_precision, int nb, int worker);

// Reads the history models of every kernel (both precisions) now: StarPU reads a
// model from disk the first time it is asked about it.
void load_history_models();

// Floating-point operations of `kernel` on nb x nb tiles (for estimates without history).
double kernel_flops(Kernel kernel, double nb);

}  // namespace grain::detail
