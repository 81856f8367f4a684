#pragma once
// How every routine runs, from its plan: the operands the processes agree on, the inputs
// LAPACKE's NaN check reads, and its steps (the algorithms, and the outputs each writes).
// A routine's family file (blas3.cpp, cholesky.cpp, lu.cpp, norms.cpp) writes one plan per
// routine; GRAIN_TILED_FORMS makes its asynchronous and synchronous forms from it, and its
// LAPACK-layout form calls the synchronous one (layout_call.hpp).
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "checks.hpp"
#include "collective.hpp"
#include "grain/request.hpp"
#include "recursion/tasks.hpp"
#include "runtime_access.hpp"
#include "src/base/request_state.hpp"
#include "src/starpu/distributed.hpp"
#include "src/starpu/nan_check.hpp"
#include "src/starpu/write_back.hpp"

namespace grain::detail {

// One input of LAPACKE's NaN check (RuntimeOptions::nancheck): the elements the routine
// reads, and the array's position in the routine's LAPACK-layout form (LAPACK's
// numbering, which has no layout argument: LAPACKE's less one).
template <typename T>
struct NanInput {
    const Matrix<T>* A;
    Elements elements;
    int position;
};

inline Elements triangle(Uplo uplo) { return uplo == Uplo::Lower ? Elements::Lower : Elements::Upper; }

template <typename T>
class Plan {
public:
    using Algorithms = std::function<void(const Context&)>;
    struct Step {
        Algorithms algorithms;
        std::vector<const Matrix<T>*> outputs;
    };

    // The call's agreement starts here, before any check can throw (collective.hpp).
    Plan(const char* name, std::initializer_list<const Matrix<T>*> operands,
         std::initializer_list<int64_t> arguments = {})
        : routine(name), agreement_(std::make_unique<Collective>(name, operands, arguments)) {}

    const char* const routine;
    Collective& agreement() { return *agreement_; }
    // The inputs the synchronous form checks for NaN, in order.
    void check_nan(std::initializer_list<NanInput<T>> inputs) { nan_inputs_.insert(nan_inputs_.end(), inputs); }
    // The pivots a solve applies, which the synchronous form checks before it submits
    // anything (require_pivots).
    void check_pivots(const Pivots& ipiv, int64_t order) { pivots_ = {&ipiv, order}; }
    // A step: its algorithms, and the outputs the synchronous form brings home after it.
    // The synchronous form runs each step on a request of its own and stops at the first
    // that fails, so that a solve leaves B untouched when its factorization fails; the
    // asynchronous form pipelines them all on one request.
    void step(std::initializer_list<const Matrix<T>*> outputs, Algorithms algorithms) {
        steps_.push_back({std::move(algorithms), outputs});
    }

    const std::vector<NanInput<T>>& nan_inputs() const { return nan_inputs_; }
    const std::pair<const Pivots*, int64_t>& pivots() const { return pivots_; }
    const std::vector<Step>& steps() const { return steps_; }

private:
    std::unique_ptr<Collective> agreement_;  // a plan that throws agrees as it unwinds
    std::vector<NanInput<T>> nan_inputs_;
    std::pair<const Pivots*, int64_t> pivots_{nullptr, 0};
    std::vector<Step> steps_;
};

// Runs `algorithms` (a function of their Context) on a new Request, on the ladder of
// `A` (every operand's, as the checks require). Where the ladder leaves tasks to split,
// the algorithms first run in counting mode, so that the split policy knows the call's
// work before its first decision.
template <typename T, typename Algorithms>
Request submit(const Matrix<T>& A, const Algorithms& algorithms) {
    Recursion& recursion = active_recursion("grain");
    std::lock_guard<Mutex> submitting(recursion.submitting());
    Collective* call = Collective::active();
    if (A.distributed() && (!call || !call->distributed()))
        throw runtime_error("grain: internal error: a distributed call without its agreement");
    if (call) call->agree();
    if (A.level() + 1 < int(A.scales().size())) recursion.begin_call(count_tasks(algorithms), A.nb(), A.level());
    Request request;
    RequestState& state = RequestAccess::state(request);
    algorithms(Context{&state, &recursion, 0, 0});
    if (A.distributed()) {
        state.distributed = true;
        // Copies received from other processes go once this call's tasks are done with
        // them: the next call sees what the application wrote in between.
        mpi::flush_received();
    }
    return request;
}

// -(position) of the first input holding a NaN, else 0. It runs before anything is
// submitted, so a refused call leaves its inputs untouched.
template <typename T>
int nan_info(const Plan<T>& plan) {
    const std::vector<NanInput<T>>& inputs = plan.nan_inputs();
    if (inputs.empty()) return 0;
    // A distributed call takes part in the reduction below even where this process's
    // setting is off (a per-process setting: the processes' sequences of collectives
    // must not depend on it).
    const bool distributed = inputs.front().A->distributed();
    if (!nan_check_on() && !distributed) return 0;
    if (Collective* call = Collective::active()) call->agree();  // before any other collective
    constexpr int64_t none = std::numeric_limits<int64_t>::max();
    int64_t position = none;
    if (nan_check_on())
        for (const NanInput<T>& in : inputs)
            if (has_nan(*in.A, in.elements)) {
                position = in.position;
                break;
            }
    // Each process checks its own tiles; the first input with a NaN anywhere counts.
    if (distributed) position = mpi::min_over_ranks(position);
    return position == none ? 0 : -int(position);
}

// The first step's first output: its ladder is the call's.
template <typename T>
const Matrix<T>& ladder_of(const Plan<T>& plan) { return *plan.steps().front().outputs.front(); }

// The asynchronous form: every step on one request. It checks no NaN and no pivot: its
// inputs may still be being written by earlier requests, and a check would wait for them
// (and forever under starpu_pause).
template <typename T>
Request start(const Plan<T>& plan) {
    return submit(ladder_of(plan), [&plan](const Context& ctx) {
        for (const typename Plan<T>::Step& s : plan.steps()) s.algorithms(ctx);
    });
}

// The synchronous form: LAPACKE's NaN check and the pivots' check, then each step on a
// request of its own, its outputs sent home as they are done; info as LAPACK's.
template <typename T>
int finish(const Plan<T>& plan) {
    if (const int info = nan_info(plan)) return info;
    if (const auto& [ipiv, order] = plan.pivots(); ipiv) require_pivots(plan.routine, *ipiv, order);
    for (const typename Plan<T>::Step& s : plan.steps()) {
        Request request = submit(ladder_of(plan), s.algorithms);
        for (const Matrix<T>* out : s.outputs) write_back(*out);
        if (const int info = request.wait()) return info;
    }
    return 0;
}

}  // namespace grain::detail

// A routine's tiled forms, name_async and name, from its plan name_plan<T>(args...).
#define GRAIN_TILED_FORMS(name, params, args)                                             \
    template <typename T>                                                                 \
    Request name##_async params {                                                         \
        return detail::start(name##_plan<T> args);                                        \
    }                                                                                     \
    template <typename T>                                                                 \
    int name params {                                                                     \
        return detail::finish(name##_plan<T> args);                                       \
    }
