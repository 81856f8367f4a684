#pragma once
// The storage behind grain::Pivots: the indices, and one StarPU vector handle per block
// of nb indices (the pivots of one step of a factorization with nb-wide panels),
// registered when a routine first uses them with that nb.
#include <starpu.h>

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "grain/pivots.hpp"
#include "handles.hpp"

namespace grain::detail {

class PivotStorage final : public HandleOwner {
public:
    PivotStorage(int64_t count, int* user);
    ~PivotStorage();
    PivotStorage(const PivotStorage&) = delete;
    PivotStorage& operator=(const PivotStorage&) = delete;

    int64_t size() const { return count_; }
    // The user's array the indices live in; null for storage of its own.
    const int* user_array() const { return owned_.empty() && count_ > 0 ? data_ : nullptr; }
    // The indices, brought home first where a GPU wrote them last (waits for the tasks
    // writing them).
    const int* data();
    // The handles of the blocks of nb indices (the last may be shorter); another nb than
    // the last call's unregisters the old blocks first, which waits for their tasks.
    const std::vector<starpu_data_handle_t>& blocks(int nb);
    // The sub-blocks of child_nb indices of `block` (one of the blocks, or a sub-block):
    // a split panel's steps write them. Planned on first use (single submitting thread).
    const std::vector<starpu_data_handle_t>& sub_blocks(starpu_data_handle_t block, int child_nb);
    // How the last panel submitted on `block` runs: split into sub-panels of child_nb
    // columns, or 0 whole (also for a block no panel wrote yet). Its interchanges split
    // the same way (the kernel table's `follows`).
    void set_panel_split(starpu_data_handle_t block, int child_nb) { panel_split_[block] = child_nb; }
    int panel_split(starpu_data_handle_t block) const {
        const auto found = panel_split_.find(block);
        return found == panel_split_.end() ? 0 : found->second;
    }
    void runtime_ending() override {
        release();
        enlisted_ = false;  // a later Runtime enlists it again on first use
    }

private:
    void release();
    int64_t count_;
    std::vector<int> owned_;
    int* data_;
    int nb_ = 0;
    std::vector<starpu_data_handle_t> blocks_;
    // The plans of sub-blocks, in the order they were made (a block's before its
    // sub-blocks'): cleaned in reverse, bottom-up, as StarPU requires.
    struct Plan {
        starpu_data_handle_t parent;
        uint32_t nb;
        std::vector<starpu_data_handle_t> children;
    };
    std::deque<Plan> plans_;  // a deque: the blocks handed out stay where they are
    std::unordered_map<starpu_data_handle_t, int> panel_split_;
    bool enlisted_ = false;
};

struct PivotAccess {
    static PivotStorage& storage(const Pivots& p) { return *p.storage_; }
};

}  // namespace grain::detail
