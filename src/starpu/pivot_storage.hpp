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
    // The same blocks for a distributed call, block b owned by rank owners[b] (the rank of
    // its panel): registered with StarPU-MPI, at home in the indices on their owner and
    // nowhere on the others, which receive them where a task needs them (and every block
    // at the end of a factorization, into their indices: mpi_pivots_everywhere). Kept while
    // nb and the owners stay; made anew otherwise, with new tags (every rank at the same
    // point of a call, after its agreement).
    const std::vector<starpu_data_handle_t>& distribute(int nb, const std::vector<int>& owners);
    // Whether block b's home is here (false: another rank owns it in a distributed call).
    bool home_here(size_t b) const { return owners_.empty() || owners_[b] == rank_; }
    // Where block b's indices are.
    int* block_data(size_t b) { return data_ + int64_t(b) * nb_; }
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
    const std::vector<starpu_data_handle_t>& register_blocks(int nb, const std::vector<int>& owners);
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
    std::vector<int> owners_;  // per block, in a distributed call; empty otherwise
    int rank_ = 0;             // this process's, when owners_ were set
    bool enlisted_ = false;
};

struct PivotAccess {
    static PivotStorage& storage(const Pivots& p) { return *p.storage_; }
};

}  // namespace grain::detail
