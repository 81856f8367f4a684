#pragma once
// Where a matrix's memory is pinned for GPU transfers, one range per tile column, so that a
// routine pins each column when its first task is submitted and the GPU starts on the first
// columns while the next are pinned (cudaHostRegister is slower than the link to the GPU,
// so pinning the whole matrix first delays every transfer;
// doc/results/2026-11-28-h200-loan.md).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace grain::detail {

struct PinRange {
    std::uintptr_t address;
    std::size_t bytes;
};

// The ranges of `columns` tile columns, `stride` bytes apart from `base`, the last ending at
// base + bytes; empty when a column would not start on a page (base or stride not multiples
// of `page`): CUDA pins whole pages, so two ranges sharing one could not both be pinned,
// and a tile across two registrations is untested (the caller pins the whole array then).
inline std::vector<PinRange> column_pin_ranges(std::uintptr_t base, std::size_t bytes, std::size_t stride,
                                               int columns, std::size_t page) {
    if (columns < 2 || page == 0 || stride == 0 || base % page != 0 || stride % page != 0) return {};
    if (stride * std::size_t(columns - 1) >= bytes) return {};
    std::vector<PinRange> ranges(static_cast<std::size_t>(columns));
    for (int j = 0; j < columns; ++j) {
        const std::size_t begin = stride * std::size_t(j);
        const std::size_t end = j + 1 < columns ? begin + stride : bytes;
        ranges[std::size_t(j)] = {base + begin, end - begin};
    }
    return ranges;
}

}  // namespace grain::detail
