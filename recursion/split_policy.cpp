#include "split_policy.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <iterator>

#include "grain/errors.hpp"
#include "src/base/constants.hpp"

namespace grain::detail {

namespace {

class SplitNone final : public SplitPolicy {
public:
    bool split(const TaskSite&, const Counters&) override { return false; }
};

// Splits down to level `depth` (all: to the finest scale).
class SplitToDepth final : public SplitPolicy {
public:
    explicit SplitToDepth(int depth) : depth_(depth) {}
    bool split(const TaskSite& site, const Counters&) override { return site.level < depth_; }

private:
    int depth_;
};

// Splits each task with probability p, reproducibly for a seed (decisions are taken
// in submission order by one thread): any mix of decisions must give correct results.
class SplitRandom final : public SplitPolicy {
public:
    SplitRandom(double p, uint64_t seed) : split_(p), generator_(seed) {}
    bool split(const TaskSite&, const Counters&) override { return split_(generator_); }

private:
    std::bernoulli_distribution split_;
    std::mt19937_64 generator_;
};

// A finite number (NaN and infinities are not: "random:nan" never split).
bool parse_number(const std::string& text, double& value) {
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' && std::isfinite(value);
}

// A whole number in [0, limit), checked before any conversion.
bool whole(double value, double limit) { return value >= 0 && value < limit && value == std::floor(value); }

}  // namespace

std::unique_ptr<SplitPolicy> make_split_policy(const std::string& spec, const std::string& argument, int lp_period,
                                               const SplitPolicyRegistry& registered) {
    auto fail = [&](const std::string& why) { return invalid_argument("grain::Runtime", argument, spec, why); };
    if (spec == "none") return std::make_unique<SplitNone>();
    if (const auto r = registered.find(spec); r != registered.end()) return r->second(lp_period);
    if (spec == "all") return std::make_unique<SplitToDepth>(max_levels);
    const size_t colon = spec.find(':');
    const std::string kind = spec.substr(0, colon), rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
    if (kind == "depth") {
        double depth = 0;
        if (!parse_number(rest, depth) || !whole(depth, double(std::numeric_limits<int>::max())))
            throw fail("depth:D needs an integer D >= 0");
        return std::make_unique<SplitToDepth>(int(depth));
    }
    if (kind == "random") {
        const size_t colon2 = rest.find(':');
        double p = 0, seed = 0;
        if (!parse_number(rest.substr(0, colon2), p) || p < 0 || p > 1)
            throw fail("random:P needs a probability P in [0, 1]");
        if (colon2 != std::string::npos &&
            (!parse_number(rest.substr(colon2 + 1), seed) || !whole(seed, 0x1p64)))
            throw fail("random:P:SEED needs an integer SEED >= 0");
        return std::make_unique<SplitRandom>(p, uint64_t(seed));
    }
    std::string usage = "expected none, all, depth:D, random:P[:SEED]";
    for (auto r = registered.begin(); r != registered.end(); ++r)
        usage += (std::next(r) == registered.end() ? " or " : ", ") + r->first;
    throw fail(usage);
}

}  // namespace grain::detail
