#pragma once
// grain::Request: the tasks an asynchronous routine submitted. wait() blocks until
// they have all run and returns the routine's info (0, or the first failure in
// LAPACK's convention). Destroying a Request waits too, so no task outlives it.
#include <memory>

namespace grain {

namespace detail {
struct RequestState;
struct RequestAccess;  // grain's own layers: what the tasks report to
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

private:
    friend struct detail::RequestAccess;
    std::unique_ptr<detail::RequestState> state_;
};

}  // namespace grain
