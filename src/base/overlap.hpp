#pragma once
// Whether two column-major blocks of memory share a byte, decided exactly: two blocks
// of one array whose address ranges interleave (A12 and A22 of one matrix) share none.
#include <algorithm>
#include <cstdint>

namespace grain::detail {

// rows x cols elements of `elemsize` bytes at `address`, columns `ld` elements apart.
struct Block {
    std::uintptr_t address;
    int64_t rows, cols, ld, elemsize;
};

// floor(a / b) for b > 0.
constexpr int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); }

// Each column of `y` is one byte interval; it meets `x` if a column of `x` starts
// before its end and ends after its start. O(y.cols): the caller passes the block with
// fewer columns as `y`. Byte offsets fit in int64_t: matrix.cpp bounds every block's span.
inline bool share_a_byte(const Block& x, const Block& y) {
    if (x.rows == 0 || x.cols == 0 || y.rows == 0 || y.cols == 0) return false;
    const int64_t stride = x.ld * x.elemsize, length = x.rows * x.elemsize;
    const int64_t offset = int64_t(y.address - x.address);  // y's start from x's, wraps to negative
    for (int64_t l = 0; l < y.cols; ++l) {
        const int64_t begin = offset + l * y.ld * y.elemsize, end = begin + y.rows * y.elemsize;
        // Columns j of x with j * stride < end and j * stride + length > begin.
        const int64_t first = std::max<int64_t>(0, floor_div(begin - length, stride) + 1);
        const int64_t last = std::min<int64_t>(x.cols - 1, floor_div(end - 1, stride));
        if (first <= last) return true;
    }
    return false;
}

inline bool overlap(const Block& a, const Block& b) { return a.cols <= b.cols ? share_a_byte(b, a) : share_a_byte(a, b); }

}  // namespace grain::detail
