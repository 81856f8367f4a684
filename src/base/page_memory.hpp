#pragma once
// Memory for a large matrix: page-aligned, so that grain can pin it tile column by tile
// column (pin_ranges.hpp), and from 2 MiB on aligned to and advised for the kernel's huge
// pages where it has them: 512 times fewer pages to fault in and to pin. Freed by free().
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>

namespace grain::detail {

constexpr std::size_t huge_page_bytes = std::size_t(2) << 20;

// At least `bytes` (rounded up to the alignment), or nullptr.
inline void* allocate_pages(std::size_t bytes) {
    const std::size_t align = bytes >= huge_page_bytes ? huge_page_bytes : std::size_t(sysconf(_SC_PAGESIZE));
    const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + align - 1) / align * align;
    void* memory = std::aligned_alloc(align, rounded);
    if (memory && align == huge_page_bytes) madvise(memory, rounded, MADV_HUGEPAGE);
    return memory;
}

}  // namespace grain::detail
