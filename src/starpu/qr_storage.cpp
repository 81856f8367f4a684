#include "qr_storage.hpp"

#include <algorithm>
#include <complex>
#include <string>

#include "grain/errors.hpp"
#include "src/base/kernel_table.hpp"
#include "src/base/scalar_traits.hpp"

namespace grain {

template <typename T>
QrFactors<T>::QrFactors(QrTree tree, int domain) {
    if (tree != QrTree::Flat && tree != QrTree::Binary && tree != QrTree::Auto)
        throw invalid_argument("grain::QrFactors", "tree", std::string(1, char(tree)), "must be Flat, Binary or Auto");
    if (domain < 1) throw invalid_argument("grain::QrFactors", "domain", std::to_string(domain), "must be >= 1");
    storage_ = std::make_shared<detail::QrStorage<T>>(tree, domain);
}

template <typename T>
QrTree QrFactors<T>::tree() const { return storage_->tree_choice(); }
template <typename T>
int QrFactors<T>::domain() const { return storage_->domain_choice(); }

template class QrFactors<float>;
template class QrFactors<double>;
template class QrFactors<std::complex<float>>;
template class QrFactors<std::complex<double>>;

namespace detail {

template <typename T>
QrStorage<T>::~QrStorage() {
    release();
    if (enlisted_) delist_handle_owner(this);
}

template <typename T>
void QrStorage<T>::shape_for(int64_t m, int64_t n, int nb, bool lq) {
    if (fits(m, n, nb, lq)) return;
    release();
    m_ = m, n_ = n, nb_ = nb, lq_ = lq;
    ib_ = qr_inner_block(nb);
    const int row_tiles = int((m + nb - 1) / nb), col_tiles = int((n + nb - 1) / nb);
    mt_ = lq ? col_tiles : row_tiles, nt_ = lq ? row_tiles : col_tiles;
    tree_ = tree_choice_, domain_ = domain_choice_;
    if (tree_ == QrTree::Auto) {
        const int workers = std::max(1, int(starpu_worker_get_count()));
        tree_ = nt_ >= 2 * workers ? QrTree::Flat : QrTree::Binary;
        domain_ = tree_ == QrTree::Flat ? 1 : std::max(1, (mt_ + 2 * workers - 1) / (2 * workers));
    }
    const size_t blocks = 2 * size_t(mt_) * size_t(nt_);
    try {
        data_.reset(new T[blocks * size_t(ib_) * size_t(nb)]);
    } catch (const std::bad_alloc&) {
        throw runtime_error("grain::QrFactors: cannot allocate " + std::to_string(blocks) + " factors of " +
                            std::to_string(ib_) + " x " + std::to_string(nb));
    }
    handles_.assign(blocks, nullptr);
}

template <typename T>
starpu_data_handle_t QrStorage<T>::at(QrFactor which, int i, int j) {
    const size_t index = size_t(which) * size_t(mt_) * size_t(nt_) + size_t(i) + size_t(j) * size_t(mt_);
    starpu_data_handle_t& h = handles_.at(index);
    if (!h) {
        if (!enlisted_) {
            enlist_handle_owner(this);
            enlisted_ = true;
        }
        T* block = data_.get() + index * size_t(ib_) * size_t(nb_);
        starpu_matrix_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(block), uint32_t(ib_),
                                    uint32_t(ib_), uint32_t(nb_), sizeof(T));
    }
    return h;
}

template <typename T>
void QrStorage<T>::release() {
    // The scheduling policy forgets the factors once no task on them is left (an access
    // for writing waits for every task before it); unregistering brings them home.
    std::vector<starpu_data_handle_t> registered;
    for (starpu_data_handle_t h : handles_)
        if (h) {
            starpu_data_acquire(h, STARPU_W);
            starpu_data_release(h);
            registered.push_back(h);
        }
    policy_forget(registered.data(), registered.size());
    for (starpu_data_handle_t h : registered) starpu_data_unregister(h);
    handles_.assign(handles_.size(), nullptr);
}

#define GRAIN_INSTANTIATE(T) template class QrStorage<T>;
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace detail
}  // namespace grain
