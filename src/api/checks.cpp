#include "checks.hpp"

#include <cctype>
#include <optional>

#include "grain/runtime.hpp"
#include "src/base/constants.hpp"
#include "src/base/overlap.hpp"
#include "src/starpu/matrix_access.hpp"
#include "src/starpu/pivot_storage.hpp"

namespace grain::detail {

std::string text(int64_t value) { return std::to_string(value); }

std::string ladder_problem(const std::vector<int>& scales) {
    if (scales.empty() || scales.size() > size_t(max_levels)) return "1 to " + std::to_string(max_levels) + " scales";
    for (size_t l = 0; l < scales.size(); ++l) {
        if (scales[l] <= 0) return "scales must be > 0";
        if (l > 0 && (scales[l] >= scales[l - 1] || scales[l - 1] % scales[l] != 0))
            return "each scale must be smaller than the one above it and divide it";
    }
    return "";
}

void require_runtime(const char* routine) {
    if (!Runtime::active())
        throw runtime_error(std::string(routine) + ": no grain::Runtime is alive; create one first");
}

void require_size(const char* routine, const char* name, int64_t value) {
    require(value >= 0, routine, name, text(value), "must be >= 0");
}

void require_rows(const char* routine, const char* name, int64_t rows, int64_t expected, const std::string& what) {
    require(rows == expected, routine, name, text(rows), "must equal " + what + " = " + text(expected));
}

namespace {

// Where a view of a user's array is in memory; none for a view of grain's own storage,
// which no other grid shares.
template <typename T>
std::optional<Block> user_block(const Matrix<T>& A) {
    const TileStorage<T>& s = MatrixAccess::storage(A);
    if (!s.over_user_array() || A.m() == 0 || A.n() == 0) return std::nullopt;
    const T* first = s.tile_data(MatrixAccess::first_tile_row(A), MatrixAccess::first_tile_col(A));
    return Block{reinterpret_cast<std::uintptr_t>(first), A.m(), A.n(), s.tile_ld(0), int64_t(sizeof(T))};
}

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

}  // namespace

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
        shared = overlap(*o, *i);
    }
    require(!shared, routine, out_name, "a view sharing elements with " + std::string(in_name),
            "an output must not share an element with another argument");
}

template <typename T>
void require_disjoint(const char* routine, const Pivots& ipiv, const Matrix<T>& M, const char* name) {
    const int* user = PivotAccess::storage(ipiv).user_array();
    const auto m = user_block(M);
    if (!user || !m) return;
    const Block pivots{reinterpret_cast<std::uintptr_t>(user), ipiv.size(), 1, ipiv.size(), int64_t(sizeof(int))};
    require(!overlap(pivots, *m), routine, "ipiv", "an array sharing elements with " + std::string(name),
            "the pivots must not share an element with a matrix of the call");
}

void require_pivots(const char* routine, const Pivots& ipiv, int64_t order) {
    const int* p = ipiv.data();
    for (int64_t i = 0; i < ipiv.size(); ++i)
        require(p[i] > i && p[i] <= order, routine, "ipiv[" + text(i) + "]", text(p[i]),
                "must be in [" + text(i + 1) + ", " + text(order) + "]: row " + text(i + 1) +
                    " is interchanged with itself or a row below it, as getrf writes them");
}

Uplo checked(const char* routine, const char* name, Uplo v) {
    return checked(routine, name, v, {{'L', Uplo::Lower}, {'U', Uplo::Upper}},
                   "must be Uplo::Lower ('L') or Uplo::Upper ('U')");
}

Side checked(const char* routine, const char* name, Side v) {
    return checked(routine, name, v, {{'L', Side::Left}, {'R', Side::Right}},
                   "must be Side::Left ('L') or Side::Right ('R')");
}

Diag checked(const char* routine, const char* name, Diag v) {
    return checked(routine, name, v, {{'N', Diag::NonUnit}, {'U', Diag::Unit}},
                   "must be Diag::NonUnit ('N') or Diag::Unit ('U')");
}

Norm checked(const char* routine, const char* name, Norm v) {
    return checked(routine, name, v,
                   {{'M', Norm::Max}, {'O', Norm::One}, {'1', Norm::One}, {'I', Norm::Inf}, {'F', Norm::Frobenius},
                    {'E', Norm::Frobenius}},
                   "must be Norm::Max ('M'), Norm::One ('O', '1'), Norm::Inf ('I') or Norm::Frobenius ('F', 'E')");
}

Op checked_op(const char* routine, const char* name, Op v, bool complex, Ops ops) {
    if (!complex)
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

#define GRAIN_INSTANTIATE(T)                                                                                    \
    template void require_disjoint<T>(const char*, const Matrix<T>&, const char*, const Matrix<T>&, const char*); \
    template void require_disjoint<T>(const char*, const Pivots&, const Matrix<T>&, const char*);
GRAIN_FOR_EACH_PRECISION(GRAIN_INSTANTIATE)
#undef GRAIN_INSTANTIATE

}  // namespace grain::detail
