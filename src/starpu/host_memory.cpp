#include "host_memory.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include <starpu.h>
#include <unistd.h>

#include "grain/errors.hpp"
#include "src/base/env.hpp"
#include "src/base/page_memory.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/base/simulation.hpp"

namespace grain::detail {

namespace {

// Where a simulated matrix's tiles "are" (src/base/simulation.hpp): page-aligned, not null.
constexpr uintptr_t simulated_base = 4096;

}  // namespace

template <typename T>
HostMemory<T>::HostMemory(const GridShape& shape, bool zeroed) {
    allocate(size_t(shape.m) * size_t(shape.n) * sizeof(T), zeroed);
}

template <typename T>
HostMemory<T>::HostMemory(const GridShape& shape, const std::vector<bool>& local)
    : tiles_(local.size(), nullptr), distributed_(true) {
    // Tile columns one after the other, as for a whole matrix, with this process's tiles only.
    std::vector<int64_t> offsets(local.size(), -1);
    for (int j = 0; j < shape.nt; ++j)
        for (int i = 0; i < shape.mt; ++i)
            if (local[shape.index(i, j)]) {
                offsets[shape.index(i, j)] = local_elements_;
                local_elements_ += int64_t(shape.tile_rows(i)) * shape.tile_cols(j);
            }
    allocate(size_t(local_elements_) * sizeof(T));
    for (size_t t = 0; t < offsets.size(); ++t)
        if (offsets[t] >= 0)
            tiles_[t] = owned_ + offsets[t];
}

template <typename T>
HostMemory<T>::~HostMemory() {
    if (folded_bytes_ > 0)
        starpu_free_flags(owned_, folded_bytes_, STARPU_MALLOC_SIMULATION_FOLDED);
    else
        std::free(owned_);
}

template <typename T>
void HostMemory<T>::allocate(size_t bytes, bool zeroed) {
    if (bytes == 0) return;
    if (simulated) {
        // tile() gives addresses nothing reads, but on simulated nodes SimGrid's MPI copies
        // what a message sends: a distributed matrix's tiles there are memory that maps
        // one file again and again (StarPU's folded allocation: SimGrid's shared malloc).
        if (!distributed_) return;
        void* folded = nullptr;
        if (starpu_malloc_flags(&folded, bytes, STARPU_MALLOC_SIMULATION_FOLDED) != 0 || folded == nullptr)
            throw runtime_error("grain::Matrix: cannot map " + std::to_string(bytes) + " simulated bytes");
        owned_ = static_cast<T*>(folded);
        folded_bytes_ = bytes;
        return;
    }
    // Plain aligned memory, pinned like a user's array when tiles are registered: with
    // CUDA, starpu_malloc pins through a task, which waits forever when the workers are
    // paused (starpu_pause) and aborts before starpu_init.
    // Page-aligned, so that tile columns can be pinned one by one (plan_pinning).
    void* memory = allocate_pages(bytes);
    if (memory == nullptr)
        throw runtime_error("grain::Matrix: cannot allocate " + std::to_string(bytes) + " bytes");
    // Scratch is first touched by the tasks that write it, in parallel.
    if (zeroed) std::memset(memory, 0, bytes);
    owned_ = static_cast<T*>(memory);
    // Storage of grain's own is pinned once, now, for its life (until the Runtime ends),
    // so that no routine's time pays for it; a later Runtime pins it at first use.
    if (pinning_wanted()) pinned_ = pin_memory(owned_, bytes);
}

template <typename T>
T* HostMemory<T>::tile(const GridShape& shape, int i, int j) const {
    const int64_t nb = shape.nb;
    if (user_) return user_ + int64_t(i) * nb + int64_t(j) * nb * lda_;
    if (distributed_) return tiles_[shape.index(i, j)];  // null for another rank's
    // Tile columns are stored one after the other; inside one, tiles are contiguous.
    const int64_t offset = int64_t(j) * nb * shape.m + int64_t(i) * nb * shape.tile_cols(j);
    if (simulated) return reinterpret_cast<T*>(simulated_base + uintptr_t(offset) * sizeof(T));
    return owned_ + offset;
}

// With GPUs, transfers from host memory are asynchronous, and at the link's speed, only
// from pinned memory. Pinning by column lets the first tasks run while the next columns
// are pinned (src/base/pin_ranges.hpp, column_pins.hpp); GRAIN_PIN_COLUMNS=0 pins the
// whole storage on first use instead.
template <typename T>
void HostMemory<T>::plan_pinning(const GridShape& shape) {
    // Simulated and distributed: folded memory, which no GPU copies from (allocate).
    if ((simulated && distributed_) || pinned_ || !pinning_wanted() || !base() || bytes(shape) == 0) return;
    if (user_ && inside_caller_pin(base(), bytes(shape))) return;  // grain::Pinned
    const auto by_columns = env_integer("grain::Matrix", {"GRAIN_PIN_COLUMNS"}, 0, 1,
                                        "1: pin a matrix's tile columns as tasks first use them, 0: all of it at once");
    if (!distributed_ && (!by_columns || by_columns->value == 1)) {
        const size_t stride = size_t(shape.nb) * size_t(user_ ? lda_ : shape.m) * sizeof(T);
        pin_ranges_ = column_pin_ranges(reinterpret_cast<uintptr_t>(base()), bytes(shape), stride, shape.nt,
                                        size_t(sysconf(_SC_PAGESIZE)));
    }
    if (pin_ranges_.empty()) {
        pinned_ = pin_memory(base(), bytes(shape));
        return;
    }
    column_pins_.reset(new std::atomic<PinState>[pin_ranges_.size()]);
    for (size_t j = 0; j < pin_ranges_.size(); ++j) column_pins_[j] = PinState::no;
}

template <typename T>
void HostMemory<T>::unpin(const GridShape& shape) {
    if (pinned_) unpin_memory(base(), bytes(shape));
    pinned_ = false;
    for (size_t j = 0; j < pin_ranges_.size(); ++j)
        if (column_pins_[j] == PinState::yes)
            unpin_memory(reinterpret_cast<void*>(pin_ranges_[j].address), pin_ranges_[j].bytes);
    pin_ranges_.clear();
    column_pins_.reset();
}

#define GRAIN_INSTANTIATE(T) template class HostMemory<T>;
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::detail
