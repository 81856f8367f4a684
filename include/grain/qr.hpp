#pragma once
// grain::QrFactors: the triangular factors T of the block reflectors of a tile QR
// (grain::geqrf), which unmqr and gels read with the reflectors left in A, as Chameleon's
// descT. A tile QR's Q is a product of one block reflector per tile operation, each with
// its own T: not LAPACK's representation (one T per panel of the whole matrix).
//
// Like a Matrix, a QrFactors object is what a chain of asynchronous calls shares
// (geqrf_async, then unmqr_async with no wait between them). geqrf sizes it for its A;
// copies share the same factors. Its tree is the order in which each step's tiles are
// eliminated, which unmqr replays.
#include <complex>
#include <cstdint>
#include <memory>

namespace grain {

namespace detail {
template <typename T>
class QrStorage;
struct QrAccess;
}

/// How the tiles of a column are eliminated at each step: `Flat`, one after another
/// against the diagonal tile (the fewest tasks, one chain); `Binary`, in domains of
/// `domain` consecutive tiles, each eliminated flat against its first, then their
/// triangles combined pairwise in log2(domains) rounds (domains side by side: the
/// parallelism tall and skinny matrices need; domain 1, every tile factored on its own).
/// `Auto` (the default) chooses when geqrf runs: flat where the matrix has at least two
/// tile columns per worker, whose updates keep the workers busy beside the panels; else
/// binary over two domains per worker.
enum class QrTree : char { Flat = 'F', Binary = 'B', Auto = 'A' };

template <typename T>
class QrFactors {
public:
    explicit QrFactors(QrTree tree = QrTree::Auto, int domain = 1);
    QrTree tree() const;
    int domain() const;

private:
    friend struct detail::QrAccess;
    std::shared_ptr<detail::QrStorage<T>> storage_;
};

extern template class QrFactors<float>;
extern template class QrFactors<double>;
extern template class QrFactors<std::complex<float>>;
extern template class QrFactors<std::complex<double>>;

}  // namespace grain
