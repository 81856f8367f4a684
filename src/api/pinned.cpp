#include "grain/pinned.hpp"

#include "grain/errors.hpp"
#include "grain/runtime.hpp"
#include "src/starpu/column_pins.hpp"

namespace grain {

Pinned::Pinned(const void* address, std::size_t bytes) {
    if (!Runtime::active()) throw runtime_error("grain::Pinned: no grain::Runtime is alive; create one first");
    if (address == nullptr && bytes > 0) throw invalid_argument("grain::Pinned", "address", "null", "no array to pin");
    key_ = detail::add_caller_pin(address, bytes);
}

Pinned::~Pinned() {
    if (key_ != 0) detail::remove_caller_pin(key_);
}

}  // namespace grain
