#pragma once
// One step of FNV-1a over 64-bit words: the fingerprints that processes compare to check
// that they agree (a call's arguments, a matrix's placement of tiles).
#include <cstdint>

namespace grain::detail {

inline uint64_t fingerprint_step(uint64_t fingerprint, uint64_t word) {
    return (fingerprint ^ word) * 1099511628211u;
}

}  // namespace grain::detail
