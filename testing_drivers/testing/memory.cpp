#include "testing_drivers/testing/memory.hpp"

#include <unistd.h>

#include <fstream>
#include <limits>
#include <sstream>

namespace grain::testing::driver {

Memory available_memory() {
    std::ifstream meminfo("/proc/meminfo");
    for (std::string line; std::getline(meminfo, line);) {
        std::istringstream fields(line);
        std::string name, unit;
        uint64_t kib = 0;
        if (fields >> name >> kib >> unit && name == "MemAvailable:" && unit == "kB")
            return {kib > std::numeric_limits<uint64_t>::max() / 1024 ? std::numeric_limits<uint64_t>::max() : kib * 1024,
                    "MemAvailable in /proc/meminfo"};
    }
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    uint64_t bytes = 0;
    if (pages <= 0 || page <= 0 || __builtin_mul_overflow(uint64_t(pages), uint64_t(page), &bytes))
        bytes = std::numeric_limits<uint64_t>::max();  // unknown: refuse nothing
    return {bytes, "the physical memory (sysconf)"};
}

void check_memory(const Options& options, const std::vector<Case>& cases, const Memory& memory) {
    for (const Case& c : cases) {
        const uint64_t bytes = host_bytes(options, c);
        if (bytes <= memory.bytes && bytes != std::numeric_limits<uint64_t>::max()) continue;
        std::string what = options.op + " " + c.precision + " m=" + std::to_string(c.m) + " n=" + std::to_string(c.n);
        if (c.k > 0) what += " k=" + std::to_string(c.k);
        if (c.nrhs > 0) what += " nrhs=" + std::to_string(c.nrhs);
        const std::string needed = bytes == std::numeric_limits<uint64_t>::max()
                                       ? "more than 2^64 bytes"
                                       : std::to_string(bytes) + " bytes";
        throw usage_error(what + ": needs " + needed + " of host memory" +
                          (options.check || options.vendor ? " (with the copies of --check and --vendor)" : "") +
                          ", more than the " + std::to_string(memory.bytes) + " bytes available (" + memory.source +
                          ")");
    }
}

}  // namespace grain::testing::driver
