#pragma once
// Task counts per operation and level, as the recursion layer sees them live.
#include <cstdint>
#include <string>
#include <vector>

namespace grain {

struct TaskCounts {
    int64_t submitted = 0;  // tile tasks the algorithms submitted (split or not)
    int64_t split = 0;      // of which split into sub-tile tasks
    int64_t ready = 0;      // kernels whose inputs became ready
    int64_t started = 0;    // kernels a worker started
    int64_t finished = 0;   // kernels that ran to completion
};

struct Statistics {
    std::vector<std::string> operations;        // e.g. "gemm", "potrf"
    std::vector<std::vector<TaskCounts>> counts;  // [operation][level]

    int levels() const { return counts.empty() ? 0 : int(counts[0].size()); }
    // One operation (by name) at one level; all operations with an empty name.
    TaskCounts at(const std::string& operation, int level) const;
};

}  // namespace grain
