#pragma once
// grain::Request: the tasks an asynchronous routine submitted. wait() blocks until
// they have all run and returns the routine's info (0, or the first failure in
// LAPACK's convention). Destroying a Request waits too, so no task outlives it.
#include <memory>

namespace grain {

namespace detail {
struct RequestState;
}

class Request {
public:
    Request();
    ~Request();
    Request(Request&&) noexcept;
    Request& operator=(Request&&) noexcept;
    Request(const Request&) = delete;
    Request& operator=(const Request&) = delete;

    int wait();

    detail::RequestState& state() const { return *state_; }

private:
    std::unique_ptr<detail::RequestState> state_;
};

}  // namespace grain
