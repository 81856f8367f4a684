#pragma once
// grain::Pinned: a caller's array kept pinned (page-locked and registered with the GPUs'
// driver) across routine calls.
#include <cstddef>
#include <cstdint>

namespace grain {

/// Pins [address, address + bytes) for the object's life, so that transfers between the
/// array and the GPUs run at the link's speed and LAPACK-layout calls on it (or on any
/// part of it) pin nothing themselves; without it each such call pins its arrays inside
/// its own time. A Runtime must be alive. Under a Runtime without GPUs it pins nothing
/// (pinned() is false); so it does where the driver refuses, e.g. memory the caller
/// registered with cudaHostRegister already, which serves as well. The Runtime's end
/// unpins what is still pinned: destroy the Pinned first, or know that it pins no more.
class Pinned {
public:
    Pinned(const void* address, std::size_t bytes);
    /// The m x n column-major array a with leading dimension lda.
    template <typename T>
    Pinned(const T* a, std::int64_t m, std::int64_t n, std::int64_t lda)
        : Pinned(a, n > 0 && m > 0 ? (std::size_t(lda) * std::size_t(n - 1) + std::size_t(m)) * sizeof(T) : 0) {}
    ~Pinned();
    Pinned(const Pinned&) = delete;
    Pinned& operator=(const Pinned&) = delete;

    bool pinned() const { return key_ != 0; }

private:
    int key_ = 0;
};

}  // namespace grain
