#pragma once
// grain::Distribution: which process (rank) owns each tile of a matrix distributed over
// several processes (StarPU-MPI): 2D block-cyclic (the default), 1D by rows or by
// columns, random with a seed, or a user's function. Every rank must compute the same
// owner for a tile, so a placement depends only on the tile's indices and its own
// parameters.
#include <cstdint>
#include <functional>

namespace grain {

class Distribution {
public:
    /// 2D block-cyclic over a p x q grid of ranks, row-major as Chameleon's: tile (i, j)
    /// on rank (i mod p) q + (j mod q).
    static Distribution block_cyclic(int p, int q);
    /// 1D: tile row i on rank i mod ranks.
    static Distribution rows(int ranks);
    /// 1D: tile column j on rank j mod ranks.
    static Distribution columns(int ranks);
    /// Each tile on a rank drawn from `seed`, i and j alone (a hash: the same on every rank).
    static Distribution random(int ranks, uint64_t seed);
    /// rank_of(i, j), which must return a rank in [0, ranks) (else rank() throws
    /// grain::invalid_argument) and the same on every rank.
    static Distribution custom(int ranks, std::function<int(int64_t i, int64_t j)> rank_of);

    /// The owner of tile (i, j), i, j >= 0.
    int rank(int64_t i, int64_t j) const;
    int ranks() const { return ranks_; }
    /// The grid of a block-cyclic distribution (p x q); 1D ones are ranks x 1 or 1 x ranks,
    /// random and custom ones 0 x 0.
    int p() const { return p_; }
    int q() const { return q_; }

private:
    Distribution(int ranks, int p, int q, std::function<int(int64_t, int64_t)> rank_of);
    int ranks_, p_, q_;
    std::function<int(int64_t, int64_t)> rank_of_;
};

}  // namespace grain
