// Public routines: argument checks, then the algorithms on one Request.
#include "grain/routines.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "grain/errors.hpp"
#include "grain/runtime.hpp"
#include "recursion/tasks.hpp"
#include "runtime_access.hpp"
#include "src/base/constants.hpp"
#include "src/base/env.hpp"
#include "src/base/fingerprint.hpp"
#include "src/base/overlap.hpp"
#include "src/base/request_state.hpp"
#include "src/base/scalar_traits.hpp"
#include "src/starpu/distributed.hpp"
#include "src/starpu/matrix_access.hpp"
#include "src/starpu/nan_check.hpp"
#include "src/starpu/pivot_storage.hpp"

namespace grain {

namespace {

using detail::Context;
using detail::MatrixAccess;

std::string text(int64_t value) { return std::to_string(value); }

void require(bool ok, const char* routine, const std::string& argument, const std::string& value,
             const std::string& why) {
    if (!ok) throw invalid_argument(routine, argument, value, why);
}

void require_runtime(const char* routine) {
    if (!Runtime::active())
        throw runtime_error(std::string(routine) + ": no grain::Runtime is alive; create one first");
}

template <typename T>
void require_same_tiles(const char* routine, const Matrix<T>& A, const char* name, const Matrix<T>& X) {
    require(X.nb() == A.nb(), routine, std::string(name) + ".nb", text(X.nb()),
            "must equal A.nb = " + text(A.nb()) + " (one tile size per call)");
    require(X.scales() == A.scales() && X.level() == A.level(), routine, std::string(name) + ".scales",
            "another ladder", "must equal A's tile scales (one ladder per call)");
}

// A call on distributed matrices is collective. Every process checks its arguments; then,
// before the first task, they agree: a process whose check threw takes part as it unwinds
// (the destructor), so one process's bad argument ends the call with an error on every
// process instead of leaving the others waiting for its messages. The processes also
// compare a fingerprint of the call (routine, operands' shapes and ladders, scalars). The call
// alive on this thread is the one submit() agrees for.
class Collective {
public:
    // A call that is distributed or not; add() the rest of its fingerprint.
    Collective(const char* routine, bool distributed)
        : routine_(routine), distributed_(distributed), fingerprint_(std::hash<std::string>{}(routine)),
          outer_(current) {
        current = this;
    }
    // A tiled call on `operands`, with its enum `arguments`. An operand whose distribution
    // differs from the others' throws, and (the object being made) the destructor agrees.
    template <typename T>
    Collective(const char* routine, std::initializer_list<const Matrix<T>*> operands,
               std::initializer_list<int64_t> arguments = {})
        : Collective(routine, std::any_of(operands.begin(), operands.end(),
                                          [](const Matrix<T>* M) { return M->distributed(); })) {
        for (int64_t v : arguments) add(v);
        for (const Matrix<T>* M : operands) {
            if (M->distributed() != distributed_)
                throw invalid_argument(routine, "operands", "a mix of distributed and local matrices",
                                       "must all be distributed, or none");
            // Which tiles of which matrix, placed how: the same on every process.
            const detail::TileStorage<T>& s = MatrixAccess::storage(*M);
            for (int64_t v : {M->m(), M->n(), int64_t(M->nb()), int64_t(M->level()), int64_t(M->scales().size()),
                              s.first_tag(), int64_t(s.placement()), int64_t(MatrixAccess::first_tile_row(*M)),
                              int64_t(MatrixAccess::first_tile_col(*M))})
                add(v);
        }
    }
    ~Collective() {
        current = outer_;
        bool same = true;
        if (distributed_ && !agreed_) detail::mpi::agree(false, fingerprint_, same);
    }
    Collective(const Collective&) = delete;
    Collective& operator=(const Collective&) = delete;

    bool distributed() const { return distributed_; }
    // Before the call's first task; throws on every process if one failed or differs.
    void agree() {
        if (!distributed_ || agreed_) return;
        agreed_ = true;
        bool same = true;
        if (detail::mpi::agree(true, fingerprint_, same)) return;
        throw runtime_error(std::string(routine_) + (same ? ": another process refused its arguments"
                                                          : ": the processes called it on different arguments"));
    }

    static Collective* active() { return current; }
    void add(int64_t v) { fingerprint_ = detail::fingerprint_step(fingerprint_, uint64_t(v)); }
    // The call's scalars (alpha, beta), by their bits: processes that scale by different
    // values would compute tiles of different products. -0 counts as 0.
    template <typename... S>
    void add_scalars(S... values) {
        (add_bits(values == S(0) ? S(0) : values), ...);
    }

private:
    template <typename S>
    void add_bits(const S& value) {
        static_assert(std::is_trivially_copyable_v<S> && sizeof(S) % sizeof(uint32_t) == 0);
        for (size_t at = 0; at < sizeof(S); at += sizeof(uint32_t)) {
            uint32_t word = 0;
            std::memcpy(&word, reinterpret_cast<const unsigned char*>(&value) + at, sizeof word);
            add(word);
        }
    }

