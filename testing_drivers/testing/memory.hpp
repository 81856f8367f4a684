#pragma once
// Whether a command line's cases fit in host memory, checked before anything is allocated.
#include <cstdint>
#include <string>
#include <vector>

#include "testing_drivers/testing/options.hpp"
#include "testing_drivers/testing/runners.hpp"

namespace grain::testing::driver {

struct Memory {
    uint64_t bytes;
    std::string source;  // where the count comes from, for messages
};

// The host memory a run may take: MemAvailable of /proc/meminfo (what Linux estimates it
// can hand out without swapping: free memory and the caches it can drop), else, without
// it, the physical memory (sysconf).
Memory available_memory();

// usage_error for the first of the cases whose host_bytes exceed `memory`, saying how many
// bytes it needs.
void check_memory(const Options& options, const std::vector<Case>& cases, const Memory& memory);

}  // namespace grain::testing::driver
