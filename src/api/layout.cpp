// The LAPACK-layout forms' settings: their distributed layout and ladder.
#include <cstdlib>

#include "grain/runtime.hpp"
#include "granularity.hpp"
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

namespace detail {

std::vector<int> layout_scales(Workload workload, int64_t order, char precision, bool distributed) {
    const auto text = env_text({"GRAIN_SCALES"});
    if (!text) {
        const auto nb = env_integer("grain", {"GRAIN_NB"}, 1, max_tile_size, "the tile size of the LAPACK-layout routines");
        if (nb) return {int(nb->value)};
        return choose_scales(workload, order, precision, !distributed);
    }
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
