// LUF eviction (Darts::luf_victim, Algorithm 6) as StarPU's victim selector, where the
// StarPU build has the hook (scripts/starpu-patches/04-victim-selector.patch).
#include <algorithm>
#include <mutex>
#include <vector>

#include "darts_policy.hpp"
#include "darts_state.hpp"
#include "darts_tuning.hpp"

namespace grain::detail::sched {

namespace policy {

namespace {

#ifdef STARPU_HAVE_VICTIM_SELECTOR
thread_local int victim_gpu = -1;  // the GPU of this thread's last select_victim

// The data LUF may name on GPU k, in the order they were first pushed (LUF's last
// tie-break goes to the first): handed out there, still allocated there, used by no task
// handed out there (outputs included), neither `toload` nor one StarPU refused for it.
std::vector<DataId> victim_candidates(State& s, int k, unsigned node, starpu_data_handle_t toload) {
    const std::vector<DataId>& refused = s.luf.refused[size_t(k)];
    std::vector<DataId> candidates;
    for (DataId d = 0; d < DataId(s.gpu.handles.size()); ++d) {
        if (!s.luf.resident[size_t(k)][size_t(d)] || s.luf.in_use[size_t(k)][size_t(d)] > 0 ||
            s.gpu.handles[size_t(d)] == toload || std::find(refused.begin(), refused.end(), d) != refused.end())
            continue;
        if (!starpu_data_test_if_allocated_on_node(s.gpu.handles[size_t(d)], node)) {
            s.luf.resident[size_t(k)][size_t(d)] = 0;  // StarPU dropped it already
            continue;
        }
        candidates.push_back(d);
    }
    return candidates;
}

// Whether a prefetch of `toload` onto GPU k is for one of the next planned tasks there.
bool prefetch_for_next_tasks(const State& s, int k, starpu_data_handle_t toload) {
    const auto d = s.gpu.data_ids.find(toload);
    return d != s.gpu.data_ids.end() && s.gpu.darts->first_planned_use(k, d->second) < tuning::prefetch_evict_ahead;
}

// Every victim must be one StarPU can evict: otherwise StarPU falls back to LRU, which
// evicts behind DARTS's back, and DARTS plans on data that is gone. So LUF picks among
// victim_candidates, and a victim StarPU still cannot evict (a write-back in flight) comes
// back through victim_not_evicted, and the patched StarPU asks again. NULL leaves the
// choice to StarPU (e.g. data DARTS does not know).
starpu_data_handle_t select_victim(starpu_data_handle_t toload, unsigned node, enum starpu_is_prefetch is_prefetch,
                                   void* arg) {
    // A fetch (a task handed out needs the data now) gets LUF's victim. A prefetch (a
    // planned task's input) evicts only for the next planned tasks, and only data no
    // planned task reads (tuning::prefetch_evict_ahead says why); an idle fetch never.
    if (is_prefetch == STARPU_IDLEFETCH) return STARPU_DATA_NO_VICTIM;
    const bool prefetch = is_prefetch != STARPU_FETCH;
    State& s = *static_cast<State*>(arg);
    std::lock_guard<Mutex> lock(s.mutex);
    const auto g = s.workers.gpu_of_node.find(node);
    if (g == s.workers.gpu_of_node.end() || !s.gpu.darts) return prefetch ? STARPU_DATA_NO_VICTIM : nullptr;
    const int k = g->second;
    victim_gpu = k;
    if (s.luf.refused_for[size_t(k)] != toload) s.luf.refused[size_t(k)].clear(), s.luf.refused_for[size_t(k)] = toload;
    // Checked before the candidates are scanned: most prefetches are for deeper tasks.
    if (prefetch && !prefetch_for_next_tasks(s, k, toload)) return STARPU_DATA_NO_VICTIM;
    const DataId victim = s.gpu.darts->luf_victim(k, victim_candidates(s, k, node, toload));
    if (prefetch && (victim == no_data || s.gpu.darts->planned_users(k, victim) > 0)) return STARPU_DATA_NO_VICTIM;
    if (victim == no_data) return nullptr;
    s.gpu.darts->evicted(k, victim);
    s.luf.resident[size_t(k)][size_t(victim)] = 0;
    return s.gpu.handles[size_t(victim)];
}

// StarPU could not evict the victim select_victim just named (same thread): DARTS
// takes it back, and the next choice for this load skips it.
void victim_not_evicted(starpu_data_handle_t victim, void* arg) {
    State& s = *static_cast<State*>(arg);
    std::lock_guard<Mutex> lock(s.mutex);
    const auto it = s.gpu.data_ids.find(victim);
    if (victim_gpu < 0 || !s.gpu.darts || it == s.gpu.data_ids.end()) return;
    const DataId d = it->second;
    s.gpu.darts->stayed(victim_gpu, d);
    s.luf.resident[size_t(victim_gpu)][size_t(d)] = 1;
    s.luf.refused[size_t(victim_gpu)].push_back(d);
}
#endif

}  // namespace

void start_luf(State& s, bool luf) {
    const size_t gpus = size_t(s.workers.gpus);
    s.luf.resident.resize(gpus);
    s.luf.in_use.resize(gpus);
    s.luf.refused.resize(gpus);
    s.luf.refused_for.resize(gpus);
#ifdef STARPU_HAVE_VICTIM_SELECTOR
    s.luf.on = luf;
    if (s.luf.on) starpu_data_register_victim_selector(select_victim, victim_not_evicted, &s);
#else
    (void)luf;
#endif
}

void stop_luf(State& s) {
#ifdef STARPU_HAVE_VICTIM_SELECTOR
    if (s.luf.on) starpu_data_register_victim_selector(nullptr, nullptr, nullptr);
#else
    (void)s;
#endif
}

}  // namespace policy

bool darts_has_luf() {
#ifdef STARPU_HAVE_VICTIM_SELECTOR
    return true;
#else
    return false;
#endif
}

}  // namespace grain::detail::sched
