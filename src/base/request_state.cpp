#include "request_state.hpp"

#include <limits>
#include <string>

#include "grain/errors.hpp"

namespace grain::detail {

void RequestState::task_submitted() {
    std::lock_guard<Mutex> lock(mutex);
    ++pending;
}

void RequestState::task_finished() {
    std::lock_guard<Mutex> lock(mutex);
    if (--pending == 0) all_done.notify_all();
}

void RequestState::report_info(int64_t value) {
    std::lock_guard<Mutex> lock(mutex);
    // The first failing column is the smallest one reported: later tiles may fail
    // too once they are computed from the failed one.
    if (value > 0 && (info == 0 || value < info)) info = value;
}

void RequestState::report_argument(int position) {
    std::lock_guard<Mutex> lock(mutex);
    info = -position;
}

void RequestState::drain() {
    std::unique_lock<Mutex> lock(mutex);
    all_done.wait(lock, [this] { return pending == 0; });
}

int RequestState::wait() {
    drain();
    std::lock_guard<Mutex> lock(mutex);
    if (info > std::numeric_limits<int>::max())
        throw runtime_error("grain: info " + std::to_string(info) + " does not fit in an int");
    return static_cast<int>(info);
}

}  // namespace grain::detail
