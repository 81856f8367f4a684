#include "write_back.hpp"

#include <starpu.h>

#include "matrix_access.hpp"
#include "src/base/scalar_traits.hpp"

namespace grain::detail {

namespace {

// An acquire that fetches nothing waits for the tile's last task, then asks for the copy
// home as a lowest-priority prefetch: StarPU serves a node's fetches (the GPU's next
// inputs) first, where the copies home, asked for all at once, would otherwise queue
// ahead of them (doc/results/2026-11-28-sim-write-back-priority.md). StarPU's wont_use
// (an idle-time copy) left tiles on an OpenCL device for good; the view's end brings home
// whatever has not come yet.
void send_home(void* handle) {
    auto* h = static_cast<starpu_data_handle_t>(handle);
    starpu_data_prefetch_on_node_prio(h, STARPU_MAIN_RAM, 1, STARPU_MIN_PRIO);
    starpu_data_release_on_node(h, STARPU_ACQUIRE_NO_NODE);
}

// A tile a split cut is fetched by its sub-tiles (theirs, if cut too), each as soon as its
// own last task ends: read whole, it would wait for the last of them, and a gathering
// where they are (the GPU) would send it home whole after that.
template <typename T>
void fetch_home(const TileStorage<T>& s, int i, int j) {
    if (const TileStorage<T>* parts = s.children(i, j)) {
        for (int jj = 0; jj < parts->nt(); ++jj)
            for (int ii = 0; ii < parts->mt(); ++ii) fetch_home(*parts, ii, jj);
    } else if (starpu_data_handle_t h = s.handle(i, j)) {
        starpu_data_acquire_on_node_cb(h, STARPU_ACQUIRE_NO_NODE, STARPU_R, send_home, h);
    }
}

}  // namespace

template <typename T>
void write_back(const Matrix<T>& view) {
    if (starpu_memory_nodes_get_count() <= 1) return;
    const TileStorage<T>& s = MatrixAccess::storage(view);
    const int i0 = MatrixAccess::first_tile_row(view), j0 = MatrixAccess::first_tile_col(view);
    for (int j = j0; j < j0 + view.nt(); ++j)
        for (int i = i0; i < i0 + view.mt(); ++i)
            if (s.is_local(i, j)) fetch_home(s, i, j);
}

#define GRAIN_INSTANTIATE(T) template void write_back<T>(const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::detail
