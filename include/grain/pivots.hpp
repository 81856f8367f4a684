#pragma once
// grain::Pivots: the row interchanges of an LU factorization with partial pivoting
// (grain::getrf), as LAPACK's ipiv: min(m, n) indices, 1-based and global to the factored
// matrix; row i was interchanged with row ipiv[i].
//
// Like a Matrix, a Pivots object is what a chain of asynchronous calls shares
// (getrf_async, then getrs_async with no wait between them): the routines track its
// blocks as data, so a solve reads each block once the factorization wrote it. Read the
// indices once the request that wrote them has ended. The storage is its own or a user's
// array, used in place, which must outlive it. Copies share the same indices.
#include <cstdint>
#include <memory>

namespace grain {

namespace detail {
class PivotStorage;
struct PivotAccess;
}

class Pivots {
public:
    /// count indices in storage of its own (zero-filled).
    explicit Pivots(int64_t count);
    /// count indices in a user's array.
    Pivots(int64_t count, int* ipiv);

    int64_t size() const;
    /// The indices; where a GPU wrote them, this brings them to host memory first (and
    /// waits for the tasks writing them).
    const int* data() const;

private:
    friend struct detail::PivotAccess;
    std::shared_ptr<detail::PivotStorage> storage_;
};

}  // namespace grain
