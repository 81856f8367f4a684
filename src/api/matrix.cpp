#include "grain/matrix.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>

#include "checks.hpp"
#include "grain/errors.hpp"
#include "grain/routines.hpp"
#include "src/base/constants.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/base/simulation.hpp"
#include "src/starpu/distributed.hpp"
#include "src/starpu/matrix_access.hpp"

namespace grain {

namespace {

std::string text(const std::vector<int>& scales) {
    std::string t;
    for (int s : scales) t += (t.empty() ? "" : ",") + std::to_string(s);
    return t;
}

// a * b, or none if it overflows int64_t.
std::optional<int64_t> product(int64_t a, int64_t b) {
    int64_t p = 0;
    if (__builtin_mul_overflow(a, b, &p)) return std::nullopt;
    return p;
}

void check_lda(const char* routine, const char* name, int64_t lda, int64_t m) {
    if (lda < std::max<int64_t>(1, m))
        throw invalid_argument(routine, name, std::to_string(lda),
                               "must be >= max(1, m) = " + std::to_string(std::max<int64_t>(1, m)));
    if (lda > std::numeric_limits<uint32_t>::max())
        throw invalid_argument(routine, name, std::to_string(lda),
                               "exceeds StarPU's 32-bit leading dimension (at most 2^32 - 1)");
}

// Every size product a matrix's storage and its StarPU tiles need, checked: an
// m x n matrix over `elements` elements of `elemsize` bytes each (lda == 0: storage of
// its own, m * n; else a user's array, lda * (n - 1) + m).
void check_dimensions(const char* routine, int64_t m, int64_t n, const std::vector<int>& scales, int64_t lda,
                      size_t elemsize) {
    if (m < 0) throw invalid_argument(routine, "m", std::to_string(m), "must be >= 0");
    if (n < 0) throw invalid_argument(routine, "n", std::to_string(n), "must be >= 0");
    if (scales.size() == 1 && scales[0] <= 0)
        throw invalid_argument(routine, "nb", std::to_string(scales[0]), "must be > 0");
    if (const std::string why = detail::ladder_problem(scales); !why.empty())
        throw invalid_argument(routine, "scales", text(scales), why);
    const int nb = scales[0];
    if (nb > detail::max_tile_size)
        throw invalid_argument(routine, scales.size() == 1 ? "nb" : "scales", text(scales),
                               "a tile is at most " + std::to_string(detail::max_tile_size) +
                                   " x " + std::to_string(detail::max_tile_size) +
                                   " (StarPU 1.3 counts a tile's elements in 32 bits)");
    const int64_t mt = m / nb + (m % nb != 0), nt = n / nb + (n % nb != 0);
    const auto tiles = product(mt, nt);
    if (!tiles || *tiles > detail::max_tiles)
        throw invalid_argument(routine, scales.size() == 1 ? "nb" : "scales", text(scales),
                               "an " + std::to_string(m) + " x " + std::to_string(n) + " matrix would have " +
                                   std::to_string(mt) + " x " + std::to_string(nt) + " tiles; at most " +
                                   std::to_string(detail::max_tiles) + " (2^31 - 1) are allowed");
    if (m == 0 || n == 0) return;
    const auto elements = lda == 0 ? product(m, n) : product(lda, n - 1);
    const int64_t last = lda == 0 ? 0 : m;
    const auto bytes = elements && *elements <= std::numeric_limits<int64_t>::max() - last
                           ? product(*elements + last, int64_t(elemsize))
                           : std::nullopt;
    if (!bytes)
        throw invalid_argument(routine, lda == 0 ? "m * n" : "lda * (n - 1) + m",
                               lda == 0 ? std::to_string(m) + " * " + std::to_string(n)
                                        : std::to_string(lda) + " * " + std::to_string(n - 1) + " + " +
                                              std::to_string(m),
                               "the matrix would span more than 2^63 bytes");
}

// A collective check of each process's array (`check` throws grain::invalid_argument
// where it is bad): the processes agree first, so that none waits for one that threw; the
// bad ones throw their error, the others a runtime_error.
void agree_on_array(const char* routine, const std::function<void()>& check) {
    bool ok = true;
    try {
        check();
    } catch (const invalid_argument&) {
        ok = false;
    }
    bool same = true;
    if (detail::mpi::agree(ok, 0, same)) return;
    if (!ok) check();
    throw runtime_error(std::string(routine) + ": another process refused its array");
}

// Copies each tile between the matrix and a column-major array. Registered tiles
// are acquired first, so the copy sees (or replaces) their current contents.
template <typename T, typename CopyTile>
void for_each_tile(const Matrix<T>& A, enum starpu_data_access_mode mode, CopyTile copy) {
    using detail::MatrixAccess;
    detail::TileStorage<T>& s = MatrixAccess::storage(A);
    // Simulated: no storage of its own, no values; the acquires still bring the tiles home.
    const bool values = !detail::simulated || s.over_user_array();
    for (int j = 0; j < A.nt(); ++j) {
        for (int i = 0; i < A.mt(); ++i) {
            const int si = MatrixAccess::first_tile_row(A) + i, sj = MatrixAccess::first_tile_col(A) + j;
            if (!s.is_local(si, sj)) continue;  // another process's
            starpu_data_handle_t h = s.handle(si, sj);
            if (h) starpu_data_acquire(h, mode);
            if (values) copy(i, j, s.tile_data(si, sj), s.tile_ld(si));
            if (h) starpu_data_release(h);
        }
    }
}

}  // namespace

template <typename T>
Matrix<T>::Matrix(int64_t m, int64_t n, Workload workload)
    : Matrix(m, n, automatic_scales<T>(workload, std::max<int64_t>({m, n, 0}))) {}

template <typename T>
Matrix<T>::Matrix(int64_t m, int64_t n, int nb) : Matrix(m, n, std::vector<int>{nb}) {}

template <typename T>
Matrix<T>::Matrix(int64_t m, int64_t n, std::vector<int> scales) {
    check_dimensions("grain::Matrix", m, n, scales, 0, sizeof(T));
    storage_ = std::make_shared<detail::TileStorage<T>>(m, n, std::move(scales));
    m_ = m, n_ = n, nb_ = storage_->nb(), mt_ = storage_->mt(), nt_ = storage_->nt();
}

template <typename T>
Matrix<T>::Matrix(int64_t m, int64_t n, int nb, T* a, int64_t lda) : Matrix(m, n, std::vector<int>{nb}, a, lda) {}

template <typename T>
Matrix<T>::Matrix(int64_t m, int64_t n, std::vector<int> scales, T* a, int64_t lda) {
    check_lda("grain::Matrix", "lda", lda, m);
    check_dimensions("grain::Matrix", m, n, scales, lda, sizeof(T));
    if (a == nullptr && m > 0 && n > 0)
        throw invalid_argument("grain::Matrix", "a", "nullptr", "must point to the matrix");
    storage_ = std::make_shared<detail::TileStorage<T>>(m, n, std::move(scales), a, lda);
    m_ = m, n_ = n, nb_ = storage_->nb(), mt_ = storage_->mt(), nt_ = storage_->nt();
}

template <typename T>
Matrix<T>::Matrix(int64_t m, int64_t n, int nb, const Distribution& distribution)
    : Matrix(m, n, std::vector<int>{nb}, distribution) {}

template <typename T>
Matrix<T>::Matrix(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution)
    : Matrix(m, n, std::move(scales), distribution, nullptr) {}

template <typename T>
Matrix<T>::Matrix(int64_t m, int64_t n, std::vector<int> scales, const Distribution& distribution,
                  const std::function<T*(int64_t i, int64_t j)>& local_tile) {
    check_dimensions("grain::Matrix", m, n, scales, 0, sizeof(T));
    if (distribution.ranks() != detail::mpi::ranks())
        throw invalid_argument("grain::Matrix", "distribution.ranks()", std::to_string(distribution.ranks()),
                               "must equal the processes of the run, " + std::to_string(detail::mpi::ranks()) +
                                   " (under mpirun, create the grain::Runtime first)");
    storage_ = std::make_shared<detail::TileStorage<T>>(m, n, std::move(scales), distribution, local_tile);
    m_ = m, n_ = n, nb_ = storage_->nb(), mt_ = storage_->mt(), nt_ = storage_->nt();
}

template <typename T>
bool Matrix<T>::distributed() const { return storage_->distributed() && detail::mpi::active(); }

template <typename T>
int Matrix<T>::tile_rank(int i, int j) const { return storage_->owner(i0_ + i, j0_ + j); }

template <typename T>
Matrix<T>::Matrix(detail::TileStorage<T>& grid)
    : storage_(&grid, [](detail::TileStorage<T>*) {}),  // owned by its parent grid
      m_(grid.m()), n_(grid.n()), nb_(grid.nb()), mt_(grid.mt()), nt_(grid.nt()) {}

template <typename T>
const std::vector<int>& Matrix<T>::scales() const { return storage_->scales(); }

template <typename T>
int Matrix<T>::level() const { return storage_->level(); }

template <typename T>
int Matrix<T>::tile_rows(int i) const { return storage_->tile_rows(i0_ + i); }

template <typename T>
int Matrix<T>::tile_cols(int j) const { return storage_->tile_cols(j0_ + j); }

template <typename T>
void Matrix<T>::from_lapack(const T* a, int64_t lda) {
    check_lda("grain::Matrix::from_lapack", "lda", lda, m_);
    for_each_tile(*this, STARPU_W, [&](int i, int j, T* tile, int64_t ld) {
        const T* source = a + int64_t(i) * nb_ + int64_t(j) * nb_ * lda;
        if (source == tile && ld == lda) return;  // the matrix wraps this very array
        for (int c = 0; c < tile_cols(j); ++c)
            std::memcpy(tile + c * ld, source + c * lda, sizeof(T) * size_t(tile_rows(i)));
    });
}

template <typename T>
void Matrix<T>::to_lapack(T* a, int64_t lda) const {
    if (distributed()) {
        agree_on_array("grain::Matrix::to_lapack", [&] { check_lda("grain::Matrix::to_lapack", "lda", lda, m_); });
        // Every tile to every process (StarPU-MPI sends each once), then the copies go.
        detail::TileStorage<T>& s = *storage_;
        for (int j = 0; j < nt_; ++j)
            for (int i = 0; i < mt_; ++i) detail::mpi::bring_everywhere(s.use(i0_ + i, j0_ + j));
        for (int j = 0; j < nt_; ++j)
            for (int i = 0; i < mt_; ++i) {
                starpu_data_handle_t h = s.use(i0_ + i, j0_ + j);
                starpu_data_acquire(h, STARPU_R);
                const T* tile = reinterpret_cast<const T*>(starpu_matrix_get_local_ptr(h));
                const int64_t ld = starpu_matrix_get_local_ld(h);
                T* target = a + int64_t(i) * nb_ + int64_t(j) * nb_ * lda;
                if (!detail::simulated)  // simulated: no values (for_each_tile)
                    for (int c = 0; c < tile_cols(j); ++c)
                        std::memcpy(target + c * lda, tile + c * ld, sizeof(T) * size_t(tile_rows(i)));
                starpu_data_release(h);
            }
        detail::mpi::flush_received();
        return;
    }
    check_lda("grain::Matrix::to_lapack", "lda", lda, m_);
    for_each_tile(*this, STARPU_R, [&](int i, int j, const T* tile, int64_t ld) {
        T* target = a + int64_t(i) * nb_ + int64_t(j) * nb_ * lda;
        if (target == tile && ld == lda) return;
        for (int c = 0; c < tile_cols(j); ++c)
            std::memcpy(target + c * lda, tile + c * ld, sizeof(T) * size_t(tile_rows(i)));
    });
}

namespace {

// Scatter and gather: every process walks the tiles in one order; the root sends (or
// receives) each tile another process owns, which that process receives (or sends) in
// the same order, so every message is awaited by exactly one call. The processes first
// agree that root's array is valid, so that none waits for a root that threw.
template <typename T, typename Move>
void move_tiles(const char* routine, const Matrix<T>& A, int root, int64_t lda, enum starpu_data_access_mode mode,
                Move move) {
    const int me = detail::mpi::rank(), ranks = detail::mpi::ranks();
    if (root < 0 || root >= ranks)
        throw invalid_argument(routine, "root", std::to_string(root), "must be in [0, " + std::to_string(ranks) + ")");
    agree_on_array(routine, [&] {
        if (me == root) check_lda(routine, "lda", lda, A.m());
    });
    detail::TileStorage<T>& s = detail::MatrixAccess::storage(A);
    const int i0 = detail::MatrixAccess::first_tile_row(A), j0 = detail::MatrixAccess::first_tile_col(A);
    std::vector<T> buffer;
    for (int j = 0; j < A.nt(); ++j)
        for (int i = 0; i < A.mt(); ++i) {
            const int owner = s.owner(i0 + i, j0 + j);
            if (me != root && owner != me) continue;
            const size_t elements = size_t(A.tile_rows(i)) * size_t(A.tile_cols(j));
            const int64_t offset = int64_t(i) * A.nb() + int64_t(j) * A.nb() * lda;  // in root's array
            if (owner == me) {
                starpu_data_handle_t h = s.use(i0 + i, j0 + j);
                starpu_data_acquire(h, mode);
                move(i, j, s.tile_data(i0 + i, j0 + j), s.tile_ld(i0 + i), offset, elements, owner);
                starpu_data_release(h);
            } else {
                buffer.resize(elements);
                move(i, j, buffer.data(), int64_t(A.tile_rows(i)), offset, elements, owner);
            }
        }
}

}  // namespace

template <typename T>
void Matrix<T>::scatter_from(int root, const T* a, int64_t lda) {
    const int me = detail::mpi::rank();
    if (!distributed()) {  // each process's own matrix: root's array is its
        if (me == root) from_lapack(a, lda);
        return;
    }
    move_tiles("grain::Matrix::scatter_from", *this, root, lda, STARPU_W,
               [&](int i, int j, T* tile, int64_t ld, int64_t offset, size_t elements, int owner) {
                   if (me == root)
                       for (int c = 0; c < tile_cols(j); ++c)
                           std::memcpy(tile + c * ld, a + offset + c * lda, sizeof(T) * size_t(tile_rows(i)));
                   if (me == root && owner != me) detail::mpi::send(tile, elements * sizeof(T), owner);
                   if (me != root) detail::mpi::receive(tile, elements * sizeof(T), root);
               });
}

template <typename T>
void Matrix<T>::gather_to(int root, T* a, int64_t lda) const {
    const int me = detail::mpi::rank();
    if (!distributed()) {
        if (me == root) to_lapack(a, lda);
        return;
    }
    move_tiles("grain::Matrix::gather_to", *this, root, lda, STARPU_R,
               [&](int i, int j, T* tile, int64_t ld, int64_t offset, size_t elements, int owner) {
                   if (me != root) detail::mpi::send(tile, elements * sizeof(T), root);
                   if (me == root && owner != me) detail::mpi::receive(tile, elements * sizeof(T), owner);
                   if (me == root)
                       for (int c = 0; c < tile_cols(j); ++c)
                           std::memcpy(a + offset + c * lda, tile + c * ld, sizeof(T) * size_t(tile_rows(i)));
               });
}

template <typename T>
Matrix<T> Matrix<T>::sub(int i1, int i2, int j1, int j2) const {
    const char* routine = "grain::Matrix::sub";
    if (i1 < 0 || i1 >= mt_) throw invalid_argument(routine, "i1", std::to_string(i1), "must be in [0, mt)");
    if (i2 < i1 || i2 >= mt_) throw invalid_argument(routine, "i2", std::to_string(i2), "must be in [i1, mt)");
    if (j1 < 0 || j1 >= nt_) throw invalid_argument(routine, "j1", std::to_string(j1), "must be in [0, nt)");
    if (j2 < j1 || j2 >= nt_) throw invalid_argument(routine, "j2", std::to_string(j2), "must be in [j1, nt)");
    Matrix view;
    view.storage_ = storage_;
    view.nb_ = nb_;
    view.i0_ = i0_ + i1, view.j0_ = j0_ + j1;
    view.mt_ = i2 - i1 + 1, view.nt_ = j2 - j1 + 1;
    view.m_ = 0, view.n_ = 0;
    for (int i = 0; i < view.mt_; ++i) view.m_ += view.tile_rows(i);
    for (int j = 0; j < view.nt_; ++j) view.n_ += view.tile_cols(j);
    return view;
}

#define GRAIN_INSTANTIATE(T) template class Matrix<T>;
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
