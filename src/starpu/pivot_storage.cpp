#include "pivot_storage.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <string>

#include "distributed.hpp"
#include "grain/errors.hpp"

namespace grain {

namespace {

int64_t checked_count(int64_t count) {
    if (count < 0 || count > INT32_MAX)
        throw invalid_argument("grain::Pivots", "count", std::to_string(count), "must be in [0, 2^31 - 1]");
    return count;
}

// Storage of their own that cannot be allocated is a runtime_error, as a Matrix's.
std::shared_ptr<detail::PivotStorage> make_storage(int64_t count, int* user) {
    try {
        return std::make_shared<detail::PivotStorage>(count, user);
    } catch (const std::bad_alloc&) {
        throw runtime_error("grain::Pivots: cannot allocate " + std::to_string(count) + " indices (" +
                            std::to_string(count * int64_t(sizeof(int))) + " bytes)");
    }
}

}  // namespace

Pivots::Pivots(int64_t count) : storage_(make_storage(checked_count(count), nullptr)) {}

Pivots::Pivots(int64_t count, int* ipiv) {
    if (!ipiv && checked_count(count) > 0)
        throw invalid_argument("grain::Pivots", "ipiv", "null", "must point to count integers");
    storage_ = make_storage(checked_count(count), ipiv);
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

const int* PivotStorage::data() {
    // Reading a block in main memory fetches it there, gathering its sub-blocks. Another
    // rank's block has no home here: a factorization delivered its indices (the caller
    // waited for it).
    for (size_t b = 0; b < blocks_.size(); ++b)
        if (home_here(b)) {
            starpu_data_acquire(blocks_[b], STARPU_R);
            starpu_data_release(blocks_[b]);
        }
    return data_;
}

const std::vector<starpu_data_handle_t>& PivotStorage::blocks(int nb) {
    if (nb == nb_ && !blocks_.empty() && owners_.empty()) return blocks_;
    return register_blocks(nb, {});
}

const std::vector<starpu_data_handle_t>& PivotStorage::distribute(int nb, const std::vector<int>& owners) {
    if (nb == nb_ && !blocks_.empty() && owners == owners_ && rank_ == mpi::rank()) return blocks_;
    return register_blocks(nb, owners);
}

const std::vector<starpu_data_handle_t>& PivotStorage::register_blocks(int nb, const std::vector<int>& owners) {
    release();
    if (!enlisted_) {
        enlist_handle_owner(this);
        enlisted_ = true;
    }
    nb_ = nb;
    owners_ = owners;
    rank_ = mpi::rank();
    const int64_t first_tag = owners.empty() ? 0 : mpi::new_tags(int64_t(owners.size()));
    for (int64_t first = 0, b = 0; first < count_; first += nb, ++b) {
        starpu_data_handle_t h = nullptr;
        const int64_t n = std::min<int64_t>(nb, count_ - first);
        if (home_here(size_t(b)))
            starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(data_ + first), uint32_t(n),
                                        sizeof(int));
        else
            starpu_vector_data_register(&h, -1, 0, uint32_t(n), sizeof(int));
        if (!owners.empty()) mpi::register_tile(h, first_tag + b, owners[size_t(b)]);
        blocks_.push_back(h);
    }
    return blocks_;
}

namespace {

// StarPU filter cutting a vector of pivots into blocks of filter_arg indices, the last
// shorter (StarPU's block filter would even them out).
void cut_block(void* father_interface, void* child_interface, starpu_data_filter* filter, unsigned id, unsigned) {
    const auto* father = static_cast<starpu_vector_interface*>(father_interface);
    auto* child = static_cast<starpu_vector_interface*>(child_interface);
    const uint32_t nb = uint32_t(filter->filter_arg), first = id * nb;
    *child = *father;
    child->nx = std::min(nb, father->nx - first);
    child->allocsize = size_t(child->nx) * child->elemsize;
    const size_t offset = size_t(first) * father->elemsize;
    if (father->dev_handle) {
        if (father->ptr) child->ptr = father->ptr + offset;
        child->offset = father->offset + offset;
    }
}

}  // namespace

const std::vector<starpu_data_handle_t>& PivotStorage::sub_blocks(starpu_data_handle_t block, int child_nb) {
    for (const Plan& p : plans_)
        if (p.parent == block && p.nb == uint32_t(child_nb)) return p.children;
    const uint32_t n = starpu_vector_get_nx(block);
    Plan plan{block, uint32_t(child_nb), std::vector<starpu_data_handle_t>((n + uint32_t(child_nb) - 1) / uint32_t(child_nb))};
    starpu_data_filter filter{};
    filter.filter_func = cut_block;
    filter.nchildren = unsigned(plan.children.size());
    filter.filter_arg = unsigned(child_nb);
    starpu_data_partition_plan(block, &filter, plan.children.data());
    plans_.push_back(std::move(plan));
    return plans_.back().children;
}

void PivotStorage::release() {
    // Cleaning a plan gathers its sub-blocks into their block; unregistering waits for
    // the tasks on the block, and the indices are then in data_.
    for (auto p = plans_.rbegin(); p != plans_.rend(); ++p)
        starpu_data_partition_clean(p->parent, unsigned(p->children.size()), p->children.data());
    plans_.clear();
    panel_split_.clear();
    for (starpu_data_handle_t h : blocks_) starpu_data_unregister(h);
    blocks_.clear();
    owners_.clear();
    nb_ = 0;
}

}  // namespace detail
}  // namespace grain
