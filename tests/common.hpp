#pragma once
// Shared by the suites: precisions, a fixed-seed generator, and LAPACK-layout helpers.
#include <gtest/gtest.h>

#include <grain/grain.hpp>

#include <cstdlib>
#include <vector>

#ifdef GRAIN_USE_CUDA
#include <cuda_runtime.h>
#endif

#include "testing_drivers/checks.hpp"

namespace grain::test {

using grain::testing::Array;
using grain::testing::Kind;
using grain::testing::random_array;
using grain::testing::tiles_of;

using Precisions = ::testing::Types<float, double>;

// The suite's Runtime (tests/main.cpp).
grain::Runtime& test_runtime();

inline testing::Random& rng() {
    static testing::Random generator(2026);
    return generator;
}

template <typename T>
Array<T> to_array(const grain::Matrix<T>& A) {
    Array<T> x(A.m(), A.n());
    A.to_lapack(x.data(), x.ld());
    return x;
}

// Tile size for tests that rely on the tile geometry: small, so that small
// matrices have many tiles.
constexpr int nb = 16;

// The ladder of tile scales most tests use: GRAIN_TEST_SCALES (e.g. "32,16,8"), else
// {nb}. ctest runs the suites under several ladders and split policies (GRAIN_SPLIT).
inline const std::vector<int>& scales() {
    static const std::vector<int> ladder = [] {
        std::vector<int> values;
        const char* text = std::getenv("GRAIN_TEST_SCALES");
        for (const char* p = text ? text : ""; *p;) {
            char* end = nullptr;
            values.push_back(int(std::strtol(p, &end, 10)));
            p = *end == ',' ? end + 1 : end;
            if (end == p && *p) break;
        }
        return values.empty() ? std::vector<int>{nb} : values;
    }();
    return ladder;
}

// GPUs this process can use (0 in a build without CUDA kernels).
inline int visible_gpus() {
#ifdef GRAIN_USE_CUDA
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
#else
    return 0;
#endif
}

}  // namespace grain::test
