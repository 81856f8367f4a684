#pragma once
// Which process holds each tile of a matrix's top level, and the tiles' StarPU-MPI tags: a
// matrix of one process holds every tile; a distributed one, the tiles its Distribution
// gives this process.
#include <cstdint>
#include <memory>

#include "grain/distribution.hpp"

namespace grain::detail {

class TilePlacement {
public:
    // One process's matrix.
    TilePlacement() = default;
    // mt x nt tiles over the processes: new tags for them, on every process alike.
    TilePlacement(const Distribution& distribution, int mt, int nt);

    bool distributed() const { return distribution_ != nullptr; }
    const Distribution* distribution() const { return distribution_.get(); }
    int owner(int i, int j) const;
    bool is_local(int i, int j) const;
    // The tag of the tile at `index` (column-major in the grid).
    int64_t tag(size_t index) const { return first_tag_ + int64_t(index); }
    // What every process must see the same (a call's agreement compares them): the tags,
    // and a hash of every tile's owner; 0 for one process's matrix.
    int64_t first_tag() const { return first_tag_; }
    uint64_t fingerprint() const { return fingerprint_; }

private:
    std::unique_ptr<const Distribution> distribution_;
    int64_t first_tag_ = 0;
    int rank_ = 0;  // this process's rank when the matrix was made
    uint64_t fingerprint_ = 0;
};

}  // namespace grain::detail