    static thread_local Collective* current;
    const char* routine_;
    bool distributed_, agreed_ = false;
    uint64_t fingerprint_;
    Collective* outer_;
};

thread_local Collective* Collective::current = nullptr;

// Runs a routine's algorithms (a function of their Context) on a new Request. Where the
// ladder leaves tasks to split, the algorithms first run in counting mode on `A`'s
// tiles, so that the split policy knows the call's work before its first decision.
template <typename T, typename Algorithms>
Request submit(const Matrix<T>& A, Algorithms algorithms) {
    detail::Recursion& recursion = detail::active_recursion("grain");
    Collective* call = Collective::active();
    if (A.distributed() && (!call || !call->distributed()))
        throw runtime_error("grain: internal error: a distributed call without its agreement");
    if (call) call->agree();
    if (A.level() + 1 < int(A.scales().size())) recursion.begin_call(detail::count_tasks(algorithms), A.nb(), A.level());
    Request request;
    detail::RequestState& state = detail::RequestAccess::state(request);
    algorithms(Context{&state, &recursion, 0, 0});
    if (A.distributed()) {
        state.distributed = true;
        // Copies received from other processes go once this call's tasks are done with
        // them: the next call sees what the application wrote in between.
        detail::mpi::flush_received();
    }
    return request;
}

// A synchronous call's outputs go back to the caller: with a memory node besides main
// memory (GPUs), each output tile is sent home as soon as its last task ends, so the copies
// overlap the rest of the call; then waits. An acquire that fetches nothing waits for the
// tile's last task, then asks for the copy home as a lowest-priority prefetch: StarPU serves
// a node's fetches (the GPU's next inputs) first, where the copies home, asked for all at
// once, would otherwise queue ahead of them (doc/results/2026-11-28-sim-write-back-priority.md).
// StarPU's wont_use (an idle-time copy) left tiles on an OpenCL device for good; the view's
// end brings home whatever has not come yet.
void send_home(void* handle) {
    auto* h = static_cast<starpu_data_handle_t>(handle);
    starpu_data_prefetch_on_node_prio(h, STARPU_MAIN_RAM, 1, STARPU_MIN_PRIO);
    starpu_data_release_on_node(h, STARPU_ACQUIRE_NO_NODE);
}

// A tile a split cut is fetched by its sub-tiles (theirs, if cut too), each as soon as its
// own last task ends: read whole, it would wait for the last of them, and a gathering
// where they are (the GPU) would send it home whole after that.
template <typename T>
void fetch_home(const detail::TileStorage<T>& s, int i, int j) {
    if (const detail::TileStorage<T>* parts = s.planned_children(i, j)) {
        for (int jj = 0; jj < parts->nt(); ++jj)
            for (int ii = 0; ii < parts->mt(); ++ii) fetch_home(*parts, ii, jj);
    } else if (starpu_data_handle_t h = s.registered_handle(i, j)) {
        starpu_data_acquire_on_node_cb(h, STARPU_ACQUIRE_NO_NODE, STARPU_R, send_home, h);
    }
}

template <typename T, typename... Outputs>
int wait_for_result(Request request, const Matrix<T>& out, const Outputs&... more) {
    if (starpu_memory_nodes_get_count() > 1) {
        for (const Matrix<T>* M : {&out, &more...}) {
            const detail::TileStorage<T>& s = MatrixAccess::storage(*M);
            const int i0 = MatrixAccess::first_tile_row(*M), j0 = MatrixAccess::first_tile_col(*M);
            for (int j = j0; j < j0 + M->nt(); ++j)
                for (int i = i0; i < i0 + M->mt(); ++i)
                    if (s.is_local(i, j)) fetch_home(s, i, j);
        }
    }
    return request.wait();
}

// Where a view of a user's array is in memory; none for a view of grain's own storage,
// which no other grid shares.
template <typename T>
std::optional<detail::Block> user_block(const Matrix<T>& A) {
    const detail::TileStorage<T>& s = MatrixAccess::storage(A);
    if (!s.over_user_array() || A.m() == 0 || A.n() == 0) return std::nullopt;
    const T* first = s.tile_data(MatrixAccess::first_tile_row(A), MatrixAccess::first_tile_col(A));
    return detail::Block{reinterpret_cast<std::uintptr_t>(first), A.m(), A.n(), s.tile_ld(0), int64_t(sizeof(T))};
}

// An output must not share an element with another operand of the same call: views of
// one grid must share no tile; views of grids over user arrays (two Matrix objects, or
// LAPACK-layout pointers, over one array) must share no element.
template <typename T>
void require_disjoint(const char* routine, const Matrix<T>& out, const char* out_name, const Matrix<T>& in,
                      const char* in_name) {
    bool shared = false;
    if (&MatrixAccess::storage(out) == &MatrixAccess::storage(in)) {
        const int out_i = MatrixAccess::first_tile_row(out), in_i = MatrixAccess::first_tile_row(in);
        const int out_j = MatrixAccess::first_tile_col(out), in_j = MatrixAccess::first_tile_col(in);
        const bool rows = out_i < in_i + in.mt() && in_i < out_i + out.mt();
        const bool cols = out_j < in_j + in.nt() && in_j < out_j + out.nt();
        shared = rows && cols;
    } else if (const auto o = user_block(out), i = user_block(in); o && i) {
        shared = detail::overlap(*o, *i);
    }
    require(!shared, routine, out_name, "a view sharing elements with " + std::string(in_name),
            "an output must not share an element with another argument");
}

template <typename T>
void require_square(const char* routine, const char* name, const Matrix<T>& A) {
    require(A.m() == A.n(), routine, std::string(name) + ".n", text(A.n()),
            "must equal " + std::string(name) + ".m = " + text(A.m()) + " (square matrix)");
}

void require_rows(const char* routine, const char* name, int64_t rows, int64_t expected, const std::string& what) {
    require(rows == expected, routine, name, text(rows), "must equal " + what + " = " + text(expected));
}

template <typename T>
void check_gemm(const char* routine, Op transa, Op transb, const Matrix<T>& A, const Matrix<T>& B,
                const Matrix<T>& C) {
    require_runtime(routine);
    require_same_tiles(routine, A, "B", B);
    require_same_tiles(routine, A, "C", C);
    const int64_t am = transa == Op::NoTrans ? A.m() : A.n(), ak = transa == Op::NoTrans ? A.n() : A.m();
    const int64_t bk = transb == Op::NoTrans ? B.m() : B.n(), bn = transb == Op::NoTrans ? B.n() : B.m();
    require_rows(routine, "rows of op(B)", bk, ak, "columns of op(A)");
    require_rows(routine, "C.m", C.m(), am, "rows of op(A)");
    require_rows(routine, "C.n", C.n(), bn, "columns of op(B)");
    require_disjoint(routine, C, "C", A, "A");
    require_disjoint(routine, C, "C", B, "B");
}

template <typename T>
void check_trsm(const char* routine, Side side, const Matrix<T>& A, const Matrix<T>& B) {
    require_runtime(routine);
    require_same_tiles(routine, A, "B", B);
    require_square(routine, "A", A);
    if (side == Side::Left)
        require_rows(routine, "B.m", B.m(), A.m(), "the order of A");
    else
        require_rows(routine, "B.n", B.n(), A.m(), "the order of A");
    require_disjoint(routine, B, "B", A, "A");
}

template <typename T>
void check_solve(const char* routine, const Matrix<T>& A, const Matrix<T>& B) {
    require_runtime(routine);
    require_same_tiles(routine, A, "B", B);
    require_square(routine, "A", A);
    require_rows(routine, "B.m", B.m(), A.n(), "the order of A");
    require_disjoint(routine, B, "B", A, "A");
}

// Enum arguments as LAPACK reads them: either case, and in real precision a conjugate
// transpose ('C') is the transpose. Anything else is refused, naming the argument.
std::string quoted(char c) {
    return c >= ' ' && c <= '~' ? std::string("'") + c + "'" : "char " + std::to_string(int(c));
}

// One enum's letters (uppercase; either case is accepted) and what each means.
template <typename E>
E checked(const char* routine, const char* name, E v, std::initializer_list<std::pair<char, E>> letters,
          const char* why) {
    const char c = char(std::toupper(static_cast<unsigned char>(char(v))));
    for (const auto& [letter, value] : letters)
        if (c == letter) return value;
    throw invalid_argument(routine, name, quoted(char(v)), why);
}

Uplo checked(const char* routine, const char* name, Uplo v) {
    return checked(routine, name, v, {{'L', Uplo::Lower}, {'U', Uplo::Upper}},
                   "must be Uplo::Lower ('L') or Uplo::Upper ('U')");
}

// An op of precision T: 'C' is ConjTrans in complex precisions, Trans in real ones. In
// complex precisions syrk takes no ConjTrans and herk no Trans, as BLAS's.
enum class Ops { All, Symmetric, Hermitian };

template <typename T>
Op checked(const char* routine, const char* name, Op v, Ops ops = Ops::All) {
    if (!detail::scalar_traits<T>::is_complex)
        return checked(routine, name, v, {{'N', Op::NoTrans}, {'T', Op::Trans}, {'C', Op::Trans}},
                       "must be Op::NoTrans ('N') or Op::Trans ('T'; 'C' means it in real precision)");
    if (ops == Ops::Symmetric)
        return checked(routine, name, v, {{'N', Op::NoTrans}, {'T', Op::Trans}},
                       "must be Op::NoTrans ('N') or Op::Trans ('T') in complex precision");
    if (ops == Ops::Hermitian)
        return checked(routine, name, v, {{'N', Op::NoTrans}, {'C', Op::ConjTrans}},
                       "must be Op::NoTrans ('N') or Op::ConjTrans ('C') in complex precision");
    return checked(routine, name, v, {{'N', Op::NoTrans}, {'T', Op::Trans}, {'C', Op::ConjTrans}},
                   "must be Op::NoTrans ('N'), Op::Trans ('T') or Op::ConjTrans ('C')");
}

Side checked(const char* routine, const char* name, Side v) {
    return checked(routine, name, v, {{'L', Side::Left}, {'R', Side::Right}},
                   "must be Side::Left ('L') or Side::Right ('R')");
}

Diag checked(const char* routine, const char* name, Diag v) {
    return checked(routine, name, v, {{'N', Diag::NonUnit}, {'U', Diag::Unit}},
                   "must be Diag::NonUnit ('N') or Diag::Unit ('U')");
}

// LAPACKE's NaN check (RuntimeOptions::nancheck) of the LAPACK-level routines: an
// input, the elements the routine reads, and the array's position in the routine's
// LAPACK-layout form (LAPACK's numbering, which has no layout argument: LAPACKE's less one).
template <typename T>
struct Input {
    const Matrix<T>* A;
    detail::Elements elements;
    int position;
};

detail::Elements triangle(Uplo uplo) { return uplo == Uplo::Lower ? detail::Elements::Lower : detail::Elements::Upper; }

// Only the synchronous forms check: an _async form's inputs may still be being written
// by earlier requests, and a check would wait for them (and forever under starpu_pause).
enum class NanCheck { No, Yes };

// -(position) of the first input holding a NaN, else 0. It runs before anything is
// submitted, so a refused call leaves its inputs untouched.
template <typename T>
int nan_info(NanCheck check, std::initializer_list<Input<T>> inputs) {
    // A distributed call takes part in the reduction below even where this process's
    // setting is off (a per-process setting: the processes' sequences of collectives
    // must not depend on it).
    const bool distributed = inputs.begin()->A->distributed();
    if (check == NanCheck::No || (!detail::nan_check_on() && !distributed)) return 0;
    if (Collective* call = Collective::active()) call->agree();  // before any other collective
    constexpr int64_t none = std::numeric_limits<int64_t>::max();
    int64_t position = none;
    if (detail::nan_check_on())
        for (const Input<T>& in : inputs)
            if (detail::has_nan(*in.A, in.elements)) {
                position = in.position;
                break;
            }
    // Each process checks its own tiles; the first input with a NaN anywhere counts.
    if (distributed) position = detail::mpi::min_over_ranks(position);
    return position == none ? 0 : -int(position);
}

// A Request that ended before any task, with a negative info.
Request refused(int info) {
    Request request;
    detail::RequestAccess::state(request).report_argument(-info);
    return request;
}

// A user's column-major array as a matrix on the ladder `scales`, checked under the
// routine's name.
template <typename T>
Matrix<T> wrap(const char* routine, const char* ld_name, int64_t rows, int64_t cols, const T* a, int64_t ld,
               const std::vector<int>& scales) {
    require(ld >= std::max<int64_t>(1, rows), routine, ld_name, text(ld),
            "must be >= max(1, " + text(rows) + ")");
    // Read-only arguments are only ever accessed in read mode.
    return Matrix<T>(rows, cols, scales, const_cast<T*>(a), ld);
}

// A LAPACK-layout call's arrays as matrices: wrapped in place on one process. Under a
// DistributedLayout, distributed matrices that run() fills from the root's arrays before
// the call and whose outputs (arrays given as T*) it brings back into the root's arrays
// after. A distributed call is collective from its first statement: the processes agree
// in run(), before the scatter, or in the destructor of a call that threw before (a bad
// argument on one process), so that no process waits for another that stopped.
template <typename T>
class LayoutCall {
public:
    explicit LayoutCall(const char* routine)
        : routine_(routine), layout_(DistributedLayout::current()), agreement_(routine, layout_ != nullptr) {}

