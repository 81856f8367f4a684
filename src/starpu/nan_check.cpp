#include "nan_check.hpp"

#include <atomic>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "grain/errors.hpp"
#include "matrix_access.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/base/simulation.hpp"

namespace grain::detail {

namespace {

struct ScanArgs {
    Elements elements;  // of this tile: All off the diagonal
    std::atomic<bool>* found;
};

// Scans columns without an early exit inside a column, so that the loop vectorizes.
template <typename T>
void scan_tile(void* buffers[], void* cl_arg) {
    const auto* args = static_cast<const ScanArgs*>(cl_arg);
    if (args->found->load(std::memory_order_relaxed)) return;
    const T* a = reinterpret_cast<const T*>(STARPU_MATRIX_GET_PTR(buffers[0]));
    const int64_t rows = STARPU_MATRIX_GET_NX(buffers[0]), cols = STARPU_MATRIX_GET_NY(buffers[0]);
    const int64_t ld = STARPU_MATRIX_GET_LD(buffers[0]);
    for (int64_t j = 0; j < cols; ++j) {
        const int64_t first = args->elements == Elements::Lower ? j : 0;
        const int64_t end = args->elements == Elements::Upper ? std::min(j + 1, rows) : rows;
        bool nan = false;
        for (int64_t i = first; i < end; ++i) nan |= is_nan(a[i + j * ld]);
        if (nan) {
            args->found->store(true, std::memory_order_relaxed);
            return;
        }
    }
}

template <typename T>
starpu_codelet* scan_codelet() {
    static starpu_codelet cl = [] {
        starpu_codelet c;
        std::memset(&c, 0, sizeof c);
        c.where = STARPU_CPU;
        c.cpu_funcs[0] = scan_tile<T>;
        c.nbuffers = 1;
        c.modes[0] = STARPU_R;
        c.name = "grain_nan_check";
        return c;
    }();
    return &cl;
}

// Waits for every task (which frees it); returns the last failed wait's error, else 0.
int wait_each(const std::vector<starpu_task*>& tasks) {
    int failed = 0;
    for (starpu_task* task : tasks)
        if (const int ret = starpu_task_wait(task); ret != 0) failed = ret;
    return failed;
}

// The same, throwing if one of the waits failed.
void wait_all(const std::vector<starpu_task*>& tasks) {
    if (const int failed = wait_each(tasks))
        throw runtime_error(std::string("grain: starpu_task_wait failed: ") + std::strerror(-failed));
}

}  // namespace

template <typename T>
bool has_nan(const Matrix<T>& A, Elements elements) {
    if (simulated) return false;  // no data to read
    TileStorage<T>& storage = MatrixAccess::storage(A);
    const int i0 = MatrixAccess::first_tile_row(A), j0 = MatrixAccess::first_tile_col(A);
    std::atomic<bool> found{false};
    std::vector<ScanArgs> args;
    args.reserve(size_t(A.mt()) * size_t(A.nt()));
    std::vector<starpu_task*> tasks;
    for (int j = 0; j < A.nt(); ++j) {
        for (int i = 0; i < A.mt(); ++i) {
            if ((elements == Elements::Lower && i < j) || (elements == Elements::Upper && i > j)) continue;
            if (!storage.is_local(i0 + i, j0 + j)) continue;  // its process checks it
            args.push_back({i == j ? elements : Elements::All, &found});
            starpu_task* task = starpu_task_create();
            task->cl = scan_codelet<T>();
            task->handles[0] = storage.use_unpinned(i0 + i, j0 + j);
            task->cl_arg = &args.back();
            task->detach = 0;  // waited for below, which frees it
            task->priority = STARPU_MAX_PRIO;  // the routine's own tasks wait for the answer
            const int ret = starpu_task_submit(task);
            if (ret != 0) {
                starpu_task_destroy(task);
                wait_all(tasks);
                throw runtime_error(std::string("grain: starpu_task_submit failed: ") + std::strerror(-ret));
            }
            tasks.push_back(task);
        }
        // The scans read host memory, pinned or not: the column's pin follows them, and
        // runs while the next columns are scanned (column_pins.hpp). The scans submitted
        // point into this frame: waited for before an exception leaves it.
        try {
            storage.order_pin(j0 + j);
        } catch (...) {
            wait_each(tasks);  // the exception leaving is the one to report
            throw;
        }
    }
    wait_all(tasks);
    return found.load();
}

#define GRAIN_INSTANTIATE(T) template bool has_nan<T>(const Matrix<T>&, Elements);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::detail
