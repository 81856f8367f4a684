#include "durations.hpp"

#include <algorithm>
#include <cmath>

#include "src/base/kernel_table.hpp"

namespace grain::detail {

std::vector<double> priced_durations(const std::vector<double>& measured, const std::vector<int>& scales,
                                     double estimated_flops, bool cores) {
    const int levels = int(scales.size());
    auto at = [&](int t, int l) { return size_t(t * levels + l); };
    auto tile_flops = [&](int t, int l) { return kernel_flops(Kernel(t), scales[size_t(l)]); };
    auto tile_work = [&](int t, int l) { return kernel_work(Kernel(t), scales[size_t(l)]); };

    // The unit's best measured rate at each level, over the kernels that do flops.
    std::vector<double> best_flops(size_t(levels), 0);
    for (int t = 0; t < int(kernel_count); ++t)
        for (int l = 0; l < levels; ++l)
            if (!std::isnan(measured[at(t, l)]) && measured[at(t, l)] > 0 && tile_flops(t, l) > 0)
                best_flops[size_t(l)] = std::max(best_flops[size_t(l)], tile_flops(t, l) / measured[at(t, l)]);

    std::vector<double> priced(measured.size());
    for (int t = 0; t < int(kernel_count); ++t) {
        int last = -1;  // the finest level with history
        for (int l = 0; l < levels; ++l)
            if (!std::isnan(measured[at(t, l)])) last = l;
        const double seconds_per_work = last < 0 ? 1 / estimated_flops : measured[at(t, last)] / tile_work(t, last);
        // A kernel whose rate follows another's (the kernel table's rate column) keeps its
        // ratio to it from level to level, from its last level with history; without any,
        // on cores, it runs at the other's rate: at the cores' default rate, under the
        // calibrated kernels', a split panel looked cheaper than the whole one
        // (doc/results/2026-11-29-getrf-lp-panels.md). A GPU's kernel without history
        // keeps the default rate: cuSOLVER's panel there, with copies and pivots through
        // the host, is far below cuBLAS's trsm. The lender's row comes first, so its
        // durations are priced already.
        const int lender = kernel_info(Kernel(t)).rate_from;
        auto lender_seconds_per_work = [&](int l) { return priced[at(lender, l)] / tile_work(lender, l); };
        double over_lender = std::nan("");
        if (lender >= 0 && last >= 0) over_lender = seconds_per_work / lender_seconds_per_work(last);
        if (lender >= 0 && last < 0 && cores) over_lender = 1;
        for (int l = 0; l < levels; ++l) {
            if (!std::isnan(measured[at(t, l)])) {
                priced[at(t, l)] = measured[at(t, l)];
                continue;
            }
            const double per_work = std::isnan(over_lender) ? seconds_per_work : over_lender * lender_seconds_per_work(l);
            double seconds = per_work * tile_work(t, l);
            // A kernel with a rate of its own is priced no dearer than the unit's best
            // rate at this tile size. Priced from a finer level, a coarse tile looks as
            // slow per flop as a small one, so the LP splits it every time and it never
            // runs whole to be measured
            // (doc/results/2026-12-03-lp-optimistic-pricing.md).
            // Priced optimistically, a few tasks run whole, StarPU measures them (the
            // LP's queries turn its calibration on), and the solves after that price them
            // from history. A borrowed rate already follows its lender's to coarse tiles.
            if (lender < 0 && best_flops[size_t(l)] > 0 && tile_flops(t, l) > 0)
                seconds = std::min(seconds, tile_flops(t, l) / best_flops[size_t(l)]);
            priced[at(t, l)] = seconds;
        }
    }
    return priced;
}

}  // namespace grain::detail
