#include "tile_storage.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

#include "grain/errors.hpp"
#include "src/base/constants.hpp"
#include "src/base/env.hpp"
#include "src/base/fingerprint.hpp"
#include "src/base/page_memory.hpp"
#include "src/base/simulation.hpp"
#include "src/starpu/distributed.hpp"

namespace grain::detail {

namespace {

std::atomic<int64_t> live_handles{0};
std::atomic<int64_t> live_plans{0};

int tiles_for(int64_t size, int nb) { return static_cast<int>((size + nb - 1) / nb); }

// Where a simulated matrix's tiles "are" (src/base/simulation.hpp): page-aligned, not null.
constexpr uintptr_t simulated_base = 4096;

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
TileStorage<T>::TileStorage(int64_t m, int64_t n, std::vector<int> scales)
    : m_(m), n_(n), scales_(std::make_shared<const std::vector<int>>(std::move(scales))),
      mt_(tiles_for(m, nb())), nt_(tiles_for(n, nb())), handles_(size_t(mt_) * size_t(nt_), nullptr),
      children_(handles_.size()),
      writers_(std::make_unique<std::atomic<int>[]>(handles_.size())) {
    allocate(size_t(m) * size_t(n) * sizeof(T));
}

template <typename T>
void TileStorage<T>::allocate(size_t bytes) {
    if (bytes == 0 || simulated) return;  // simulated: tile_data gives addresses nothing reads
    // Plain aligned memory, pinned like a user's array when tiles are registered: with
    // CUDA, starpu_malloc pins through a task, which waits forever when the workers are
    // paused (starpu_pause) and aborts before starpu_init.
    // Page-aligned, so that tile columns can be pinned one by one (plan_pinning).
    void* memory = allocate_pages(bytes);
    if (memory == nullptr)
        throw runtime_error("grain::Matrix: cannot allocate " + std::to_string(bytes) + " bytes");
    std::memset(memory, 0, bytes);
    owned_ = static_cast<T*>(memory);
}

template <typename T>
TileStorage<T>::TileStorage(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution)
    : TileStorage(m, n, std::move(scales), distribution, nullptr) {}

template <typename T>
TileStorage<T>::TileStorage(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution,
                            const std::function<T*(int64_t, int64_t)>& local_tile)
    : m_(m), n_(n), scales_(std::make_shared<const std::vector<int>>(std::move(scales))),
      mt_(tiles_for(m, nb())), nt_(tiles_for(n, nb())), handles_(size_t(mt_) * size_t(nt_), nullptr),
      children_(handles_.size()), writers_(std::make_unique<std::atomic<int>[]>(handles_.size())),
      distribution_(std::make_unique<const Distribution>(distribution)), tiles_(handles_.size(), nullptr),
      first_tag_(mpi::new_tags(int64_t(handles_.size()))), rank_(mpi::rank()) {
    for (int j = 0; j < nt_; ++j)
        for (int i = 0; i < mt_; ++i) placement_ = fingerprint_step(placement_, uint64_t(owner(i, j)));
    if (local_tile) {
        for (int j = 0; j < nt_; ++j)
            for (int i = 0; i < mt_; ++i)
                if (is_local(i, j) && !(tiles_[index(i, j)] = local_tile(i, j)))
                    throw invalid_argument("grain::Matrix", "local_tile(" + std::to_string(i) + ", " +
                                           std::to_string(j) + ")", "nullptr", "must point to this process's tile");
        return;
    }
    // Tile columns one after the other, as for a whole matrix, with this rank's tiles only.
    std::vector<int64_t> offsets(handles_.size(), -1);
    for (int j = 0; j < nt_; ++j)
        for (int i = 0; i < mt_; ++i)
            if (is_local(i, j)) {
                offsets[index(i, j)] = local_elements_;
                local_elements_ += int64_t(tile_rows(i)) * tile_cols(j);
            }
    allocate(size_t(local_elements_) * sizeof(T));
    for (size_t t = 0; t < offsets.size(); ++t)
        if (offsets[t] >= 0)
            tiles_[t] = simulated ? reinterpret_cast<T*>(simulated_base + uintptr_t(offsets[t]) * sizeof(T))
                                  : owned_ + offsets[t];
}

template <typename T>
int TileStorage<T>::owner(int i, int j) const {
    return distribution_ ? distribution_->rank(i, j) : mpi::rank();
}

// The rank the matrix was made on: after the Runtime ends, mpi::rank() says 0.
template <typename T>
bool TileStorage<T>::is_local(int i, int j) const {
    return !distribution_ || distribution_->rank(i, j) == rank_;
}

template <typename T>
TileStorage<T>::TileStorage(int64_t m, int64_t n, std::vector<int> scales, T* a, int64_t lda)
    : m_(m), n_(n), scales_(std::make_shared<const std::vector<int>>(std::move(scales))),
      mt_(tiles_for(m, nb())), nt_(tiles_for(n, nb())), user_(a), lda_(lda),
      handles_(size_t(mt_) * size_t(nt_), nullptr), children_(handles_.size()),
      writers_(std::make_unique<std::atomic<int>[]>(handles_.size())) {}

template <typename T>
TileStorage<T>::TileStorage(starpu_data_handle_t parent, int64_t rows, int64_t cols,
                            std::shared_ptr<const std::vector<int>> scales, int level)
    : m_(rows), n_(cols), scales_(std::move(scales)), level_(level), mt_(tiles_for(rows, nb())),
      nt_(tiles_for(cols, nb())), handles_(size_t(mt_) * size_t(nt_), nullptr), children_(handles_.size()),
      writers_(std::make_unique<std::atomic<int>[]>(handles_.size())),
      parent_(parent), cut_{uint32_t(nb()), uint32_t(mt_)} {
    starpu_data_filter filter{};
    filter.filter_func = cut_tile;
    filter.nchildren = unsigned(handles_.size());
    filter.filter_arg_ptr = &cut_;
    starpu_data_partition_plan(parent_, &filter, handles_.data());
    ++live_plans;
}

template <typename T>
TileStorage<T>::~TileStorage() {
    if (parent_) return;  // a lower level is released by the top level
    release();
    if (enlisted_) delist_handle_owner(this);
    std::free(owned_);
}

template <typename T>
T* TileStorage<T>::tile_data(int i, int j) const {
    const int64_t nb = this->nb();
    if (user_) return user_ + int64_t(i) * nb + int64_t(j) * nb * lda_;
    if (distribution_) return tiles_[index(i, j)];  // null for another rank's
    // Tile columns are stored one after the other; inside one, tiles are contiguous.
    const int64_t offset = int64_t(j) * nb * m_ + int64_t(i) * nb * tile_cols(j);
    if (simulated) return reinterpret_cast<T*>(simulated_base + uintptr_t(offset) * sizeof(T));
    return owned_ + offset;
}

template <typename T>
starpu_data_handle_t TileStorage<T>::handle(int i, int j) {
    if (!handles_[index(i, j)] && !parent_) order_pin(j);
    return handle_before_pin(i, j);
}

template <typename T>
starpu_data_handle_t TileStorage<T>::handle_before_pin(int i, int j) {
    starpu_data_handle_t h = handles_[index(i, j)];
    if (h) return h;  // only the top level registers; plan children exist from the start
    register_tile(i, j);
    return handles_[index(i, j)];
}

template <typename T>
void TileStorage<T>::register_tile(int i, int j) {
    enlist();
    starpu_data_handle_t& h = handles_[index(i, j)];
    // Another rank's tile has no memory here (home node -1): StarPU-MPI receives it where
    // a task needs it.
    const bool local = is_local(i, j);
    starpu_matrix_data_register(&h, local ? STARPU_MAIN_RAM : -1,
                                local ? reinterpret_cast<uintptr_t>(tile_data(i, j)) : 0,
                                static_cast<uint32_t>(local ? tile_ld(i) : tile_rows(i)),
                                static_cast<uint32_t>(tile_rows(i)), static_cast<uint32_t>(tile_cols(j)), sizeof(T));
    if (distribution_) mpi::register_tile(h, first_tag_ + int64_t(index(i, j)), owner(i, j));
    ++live_handles;
}

template <typename T>
TileStorage<T>& TileStorage<T>::children(int i, int j) {
    std::unique_ptr<TileStorage>& grid = children_[index(i, j)];
    // StarPU 1.3 plans a partition on the home node; another rank's tile has none.
    if (!is_local(i, j)) throw runtime_error("grain: internal error: a split of another rank's tile");
    if (!grid)
        grid.reset(new TileStorage(handle(i, j), tile_rows(i), tile_cols(j), scales_, level_ + 1));
    return *grid;
}

template <typename T>
void TileStorage<T>::release() {
    // A policy that keeps the handles of the tasks it sees (DARTS) must forget them only once
    // no task on them is left, or a task pushed later (one that only reads a tile: the
    // writers are waited for below) brings them back, and the policy keeps them after
    // StarPU frees them. Acquiring a tile for writing waits for every task on it and on
    // its sub-tiles, which StarPU gathers first.
    wait_pins(pin_tasks_);  // its tiles' first tasks followed it: none is left before it
    if (!parent_ && policy_keeps_handles())
        for (int j = 0; j < nt_; ++j)
            for (int i = 0; i < mt_; ++i)
                if (starpu_data_handle_t h = handles_[index(i, j)]; h && is_local(i, j)) {  // no valid copy elsewhere
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
    unpin();
}

// The first use of the top level in a Runtime: the Runtime releases it when it ends.
template <typename T>
void TileStorage<T>::enlist() {
    if (enlisted_) return;
    enlist_handle_owner(this);
    enlisted_ = true;
    plan_pinning();
}

// With GPUs, transfers from host memory are asynchronous, and at the link's speed, only
// from pinned memory. Pinning by column lets the first tasks run while the next columns
// are pinned (src/base/pin_ranges.hpp, column_pins.hpp); GRAIN_PIN_COLUMNS=0 pins the
// whole storage on first use instead, as grain did before.
template <typename T>
void TileStorage<T>::plan_pinning() {
    if (!pinning_wanted() || !base() || storage_bytes() == 0) return;
    const auto by_columns = env_integer("grain::Matrix", {"GRAIN_PIN_COLUMNS"}, 0, 1,
                                        "1: pin a matrix's tile columns as tasks first use them, 0: all of it at once");
    if (!distribution_ && (!by_columns || by_columns->value == 1)) {
        const size_t stride = size_t(nb()) * size_t(user_ ? lda_ : m_) * sizeof(T);
        pin_ranges_ = column_pin_ranges(reinterpret_cast<uintptr_t>(base()), storage_bytes(), stride, nt_,
                                        size_t(sysconf(_SC_PAGESIZE)));
    }
    if (pin_ranges_.empty()) {
        pinned_ = pin_memory(base(), storage_bytes());
        return;
    }
    column_pins_.reset(new std::atomic<PinState>[pin_ranges_.size()]);
    for (size_t j = 0; j < pin_ranges_.size(); ++j) column_pins_[j] = PinState::no;
}

template <typename T>
void TileStorage<T>::order_pin(int j) {
    enlist();
    if (pin_ranges_.empty() || column_pins_[size_t(j)] != PinState::no) return;
    const PinRange& r = pin_ranges_[size_t(j)];
    if (!pin_tasks_possible()) {
        column_pins_[size_t(j)] = pin_now(r);
        return;
    }
    std::vector<starpu_data_handle_t> column(static_cast<size_t>(mt_));
    for (int i = 0; i < mt_; ++i) column[size_t(i)] = handle_before_pin(i, j);  // every tile local here
    pin_tasks_.reserve(pin_tasks_.size() + 1);  // a submitted pin must be kept to be waited for
    pin_tasks_.push_back(submit_pin(r, column, &column_pins_[size_t(j)]));
}

template <typename T>
void TileStorage<T>::unpin() {
    if (pinned_) unpin_memory(base(), storage_bytes());
    pinned_ = false;
    for (size_t j = 0; j < pin_ranges_.size(); ++j)
        if (column_pins_[j] == PinState::yes) unpin_memory(reinterpret_cast<void*>(pin_ranges_[j].address), pin_ranges_[j].bytes);
    pin_ranges_.clear();
    column_pins_.reset();
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