    Matrix<T> wrap(const char* ld_name, int64_t rows, int64_t cols, const T* a, int64_t ld,
                   const std::vector<int>& scales) {
        return place(ld_name, rows, cols, a, ld, scales, false);
    }
    Matrix<T> wrap(const char* ld_name, int64_t rows, int64_t cols, T* a, int64_t ld, const std::vector<int>& scales) {
        return place(ld_name, rows, cols, a, ld, scales, true);
    }

    template <typename Call>
    int run(Call call) {
        agreement_.agree();
        if (layout_)
            for (Array& x : arrays_) x.M.scatter_from(layout_->root(), x.a, x.ld);
        const int info = call();
        for (Array& x : arrays_)
            if (x.output) x.M.gather_to(layout_->root(), const_cast<T*>(x.a), x.ld);
        return info;
    }

private:
    struct Array {
        Matrix<T> M;
        const T* a;
        int64_t ld;
        bool output;
    };

    Matrix<T> place(const char* ld_name, int64_t rows, int64_t cols, const T* a, int64_t ld,
                    const std::vector<int>& scales, bool output) {
        if (!layout_) return grain::wrap(routine_, ld_name, rows, cols, a, ld, scales);
        require(ld >= std::max<int64_t>(1, rows), routine_, ld_name, text(ld), "must be >= max(1, " + text(rows) + ")");
        const bool root = detail::mpi::rank() == layout_->root();
        require(!root || a || rows == 0 || cols == 0, routine_, "array", "nullptr", "must point to the matrix on the root");
        for (int64_t v : {rows, cols, int64_t(scales.front())}) agreement_.add(v);
        arrays_.push_back({Matrix<T>(rows, cols, scales, layout_->distribution()), a, ld, output});
        return arrays_.back().M;
    }

