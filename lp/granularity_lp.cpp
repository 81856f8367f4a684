#include "granularity_lp.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace grain::lp {

namespace {

// Column and row numbers (GLPK counts from 1).
struct Layout {
    Shape s;
    int executed(int t, int l, int u) const { return 1 + (t * s.levels + l) * s.units + u; }
    int split(int t, int l) const { return 1 + s.types * s.levels * s.units + t * s.levels + l; }
    int makespan() const { return 1 + s.types * s.levels * (s.units + 1); }
    int columns() const { return makespan(); }
    int count_row(int t, int l) const { return 1 + t * s.levels + l; }          // (1)
    int time_row(int u) const { return 1 + s.types * s.levels + u; }            // (3)
    int min_row(int u) const { return 1 + s.types * s.levels + s.units + u; }   // (4)
    int rows() const { return s.types * s.levels + 2 * s.units; }
};

bool finite_and_nonnegative(const std::vector<double>& values, size_t size) {
    if (values.size() != size) return false;
    for (double v : values)
        if (!std::isfinite(v) || v < 0) return false;
    return true;
}

bool valid(const Inputs& in) {
    const Shape& s = in.shape;
    if (s.types <= 0 || s.levels <= 0 || s.units <= 0) return false;
    const size_t tl = size_t(s.types) * size_t(s.levels);
    return finite_and_nonnegative(in.pending, tl) &&
           finite_and_nonnegative(in.children, size_t(s.types) * tl) &&
           finite_and_nonnegative(in.duration, tl * size_t(s.units)) &&
           finite_and_nonnegative(in.workers, size_t(s.units)) &&
           finite_and_nonnegative(in.available, size_t(s.units)) &&
           finite_and_nonnegative(in.min_tasks, size_t(s.units)) &&
           (in.runs.empty() || in.runs.size() == tl * size_t(s.units));
}

}  // namespace

GranularityLp::GranularityLp(Simplex simplex) : simplex_(simplex) {}

GranularityLp::~GranularityLp() = default;

void GranularityLp::build(const Shape& shape) {
    problem_ = glp_create_prob();
    if (shape.types != shape_.types || shape.levels != shape_.levels || shape.units != shape_.units) basis_.clear();
    shape_ = shape;
    const Layout at{shape};
    glp_set_obj_dir(problem_, GLP_MIN);
    glp_add_cols(problem_, at.columns());
    glp_add_rows(problem_, at.rows());
    for (int c = 1; c <= at.columns(); ++c) glp_set_col_bnds(problem_, c, GLP_LO, 0, 0);
    glp_set_obj_coef(problem_, at.makespan(), 1);
    for (int u = 0; u < shape.units; ++u) glp_set_row_bnds(problem_, at.time_row(u), GLP_UP, 0, 0);
}

Solution GranularityLp::solve(const Inputs& in) {
    if (!valid(in)) {
        ++failures_;
        return Solution{};
    }
    build(in.shape);
    struct Delete {
        glp_prob*& problem;
        ~Delete() { glp_delete_prob(std::exchange(problem, nullptr)); }
    } end_of_solve{problem_};
    const double most_tasks = bound_splits(in);
    set_count_rows(in);
    set_unit_rows(in, most_tasks);
    if (!run_simplex()) {
        ++failures_;
        return Solution{};
    }
    const int rows = glp_get_num_rows(problem_), columns = glp_get_num_cols(problem_);
    basis_.resize(size_t(rows + columns));
    for (int r = 1; r <= rows; ++r) basis_[size_t(r - 1)] = glp_get_row_stat(problem_, r);
    for (int c = 1; c <= columns; ++c) basis_[size_t(rows + c - 1)] = glp_get_col_stat(problem_, c);
    return read_solution(in);
}

double GranularityLp::bound_splits(const Inputs& in) {
    const Shape& s = in.shape;
    const Layout at{s};
    // (2), and a split that creates nothing is no way to be rid of a task: such (t, l)
    // cannot split. leaves[t][l]: kernels one (t, l) task becomes when split to the last
    // level, the most it can give; their sum over the pending tasks caps (4).
    std::vector<double> leaves(in.pending.size(), 1);
    double most_tasks = 0;
    for (int l = s.levels - 1; l >= 0; --l)
        for (int p = 0; p < s.types; ++p) {
            double created = 0;
            if (l + 1 < s.levels)
                for (int t = 0; t < s.types; ++t)
                    created += in.children[size_t((t * s.types + p) * s.levels + l + 1)] * leaves[size_t(t * s.levels + l + 1)];
            if (created > 0) leaves[size_t(p * s.levels + l)] = created;
            glp_set_col_bnds(problem_, at.split(p, l), created > 0 ? GLP_LO : GLP_FX, 0, 0);
            most_tasks += in.pending[size_t(p * s.levels + l)] * leaves[size_t(p * s.levels + l)];
        }
    return most_tasks;
}

void GranularityLp::set_count_rows(const Inputs& in) {
    const Shape& s = in.shape;
    const Layout at{s};
    // Rows are rewritten whole at each solve: a few entries each, cheap.
    std::vector<int> index(size_t(at.columns()) + 1);
    std::vector<double> value(size_t(at.columns()) + 1);
    for (int t = 0; t < s.types; ++t) {
        for (int l = 0; l < s.levels; ++l) {  // (1)
            int n = 0;
            for (int u = 0; u < s.units; ++u) index[size_t(++n)] = at.executed(t, l, u), value[size_t(n)] = 1;
            index[size_t(++n)] = at.split(t, l), value[size_t(n)] = 1;
            if (l > 0) {
                for (int p = 0; p < s.types; ++p) {
                    const double created = in.children[size_t((t * s.types + p) * s.levels + l)];
                    if (created > 0) index[size_t(++n)] = at.split(p, l - 1), value[size_t(n)] = -created;
                }
            }
            glp_set_mat_row(problem_, at.count_row(t, l), n, index.data(), value.data());
            const double tasks = in.pending[size_t(t * s.levels + l)];
            glp_set_row_bnds(problem_, at.count_row(t, l), GLP_FX, tasks, tasks);
        }
    }
}

void GranularityLp::set_unit_rows(const Inputs& in, double most_tasks) {
    const Shape& s = in.shape;
    const Layout at{s};
    std::vector<int> index(size_t(at.columns()) + 1);
    std::vector<double> value(size_t(at.columns()) + 1);
    // (4) asks for no more tasks than the pending work can give, shared out in
    // proportion, so that it never makes the problem infeasible.
    // A unit that runs no kind is asked for nothing.
    std::vector<bool> runs_some(size_t(s.units), in.runs.empty());
    for (size_t k = 0; k < in.runs.size(); ++k)
        if (in.runs[k]) runs_some[k % size_t(s.units)] = true;
    double wanted = 0;
    for (int u = 0; u < s.units; ++u)
        if (runs_some[size_t(u)]) wanted += in.workers[size_t(u)] * in.min_tasks[size_t(u)];
    const double share = wanted > most_tasks ? most_tasks / wanted : 1;
    for (int u = 0; u < s.units; ++u) {  // (3) and (4)
        int n = 0, m = 0;
        std::vector<int> min_index(size_t(s.types * s.levels) + 1);
        std::vector<double> ones(min_index.size(), 1.0);
        for (int t = 0; t < s.types; ++t)
            for (int l = 0; l < s.levels; ++l) {
                const size_t k = size_t((t * s.levels + l) * s.units + u);
                const bool runs = in.runs.empty() || in.runs[k];
                glp_set_col_bnds(problem_, at.executed(t, l, u), runs ? GLP_LO : GLP_FX, 0, 0);
                const double ex = in.duration[k];
                if (ex > 0) index[size_t(++n)] = at.executed(t, l, u), value[size_t(n)] = ex;
                min_index[size_t(++m)] = at.executed(t, l, u);
            }
        index[size_t(++n)] = at.makespan(), value[size_t(n)] = -in.available[size_t(u)] * in.workers[size_t(u)];
        glp_set_mat_row(problem_, at.time_row(u), n, index.data(), value.data());
        glp_set_mat_row(problem_, at.min_row(u), m, min_index.data(), ones.data());
        const double minimum = runs_some[size_t(u)] ? in.workers[size_t(u)] * in.min_tasks[size_t(u)] * share : 0;
        glp_set_row_bnds(problem_, at.min_row(u), minimum > 0 ? GLP_LO : GLP_FR, minimum, 0);
    }
}

bool GranularityLp::run_simplex() {
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    // Each solve starts from the last one's basis: successive problems differ in a few
    // pending counts, so the simplex needs few iterations, and presolving would throw
    // that basis away (doc/results/tuning-history.md#lp-warm-start). A basis the new
    // coefficients made unusable is replaced by GLPK's advanced initial one.
    parm.presolve = GLP_OFF;
    const int rows = glp_get_num_rows(problem_), columns = glp_get_num_cols(problem_);
    if (basis_.size() == size_t(rows + columns)) {
        for (int r = 1; r <= rows; ++r) glp_set_row_stat(problem_, r, basis_[size_t(r - 1)]);
        for (int c = 1; c <= columns; ++c) glp_set_col_stat(problem_, c, basis_[size_t(rows + c - 1)]);
    }
    int rc = simplex_(problem_, &parm);
    if (rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) {
        glp_adv_basis(problem_, 0);
        rc = simplex_(problem_, &parm);
    }
    return rc == 0 && glp_get_status(problem_) == GLP_OPT;
}

Solution GranularityLp::read_solution(const Inputs& in) const {
    const Shape& s = in.shape;
    const Layout at{s};
    Solution out;
    out.solved = true;
    // Without presolve the simplex leaves basic columns within its bound tolerance,
    // a few 1e-16 below zero at times: they are counts, so read them as zero.
    const auto count = [&](int column) { return std::max(0.0, glp_get_col_prim(problem_, column)); };
    out.makespan = glp_get_col_prim(problem_, at.makespan());
    out.executed.resize(in.duration.size());
    out.split.resize(in.pending.size());
    out.ratio.resize(in.pending.size());
    for (int t = 0; t < s.types; ++t)
        for (int l = 0; l < s.levels; ++l) {
            const size_t tl = size_t(t * s.levels + l);
            double executed = 0;
            for (int u = 0; u < s.units; ++u) {
                const double ne = count(at.executed(t, l, u));
                out.executed[tl * size_t(s.units) + size_t(u)] = ne;
                executed += ne;
            }
            const double ns = count(at.split(t, l));
            out.split[tl] = ns;
            out.ratio[tl] = ns + executed > 0 ? ns / (ns + executed) : 0;
        }
    return out;
}

}  // namespace grain::lp
