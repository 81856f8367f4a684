#pragma once
// grain_sched_bench's scenarios, the DARTS paper's independent-task sets: each task a
// list of input tiles and a codelet kind.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace grain::sched_bench {

constexpr int tile = 960;
constexpr double tile_flops = 2.0 * tile * tile * tile;  // one SGEMM tile kernel
// The 2D products' inputs are the paper's block-rows of A and block-columns of B, four
// tiles deep (5 x 5 tasks: 140 MiB of inputs, as its figures say); each task is a
// 960 x 3840 by 3840 x 960 product into one tile of C.
constexpr int panel_tiles = 4;

enum Kind { gemm3, potrf, trsm, syrk, gemm4 };  // gemm4: Cholesky's gemm, which also reads C

struct Task {
    Kind kind;
    std::vector<int> inputs;  // indices into the scenario's input tiles
};

struct Shape {
    int nx = tile, ny = tile;  // rows (contiguous), columns
    double bytes() const { return double(nx) * ny * sizeof(float); }
};

struct Scenario {
    std::vector<Shape> inputs;  // the registered input matrices
    std::vector<Task> tasks;
    double task_flops = tile_flops;
};

// Fisher-Yates with our own index draw, so a seed gives the same order with any
// standard library (std::shuffle's algorithm is unspecified).
template <class T>
void shuffle(std::vector<T>& v, std::mt19937_64& rng) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng() % i]);
}

inline Scenario make_scenario(const std::string& name, int n, unsigned seed) {
    Scenario s;
    std::mt19937_64 rng(seed);
    if (name == "2d" || name == "2d-random" || name == "sparse") {
        // A_i is input i, B_j is input n + j; submitted row by row.
        s.inputs.assign(size_t(n), Shape{tile, panel_tiles * tile});
        s.inputs.resize(size_t(2 * n), Shape{panel_tiles * tile, tile});
        s.task_flops = panel_tiles * tile_flops;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) s.tasks.push_back({gemm3, {i, n + j}});
        if (name == "2d-random") shuffle(s.tasks, rng);
        if (name == "sparse") {  // keep 2% of the tasks (at least one), still row by row
            std::vector<size_t> order(s.tasks.size());
            for (size_t t = 0; t < order.size(); ++t) order[t] = t;
            shuffle(order, rng);
            order.resize(std::max<size_t>(1, size_t(std::lround(0.02 * double(s.tasks.size())))));
            std::sort(order.begin(), order.end());
            std::vector<Task> kept;
            for (size_t t : order) kept.push_back(s.tasks[t]);
            s.tasks = kept;
        }
    } else if (name == "3d") {
        // A_ik is tile i*n + k, B_kj is tile n*n + k*n + j.
        s.inputs.resize(size_t(2 * n * n));
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                for (int k = 0; k < n; ++k) s.tasks.push_back({gemm3, {i * n + k, n * n + k * n + j}});
    } else {  // cholesky: the tasks of a right-looking tiled Cholesky on the lower N x N tiles
        std::vector<int> index(size_t(n) * n, -1);
        for (int m = 0; m < n; ++m)
            for (int k = 0; k <= m; ++k) {
                index[size_t(m) * n + k] = int(s.inputs.size());
                s.inputs.emplace_back();
            }
        auto a = [&](int m, int k) { return index[size_t(m) * n + k]; };
        for (int k = 0; k < n; ++k) {
            s.tasks.push_back({potrf, {a(k, k)}});
            for (int m = k + 1; m < n; ++m) s.tasks.push_back({trsm, {a(k, k), a(m, k)}});
            for (int j = k + 1; j < n; ++j) {
                s.tasks.push_back({syrk, {a(j, k), a(j, j)}});
                for (int m = j + 1; m < n; ++m) s.tasks.push_back({gemm4, {a(m, k), a(j, k), a(m, j)}});
            }
        }
    }
    return s;
}

inline double working_set_mb(const Scenario& s) {
    std::vector<bool> used(s.inputs.size(), false);
    for (const Task& t : s.tasks)
        for (int d : t.inputs) used[size_t(d)] = true;
    double bytes = 0;
    for (size_t d = 0; d < used.size(); ++d)
        if (used[d]) bytes += s.inputs[d].bytes();
    return bytes / 1e6;
}

}  // namespace grain::sched_bench
