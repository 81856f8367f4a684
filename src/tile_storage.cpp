#include "tile_storage.hpp"

#include <atomic>
#include <cstring>

#include "grain/errors.hpp"

namespace grain::detail {

namespace {
std::atomic<int64_t> live_handles{0};
int tiles_for(int64_t size, int nb) { return static_cast<int>((size + nb - 1) / nb); }
}  // namespace

int64_t registered_tile_handles() { return live_handles.load(); }

template <typename T>
TileStorage<T>::TileStorage(int64_t m, int64_t n, int nb)
    : m_(m), n_(n), nb_(nb), mt_(tiles_for(m, nb)), nt_(tiles_for(n, nb)),
      handles_(size_t(mt_) * size_t(nt_), nullptr) {
    owned_bytes_ = size_t(m) * size_t(n) * sizeof(T);
    if (owned_bytes_ == 0) return;
    void* memory = nullptr;
    if (starpu_malloc(&memory, owned_bytes_) != 0 || memory == nullptr)
        throw runtime_error("grain::Matrix: cannot allocate " + std::to_string(owned_bytes_) +
                            " bytes");
    std::memset(memory, 0, owned_bytes_);
    owned_ = static_cast<T*>(memory);
}

template <typename T>
TileStorage<T>::TileStorage(int64_t m, int64_t n, int nb, T* a, int64_t lda)
    : m_(m), n_(n), nb_(nb), mt_(tiles_for(m, nb)), nt_(tiles_for(n, nb)), user_(a), lda_(lda),
      handles_(size_t(mt_) * size_t(nt_), nullptr) {}

template <typename T>
TileStorage<T>::~TileStorage() {
    unregister_handles();
    if (enlisted_) delist_handle_owner(this);
    if (owned_) starpu_free(owned_);
}

template <typename T>
T* TileStorage<T>::tile_data(int i, int j) const {
    if (user_) return user_ + int64_t(i) * nb_ + int64_t(j) * nb_ * lda_;
    // Tile columns are stored one after the other; inside one, tiles are contiguous.
    return owned_ + int64_t(j) * nb_ * m_ + int64_t(i) * nb_ * tile_cols(j);
}

template <typename T>
starpu_data_handle_t TileStorage<T>::handle(int i, int j) {
    starpu_data_handle_t& h = handles_[index(i, j)];
    if (!h) {
        if (!enlisted_) {
            enlist_handle_owner(this);
            enlisted_ = true;
        }
        starpu_matrix_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(tile_data(i, j)),
                                    static_cast<uint32_t>(tile_ld(i)), static_cast<uint32_t>(tile_rows(i)),
                                    static_cast<uint32_t>(tile_cols(j)), sizeof(T));
        ++live_handles;
    }
    return h;
}

template <typename T>
void TileStorage<T>::unregister_handles() {
    // Unregistering waits for the tasks using the tile and brings its data home.
    for (starpu_data_handle_t& h : handles_) {
        if (h) {
            starpu_data_unregister(h);
            h = nullptr;
            --live_handles;
        }
    }
}

template <typename T>
void TileStorage<T>::runtime_ending() {
    unregister_handles();
    enlisted_ = false;  // a later Runtime enlists it again on first use
}

template class TileStorage<float>;
template class TileStorage<double>;

}  // namespace grain::detail
