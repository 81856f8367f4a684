// Where grain pins a matrix for GPU transfers: one range per tile column, each tile
// inside its column's range, or nothing (the whole array pinned) when a column would not
// start on a page.
#include <gtest/gtest.h>

#include <cstdint>

#include "src/base/pin_ranges.hpp"

using grain::detail::column_pin_ranges;

namespace {

constexpr std::size_t page = 4096;

// Every tile of an m x n column-major array (leading dimension lda, tiles nb) lies in
// the range of its tile column, and the ranges are disjoint, in order and cover the array.
void expect_tiles_inside(std::uintptr_t base, int64_t m, int64_t n, int64_t lda, int64_t nb, std::size_t elem) {
    const int nt = int((n + nb - 1) / nb), mt = int((m + nb - 1) / nb);
    const std::size_t bytes = std::size_t((n - 1) * lda + m) * elem;
    const auto ranges = column_pin_ranges(base, bytes, std::size_t(nb * lda) * elem, nt, page);
    ASSERT_EQ(ranges.size(), std::size_t(nt)) << "m " << m << " n " << n << " lda " << lda << " nb " << nb;
    EXPECT_EQ(ranges.front().address, base);
    EXPECT_EQ(ranges.back().address + ranges.back().bytes, base + bytes);
    for (int j = 0; j < nt; ++j) {
        EXPECT_EQ(ranges[std::size_t(j)].address % page, 0u);
        if (j > 0) {
            const auto& previous = ranges[std::size_t(j - 1)];
            EXPECT_EQ(previous.address + previous.bytes, ranges[std::size_t(j)].address);
        }
        const int64_t cols = std::min(nb, n - j * nb);
        for (int i = 0; i < mt; ++i) {
            const int64_t rows = std::min(nb, m - i * nb);
            const std::uintptr_t first = base + std::size_t(i * nb + j * nb * lda) * elem;
            const std::uintptr_t end = first + std::size_t((cols - 1) * lda + rows) * elem;
            EXPECT_GE(first, ranges[std::size_t(j)].address);
            EXPECT_LE(end, ranges[std::size_t(j)].address + ranges[std::size_t(j)].bytes) << "tile " << i << "," << j;
        }
    }
}

}  // namespace

TEST(Pinning, EachTileLiesInItsColumnsRange) {
    const std::uintptr_t base = std::uintptr_t(1) << 30;  // page- and huge-page-aligned
    expect_tiles_inside(base, 16384, 16384, 16384, 4096, 8);
    expect_tiles_inside(base, 1000, 1500, 1024, 512, 8);    // edges, lda > m
    expect_tiles_inside(base, 4097, 5000, 4608, 1024, 16);  // complex, last column narrower
    expect_tiles_inside(base, 512, 2048, 512, 256, 4);      // float: 256 * 512 * 4 bytes a column
}

TEST(Pinning, WholeArrayWhenAColumnWouldNotStartOnAPage) {
    const std::uintptr_t base = std::uintptr_t(1) << 30;
    // malloc's large blocks start 16 bytes into a page.
    EXPECT_TRUE(column_pin_ranges(base + 16, 1 << 26, 1 << 24, 4, page).empty());
    // 256 columns of 999 doubles: 2045952 bytes, not a multiple of 4096.
    EXPECT_TRUE(column_pin_ranges(base, 999 * 1000 * 8, 256 * 999 * 8, 4, page).empty());
    // One tile column: nothing to pipeline.
    EXPECT_TRUE(column_pin_ranges(base, 1 << 20, 1 << 20, 1, page).empty());
    // The columns do not fit in the bytes given: a caller's mistake, not ranges.
    EXPECT_TRUE(column_pin_ranges(base, 1 << 20, 1 << 20, 2, page).empty());
    EXPECT_EQ(column_pin_ranges(base, (1 << 20) + 8, 1 << 20, 2, page).size(), 2u);
}
