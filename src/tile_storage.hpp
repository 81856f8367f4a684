#pragma once
// The tiles behind grain::Matrix views: their memory and their StarPU handles.
#include <starpu.h>

#include <cstdint>
#include <vector>

namespace grain::detail {

// Something holding StarPU handles: the Runtime calls runtime_ending() on the owners
// still alive before it shuts StarPU down, and they unregister their handles.
class HandleOwner {
public:
    virtual void runtime_ending() = 0;

protected:
    ~HandleOwner() = default;
};

// Tile handles registered now, in this process (for leak checks).
int64_t registered_tile_handles();

// Called by handle owners; implemented by the runtime.
void enlist_handle_owner(HandleOwner* owner);
void delist_handle_owner(HandleOwner* owner);

template <typename T>
class TileStorage final : public HandleOwner {
public:
    TileStorage(int64_t m, int64_t n, int nb);                   // owns zeroed tiles
    TileStorage(int64_t m, int64_t n, int nb, T* a, int64_t lda);  // a user's array
    ~TileStorage();
    TileStorage(const TileStorage&) = delete;
    TileStorage& operator=(const TileStorage&) = delete;

    int64_t m() const { return m_; }
    int64_t n() const { return n_; }
    int nb() const { return nb_; }
    int mt() const { return mt_; }
    int nt() const { return nt_; }
    int tile_rows(int i) const { return i < mt_ - 1 ? nb_ : static_cast<int>(m_ - int64_t(i) * nb_); }
    int tile_cols(int j) const { return j < nt_ - 1 ? nb_ : static_cast<int>(n_ - int64_t(j) * nb_); }
    T* tile_data(int i, int j) const;
    int64_t tile_ld(int i) const { return user_ ? lda_ : tile_rows(i); }

    // The tile's handle, registered on first use (single submitting thread).
    starpu_data_handle_t handle(int i, int j);
    // The handle if registered, else nullptr.
    starpu_data_handle_t registered_handle(int i, int j) const { return handles_[index(i, j)]; }

    void runtime_ending() override;

private:
    void unregister_handles();
    size_t index(int i, int j) const { return size_t(i) + size_t(j) * size_t(mt_); }

    int64_t m_, n_;
    int nb_, mt_, nt_;
    T* owned_ = nullptr;
    size_t owned_bytes_ = 0;
    T* user_ = nullptr;
    int64_t lda_ = 0;
    std::vector<starpu_data_handle_t> handles_;
    bool enlisted_ = false;
};

extern template class TileStorage<float>;
extern template class TileStorage<double>;

}  // namespace grain::detail
