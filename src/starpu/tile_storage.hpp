#pragma once
// The tiles behind grain::Matrix views: their memory and their StarPU handles, at
// every level of the ladder of tile scales. The top level's tiles are registered
// with StarPU; the tiles of a lower level are the children of a partition plan on
// their parent tile, planned the first time a task on that tile is split.
#include <starpu.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "grain/distribution.hpp"
#include "column_pins.hpp"
#include "handles.hpp"
#include "src/base/pin_ranges.hpp"
#include "src/base/scalar_traits.hpp"

namespace grain::detail {

// Tile handles registered and partition plans made now, in this process (for leak checks).
int64_t registered_tile_handles();
int64_t live_partition_plans();

// Whether StarPU splits a tile valid only on a GPU, and gathers its sub-tiles, on that GPU
// (patch 07 of scripts/starpu-patches, on machines with one GPU, unless
// STARPU_PARTITION_ON_DEVICE=0) rather than in host memory, where StarPU 1.3 (Debian's)
// does both.
bool tiles_split_on_device();

// How a tile is cut into its children: sub-tiles of `nb` (the last ones smaller),
// `mt` of them per column.
struct TileCut {
    uint32_t nb;
    uint32_t mt;
};

template <typename T>
class TileStorage final : public HandleOwner {
public:
    // The top level, with `scales` (level 0 first): owned zeroed tiles, or a user's array.
    TileStorage(int64_t m, int64_t n, std::vector<int> scales);
    TileStorage(int64_t m, int64_t n, std::vector<int> scales, T* a, int64_t lda);
    // The top level of a matrix distributed over the ranks (StarPU-MPI): memory for this
    // rank's tiles only, each tile registered with its owner and tag.
    TileStorage(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution);
    // The same over an application's tiles: local_tile(i, j) is where this rank's tile
    // (i, j) is, column-major with its rows as leading dimension.
    TileStorage(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution,
                const std::function<T*(int64_t i, int64_t j)>& local_tile);
    ~TileStorage();
    TileStorage(const TileStorage&) = delete;
    TileStorage& operator=(const TileStorage&) = delete;

    int64_t m() const { return m_; }
    int64_t n() const { return n_; }
    int level() const { return level_; }
    const std::vector<int>& scales() const { return *scales_; }
    int nb() const { return (*scales_)[size_t(level_)]; }
    int mt() const { return mt_; }
    int nt() const { return nt_; }
    int tile_rows(int i) const { return i < mt_ - 1 ? nb() : static_cast<int>(m_ - int64_t(i) * nb()); }
    int tile_cols(int j) const { return j < nt_ - 1 ? nb() : static_cast<int>(n_ - int64_t(j) * nb()); }
    // Top level only: where tile (i, j) is in memory.
    T* tile_data(int i, int j) const;
    int64_t tile_ld(int i) const { return user_ ? lda_ : tile_rows(i); }
    // Whether the tiles are a user's column-major array (else storage of their own).
    bool over_user_array() const { return user_ != nullptr; }
    // Distributed tiles (top level): whether there are, and the rank owning tile (i, j).
    bool distributed() const { return distribution_ != nullptr; }
    const Distribution* distribution() const { return distribution_.get(); }
    int owner(int i, int j) const;
    bool is_local(int i, int j) const;
    // Distributed: what every process must see the same (a call's agreement compares them):
    // the tags, and a hash of every tile's owner; 0 otherwise.
    int64_t first_tag() const { return first_tag_; }
    uint64_t placement() const { return placement_; }

