#include "recursion.hpp"

#include <starpu.h>

#include <utility>

#include "grain/errors.hpp"
#include "src/base/env.hpp"
#include "src/base/simulation.hpp"
#include "src/starpu/codelets.hpp"
#include "src/starpu/tile_storage.hpp"

namespace grain::detail {

namespace {

bool only_on_gpu(starpu_data_handle_t handle) {
    int allocated = 0, valid = 0, requested = 0;
    starpu_data_query_status(handle, STARPU_MAIN_RAM, &allocated, &valid, &requested);
    if (valid) return false;
    for (unsigned node = 0; node < starpu_memory_nodes_get_count(); ++node) {
        if (starpu_node_get_kind(node) != STARPU_CUDA_RAM) continue;
        starpu_data_query_status(handle, int(node), &allocated, &valid, &requested);
        if (valid) return true;
    }
    return false;
}

}  // namespace

Recursion::Recursion(const std::string& split, int window, int lp_period, SplitPolicyRegistry policies)
    : policies_(std::move(policies)), window_(window), lp_period_(lp_period) {
    set_split(split, "split");
    // A simulation charges the submitting thread what submitting a tile task costs on a
    // real machine (grain_testing -v measures it), which StarPU's 1 us leaves out.
    if constexpr (simulated) {
        const auto us = env_integer("grain (simulated)", {"GRAIN_SIM_SUBMIT_US"}, 0, 1000000,
                                    "microseconds a tile task's submission costs the submitting thread");
        if (us) submit_seconds_ = double(us->value) * 1e-6;
    }
}

void Recursion::set_split(const std::string& spec, const std::string& argument) {
    policy_ = make_split_policy(spec, argument, lp_period_, policies_);
    split_spec_ = spec;
    if (starpu_is_initialized()) policy_->started();
}

Statistics Recursion::statistics() const {
    Statistics s = counters_.snapshot(max_levels);
    s.kept_whole_on_gpu = kept_on_gpu_;
    policy_->report(s);
    return s;
}

void Recursion::reset_statistics() {
    counters_.reset();
    if (trace_) trace_->clear();
    kept_on_gpu_ = 0;
    policy_->reset();
}

void Recursion::set_trace(bool on) {
    // Tasks submitted before keep no profiling information and are not recorded; a log
    // switched off goes once no kernel is in flight (their callbacks write to it).
    starpu_profiling_status_set(on ? STARPU_PROFILING_ENABLE : STARPU_PROFILING_DISABLE);
    if (on && !trace_) trace_ = std::make_unique<TraceLog>();
    if (!on && trace_) {
        starpu_task_wait_for_all();
        trace_.reset();
    }
}

bool Recursion::decide(const TaskSite& site) {
    if (submit_seconds_ > 0) starpu_sleep(float(submit_seconds_));
    TaskCounters& counts = counters_.at(site.op, site.level);
    ++counts.submitted;
    counters_.submitted(site.op, site.level);
    if (site.level + 1 >= site.levels || !kernel_info(site.op).splits) return false;
    // With GPUs, a task is left whole when its output tile is valid only on a GPU, or is
    // being written by a kernel: the tile will be where that kernel runs, most likely a
    // GPU, since the cores take large tiles only when they would end them first. The
    // tile's state alone depends on how far the submissions run ahead of the kernels
    // (doc/results/tuning-history.md#kept-whole-on-gpu). A split there sends the tile home
    // for the cores, which costs more than they add (doc/notes/splits-on-gpus.md). Where StarPU
    // splits and gathers tiles on the GPU that holds them (tiles_split_on_device), a task
    // whose sub-tasks only GPUs run (over the cores' tile limit) splits there, in place; with
    // Debian's StarPU every split goes through host memory, and the rule holds for all.
    const auto children_for_gpus = [&] {
        const int limit = cpu_tile_limit();
        return limit > 0 && site.scales && (*site.scales)[size_t(site.level + 1)] > limit;
    };
    if (starpu_cuda_worker_get_count() > 0 && (site.output_written_in_flight || only_on_gpu(site.output)) &&
        !(children_for_gpus() && tiles_split_on_device())) {
        ++kept_on_gpu_;
        return false;
    }
    if (!(kernel_info(site.op).follows ? site.panel_split : policy_->split(site, counters_))) return false;
    ++counts.split;
    return true;
}

void Recursion::begin_call(const CountedTasks& tasks, int nb, int level) {
    if (counters_.in_flight() <= 0) counters_.call_flops = 0;
    for (size_t k = 0; k < kernel_count; ++k) {
        counters_.call_flops += tasks.tile_tasks[k] * kernel_flops(Kernel(k), nb);
        counters_.announce(Kernel(k), level, tasks.tasks[k]);
    }
}

void Recursion::wait_for_window() const {
    // When the window is full, let it drain to half before submitting again: the
    // submitting thread then sleeps once per window/2 tasks, not once per task.
    if (window_ > 0 && starpu_task_nsubmitted() >= window_) starpu_task_wait_for_n_submitted(unsigned(window_ / 2));
}

void Counters::reset() {
    for (auto& per_op : slots_)
        for (TaskCounters& c : per_op) c.submitted = c.split = c.ready = c.started = c.finished = 0;
}

int64_t Counters::in_flight() const {
    int64_t n = 0;
    for (const auto& per_op : slots_)
        for (const TaskCounters& c : per_op) n += c.submitted - c.split - c.finished;
    return n;
}

Statistics Counters::snapshot(int levels) const {
    Statistics s;
    for (size_t k = 0; k < kernel_count; ++k) {
        s.operations.push_back(kernel_name(Kernel(k)));
        s.counts.emplace_back();
        for (int l = 0; l < levels; ++l) {
            const TaskCounters& c = slots_[k][size_t(l)];
            s.counts.back().push_back({c.submitted, c.split, c.ready, c.started, c.finished});
        }
    }
    return s;
}

}  // namespace grain::detail

namespace grain {

TaskCounts Statistics::at(const std::string& operation, int level) const {
    TaskCounts sum;
    for (size_t k = 0; k < operations.size(); ++k) {
        if (!operation.empty() && operations[k] != operation) continue;
        if (level < 0 || level >= int(counts[k].size())) continue;
        const TaskCounts& c = counts[k][size_t(level)];
        sum.submitted += c.submitted, sum.split += c.split, sum.ready += c.ready;
        sum.started += c.started, sum.finished += c.finished;
    }
    return sum;
}

}  // namespace grain
