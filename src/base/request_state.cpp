#include "request_state.hpp"

#include <limits>
#include <string>

#include "grain/errors.hpp"

namespace grain::detail {

RequestState::~RequestState() {
    if (host_started_) starpu_pthread_join(host_, nullptr);
}

void RequestState::run_on_thread(std::function<int64_t()> work) {
    host_work_ = std::move(work);
    task_submitted();
    if (starpu_pthread_create(&host_, nullptr, &RequestState::host_main, this) != 0) {
        task_finished();
        throw runtime_error("grain: could not start a request's host thread");
    }
    host_started_ = true;
}

void* RequestState::host_main(void* state) {
    RequestState& self = *static_cast<RequestState*>(state);
    try {
        const int64_t info = self.host_work_();
        std::lock_guard<Mutex> lock(self.mutex);
        if (info != 0 && self.info == 0) self.info = info;
    } catch (...) {
        std::lock_guard<Mutex> lock(self.mutex);
        self.host_failure_ = std::current_exception();
    }
    self.task_finished();
    return nullptr;
}

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
    if (host_failure_) std::rethrow_exception(host_failure_);
    if (info > std::numeric_limits<int>::max())
        throw runtime_error("grain: info " + std::to_string(info) + " does not fit in an int");
    return static_cast<int>(info);
}

}  // namespace grain::detail
