#pragma once
// What a Request tracks: its tasks still to run, and the first failure any of them
// reported (LAPACK info, 1-based global column).
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "grain/request.hpp"
#include "starpu_sync.hpp"

namespace grain::detail {

struct RequestState {
    RequestState() = default;
    RequestState(const RequestState&) = delete;
    RequestState& operator=(const RequestState&) = delete;
    ~RequestState();  // joins the host thread, if any

    // A routine whose later tasks depend on values its earlier ones computed (a refinement
    // tests its residuals) submits them from a host thread of its own: `work` runs there,
    // counted as one pending task until it returns its info; what it throws, wait() rethrows.
    // A StarPU thread, so that under SimGrid it is a simulated one too.
    void run_on_thread(std::function<int64_t()> work);

    void task_submitted();
    void task_finished();  // called by StarPU workers (task callback)
    void report_info(int64_t info);
    void report_argument(int position);  // an invalid argument found before any task: info = -position
    void drain();  // blocks until no task is pending
    int wait();    // drain(), then info

    Mutex mutex;  // StarPU's: drain() waits for workers, also under SimGrid
    CondVar all_done;
    int64_t pending = 0;
    int64_t info = 0;
    // Distributed calls: Request::wait() reduces info over the ranks, a collective.
    bool distributed = false;
    // What the request's tasks use and nobody else keeps (local copies of other ranks'
    // tiles that a split cut): freed with the request, once its tasks have run.
    std::vector<std::shared_ptr<void>> scratch;

private:
    static void* host_main(void* state);
    std::function<int64_t()> host_work_;
    std::exception_ptr host_failure_;
    starpu_pthread_t host_{};
    bool host_started_ = false;
};

// The state behind a grain::Request, for the layers that submit and run its tasks.
struct RequestAccess {
    static RequestState& state(const Request& request) { return *request.state_; }
};

}  // namespace grain::detail
