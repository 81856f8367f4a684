#pragma once
// The automatic granularity's entry for grain's own layers (grain::automatic_scales is the
// public one).
#include <cstdint>
#include <vector>

#include "grain/types.hpp"

namespace grain::detail {

// automatic_scales in `precision` (scalar_traits' letter); with read_models false, from the
// priors alone, as every process of a distributed call chooses the same whatever the
// models it has.
std::vector<int> choose_scales(Workload workload, int64_t order, char precision, bool read_models);

}  // namespace grain::detail