    const char* routine_;
    const DistributedLayout* layout_;
    Collective agreement_;  // a process that throws before run() agrees as it unwinds
    std::vector<Array> arrays_;
};

// The ladder of the LAPACK-layout routines on a call of size `order`: GRAIN_SCALES (e.g.
// "1024,512,256", largest first; the Matrix checks it) if set, else one tile size.
std::vector<int> layout_scales(int64_t order) {
    const auto text = detail::env_text({"GRAIN_SCALES"});
    if (!text) return {default_tile_size(order)};
    std::vector<int> scales;
    for (const char* p = text->value.c_str();;) {
        char* end = nullptr;
        const long v = std::strtol(p, &end, 10);
        if (end == p || v < 1 || v > detail::max_tile_size || (*end && *end != ','))
            throw invalid_argument("grain", "GRAIN_SCALES", text->value,
                                   "must be tile sizes separated by commas, largest first (e.g. 1024,512,256)");
        scales.push_back(int(v));
        if (!*end) return scales;
        p = end + 1;
    }
}

// LU with partial pivoting searches pivots down a column of tiles, which a distributed
// matrix spreads over processes: not there yet.
template <typename T>
void require_local(const char* routine, const Matrix<T>& A) {
    require(!A.distributed(), routine, "A", "a distributed matrix",
            "LU with partial pivoting runs on one process only, for now (getrf_nopiv runs distributed)");
}

void require_size(const char* routine, const char* name, int64_t value) {
    require(value >= 0, routine, name, text(value), "must be >= 0");
}

}  // namespace

namespace {
thread_local const DistributedLayout* active_layout = nullptr;
}

DistributedLayout::DistributedLayout(const Distribution& distribution, int root)
    : distribution_(distribution), root_(root), outer_(active_layout) {
    const int ranks = Runtime::ranks();
    require(distribution.ranks() == ranks, "grain::DistributedLayout", "distribution.ranks()",
            text(distribution.ranks()), "must equal the processes of the run, " + text(ranks));
    require(root >= 0 && root < ranks, "grain::DistributedLayout", "root", text(root),
            "must be in [0, " + text(ranks) + ")");
    active_layout = this;
}

DistributedLayout::~DistributedLayout() { active_layout = outer_; }

const DistributedLayout* DistributedLayout::current() { return active_layout; }

int default_tile_size(int64_t order) {
    const auto nb = detail::env_integer("grain::default_tile_size", {"GRAIN_NB"}, 1, detail::max_tile_size,
                                        "the tile size of the LAPACK-layout routines");
    if (nb) return int(nb->value);
    // About 8 tiles across, in multiples of 64, within [320, 1024]: on 2 cores 320 lost
    // 10-20 % to OpenBLAS at n = 4096 and 8192, where 512 and 1024 come within 5-10 %
    // (doc/results/2026-11-27-lapack-api.md).
    const int64_t eighth = order / 8 / 64 * 64;
    return int(std::clamp<int64_t>(eighth, detail::default_tile_size, detail::max_default_tile_size));
}

// ---- tiled matrices ----

template <typename T>
Request gemm_async(Op transa, Op transb, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C) {
    Collective call("grain::gemm", {&A, &B, &C}, {int64_t(transa), int64_t(transb)});
    call.add_scalars(alpha, beta);
    transa = checked<T>("grain::gemm", "transa", transa);
    transb = checked<T>("grain::gemm", "transb", transb);
    check_gemm("grain::gemm", transa, transb, A, B, C);
    return submit(C, [&](const Context& ctx) { algorithms::gemm(ctx, transa, transb, alpha, A, B, beta, C); });
}

template <typename T>
int gemm(Op transa, Op transb, T alpha, const Matrix<T>& A, const Matrix<T>& B, T beta, Matrix<T>& C) {
    return wait_for_result(gemm_async(transa, transb, alpha, A, B, beta, C), C);
}

template <typename T>
Request trsm_async(Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A, Matrix<T>& B) {
    Collective call("grain::trsm", {&A, &B}, {int64_t(side), int64_t(uplo), int64_t(trans), int64_t(diag)});
    call.add_scalars(alpha);
    side = checked("grain::trsm", "side", side);
    uplo = checked("grain::trsm", "uplo", uplo);
    trans = checked<T>("grain::trsm", "trans", trans);
    diag = checked("grain::trsm", "diag", diag);
    check_trsm("grain::trsm", side, A, B);
    return submit(B, [&](const Context& ctx) { algorithms::trsm(ctx, side, uplo, trans, diag, alpha, A, B); });
}

template <typename T>
int trsm(Side side, Uplo uplo, Op trans, Diag diag, T alpha, const Matrix<T>& A, Matrix<T>& B) {
    return wait_for_result(trsm_async(side, uplo, trans, diag, alpha, A, B), B);
}

namespace {

// syrk and herk (hermitian): C = alpha op(A) op(A)^T or ^H + beta C.
template <typename T>
Request rank_k_request(const char* routine, bool hermitian, Uplo uplo, Op trans, T alpha, const Matrix<T>& A,
                       T beta, Matrix<T>& C) {
    Collective call(routine, {&A, &C}, {int64_t(uplo), int64_t(trans)});
    call.add_scalars(alpha, beta);
    uplo = checked(routine, "uplo", uplo);
    trans = checked<T>(routine, "trans", trans, hermitian ? Ops::Hermitian : Ops::Symmetric);
    require_runtime(routine);
    require_same_tiles(routine, A, "C", C);
    require_square(routine, "C", C);
    require_rows(routine, "rows of op(A)", trans == Op::NoTrans ? A.m() : A.n(), C.m(), "the order of C");
    require_disjoint(routine, C, "C", A, "A");
    return submit(C, [&](const Context& ctx) {
        (hermitian ? algorithms::herk<T> : algorithms::syrk<T>)(ctx, uplo, trans, alpha, A, beta, C);
    });
}

}  // namespace

template <typename T>
Request syrk_async(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta, Matrix<T>& C) {
    return rank_k_request("grain::syrk", false, uplo, trans, alpha, A, beta, C);
}

template <typename T>
int syrk(Uplo uplo, Op trans, T alpha, const Matrix<T>& A, T beta, Matrix<T>& C) {
    return wait_for_result(syrk_async(uplo, trans, alpha, A, beta, C), C);
}

template <typename T>
Request herk_async(Uplo uplo, Op trans, real_type<T> alpha, const Matrix<T>& A, real_type<T> beta, Matrix<T>& C) {
    return rank_k_request("grain::herk", true, uplo, trans, T(alpha), A, T(beta), C);
}

template <typename T>
int herk(Uplo uplo, Op trans, real_type<T> alpha, const Matrix<T>& A, real_type<T> beta, Matrix<T>& C) {
    return wait_for_result(herk_async(uplo, trans, alpha, A, beta, C), C);
}

namespace {

template <typename T>
Request potrf_request(Uplo uplo, Matrix<T>& A, NanCheck check) {
    Collective call("grain::potrf", {&A}, {int64_t(uplo)});
    uplo = checked("grain::potrf", "uplo", uplo);
    require_runtime("grain::potrf");
    require_square("grain::potrf", "A", A);
    if (const int info = nan_info<T>(check, {{&A, triangle(uplo), 3}})) return refused(info);
    return submit(A, [&](const Context& ctx) { algorithms::potrf(ctx, uplo, A); });
}

template <typename T>
Request potrs_request(Uplo uplo, const Matrix<T>& A, Matrix<T>& B, NanCheck check) {
    Collective call("grain::potrs", {&A, &B}, {int64_t(uplo)});
    uplo = checked("grain::potrs", "uplo", uplo);
    check_solve("grain::potrs", A, B);
    if (const int info = nan_info<T>(check, {{&A, triangle(uplo), 4}, {&B, detail::Elements::All, 6}}))
        return refused(info);
    return submit(A, [&](const Context& ctx) { algorithms::potrs(ctx, uplo, A, B); });
}

template <typename T>
Request getrf_nopiv_request(Matrix<T>& A, NanCheck check) {
    Collective call("grain::getrf_nopiv", {&A});
    require_runtime("grain::getrf_nopiv");
    if (const int info = nan_info<T>(check, {{&A, detail::Elements::All, 3}})) return refused(info);
    return submit(A, [&](const Context& ctx) { algorithms::getrf_nopiv(ctx, A); });
}

template <typename T>
Request getrs_nopiv_request(const Matrix<T>& A, Matrix<T>& B, NanCheck check) {
    Collective call("grain::getrs_nopiv", {&A, &B});
    check_solve("grain::getrs_nopiv", A, B);
    if (const int info = nan_info<T>(check, {{&A, detail::Elements::All, 3}, {&B, detail::Elements::All, 5}}))
        return refused(info);
    return submit(A, [&](const Context& ctx) { algorithms::getrs_nopiv(ctx, A, B); });
}

// The pivots' blocks for A's steps, after checking that they are as many as A's.
template <typename T>
detail::PivotBlocks pivot_blocks(const char* routine, const Matrix<T>& A, const Pivots& ipiv, int64_t count) {
    require(ipiv.size() == count, routine, "ipiv.size()", text(ipiv.size()),
            "must equal min(A.m, A.n) = " + text(count));
    detail::PivotStorage& storage = detail::PivotAccess::storage(ipiv);
    return {&storage, &storage.blocks(A.nb())};
}

template <typename T>
Request getrf_request(Matrix<T>& A, Pivots& ipiv, NanCheck check) {
    Collective call("grain::getrf", {&A});
    require_local("grain::getrf", A);
    require_runtime("grain::getrf");
    const detail::PivotBlocks blocks = pivot_blocks("grain::getrf", A, ipiv, std::min(A.m(), A.n()));
    if (const int info = nan_info<T>(check, {{&A, detail::Elements::All, 3}})) return refused(info);
    return submit(A, [&](const Context& ctx) { algorithms::getrf(ctx, A, blocks); });
}

template <typename T>
Request getrs_request(Op trans, const Matrix<T>& A, const Pivots& ipiv, Matrix<T>& B, NanCheck check) {
    Collective call("grain::getrs", {&A, &B}, {int64_t(trans)});
    require_local("grain::getrs", A);
    trans = checked<T>("grain::getrs", "trans", trans);
    check_solve("grain::getrs", A, B);
    const detail::PivotBlocks blocks = pivot_blocks("grain::getrs", A, ipiv, A.n());
    if (const int info = nan_info<T>(check, {{&A, detail::Elements::All, 4}, {&B, detail::Elements::All, 7}}))
        return refused(info);
    return submit(A, [&](const Context& ctx) { algorithms::getrs(ctx, trans, A, blocks, B); });
}

}  // namespace

template <typename T>
Request getrf_async(Matrix<T>& A, Pivots& ipiv) {
    return getrf_request(A, ipiv, NanCheck::No);
}

template <typename T>
int getrf(Matrix<T>& A, Pivots& ipiv) {
    return wait_for_result(getrf_request(A, ipiv, NanCheck::Yes), A);
}

template <typename T>
Request getrs_async(Op trans, const Matrix<T>& A, const Pivots& ipiv, Matrix<T>& B) {
    return getrs_request(trans, A, ipiv, B, NanCheck::No);
}

template <typename T>
int getrs(Op trans, const Matrix<T>& A, const Pivots& ipiv, Matrix<T>& B) {
    return wait_for_result(getrs_request(trans, A, ipiv, B, NanCheck::Yes), B);
}

template <typename T>
Request gesv_async(Matrix<T>& A, Pivots& ipiv, Matrix<T>& B) {
    Collective call("grain::gesv", {&A, &B});
    require_local("grain::gesv", A);
    check_solve("grain::gesv", A, B);
    const detail::PivotBlocks blocks = pivot_blocks("grain::gesv", A, ipiv, A.n());
    return submit(A, [&](const Context& ctx) {
        algorithms::getrf(ctx, A, blocks);
        algorithms::getrs(ctx, Op::NoTrans, A, blocks, B);
    });
}

template <typename T>
int gesv(Matrix<T>& A, Pivots& ipiv, Matrix<T>& B) {
    Collective call("grain::gesv", {&A, &B});
    require_local("grain::gesv", A);
    check_solve("grain::gesv", A, B);
    const detail::PivotBlocks blocks = pivot_blocks("grain::gesv", A, ipiv, A.n());
    if (const int info = nan_info<T>(NanCheck::Yes, {{&A, detail::Elements::All, 3}, {&B, detail::Elements::All, 6}}))
        return info;
    // Two requests, so that B stays untouched when the factorization fails.
    const int info = wait_for_result(submit(A, [&](const Context& ctx) { algorithms::getrf(ctx, A, blocks); }), A);
    return info != 0 ? info
                     : wait_for_result(submit(A, [&](const Context& ctx) {
                           algorithms::getrs(ctx, Op::NoTrans, A, blocks, B);
                       }), B);
}

template <typename T>
Request potrf_async(Uplo uplo, Matrix<T>& A) {
    return potrf_request(uplo, A, NanCheck::No);
}

template <typename T>
int potrf(Uplo uplo, Matrix<T>& A) {
    return wait_for_result(potrf_request(uplo, A, NanCheck::Yes), A);
}

template <typename T>
Request potrs_async(Uplo uplo, const Matrix<T>& A, Matrix<T>& B) {
    return potrs_request(uplo, A, B, NanCheck::No);
}

template <typename T>
int potrs(Uplo uplo, const Matrix<T>& A, Matrix<T>& B) {
    return wait_for_result(potrs_request(uplo, A, B, NanCheck::Yes), B);
}

template <typename T>
Request posv_async(Uplo uplo, Matrix<T>& A, Matrix<T>& B) {
    Collective call("grain::posv", {&A, &B}, {int64_t(uplo)});
    uplo = checked("grain::posv", "uplo", uplo);
    check_solve("grain::posv", A, B);
    return submit(A, [&](const Context& ctx) {
        algorithms::potrf(ctx, uplo, A);
        algorithms::potrs(ctx, uplo, A, B);
    });
}

template <typename T>
int posv(Uplo uplo, Matrix<T>& A, Matrix<T>& B) {
    Collective call("grain::posv", {&A, &B}, {int64_t(uplo)});
    uplo = checked("grain::posv", "uplo", uplo);
    check_solve("grain::posv", A, B);
    if (const int info = nan_info<T>(NanCheck::Yes, {{&A, triangle(uplo), 4}, {&B, detail::Elements::All, 6}}))
        return info;
    // Two requests, so that B stays untouched when the factorization fails.
    const int info = wait_for_result(submit(A, [&](const Context& ctx) { algorithms::potrf(ctx, uplo, A); }), A);
    return info != 0 ? info
                     : wait_for_result(submit(A, [&](const Context& ctx) { algorithms::potrs(ctx, uplo, A, B); }), B);
}

template <typename T>
Request getrf_nopiv_async(Matrix<T>& A) {
    return getrf_nopiv_request(A, NanCheck::No);
}

template <typename T>
int getrf_nopiv(Matrix<T>& A) {
    return wait_for_result(getrf_nopiv_request(A, NanCheck::Yes), A);
}

template <typename T>
Request getrs_nopiv_async(const Matrix<T>& A, Matrix<T>& B) {
    return getrs_nopiv_request(A, B, NanCheck::No);
}

template <typename T>
int getrs_nopiv(const Matrix<T>& A, Matrix<T>& B) {
    return wait_for_result(getrs_nopiv_request(A, B, NanCheck::Yes), B);
}

template <typename T>
Request gesv_nopiv_async(Matrix<T>& A, Matrix<T>& B) {
    Collective call("grain::gesv_nopiv", {&A, &B});
    check_solve("grain::gesv_nopiv", A, B);
    return submit(A, [&](const Context& ctx) {
        algorithms::getrf_nopiv(ctx, A);
        algorithms::getrs_nopiv(ctx, A, B);
    });
}

template <typename T>
int gesv_nopiv(Matrix<T>& A, Matrix<T>& B) {
    Collective call("grain::gesv_nopiv", {&A, &B});
    check_solve("grain::gesv_nopiv", A, B);
    if (const int info = nan_info<T>(NanCheck::Yes, {{&A, detail::Elements::All, 3}, {&B, detail::Elements::All, 5}}))
        return info;
    // Two requests, so that B stays untouched when the factorization fails.
    const int info = wait_for_result(submit(A, [&](const Context& ctx) { algorithms::getrf_nopiv(ctx, A); }), A);
    return info != 0 ? info
                     : wait_for_result(submit(A, [&](const Context& ctx) { algorithms::getrs_nopiv(ctx, A, B); }), B);
}

// ---- LAPACK layout ----

template <typename T>
int gemm(Op transa, Op transb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
         int64_t ldb, T beta, T* c, int64_t ldc) {
    LayoutCall<T> call("grain::gemm");
    const char* routine = "grain::gemm";
    transa = checked<T>(routine, "transa", transa);
    transb = checked<T>(routine, "transb", transb);
    require_size(routine, "m", m), require_size(routine, "n", n), require_size(routine, "k", k);
    const std::vector<int> scales = layout_scales(std::max({m, n, k}));
    const bool na = transa == Op::NoTrans, nb = transb == Op::NoTrans;
    const Matrix<T> A = call.wrap("lda", na ? m : k, na ? k : m, a, lda, scales);
    const Matrix<T> B = call.wrap("ldb", nb ? k : n, nb ? n : k, b, ldb, scales);
    Matrix<T> C = call.wrap("ldc", m, n, c, ldc, scales);
    return call.run([&] { return gemm(transa, transb, alpha, A, B, beta, C); });
}

template <typename T>
int trsm(Side side, Uplo uplo, Op trans, Diag diag, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, T* b,
         int64_t ldb) {
    LayoutCall<T> call("grain::trsm");
    const char* routine = "grain::trsm";
    side = checked(routine, "side", side);
    uplo = checked(routine, "uplo", uplo);
    trans = checked<T>(routine, "trans", trans);
    diag = checked(routine, "diag", diag);
    require_size(routine, "m", m), require_size(routine, "n", n);
    const std::vector<int> scales = layout_scales(std::max(m, n));
    const int64_t order = side == Side::Left ? m : n;
    const Matrix<T> A = call.wrap("lda", order, order, a, lda, scales);
    Matrix<T> B = call.wrap("ldb", m, n, b, ldb, scales);
    return call.run([&] { return trsm(side, uplo, trans, diag, alpha, A, B); });
}

namespace {

// The LAPACK-layout syrk and herk: their arrays as matrices, then the tiled form.
template <typename T, typename Tiled>
int rank_k(const char* routine, bool hermitian, Uplo uplo, Op trans, int64_t n, int64_t k, const T* a, int64_t lda,
           T* c, int64_t ldc, Tiled tiled) {
    LayoutCall<T> call(routine);
    uplo = checked(routine, "uplo", uplo);
    trans = checked<T>(routine, "trans", trans, hermitian ? Ops::Hermitian : Ops::Symmetric);
    require_size(routine, "n", n), require_size(routine, "k", k);
    const std::vector<int> scales = layout_scales(std::max(n, k));
    const bool na = trans == Op::NoTrans;
    const Matrix<T> A = call.wrap("lda", na ? n : k, na ? k : n, a, lda, scales);
    Matrix<T> C = call.wrap("ldc", n, n, c, ldc, scales);
    return call.run([&] { return tiled(uplo, trans, A, C); });
}

}  // namespace

template <typename T>
int syrk(Uplo uplo, Op trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, T beta, T* c, int64_t ldc) {
    return rank_k("grain::syrk", false, uplo, trans, n, k, a, lda, c, ldc,
                  [&](Uplo u, Op t, const Matrix<T>& A, Matrix<T>& C) { return syrk(u, t, alpha, A, beta, C); });
}

template <typename T>
int herk(Uplo uplo, Op trans, int64_t n, int64_t k, real_type<T> alpha, const T* a, int64_t lda, real_type<T> beta,
         T* c, int64_t ldc) {
    return rank_k("grain::herk", true, uplo, trans, n, k, a, lda, c, ldc,
                  [&](Uplo u, Op t, const Matrix<T>& A, Matrix<T>& C) { return herk(u, t, alpha, A, beta, C); });
}

template <typename T>
int potrf(Uplo uplo, int64_t n, T* a, int64_t lda) {
    LayoutCall<T> call("grain::potrf");
    uplo = checked("grain::potrf", "uplo", uplo);
    require_size("grain::potrf", "n", n);
    const std::vector<int> scales = layout_scales(n);
    Matrix<T> A = call.wrap("lda", n, n, a, lda, scales);
    return call.run([&] { return potrf(uplo, A); });
}

template <typename T>
int potrs(Uplo uplo, int64_t n, int64_t nrhs, const T* a, int64_t lda, T* b, int64_t ldb) {
    LayoutCall<T> call("grain::potrs");
    uplo = checked("grain::potrs", "uplo", uplo);
    require_size("grain::potrs", "n", n), require_size("grain::potrs", "nrhs", nrhs);
    const std::vector<int> scales = layout_scales(n);
    const Matrix<T> A = call.wrap("lda", n, n, a, lda, scales);
    Matrix<T> B = call.wrap("ldb", n, nrhs, b, ldb, scales);
    return call.run([&] { return potrs(uplo, A, B); });
}

template <typename T>
int posv(Uplo uplo, int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb) {
    LayoutCall<T> call("grain::posv");
    uplo = checked("grain::posv", "uplo", uplo);
    require_size("grain::posv", "n", n), require_size("grain::posv", "nrhs", nrhs);
    const std::vector<int> scales = layout_scales(n);
    Matrix<T> A = call.wrap("lda", n, n, a, lda, scales);
    Matrix<T> B = call.wrap("ldb", n, nrhs, b, ldb, scales);
    return call.run([&] { return posv(uplo, A, B); });
}

template <typename T>
int getrf(int64_t m, int64_t n, T* a, int64_t lda, int* ipiv) {
    LayoutCall<T> call("grain::getrf");
    require_size("grain::getrf", "m", m), require_size("grain::getrf", "n", n);
    const std::vector<int> scales = layout_scales(std::max(m, n));
    Matrix<T> A = call.wrap("lda", m, n, a, lda, scales);
    Pivots p(std::min(m, n), ipiv);
    return call.run([&] { return getrf(A, p); });
}

template <typename T>
int getrs(Op trans, int64_t n, int64_t nrhs, const T* a, int64_t lda, const int* ipiv, T* b, int64_t ldb) {
    LayoutCall<T> call("grain::getrs");
    trans = checked<T>("grain::getrs", "trans", trans);
    require_size("grain::getrs", "n", n), require_size("grain::getrs", "nrhs", nrhs);
    const std::vector<int> scales = layout_scales(n);
    const Matrix<T> A = call.wrap("lda", n, n, a, lda, scales);
    Matrix<T> B = call.wrap("ldb", n, nrhs, b, ldb, scales);
    // Only read: the Pivots object writes nothing unless a factorization runs on it.
    const Pivots p(n, const_cast<int*>(ipiv));
    return call.run([&] { return getrs(trans, A, p, B); });
}

template <typename T>
int gesv(int64_t n, int64_t nrhs, T* a, int64_t lda, int* ipiv, T* b, int64_t ldb) {
    LayoutCall<T> call("grain::gesv");
    require_size("grain::gesv", "n", n), require_size("grain::gesv", "nrhs", nrhs);
    const std::vector<int> scales = layout_scales(n);
    Matrix<T> A = call.wrap("lda", n, n, a, lda, scales);
    Matrix<T> B = call.wrap("ldb", n, nrhs, b, ldb, scales);
    Pivots p(n, ipiv);
    return call.run([&] { return gesv(A, p, B); });
}

template <typename T>
int getrf_nopiv(int64_t m, int64_t n, T* a, int64_t lda) {
    LayoutCall<T> call("grain::getrf_nopiv");
    require_size("grain::getrf_nopiv", "m", m), require_size("grain::getrf_nopiv", "n", n);
    const std::vector<int> scales = layout_scales(std::max(m, n));
    Matrix<T> A = call.wrap("lda", m, n, a, lda, scales);
    return call.run([&] { return getrf_nopiv(A); });
}

template <typename T>
int getrs_nopiv(int64_t n, int64_t nrhs, const T* a, int64_t lda, T* b, int64_t ldb) {
    LayoutCall<T> call("grain::getrs_nopiv");
    require_size("grain::getrs_nopiv", "n", n), require_size("grain::getrs_nopiv", "nrhs", nrhs);
    const std::vector<int> scales = layout_scales(n);
    const Matrix<T> A = call.wrap("lda", n, n, a, lda, scales);
    Matrix<T> B = call.wrap("ldb", n, nrhs, b, ldb, scales);
    return call.run([&] { return getrs_nopiv(A, B); });
}

template <typename T>
int gesv_nopiv(int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb) {
    LayoutCall<T> call("grain::gesv_nopiv");
    require_size("grain::gesv_nopiv", "n", n), require_size("grain::gesv_nopiv", "nrhs", nrhs);
    const std::vector<int> scales = layout_scales(n);
    Matrix<T> A = call.wrap("lda", n, n, a, lda, scales);
    Matrix<T> B = call.wrap("ldb", n, nrhs, b, ldb, scales);
    return call.run([&] { return gesv_nopiv(A, B); });
}

#define GRAIN_INSTANTIATE(T)                                                                                    \
    template Request gemm_async<T>(Op, Op, T, const Matrix<T>&, const Matrix<T>&, T, Matrix<T>&);               \
    template int gemm<T>(Op, Op, T, const Matrix<T>&, const Matrix<T>&, T, Matrix<T>&);                         \
    template Request trsm_async<T>(Side, Uplo, Op, Diag, T, const Matrix<T>&, Matrix<T>&);                      \
    template int trsm<T>(Side, Uplo, Op, Diag, T, const Matrix<T>&, Matrix<T>&);                                \
    template Request syrk_async<T>(Uplo, Op, T, const Matrix<T>&, T, Matrix<T>&);                               \
    template int syrk<T>(Uplo, Op, T, const Matrix<T>&, T, Matrix<T>&);                                         \
    template Request herk_async<T>(Uplo, Op, real_type<T>, const Matrix<T>&, real_type<T>, Matrix<T>&);         \
    template int herk<T>(Uplo, Op, real_type<T>, const Matrix<T>&, real_type<T>, Matrix<T>&);                   \
    template int herk<T>(Uplo, Op, int64_t, int64_t, real_type<T>, const T*, int64_t, real_type<T>, T*, int64_t); \
    template Request potrf_async<T>(Uplo, Matrix<T>&);                                                          \
    template int potrf<T>(Uplo, Matrix<T>&);                                                                    \
    template Request potrs_async<T>(Uplo, const Matrix<T>&, Matrix<T>&);                                        \
    template int potrs<T>(Uplo, const Matrix<T>&, Matrix<T>&);                                                  \
    template Request posv_async<T>(Uplo, Matrix<T>&, Matrix<T>&);                                               \
    template int posv<T>(Uplo, Matrix<T>&, Matrix<T>&);                                                         \
    template Request getrf_async<T>(Matrix<T>&, Pivots&);                                                       \
    template int getrf<T>(Matrix<T>&, Pivots&);                                                                 \
    template Request getrs_async<T>(Op, const Matrix<T>&, const Pivots&, Matrix<T>&);                           \
    template int getrs<T>(Op, const Matrix<T>&, const Pivots&, Matrix<T>&);                                     \
    template Request gesv_async<T>(Matrix<T>&, Pivots&, Matrix<T>&);                                            \
    template int gesv<T>(Matrix<T>&, Pivots&, Matrix<T>&);                                                      \
    template int getrf<T>(int64_t, int64_t, T*, int64_t, int*);                                                 \
    template int getrs<T>(Op, int64_t, int64_t, const T*, int64_t, const int*, T*, int64_t);                    \
    template int gesv<T>(int64_t, int64_t, T*, int64_t, int*, T*, int64_t);                                     \
    template Request getrf_nopiv_async<T>(Matrix<T>&);                                                          \
    template int getrf_nopiv<T>(Matrix<T>&);                                                                    \
    template Request getrs_nopiv_async<T>(const Matrix<T>&, Matrix<T>&);                                        \
    template int getrs_nopiv<T>(const Matrix<T>&, Matrix<T>&);                                                  \
    template Request gesv_nopiv_async<T>(Matrix<T>&, Matrix<T>&);                                               \
    template int gesv_nopiv<T>(Matrix<T>&, Matrix<T>&);                                                         \
    template int gemm<T>(Op, Op, int64_t, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, T*,    \
                         int64_t);                                                                              \
    template int trsm<T>(Side, Uplo, Op, Diag, int64_t, int64_t, T, const T*, int64_t, T*, int64_t);            \
    template int syrk<T>(Uplo, Op, int64_t, int64_t, T, const T*, int64_t, T, T*, int64_t);                     \
    template int potrf<T>(Uplo, int64_t, T*, int64_t);                                                          \
    template int potrs<T>(Uplo, int64_t, int64_t, const T*, int64_t, T*, int64_t);                              \
    template int posv<T>(Uplo, int64_t, int64_t, T*, int64_t, T*, int64_t);                                     \
    template int getrf_nopiv<T>(int64_t, int64_t, T*, int64_t);                                                 \
    template int getrs_nopiv<T>(int64_t, int64_t, const T*, int64_t, T*, int64_t);                              \
    template int gesv_nopiv<T>(int64_t, int64_t, T*, int64_t, T*, int64_t);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain
