// grain_darts_bench: the cost of one DARTS decision (a request that finds nothing
// planned and must choose a data or a task) with about 10,000 pending tasks: the 2D
// product of the paper with N x N tasks (N = 100 by default) on G GPUs, each GPU
// asking in turn and finishing at once. Prints the mean and maximum time per decision,
// and for comparison the mean time of a request served from plannedTasks.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "src/sched/darts.hpp"

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 100;
    const int gpus = argc > 2 ? std::atoi(argv[2]) : 2;
    if (n <= 0 || gpus <= 0) {
        std::fprintf(stderr, "usage: grain_darts_bench [N] [GPUS]\n");
        return 2;
    }
    using grain::detail::sched::Darts;
    Darts darts(gpus, 2 * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) darts.add_task({i, n + j});
    double decision_s = 0, decision_max = 0, planned_s = 0;
    int64_t decisions = 0, planned = 0;
    for (bool more = true; more;) {
        more = false;
        for (int k = 0; k < gpus; ++k) {
            const bool decides = darts.planned(k).empty();
            const auto t0 = std::chrono::steady_clock::now();
            const auto t = darts.pop(k);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (t == grain::detail::sched::no_task) continue;
            more = true;
            if (decides) decision_s += s, decision_max = std::max(decision_max, s), ++decisions;
            else planned_s += s, ++planned;
            darts.finished(k, t);
        }
    }
    std::printf("DARTS, %d x %d tasks on %d GPUs: %lld decisions, mean %.2f us, max %.2f us; "
                "%lld planned pops, mean %.3f us\n",
                n, n, gpus, static_cast<long long>(decisions), decision_s / double(decisions) * 1e6, decision_max * 1e6,
                static_cast<long long>(planned), planned > 0 ? planned_s / double(planned) * 1e6 : 0.0);
    return 0;
}
