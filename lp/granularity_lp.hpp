#pragma once
// The granularity linear program (recursive-tasks-granularity-steering, section 2):
// how many tasks of each type and level to execute on each processing-unit type, and
// how many to split, to minimize the completion time exT of the pending work.
//
//   minimize exT subject to
//   (1) for every t, l:  sum_u Ne[t][l][u] + Ns[t][l] - sum_p nch[t][p][l] * Ns[p][l-1] = Ntot[t][l]
//   (2) for every t:     Ns[t][L] = 0                      (no split at the last level)
//                        Ne[t][l][u] = 0 where u cannot run (t, l) (cores, tiles over
//                        RuntimeOptions::cpu_tile_limit)
//   (3) for every u:     sum_{t,l} Ex[t][l][u] * Ne[t][l][u] - Idle[u] * R[u] * exT <= 0
//   (4) for every u:     sum_{t,l} Ne[t][l][u] >= R[u] * MinN[u] * c   (a lower bound,
//                        whatever the slides' typesetting)
// All variables are >= 0. (1) is an equality where the slides write >=: with >=, the
// LP may execute tasks that do not exist, and meets (4) with cheap phantom kernels
// instead of splitting (on CPU cores alone it then never splits). c <= 1 scales (4)
// down to what splitting every pending task to the last level gives, so that the
// problem stays feasible; Ns[t][l] is also 0 where a split of (t, l) creates nothing.
// The model is built once per shape and its coefficients and bounds are updated for
// each solve, which starts from the previous solve's basis.
#include <glpk.h>

#include <cstdint>
#include <vector>

namespace grain::lp {

struct Shape {
    int types = 0;   // T
    int levels = 0;  // L + 1
    int units = 0;   // R: processing-unit types
};

struct Inputs {
    Shape shape;
    std::vector<double> pending;    // Ntot[t][l], index t * levels + l
    std::vector<double> children;   // nch[t][p][l], index (t * types + p) * levels + l (l >= 1)
    std::vector<double> duration;   // Ex[t][l][u] in seconds, index (t * levels + l) * units + u
    std::vector<double> workers;    // R[u]
    std::vector<double> available;  // Idle[u]: the share of u's workers available, in [0, 1]
    std::vector<double> min_tasks;  // MinN[u]: tasks each worker of type u should get
    // Whether type u runs (t, l) at all, indexed as duration; empty: every unit runs
    // every kind. A unit that runs no kind is asked for no task in (4).
    std::vector<bool> runs;
};

struct Solution {
    bool solved = false;
    double makespan = 0;            // exT
    std::vector<double> executed;   // Ne, indexed as Inputs::duration
    std::vector<double> split;      // Ns, indexed as Inputs::pending
    std::vector<double> ratio;      // Ns / (Ns + sum_u Ne) per (t, l); 0 where both are 0
};

class GranularityLp {
public:
    // `simplex` is glp_simplex; tests inject failures through it.
    using Simplex = int (*)(glp_prob*, const glp_smcp*);
    explicit GranularityLp(Simplex simplex = glp_simplex);
    ~GranularityLp();
    GranularityLp(const GranularityLp&) = delete;
    GranularityLp& operator=(const GranularityLp&) = delete;

    // Solves for these inputs. On invalid inputs, a GLPK failure or an infeasible
    // problem, returns solved = false and counts a failure; never throws for them.
    Solution solve(const Inputs& inputs);
    int64_t failures() const { return failures_; }

private:
    void build(const Shape& shape);
    // The steps of a solve: bounds of the split columns (returns the most kernels the
    // pending work can become), constraints (1), constraints (3) and (4), the simplex
    // (whether it found the optimum), and its columns read back.
    double bound_splits(const Inputs& in);
    void set_count_rows(const Inputs& in);
    void set_unit_rows(const Inputs& in, double most_tasks);
    bool run_simplex();
    Solution read_solution(const Inputs& in) const;

    // GLPK keeps its memory per thread, and solves come from whichever thread submits: no
    // GLPK object outlives a solve. The last optimal basis (row then column statuses) is
    // kept here, for the next solve of the same shape to start from.
    Simplex simplex_;
    glp_prob* problem_ = nullptr;  // during a solve only
    Shape shape_;
    std::vector<int> basis_;
    int64_t failures_ = 0;
};

}  // namespace grain::lp
