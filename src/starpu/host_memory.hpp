#pragma once
// Where the tiles of a matrix's top level are in host memory, and their pinning for GPU
// transfers: zeroed storage of its own (tile columns one after the other, each tile
// contiguous), a user's column-major array, or, distributed, this process's tiles only
// (in storage of its own, or an application's).
#include <starpu.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "column_pins.hpp"
#include "src/base/pin_ranges.hpp"

namespace grain::detail {

// An m x n grid of tiles of nb (the last ones smaller).
struct GridShape {
    int64_t m, n;
    int nb, mt, nt;
    int tile_rows(int i) const { return i < mt - 1 ? nb : static_cast<int>(m - int64_t(i) * nb); }
    int tile_cols(int j) const { return j < nt - 1 ? nb : static_cast<int>(n - int64_t(j) * nb); }
    size_t index(int i, int j) const { return size_t(i) + size_t(j) * size_t(mt); }
    size_t tiles() const { return size_t(mt) * size_t(nt); }
};

template <typename T>
class HostMemory {
public:
    // No memory (a lower level's grid, whose tiles are its parent's).
    HostMemory() = default;
    // Storage of its own for the whole grid, zeroed unless the caller writes every tile it
    // reads before reading it (`zeroed` false: a routine's scratch).
    explicit HostMemory(const GridShape& shape, bool zeroed = true);
    // A user's column-major array.
    HostMemory(T* a, int64_t lda) : user_(a), lda_(lda) {}
    // Distributed: this process's tiles (local[t] for the tile at index t of the grid, as
    // GridShape::index, false for another's), in zeroed storage of its own; or where
    // `tiles` says (an application's), null for another process's.
    HostMemory(const GridShape& shape, const std::vector<bool>& local);
    explicit HostMemory(std::vector<T*> tiles) : tiles_(std::move(tiles)), distributed_(true) {}
    ~HostMemory();
    HostMemory(const HostMemory&) = delete;
    HostMemory& operator=(const HostMemory&) = delete;

    bool over_user_array() const { return user_ != nullptr; }
    bool pinned() const { return pinned_; }  // whole (storage of its own: from the start)
    // Where tile (i, j) is (null for another process's), and its leading dimension.
    T* tile(const GridShape& shape, int i, int j) const;
    int64_t ld(const GridShape& shape, int i) const { return user_ ? lda_ : shape.tile_rows(i); }

    // With GPUs, storage of its own is pinned whole from its allocation. A user's array is
    // pinned while its tiles are registered (unless in a grain::Pinned): by tile column as
    // tasks first use them, each pinned by a task the column's tasks wait for
    // (column_pins.hpp), else whole at once. plan_pinning chooses, at a grid's first use;
    // order_pin(j, column) orders column j's pin before the tasks submitted after it
    // (column() gives its tiles' handles), unless ordered already; without a CPU worker
    // to run the pin, it pins now.
    void plan_pinning(const GridShape& shape);
    template <typename Column>
    void order_pin(int j, Column column);
    // Waits for the pins submitted (before the tiles go), and unpins what was pinned.
    void wait_for_pins() { wait_pins(pin_tasks_); }
    void unpin(const GridShape& shape);

private:
    T* base() const { return user_ ? user_ : owned_; }
    size_t bytes(const GridShape& shape) const {
        if (distributed_) return size_t(local_elements_) * sizeof(T);
        return (user_ ? size_t(lda_) * size_t(shape.n - 1) + size_t(shape.m) : size_t(shape.m) * size_t(shape.n)) *
               sizeof(T);
    }
    void allocate(size_t bytes, bool zeroed = true);  // owned_

    T* owned_ = nullptr;
    T* user_ = nullptr;
    int64_t lda_ = 0;
    std::vector<T*> tiles_;       // distributed: where each local tile is, null for remote ones
    int64_t local_elements_ = 0;  // distributed: the size of owned_ (0 over an application's tiles)
    bool distributed_ = false;
    size_t folded_bytes_ = 0;  // simulated and distributed: owned_ is StarPU's folded memory
    bool pinned_ = false;  // whole
    std::vector<PinRange> pin_ranges_;  // by column, each with its state, set by its pin task
    std::unique_ptr<std::atomic<PinState>[]> column_pins_;
    std::vector<starpu_task*> pin_tasks_;  // submitted, waited for before the tiles go
};

template <typename T>
template <typename Column>
void HostMemory<T>::order_pin(int j, Column column) {
    if (pin_ranges_.empty() || column_pins_[size_t(j)] != PinState::no) return;
    const PinRange& r = pin_ranges_[size_t(j)];
    if (!pin_tasks_possible()) {
        column_pins_[size_t(j)] = pin_now(r);
        return;
    }
    const std::vector<starpu_data_handle_t> handles = column();
    pin_tasks_.reserve(pin_tasks_.size() + 1);  // a submitted pin must be kept to be waited for
    pin_tasks_.push_back(submit_pin(r, handles, &column_pins_[size_t(j)]));
}

}  // namespace grain::detail