    // The tile's handle: registered on first use at the top level, a plan child below
    // (single submitting thread). With GPUs, a top-level tile's column is pinned before
    // any task submitted after this call runs on it (order_pin).
    starpu_data_handle_t handle(int i, int j);
    // The same without ordering the pin, for tasks that only read the tile in host memory
    // and may run while it is not pinned (the NaN check): the caller orders it after them.
    starpu_data_handle_t handle_before_pin(int i, int j);
    // Top level, with GPUs: pins tile column j (registering its tiles) in a task that
    // every task submitted on them later waits for, unless done already (column_pins.hpp);
    // without a CPU worker to run it, pins it now. Nothing where the storage is pinned whole.
    void order_pin(int j);
    // The handle if registered, else nullptr (top level).
    starpu_data_handle_t registered_handle(int i, int j) const { return handles_[index(i, j)]; }

    // Kernels submitted that write tile (i, j) and have not ended: the task layer counts
    // them, and a split decision asks where the tile will be.
    std::atomic<int>& writers_in_flight(int i, int j) const { return writers_[index(i, j)]; }

    // Whether tile (i, j) can be cut at the next scale, and the grid of its sub-tiles
    // (planned on first use).
    bool has_children() const { return size_t(level_) + 1 < scales_->size(); }
    TileStorage& children(int i, int j);
    // The grid of tile (i, j)'s sub-tiles if a split planned it, else nullptr.
    TileStorage* planned_children(int i, int j) const { return children_[index(i, j)].get(); }

    void runtime_ending() override;

private:
    // The children of tile `parent`, a rows x cols tile at level - 1.
    TileStorage(starpu_data_handle_t parent, int64_t rows, int64_t cols,
                std::shared_ptr<const std::vector<int>> scales, int level);
    void allocate(size_t bytes);  // owned_, zeroed
    // Cleans the plans below this grid (bottom-up, as StarPU requires), then
    // unregisters its tiles (top level) or cleans its own plan (a lower level).
    void release();
    size_t index(int i, int j) const { return size_t(i) + size_t(j) * size_t(mt_); }

    int64_t m_, n_;
    std::shared_ptr<const std::vector<int>> scales_;
    int level_ = 0;
    int mt_, nt_;
    T* owned_ = nullptr;
    T* user_ = nullptr;
    int64_t lda_ = 0;
    std::vector<starpu_data_handle_t> handles_;
    std::vector<std::unique_ptr<TileStorage>> children_;  // per tile, made on first split
    std::unique_ptr<std::atomic<int>[]> writers_;         // per tile, see writers_in_flight
    starpu_data_handle_t parent_ = nullptr;               // lower levels: the tile cut into this grid
    TileCut cut_{};
    bool enlisted_ = false;
    // With GPUs, the storage (the user's array or owned_) is pinned while its tiles are
    // registered: by tile column as tasks first use them (pin_ranges_; per column, its
    // state, set by its pin task), else whole (pinned_).
    bool pinned_ = false;
    std::vector<PinRange> pin_ranges_;
    std::unique_ptr<std::atomic<PinState>[]> column_pins_;
    std::vector<starpu_task*> pin_tasks_;  // submitted, waited for by release()
    void enlist();
    void plan_pinning();
    void register_tile(int i, int j);
    void unpin();
    std::unique_ptr<const Distribution> distribution_;
    std::vector<T*> tiles_;       // distributed: where each local tile is, null for remote ones
    int64_t local_elements_ = 0;  // distributed: the size of owned_ (0 over an application's tiles)
    int64_t first_tag_ = 0;         // distributed: the StarPU-MPI tag of tile (0, 0); index() adds to it
    int rank_ = 0;                  // distributed: this process's rank when the matrix was made
    uint64_t placement_ = 0;
    T* base() const { return user_ ? user_ : owned_; }
    size_t storage_bytes() const {
        if (distribution_) return size_t(local_elements_) * sizeof(T);
        return (user_ ? size_t(lda_) * size_t(n_ - 1) + size_t(m_) : size_t(m_) * size_t(n_)) * sizeof(T);
    }
};

#define GRAIN_EXTERN(T) extern template class TileStorage<T>;
GRAIN_FOR_EACH_PRECISION(GRAIN_EXTERN)
#undef GRAIN_EXTERN

}  // namespace grain::detail
