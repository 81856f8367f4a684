// The LAPACK-layout forms' settings: their distributed layout, tile size and ladder.
#include <algorithm>
#include <cstdlib>

#include "grain/runtime.hpp"
#include "layout_call.hpp"
#include "src/base/constants.hpp"
#include "src/base/env.hpp"

namespace grain {

namespace {
thread_local const DistributedLayout* active_layout = nullptr;
}

DistributedLayout::DistributedLayout(const Distribution& distribution, int root)
    : distribution_(distribution), root_(root), outer_(active_layout) {
    using detail::require, detail::text;
    const int ranks = Runtime::ranks();
    require(distribution.ranks() == ranks, "grain::DistributedLayout", "distribution.ranks()",
            text(distribution.ranks()), "must equal the processes of the run, " + text(ranks));
    require(root >= 0 && root < ranks, "grain::DistributedLayout", "root", text(root),
            "must be in [0, " + text(ranks) + ")");
    active_layout = this;
}

DistributedLayout::~DistributedLayout() { active_layout = outer_; }

const DistributedLayout* DistributedLayout::current() { return active_layout; }

int default_tile_size(int64_t order) {
    const auto nb = detail::env_integer("grain::default_tile_size", {"GRAIN_NB"}, 1, detail::max_tile_size,
                                        "the tile size of the LAPACK-layout routines");
    if (nb) return int(nb->value);
    // About 8 tiles across, in multiples of 64, within [320, 1024]: on 2 cores small tiles
    // lost to OpenBLAS at large orders, where larger ones came close
    // (doc/results/2026-11-27-lapack-api.md).
    const int64_t eighth = order / 8 / 64 * 64;
    return int(std::clamp<int64_t>(eighth, detail::default_tile_size, detail::max_default_tile_size));
}

namespace detail {

std::vector<int> layout_scales(int64_t order) {
    const auto text = env_text({"GRAIN_SCALES"});
    if (!text) return {grain::default_tile_size(order)};
    std::vector<int> scales;
    for (const char* p = text->value.c_str();;) {
        char* end = nullptr;
        const long v = std::strtol(p, &end, 10);
        if (end == p || v < 1 || v > max_tile_size || (*end && *end != ','))
            throw invalid_argument("grain", "GRAIN_SCALES", text->value,
                                   "must be tile sizes separated by commas, largest first (e.g. 1024,512,256)");
        scales.push_back(int(v));
        if (!*end) break;
        p = end + 1;
    }
    // Refused here, naming the variable, rather than by the Matrix it would make.
    if (const std::string why = ladder_problem(scales); !why.empty())
        throw invalid_argument("grain", "GRAIN_SCALES", text->value, why + " (e.g. 1024,512,256)");
    return scales;
}

}  // namespace detail
}  // namespace grain
