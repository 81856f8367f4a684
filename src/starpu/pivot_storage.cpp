#include "pivot_storage.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "grain/errors.hpp"

namespace grain {

namespace {

int64_t checked_count(int64_t count) {
    if (count < 0 || count > INT32_MAX)
        throw invalid_argument("grain::Pivots", "count", std::to_string(count), "must be in [0, 2^31 - 1]");
    return count;
}

}  // namespace

Pivots::Pivots(int64_t count) : storage_(std::make_shared<detail::PivotStorage>(checked_count(count), nullptr)) {}

Pivots::Pivots(int64_t count, int* ipiv) {
    if (!ipiv && checked_count(count) > 0)
        throw invalid_argument("grain::Pivots", "ipiv", "null", "must point to count integers");
    storage_ = std::make_shared<detail::PivotStorage>(checked_count(count), ipiv);
}

int64_t Pivots::size() const { return storage_->size(); }
const int* Pivots::data() const { return storage_->data(); }

namespace detail {

PivotStorage::PivotStorage(int64_t count, int* user)
    : count_(count), owned_(user ? 0 : size_t(count), 0), data_(user ? user : owned_.data()) {}

PivotStorage::~PivotStorage() {
    release();
    if (enlisted_) delist_handle_owner(this);
}

const std::vector<starpu_data_handle_t>& PivotStorage::blocks(int nb) {
    if (nb == nb_ && !blocks_.empty()) return blocks_;
    release();
    if (!enlisted_) {
        enlist_handle_owner(this);
        enlisted_ = true;
    }
    nb_ = nb;
    for (int64_t first = 0; first < count_; first += nb) {
        starpu_data_handle_t h = nullptr;
        const int64_t n = std::min<int64_t>(nb, count_ - first);
        starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(data_ + first), uint32_t(n),
                                    sizeof(int));
        blocks_.push_back(h);
    }
    return blocks_;
}

void PivotStorage::release() {
    // Unregistering waits for the tasks on the block; the indices are then in data_.
    for (starpu_data_handle_t h : blocks_) starpu_data_unregister(h);
    blocks_.clear();
    nb_ = 0;
}

}  // namespace detail
}  // namespace grain
