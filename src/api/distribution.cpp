#include "grain/distribution.hpp"

#include <string>
#include <utility>

#include "grain/errors.hpp"

namespace grain {

namespace {

void require_ranks(const char* routine, const char* name, int64_t value) {
    if (value < 1)
        throw invalid_argument(routine, name, std::to_string(value), "must be at least 1");
}

// splitmix64's finalizer: a well-mixed 64-bit hash, the same on every machine.
uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

Distribution::Distribution(int ranks, int p, int q, std::function<int(int64_t, int64_t)> rank_of)
    : ranks_(ranks), p_(p), q_(q), rank_of_(std::move(rank_of)) {}

Distribution Distribution::block_cyclic(int p, int q) {
    require_ranks("grain::Distribution::block_cyclic", "p", p);
    require_ranks("grain::Distribution::block_cyclic", "q", q);
    if (int64_t(p) * q > INT32_MAX)
        throw invalid_argument("grain::Distribution::block_cyclic", "p * q", std::to_string(int64_t(p) * q),
                               "must fit in an int (ranks)");
    return Distribution(p * q, p, q, [p, q](int64_t i, int64_t j) { return int(i % p) * q + int(j % q); });
}

Distribution Distribution::rows(int ranks) {
    require_ranks("grain::Distribution::rows", "ranks", ranks);
    return Distribution(ranks, ranks, 1, [ranks](int64_t i, int64_t) { return int(i % ranks); });
}

Distribution Distribution::columns(int ranks) {
    require_ranks("grain::Distribution::columns", "ranks", ranks);
    return Distribution(ranks, 1, ranks, [ranks](int64_t, int64_t j) { return int(j % ranks); });
}

Distribution Distribution::random(int ranks, uint64_t seed) {
    require_ranks("grain::Distribution::random", "ranks", ranks);
    return Distribution(ranks, 0, 0, [ranks, seed](int64_t i, int64_t j) {
        return int(mix(mix(seed ^ uint64_t(i)) + uint64_t(j)) % uint64_t(ranks));
    });
}

Distribution Distribution::custom(int ranks, std::function<int(int64_t, int64_t)> rank_of) {
    require_ranks("grain::Distribution::custom", "ranks", ranks);
    if (!rank_of)
        throw invalid_argument("grain::Distribution::custom", "rank_of", "empty", "must be a function");
    return Distribution(ranks, 0, 0, std::move(rank_of));
}

int Distribution::rank(int64_t i, int64_t j) const {
    if (i < 0 || j < 0)
        throw invalid_argument("grain::Distribution::rank", "(i, j)",
                               "(" + std::to_string(i) + ", " + std::to_string(j) + ")", "must be >= 0");
    const int r = rank_of_(i, j);
    if (r < 0 || r >= ranks_)
        throw invalid_argument("grain::Distribution::rank", "rank_of(" + std::to_string(i) + ", " + std::to_string(j) + ")",
                               std::to_string(r), "must be in [0, " + std::to_string(ranks_) + ")");
    return r;
}

}  // namespace grain
