#pragma once
// The recursion layer's state for one Runtime: the split policy, the live counters
// and the submission window.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "context.hpp"
#include "counters.hpp"
#include "src/base/starpu_sync.hpp"
#include "src/base/trace_log.hpp"
#include "split_policy.hpp"

namespace grain::detail {

class Recursion {
public:
    // `policies`: the split policies of the layers above, by name.
    Recursion(const std::string& split, int window, int lp_period, SplitPolicyRegistry policies);

    // A new policy; started at once if StarPU runs already.
    void set_split(const std::string& spec, const std::string& argument);
    // StarPU runs now: starts the policy.
    void started() { policy_->started(); }
    const std::string& split() const { return split_spec_; }
    void set_window(int window) { window_ = window; }
    int window() const { return window_; }
    Counters& counters() { return counters_; }
    int lp_period() const { return lp_period_; }
    Statistics statistics() const;
    void reset_statistics();  // and the trace
    // The kernel tasks that ran, recorded while tracing (StarPU's profiling on).
    void set_trace(bool on);
    TraceLog* trace() const { return trace_.get(); }

    // Counts the task and asks the policy whether to split it. A task whose output
    // tile is valid only on a GPU stays whole: StarPU 1.3 partitions a tile on its home
    // node (RAM), so splitting it would move it to the host and back.
    bool decide(const TaskSite& site);
    // A routine call is about to submit `tasks` on nb x nb tiles at its top level: adds
    // their flops to the calls' work in flight (Counters::call_flops), which starts anew
    // when no kernel is in flight, and announces them at `level` until they are submitted
    // (Counters::announced). The flops are CountedTasks::tile_tasks times a task's on nb x
    // nb tiles (a column task's times its height in tiles).
    void begin_call(const CountedTasks& tasks, int nb, int level);
    // Blocks while `window` kernels are submitted and not finished (until half of them
    // are), so that decisions taken at submission see the state the machine is in.
    void wait_for_window() const;
    // Held while a routine call submits (detail::submit): the policy and the counters see
    // one call's tasks at a time, also where a request's host thread submits beside the
    // application's (RequestState::run_on_thread).
    Mutex& submitting() { return submitting_; }

private:
    SplitPolicyRegistry policies_;
    std::string split_spec_;
    std::unique_ptr<SplitPolicy> policy_;
    int window_;
    int lp_period_;
    Counters counters_;
    std::atomic<int64_t> kept_on_gpu_{0};
    std::unique_ptr<TraceLog> trace_;  // while tracing
    double submit_seconds_ = 0;  // simulated: charged per tile task (GRAIN_SIM_SUBMIT_US)
    Mutex submitting_;
};

}  // namespace grain::detail
