// The darts policies: one starpu_sched_policy per variant, and the choice of one before
// starpu_init, which is also when GRAIN_DARTS_PREFETCH and GRAIN_DARTS_SEED are read and
// checked (StarPU's callbacks must not throw).
#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "darts_policy.hpp"
#include "darts_state.hpp"
#include "darts_tuning.hpp"
#include "placement.hpp"
#include "placement_policy.hpp"
#include "src/base/env.hpp"

namespace grain::detail::sched {

namespace {

using policy::Variant;

const Variant variants[] = {
    {"darts", "DARTS with LUF eviction (grain)", {}, true, false},
    {"darts-lru", "DARTS with LRU eviction (grain)", {}, false, false},
    {"darts-3inputs", "DARTS, 3inputs variant, with LUF eviction (grain)", {true, false}, true, false},
    {"darts-opti", "DARTS, OPTI variant, with LUF eviction (grain)", {false, true}, true, false},
    {"darts-opti-3inputs", "DARTS, OPTI and 3inputs variants, with LUF eviction (grain)", {true, true}, true, false},
    {"darts-wb", "DARTS with LUF eviction, outputs written home as tasks end (grain)", {}, true, true},
};
constexpr size_t variant_count = sizeof(variants) / sizeof(variants[0]);

// The index of the variant called `name`; variant_count if none is.
size_t variant_index(const std::string& name) {
    const auto named = [&](const Variant& v) { return name == v.name; };
    return size_t(std::find_if(std::begin(variants), std::end(variants), named) - std::begin(variants));
}

// GRAIN_DARTS_PREFETCH as select_policy read it, for the next init; unset: the default
// (tuning::prefetch_gpus_only, or prefetch_with_cores).
std::optional<size_t> prefetch_setting;
// GRAIN_DARTS_SEED likewise: the seed of DARTS's random choices (ties, and picks among
// the most urgent tasks); unset: 1. Repetitions of a simulated run differ only through it.
std::optional<uint64_t> seed_setting;

// An integer setting of the darts policies, read from the environment (throws on a bad
// value, naming the variable).
std::optional<long> darts_setting(const std::string& policy, const char* variable, long min, long max,
                                  const char* why) {
    const std::string who = "grain::Runtime (" + policy + ")";
    const auto v = env_integer(who.c_str(), {variable}, min, max, why);
    if (!v) return std::nullopt;
    return v->value;
}

// StarPU's init_sched gets only the context: one instantiation per variant.
template <size_t V>
void init_variant(unsigned ctx) {
    Variant v = variants[V];
    if (seed_setting) v.options.seed = *seed_setting;
    policy::init(ctx, v, prefetch_setting);
}

template <size_t V>
starpu_sched_policy make_policy() {
    starpu_sched_policy p{};
    p.init_sched = init_variant<V>;
    p.deinit_sched = policy::deinit;
    p.submit_hook = policy::submitted;
    p.push_task = policy::push;
    p.pop_task = policy::pop;
    p.post_exec_hook = policy::post_exec;
    p.policy_name = variants[V].name;
    p.policy_description = variants[V].description;
    p.worker_type = STARPU_WORKER_LIST;
    return p;
}

// One policy per entry of `variants`.
template <size_t... V>
std::array<starpu_sched_policy, sizeof...(V)> make_policies(std::index_sequence<V...>) {
    return {make_policy<V>()...};
}

}  // namespace

bool is_darts_policy(const std::string& name) { return variant_index(name) < variant_count; }

std::vector<std::string> darts_policy_names() {
    std::vector<std::string> names;
    for (const Variant& v : variants) names.push_back(v.name);
    return names;
}

std::string select_policy(starpu_conf& conf, const std::string& name) {
    static std::array<starpu_sched_policy, variant_count> policies =
        make_policies(std::make_index_sequence<variant_count>());
    if (parse_placement(name)) {
        select_placement(conf, name);
        return "";
    }
    const size_t v = variant_index(name);
    if (v == variant_count) {
        conf.sched_policy = nullptr;
        conf.sched_policy_name = name.c_str();
        return name;
    }
    // These throw before conf changes.
    const auto prefetch = darts_setting(name, "GRAIN_DARTS_PREFETCH", tuning::prefetch_min, tuning::prefetch_max,
                                        "the tasks a GPU plans and prefetches ahead; 0: DARTS as published");
    const auto seed = darts_setting(name, "GRAIN_DARTS_SEED", 0, std::numeric_limits<long>::max(),
                                    "the seed of DARTS's random choices");
    prefetch_setting = prefetch ? std::optional<size_t>(size_t(*prefetch)) : std::nullopt;
    seed_setting = seed ? std::optional<uint64_t>(uint64_t(*seed)) : std::nullopt;
    conf.sched_policy = &policies[v];
    conf.sched_policy_name = nullptr;
    return "";
}

}  // namespace grain::detail::sched
