#pragma once
// Shared by the suites: precisions, a fixed-seed generator, and LAPACK-layout helpers.
#include <gtest/gtest.h>

#include <grain/grain.hpp>

#include "testing_drivers/checks.hpp"

namespace grain::test {

using grain::testing::Array;
using grain::testing::Kind;
using grain::testing::random_array;
using grain::testing::tiles_of;

using Precisions = ::testing::Types<float, double>;

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

// Tile size for the suites: small, so that small matrices have many tiles.
constexpr int nb = 16;

}  // namespace grain::test
