// grain_lp_bench: time of one granularity-LP solve (rewriting the model's rows plus
// glp_simplex) for T = 5 task types, 4 levels and 2 processing-unit types, the shape
// of a hybrid Cholesky/LU run; pending counts change between solves as in a run.
// Prints the median and the maximum over the solves, in milliseconds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "lp/granularity_lp.hpp"

int main(int argc, char** argv) {
    const int solves = argc > 1 ? std::atoi(argv[1]) : 2000;
    if (solves <= 0) {
        std::fprintf(stderr, "usage: grain_lp_bench [SOLVES]\n");
        return 2;
    }
    const int types = 5, levels = 4, units = 2;
    grain::lp::Inputs in;
    in.shape = {types, levels, units};
    in.pending.assign(size_t(types * levels), 0);
    in.children.assign(size_t(types * types * levels), 0);
    in.duration.assign(size_t(types * levels * units), 0);
    in.workers = {2, 62};  // GPUs, CPU cores
    in.available = {1, 1};
    in.min_tasks = {2, 2};
    for (int t = 0; t < types; ++t)
        for (int l = 0; l < levels; ++l) {
            if (l > 0) {
                in.children[size_t((t * types + t) * levels + l)] = 4;  // a split: 4 of its kind...
                in.children[size_t((0 * types + t) * levels + l)] += 4;  // ...and 4 gemms
            }
            const double size = 1.0 / double(1 << (3 * l));  // each level an eighth of the work
            in.duration[size_t((t * levels + l) * units + 0)] = size * (l + 1);  // GPUs dislike small tiles
            in.duration[size_t((t * levels + l) * units + 1)] = size * 300;
        }
    grain::lp::GranularityLp lp;
    std::vector<double> ms;
    for (int i = 0; i < solves; ++i) {
        for (int t = 0; t < types; ++t) in.pending[size_t(t * levels + i % levels)] = double((i * 7 + t * 3) % 40);
        const auto t0 = std::chrono::steady_clock::now();
        const grain::lp::Solution s = lp.solve(in);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (!s.solved) {
            std::fprintf(stderr, "grain_lp_bench: solve %d failed\n", i);
            return 1;
        }
    }
    std::sort(ms.begin(), ms.end());
    std::printf("solves;median_ms;max_ms\n%d;%.4f;%.4f\n", solves, ms[ms.size() / 2], ms.back());
    return 0;
}
