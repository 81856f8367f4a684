#include "tile_placement.hpp"

#include "distributed.hpp"
#include "src/base/fingerprint.hpp"

namespace grain::detail {

TilePlacement::TilePlacement(const Distribution& distribution, int mt, int nt)
    : distribution_(std::make_unique<const Distribution>(distribution)),
      first_tag_(mpi::new_tags(int64_t(mt) * int64_t(nt))), rank_(mpi::rank()) {
    for (int j = 0; j < nt; ++j)
        for (int i = 0; i < mt; ++i) fingerprint_ = fingerprint_step(fingerprint_, uint64_t(owner(i, j)));
}

int TilePlacement::owner(int i, int j) const { return distribution_ ? distribution_->rank(i, j) : mpi::rank(); }

// The rank the matrix was made on: after the Runtime ends, mpi::rank() says 0.
bool TilePlacement::is_local(int i, int j) const { return !distribution_ || distribution_->rank(i, j) == rank_; }

}  // namespace grain::detail
