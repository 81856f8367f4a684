#include "tile_storage.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "grain/errors.hpp"
#include "src/base/constants.hpp"
#include "src/starpu/distributed.hpp"

namespace grain::detail {

namespace {

std::atomic<int64_t> live_handles{0};
std::atomic<int64_t> live_plans{0};

int tiles_for(int64_t size, int nb) { return static_cast<int>((size + nb - 1) / nb); }

GridShape shape_of(int64_t m, int64_t n, int nb) { return {m, n, nb, tiles_for(m, nb), tiles_for(n, nb)}; }

std::shared_ptr<const std::vector<int>> shared(std::vector<int> scales) {
    return std::make_shared<const std::vector<int>>(std::move(scales));
}

// Where this rank's tiles of an application's distributed matrix are: local_tile's, each
// checked.
template <typename T>
std::vector<T*> application_tiles(const GridShape& shape, const TilePlacement& placement,
                                  const std::function<T*(int64_t, int64_t)>& local_tile) {
    std::vector<T*> tiles(size_t(shape.mt) * size_t(shape.nt), nullptr);
    for (int j = 0; j < shape.nt; ++j)
        for (int i = 0; i < shape.mt; ++i)
            if (placement.is_local(i, j) && !(tiles[shape.index(i, j)] = local_tile(i, j)))
                throw invalid_argument("grain::Matrix", "local_tile(" + std::to_string(i) + ", " + std::to_string(j) + ")",
                                       "nullptr", "must point to this process's tile");
    return tiles;
}

std::vector<bool> local_tiles(const GridShape& shape, const TilePlacement& placement) {
    std::vector<bool> local(size_t(shape.mt) * size_t(shape.nt));
    for (int j = 0; j < shape.nt; ++j)
        for (int i = 0; i < shape.mt; ++i) local[shape.index(i, j)] = placement.is_local(i, j);
    return local;
}

// StarPU filter cutting a tile into a 2D grid of sub-tiles in one plan. Children keep
// the parent's leading dimension.
void cut_tile(void* father_interface, void* child_interface, starpu_data_filter* filter, unsigned id, unsigned) {
    const auto* father = static_cast<starpu_matrix_interface*>(father_interface);
    auto* child = static_cast<starpu_matrix_interface*>(child_interface);
    const auto* cut = static_cast<const TileCut*>(filter->filter_arg_ptr);
    const uint32_t row = (id % cut->mt) * cut->nb, col = (id / cut->mt) * cut->nb;
    child->id = father->id;
    child->nx = std::min(cut->nb, father->nx - row);
    child->ny = std::min(cut->nb, father->ny - col);
    child->ld = father->ld;
    child->elemsize = father->elemsize;
    child->allocsize = size_t(child->nx) * child->ny * child->elemsize;
    const size_t offset = (size_t(row) + size_t(col) * father->ld) * father->elemsize;
    if (father->dev_handle) {
        if (father->ptr) child->ptr = father->ptr + offset;
        child->dev_handle = father->dev_handle;
        child->offset = father->offset + offset;
    }
}

}  // namespace

bool tiles_split_on_device() {
#ifdef STARPU_HAVE_PARTITION_ON_DEVICE
    unsigned devices = 0;  // the patch cuts on a device only where there is one
    for (unsigned node = 0; node < starpu_memory_nodes_get_count(); ++node)
        devices += starpu_node_get_kind(node) != STARPU_CPU_RAM;
    return devices == 1 && starpu_get_env_number_default("STARPU_PARTITION_ON_DEVICE", 1) != 0;
#else
    return false;
#endif
}

int64_t registered_tile_handles() { return live_handles.load(); }
int64_t live_partition_plans() { return live_plans.load(); }

template <typename T>
TileStorage<T>::TileStorage(int64_t m, int64_t n, std::vector<int> scales, bool zeroed)
    : scales_(shared(std::move(scales))), shape_(shape_of(m, n, scales_->front())), memory_(shape_, zeroed),
      handles_(shape_.tiles(), nullptr), children_(handles_.size()),
      writers_(std::make_unique<std::atomic<int>[]>(handles_.size())) {
    enlist_if_pinned();
}

template <typename T>
TileStorage<T>::TileStorage(int64_t m, int64_t n, std::vector<int> scales, T* a, int64_t lda)
    : scales_(shared(std::move(scales))), shape_(shape_of(m, n, scales_->front())), memory_(a, lda),
      handles_(shape_.tiles(), nullptr), children_(handles_.size()),
      writers_(std::make_unique<std::atomic<int>[]>(handles_.size())) {}

template <typename T>
TileStorage<T>::TileStorage(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution)
    : TileStorage(m, n, std::move(scales), distribution, nullptr) {}

template <typename T>
TileStorage<T>::TileStorage(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution,
                            const std::function<T*(int64_t, int64_t)>& local_tile)
    : scales_(shared(std::move(scales))), shape_(shape_of(m, n, scales_->front())),
      placement_(distribution, shape_.mt, shape_.nt),
      memory_(local_tile ? HostMemory<T>(application_tiles(shape_, placement_, local_tile))
                         : HostMemory<T>(shape_, local_tiles(shape_, placement_))),
      handles_(shape_.tiles(), nullptr), children_(handles_.size()),
      writers_(std::make_unique<std::atomic<int>[]>(handles_.size())) {
    enlist_if_pinned();
}

template <typename T>
TileStorage<T>::TileStorage(starpu_data_handle_t parent, int64_t rows, int64_t cols,
                            std::shared_ptr<const std::vector<int>> scales, int level)
    : scales_(std::move(scales)), level_(level), shape_(shape_of(rows, cols, (*scales_)[size_t(level)])),
      handles_(shape_.tiles(), nullptr), children_(handles_.size()),
      writers_(std::make_unique<std::atomic<int>[]>(handles_.size())), parent_(parent),
      cut_{uint32_t(shape_.nb), uint32_t(shape_.mt)} {
    starpu_data_filter filter{};
    filter.filter_func = cut_tile;
    filter.nchildren = unsigned(handles_.size());
    filter.filter_arg_ptr = &cut_;
    starpu_data_partition_plan(parent_, &filter, handles_.data());
    // Sub-tiles carry their top-level tile's coordinates: a placement that maps tiles to
    // GPUs (owner-cyclic) keeps a split tile's pieces with it.
    int top[2];
    if (starpu_data_get_coordinates_array(parent_, 2, top) == 2)
        for (starpu_data_handle_t h : handles_) starpu_data_set_coordinates_array(h, 2, top);
    ++live_plans;
}

template <typename T>
TileStorage<T>::~TileStorage() {
    if (parent_) return;  // a lower level is released by the top level
    release();
    if (enlisted_) delist_handle_owner(this);
}

template <typename T>
starpu_data_handle_t TileStorage<T>::use(int i, int j) {
    if (!handles_[shape_.index(i, j)] && !parent_) order_pin(j);
    return use_unpinned(i, j);
}

template <typename T>
starpu_data_handle_t TileStorage<T>::use_unpinned(int i, int j) {
    starpu_data_handle_t h = handles_[shape_.index(i, j)];
    if (h) return h;  // only the top level registers; plan children exist from the start
    register_tile(i, j);
    return handles_[shape_.index(i, j)];
}

template <typename T>
void TileStorage<T>::register_tile(int i, int j) {
    enlist();
    starpu_data_handle_t& h = handles_[shape_.index(i, j)];
    // Another rank's tile has no memory here (home node -1): StarPU-MPI receives it where
    // a task needs it.
    const bool local = is_local(i, j);
    starpu_matrix_data_register(&h, local ? STARPU_MAIN_RAM : -1,
                                local ? reinterpret_cast<uintptr_t>(tile_data(i, j)) : 0,
                                static_cast<uint32_t>(local ? tile_ld(i) : tile_rows(i)),
                                static_cast<uint32_t>(tile_rows(i)), static_cast<uint32_t>(tile_cols(j)), sizeof(T));
    if (distributed()) mpi::register_tile(h, placement_.tag(shape_.index(i, j)), owner(i, j));
    starpu_data_set_coordinates(h, 2, i, j);  // for placements by tile, and StarPU's traces
    ++live_handles;
}

template <typename T>
TileStorage<T>& TileStorage<T>::split(int i, int j) {
    std::unique_ptr<TileStorage>& grid = children_[shape_.index(i, j)];
    // StarPU 1.3 plans a partition on the home node; another rank's tile has none.
    if (!is_local(i, j)) throw runtime_error("grain: internal error: a split of another rank's tile");
    if (!grid) grid.reset(new TileStorage(use(i, j), tile_rows(i), tile_cols(j), scales_, level_ + 1));
    return *grid;
}

template <typename T>
void TileStorage<T>::release() {
    // A policy that keeps the handles of the tasks it sees (DARTS) must forget them only once
    // no task on them is left, or a task pushed later (one that only reads a tile: the
    // writers are waited for below) brings them back, and the policy keeps them after
    // StarPU frees them. Acquiring a tile for writing waits for every task on it and on
    // its sub-tiles, which StarPU gathers first.
    memory_.wait_for_pins();  // its tiles' first tasks followed it: none is left before it
    if (!parent_ && policy_keeps_handles())
        for (int j = 0; j < nt(); ++j)
            for (int i = 0; i < mt(); ++i)
                if (starpu_data_handle_t h = handle(i, j); h && is_local(i, j)) {  // no valid copy elsewhere
                    starpu_data_acquire(h, STARPU_RW);
                    starpu_data_release(h);
                }
    for (std::unique_ptr<TileStorage>& grid : children_) {
        if (grid) {
            grid->release();
            grid.reset();
        }
    }
    // A kernel counts itself out of writers_ in its callback, which StarPU runs after
    // releasing its data: unregistering does not wait for it, this does.
    for (size_t t = 0; t < handles_.size(); ++t)
        while (writers_[t].load() > 0) starpu_usleep(writers_poll_us);
    policy_forget(handles_.data(), handles_.size());
    if (parent_) {
        // Gathers the children back into the parent if they hold the data.
        starpu_data_partition_clean(parent_, unsigned(handles_.size()), handles_.data());
        --live_plans;
        return;
    }
    // Unregistering waits for the tasks using the tile and brings its data home.
    for (starpu_data_handle_t& h : handles_) {
        if (h) {
            starpu_data_unregister(h);
            h = nullptr;
            --live_handles;
        }
    }
    memory_.unpin(shape_);
}

template <typename T>
void TileStorage<T>::enlist() {
    if (enlisted_) return;
    enlist_handle_owner(this);
    enlisted_ = true;
    memory_.plan_pinning(shape_);
}

// Memory pinned from the start is unpinned when the Runtime ends, used or not.
template <typename T>
void TileStorage<T>::enlist_if_pinned() {
    if (memory_.pinned()) enlist();
}

template <typename T>
void TileStorage<T>::order_pin(int j) {
    enlist();
    // Every tile of the column is this process's: pins are for one process's matrices.
    memory_.order_pin(j, [&] {
        std::vector<starpu_data_handle_t> column(static_cast<size_t>(mt()));
        for (int i = 0; i < mt(); ++i) column[size_t(i)] = use_unpinned(i, j);
        return column;
    });
}

template <typename T>
void TileStorage<T>::runtime_ending() {
    release();
    enlisted_ = false;  // a later Runtime enlists it again on first use
}

#define GRAIN_INSTANTIATE(T) template class TileStorage<T>;
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::detail
