// Where grain pins a matrix for GPU transfers: one range per tile column, each tile
// inside its column's range, or nothing (the whole array pinned) when a column would not
// start on a page. And the pins as tasks (column_pins.hpp), with real data on the cores:
// hooks stand for cudaHostRegister, which a machine without GPUs cannot call.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "common.hpp"
#include "src/base/pin_ranges.hpp"
#include "src/starpu/column_pins.hpp"

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

namespace grain::test {
namespace {

// What the hooks saw. A pin finds its range as the call found it (`before`, a copy of the
// array `watched`) unless a task wrote it first; it takes a few ms, so that a task not
// ordered after it would run first.
struct PinLog {
    std::mutex mutex;
    const double* watched = nullptr;
    const double* before = nullptr;
    size_t watched_bytes = 0;
    std::vector<std::pair<uintptr_t, size_t>> pins, unpins;
    std::vector<std::pair<double, double>> times;  // of each pin, us
    int written_before_pin = 0;
};
PinLog pin_log;

bool logged_pin(void* address, size_t bytes) {
    const double start = starpu_timing_now();
    const auto* p = static_cast<const char*>(address);
    const auto* w = reinterpret_cast<const char*>(pin_log.watched);
    const bool inside = w && p >= w && p + bytes <= w + pin_log.watched_bytes;
    const bool changed =
        inside && std::memcmp(p, reinterpret_cast<const char*>(pin_log.before) + (p - w), bytes) != 0;
    starpu_usleep(2000);
    std::lock_guard<std::mutex> lock(pin_log.mutex);
    pin_log.pins.emplace_back(uintptr_t(address), bytes);
    pin_log.times.emplace_back(start, starpu_timing_now());
    pin_log.written_before_pin += changed;
    return true;
}

void logged_unpin(void* address, size_t bytes) {
    std::lock_guard<std::mutex> lock(pin_log.mutex);
    pin_log.unpins.emplace_back(uintptr_t(address), bytes);
}

// Pinning through the hooks for the test's duration.
class PinTasks : public ::testing::Test {
protected:
    void SetUp() override {
        pin_log.pins.clear(), pin_log.unpins.clear(), pin_log.times.clear();
        pin_log.written_before_pin = 0;
        pin_log.watched = pin_log.before = nullptr;
        detail::set_pin_hooks(&hooks_);
    }
    void TearDown() override {
        detail::set_pin_hooks(nullptr);
        test_runtime().set_nancheck(true);
    }

private:
    detail::PinHooks hooks_{logged_pin, logged_unpin};
};

// The ranges pinned, in order, are the array's tile columns, each once; none overlaps
// another in time; all are unpinned once the views are gone.
void expect_columns(const Array<double>& A, int nb) {
    const int nt = int((A.n + nb - 1) / nb);
    const auto ranges = detail::column_pin_ranges(uintptr_t(A.data()), size_t(A.m * A.n) * sizeof(double),
                                                  size_t(nb * A.m) * sizeof(double), nt, 4096);
    ASSERT_EQ(ranges.size(), size_t(nt));
    std::vector<std::pair<uintptr_t, size_t>> expected;
    for (const auto& r : ranges) expected.emplace_back(r.address, r.bytes);
    EXPECT_EQ(pin_log.pins, expected);
    auto unpinned = pin_log.unpins;
    std::sort(unpinned.begin(), unpinned.end());
    EXPECT_EQ(unpinned, expected);
    for (size_t k = 1; k < pin_log.times.size(); ++k)
        EXPECT_GE(pin_log.times[k].first, pin_log.times[k - 1].second) << "pins " << k - 1 << " and " << k << " overlap";
}

// Every column is pinned before any task writes it (a potrf writes all of them), with and
// without the NaN scan, which reads the columns before their pins; the factor is right.
TEST_F(PinTasks, EachColumnIsPinnedOnceBeforeAnyTaskWritesIt) {
    // 16 tile columns of 500 KiB (125 pages), the last narrower; 16 tiles a column: more
    // than STARPU_NMAXBUFS, so the pin task holds them in its dynamic arrays.
    constexpr int n = 1000, tile = 64;
    for (const bool scan : {true, false}) {
        SetUp();
        test_runtime().set_nancheck(scan);
        const Array<double> A0 = random_array<double>(n, n, Kind::Spd, rng());
        Array<double> A = A0;
        pin_log.watched = A.data(), pin_log.before = A0.data(), pin_log.watched_bytes = A.a.size() * sizeof(double);
        {
            Matrix<double> tA(n, n, tile, A.data(), A.ld());
            ASSERT_EQ(potrf(Uplo::Lower, tA), 0);
        }
        EXPECT_EQ(pin_log.written_before_pin, 0) << "scan " << scan;
        expect_columns(A, tile);
        EXPECT_LT(testing::factor_residual(A0, testing::cholesky_product(Uplo::Lower, A)), 60) << "scan " << scan;
    }
}

// gemm's three arrays: their pins follow one another, in the order of first use.
TEST_F(PinTasks, PinsOfSeveralMatricesRunOneAtATime) {
    constexpr int n = 600, tile = 128;  // 128 x 600 doubles: 150 pages a column
    const Array<double> A = random_array<double>(n, n, Kind::General, rng());
    const Array<double> B = random_array<double>(n, n, Kind::General, rng());
    const Array<double> C0 = random_array<double>(n, n, Kind::General, rng());
    Array<double> C = C0, ref = C0;
    {
        Matrix<double> tA(n, n, tile, const_cast<double*>(A.data()), n), tB(n, n, tile, const_cast<double*>(B.data()), n);
        Matrix<double> tC(n, n, tile, C.data(), n);
        ASSERT_EQ(gemm(Op::NoTrans, Op::NoTrans, 1.0, tA, tB, 0.5, tC), 0);
    }
    EXPECT_EQ(pin_log.pins.size(), 3u * 5u);
    EXPECT_EQ(pin_log.unpins.size(), pin_log.pins.size());
    for (size_t k = 1; k < pin_log.times.size(); ++k)
        EXPECT_GE(pin_log.times[k].first, pin_log.times[k - 1].second) << "pins " << k - 1 << " and " << k << " overlap";
    grain::blas::gemm(Op::NoTrans, Op::NoTrans, n, n, n, 1.0, A.data(), n, B.data(), n, 0.5, ref.data(), n);
    double worst = 0;
    for (size_t i = 0; i < C.a.size(); ++i) worst = std::max(worst, std::abs(C.a[i] - ref.a[i]));
    EXPECT_LT(worst, 1e-10 * n);
}

// A matrix in storage of grain's own is pinned whole when it is made, once: the routines
// on it pin nothing, and its end unpins it.
TEST_F(PinTasks, OwnStorageIsPinnedOnceWhenMade) {
    constexpr int n = 700, tile = 128;
    const Array<double> A0 = random_array<double>(n, n, Kind::Spd, rng());
    Array<double> B = random_array<double>(n, 3, Kind::General, rng());
    {
        Matrix<double> tA(n, n, tile), tB(n, 3, tile);
        ASSERT_EQ(pin_log.pins.size(), 2u);
        EXPECT_EQ(pin_log.pins[0].second, size_t(n) * n * sizeof(double));
        EXPECT_EQ(pin_log.pins[1].second, size_t(n) * 3 * sizeof(double));
        tA.from_lapack(A0.data(), n);
        tB.from_lapack(B.data(), n);
        ASSERT_EQ(posv(Uplo::Lower, tA, tB), 0);
        ASSERT_EQ(potri(Uplo::Lower, tA), 0);
        EXPECT_EQ(pin_log.pins.size(), 2u) << "a routine pinned a matrix that was pinned already";
        EXPECT_TRUE(pin_log.unpins.empty());
    }
    auto pins = pin_log.pins, unpins = pin_log.unpins;
    std::sort(pins.begin(), pins.end()), std::sort(unpins.begin(), unpins.end());
    EXPECT_EQ(unpins, pins);
}

// A caller's array in a grain::Pinned is pinned once, whole; calls on it, or on a part of
// it, pin nothing more; the Pinned's end unpins it, and calls after it pin again.
TEST_F(PinTasks, ArrayInAPinnedIsPinnedOnceForEveryCall) {
    constexpr int n = 600;
    const Array<double> A0 = random_array<double>(n, n, Kind::Spd, rng());
    Array<double> A = A0;
    {
        const Pinned pinned(A.data(), n, n, A.ld());
        ASSERT_TRUE(pinned.pinned());
        ASSERT_EQ(pin_log.pins.size(), 1u);
        EXPECT_EQ(pin_log.pins[0], std::make_pair(uintptr_t(A.data()), A.a.size() * sizeof(double)));
        ASSERT_EQ(potrf(Uplo::Lower, n, A.data(), A.ld()), 0);
        ASSERT_EQ(potri(Uplo::Lower, n, A.data(), A.ld()), 0);
        ASSERT_EQ(potrf(Uplo::Lower, n - 100, A.data() + 100 + 100 * n, A.ld()), 0);  // a part of it: SPD
        EXPECT_EQ(pin_log.pins.size(), 1u) << "a call pinned an array in a grain::Pinned";
        EXPECT_TRUE(pin_log.unpins.empty());
    }
    ASSERT_EQ(pin_log.unpins, pin_log.pins);
    A = A0;
    ASSERT_EQ(potrf(Uplo::Lower, n, A.data(), A.ld()), 0);
    EXPECT_GT(pin_log.pins.size(), 1u) << "without the Pinned, the call pins its array";
    EXPECT_THROW(Pinned(nullptr, 8), grain::invalid_argument);
}

}  // namespace
}  // namespace grain::test
