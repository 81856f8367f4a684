#include "collective.hpp"

#include <functional>
#include <string>

#include "grain/errors.hpp"
#include "src/base/fingerprint.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/starpu/distributed.hpp"
#include "src/starpu/matrix_access.hpp"

namespace grain::detail {

namespace {
thread_local Collective* current = nullptr;
}

Collective::Collective(const char* routine, bool distributed)
    : routine_(routine), distributed_(distributed), fingerprint_(std::hash<std::string>{}(routine)), outer_(current) {
    current = this;
}

Collective::~Collective() {
    current = outer_;
    bool same = true;
    if (distributed_ && !agreed_) mpi::agree(false, fingerprint_, same);
}

void Collective::agree() {
    if (!distributed_ || agreed_) return;
    agreed_ = true;
    bool same = true;
    if (mpi::agree(true, fingerprint_, same)) return;
    throw runtime_error(std::string(routine_) + (same ? ": another process refused its arguments"
                                                      : ": the processes called it on different arguments"));
}

Collective* Collective::active() { return current; }

void Collective::add(int64_t v) { fingerprint_ = fingerprint_step(fingerprint_, uint64_t(v)); }

template <typename T>
void Collective::add_operand(const char* routine, const Matrix<T>& M) {
    if (M.distributed() != distributed_)
        throw invalid_argument(routine, "operands", "a mix of distributed and local matrices",
                               "must all be distributed, or none");
    // Which tiles of which matrix, placed how: the same on every process.
    const TileStorage<T>& s = MatrixAccess::storage(M);
    for (int64_t v : {M.m(), M.n(), int64_t(M.nb()), int64_t(M.level()), int64_t(M.scales().size()), s.placement().first_tag(),
                      int64_t(s.placement().fingerprint()), int64_t(MatrixAccess::first_tile_row(M)),
                      int64_t(MatrixAccess::first_tile_col(M))})
        add(v);
}

#define GRAIN_INSTANTIATE(T) template void Collective::add_operand<T>(const char*, const Matrix<T>&);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::detail
