#include "grain/request.hpp"

#include "src/base/request_state.hpp"
#include "src/starpu/distributed.hpp"

namespace grain {

Request::Request() : state_(std::make_unique<detail::RequestState>()) {}

Request::~Request() {
    if (state_) state_->drain();
}

Request::Request(Request&& other) noexcept = default;

Request& Request::operator=(Request&& other) noexcept {
    if (this != &other) {
        if (state_) state_->drain();
        state_ = std::move(other.state_);
    }
    return *this;
}

int Request::wait() {
    if (!state_) return 0;
    const int info = state_->wait();
    return state_->distributed ? int(detail::mpi::reduce_info(info)) : info;
}

}  // namespace grain
