#pragma once
// The storage behind grain::QrFactors: for each tile of the factored view, the T factors
// of its two block reflectors (the tile's own QR, geqrt's; and the one that eliminated it
// against another tile, tsqrt's or ttqrt's), each ib x nb, in memory of its own,
// registered with StarPU on first use. An LQ's are those of the QR of A^H: indexed by
// A's tile (column, row).
#include <starpu.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "grain/qr.hpp"
#include "handles.hpp"

namespace grain::detail {

enum class QrFactor { Own = 0, Elimination = 1 };

template <typename T>
class QrStorage final : public HandleOwner {
public:
    QrStorage(QrTree tree, int domain) : tree_choice_(tree), domain_choice_(domain), tree_(tree), domain_(domain) {}
    ~QrStorage();
    QrStorage(const QrStorage&) = delete;
    QrStorage& operator=(const QrStorage&) = delete;

    // The tree asked for (Auto among them), and the one the sized factors follow.
    QrTree tree_choice() const { return tree_choice_; }
    int domain_choice() const { return domain_choice_; }
    QrTree tree() const { return tree_; }
    int domain() const { return domain_; }
    // Sizes the factors for the QR (LQ: `lq`) of an m x n view of nb tiles (a new shape
    // releases the old factors' handles first, which waits for their tasks).
    void shape_for(int64_t m, int64_t n, int nb, bool lq);
    // Whether the factors are sized for that factorization, as geqrf (gelqf) left them.
    bool fits(int64_t m, int64_t n, int nb, bool lq) const {
        return m == m_ && n == n_ && nb == nb_ && lq == lq_ && data_ != nullptr;
    }
    // The handle of one factor of tile (i, j) of the view (of its transpose for an LQ).
    starpu_data_handle_t at(QrFactor which, int i, int j);

    void runtime_ending() override {
        release();
        enlisted_ = false;
    }

private:
    void release();
    QrTree tree_choice_;
    int domain_choice_;
    QrTree tree_;
    int domain_;
    int64_t m_ = 0, n_ = 0;
    int nb_ = 0, ib_ = 0, mt_ = 0, nt_ = 0;  // mt_ x nt_: tiles of the view, or of its transpose
    bool lq_ = false;
    // 2 mt nt blocks of ib x nb, left uninitialized: every kernel writes its block before
    // any reads it, and the pages are touched by the workers that write them.
    std::unique_ptr<T[]> data_;
    std::vector<starpu_data_handle_t> handles_;
    bool enlisted_ = false;
};

struct QrAccess {
    template <typename T>
    static QrStorage<T>& storage(const QrFactors<T>& f) { return *f.storage_; }
};

}  // namespace grain::detail
