#pragma once
// The tiles behind grain::Matrix views: their StarPU handles at every level of the ladder
// of tile scales, over the top level's host memory (host_memory.hpp) and placement over
// processes (tile_placement.hpp). The top level's tiles are registered with StarPU as
// tasks first use them; the tiles of a lower level are the children of a partition plan on
// their parent tile, planned the first time a task on that tile is split.
#include <starpu.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "grain/distribution.hpp"
#include "handles.hpp"
#include "host_memory.hpp"
#include "src/base/scalar_traits.hpp"
#include "tile_placement.hpp"

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
    // The top level, with `scales` (level 0 first): owned tiles, zeroed unless `zeroed` is
    // false (a routine's scratch, each tile written before it is read: HostMemory), or a
    // user's array.
    TileStorage(int64_t m, int64_t n, std::vector<int> scales, bool zeroed = true);
    TileStorage(int64_t m, int64_t n, std::vector<int> scales, T* a, int64_t lda);
    // The top level of a matrix distributed over the ranks (StarPU-MPI): memory for this
    // rank's tiles only, each tile registered with its owner and tag.
    TileStorage(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution);
    // The same over an application's tiles, unless local_tile is empty: local_tile(i, j)
    // is where this rank's tile (i, j) is, column-major with its rows as leading dimension.
    TileStorage(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution,
                const std::function<T*(int64_t i, int64_t j)>& local_tile);
    ~TileStorage();
    TileStorage(const TileStorage&) = delete;
    TileStorage& operator=(const TileStorage&) = delete;

    int64_t m() const { return shape_.m; }
    int64_t n() const { return shape_.n; }
    int level() const { return level_; }
    const std::vector<int>& scales() const { return *scales_; }
    int nb() const { return shape_.nb; }
    int mt() const { return shape_.mt; }
    int nt() const { return shape_.nt; }
    int tile_rows(int i) const { return shape_.tile_rows(i); }
    int tile_cols(int j) const { return shape_.tile_cols(j); }
    // Top level only: where tile (i, j) is in memory, and its leading dimension.
    T* tile_data(int i, int j) const { return memory_.tile(shape_, i, j); }
    int64_t tile_ld(int i) const { return memory_.ld(shape_, i); }
    // Whether the tiles are a user's column-major array (else storage of their own).
    bool over_user_array() const { return memory_.over_user_array(); }
    // Where the top level's tiles are (every process's own, for one process's matrix).
    const TilePlacement& placement() const { return placement_; }
    bool distributed() const { return placement_.distributed(); }
    int owner(int i, int j) const { return placement_.owner(i, j); }
    bool is_local(int i, int j) const { return placement_.is_local(i, j); }

    // The handle of a tile a task is about to use: registered now if this is its first use
    // (top level; a lower level's exist from the plan), and with GPUs its column's pin
    // ordered before any task submitted after this call (order_pin). Single submitting thread.
    starpu_data_handle_t use(int i, int j);
    // The same without ordering the pin, for tasks that only read the tile in host memory
    // and may run while it is not pinned (the NaN check): the caller orders it after them.
    starpu_data_handle_t use_unpinned(int i, int j);
    // Top level, with GPUs: pins tile column j (registering its tiles) in a task that
    // every task submitted on them later waits for, unless done already (column_pins.hpp);
    // without a CPU worker to run it, pins it now.
    void order_pin(int j);
    // The handle if registered, else nullptr.
    starpu_data_handle_t handle(int i, int j) const { return handles_[shape_.index(i, j)]; }

    // Kernels submitted that write tile (i, j) and have not ended: the task layer counts
    // them, and a split decision asks where the tile will be.
    std::atomic<int>& writers_in_flight(int i, int j) const { return writers_[shape_.index(i, j)]; }

    // Whether tile (i, j) can be cut at the next scale; the grid of its sub-tiles, planned
    // now if this is the tile's first split; the grid if a split planned it, else nullptr.
    bool has_children() const { return size_t(level_) + 1 < scales_->size(); }
    TileStorage& split(int i, int j);
    TileStorage* children(int i, int j) const { return children_[shape_.index(i, j)].get(); }
    // Whether the last task that split on tile (i, j) only read its sub-tiles (StarPU then
    // partitions the tile read-only), and not a whole task since that wrote the tile.
    bool children_read_only(int i, int j) const {
        return !read_only_children_.empty() && read_only_children_[shape_.index(i, j)];
    }
    void set_children_read_only(int i, int j, bool read_only) {
        read_only_children_.resize(handles_.size(), 0);
        read_only_children_[shape_.index(i, j)] = read_only;
    }

    void runtime_ending() override;

private:
    // The top level's handles, writers and children, for its shape.
    TileStorage(int64_t m, int64_t n, std::shared_ptr<const std::vector<int>> scales, TilePlacement placement);
    // The children of tile `parent`, a rows x cols tile at level - 1.
    TileStorage(starpu_data_handle_t parent, int64_t rows, int64_t cols,
                std::shared_ptr<const std::vector<int>> scales, int level);
    // Cleans the plans below this grid (bottom-up, as StarPU requires), then
    // unregisters its tiles (top level) or cleans its own plan (a lower level).
    void release();
    // The first use of the top level in a Runtime: the Runtime releases it when it ends.
    void enlist();
    void enlist_if_pinned();
    void register_tile(int i, int j);

    std::shared_ptr<const std::vector<int>> scales_;
    int level_ = 0;
    GridShape shape_;
    TilePlacement placement_;
    HostMemory<T> memory_;
    std::vector<starpu_data_handle_t> handles_;
    std::vector<std::unique_ptr<TileStorage>> children_;  // per tile, made on first split
    std::unique_ptr<std::atomic<int>[]> writers_;         // per tile, see writers_in_flight
    std::vector<char> read_only_children_;                // per tile once set, see children_read_only
    starpu_data_handle_t parent_ = nullptr;               // lower levels: the tile cut into this grid
    TileCut cut_{};
    bool enlisted_ = false;
};

#define GRAIN_EXTERN(T) extern template class TileStorage<T>;
GRAIN_FOR_EACH_PRECISION(GRAIN_EXTERN)
#undef GRAIN_EXTERN

}  // namespace grain::detail
