#pragma once
// How the lp policy prices the kernels' durations on one unit type (CPU cores or GPUs)
// at every level of a ladder, from what StarPU's history models measured. Apart from
// the LP and StarPU, so that the rules can be tested on made-up measurements.
#include <vector>

namespace grain::detail {

// `measured[t * levels + l]`: the seconds of kernel t on one tile of scales[l] on one
// worker of the unit, NaN where its model has no history. Returns the priced durations,
// indexed alike. `estimated_flops`: the unit's rate for a kernel without any history;
// `cores`: whether the unit is CPU cores (a borrowed rate's fallback differs).
std::vector<double> priced_durations(const std::vector<double>& measured, const std::vector<int>& scales,
                                     double estimated_flops, bool cores);

}  // namespace grain::detail
