#pragma once
// The routines' argument checks: each throws grain::invalid_argument naming the routine,
// the argument, its value and the rule it breaks, before anything is submitted.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "grain/errors.hpp"
#include "grain/matrix.hpp"
#include "grain/pivots.hpp"
#include "grain/types.hpp"
#include "src/base/scalar_traits.hpp"

namespace grain::detail {

std::string text(int64_t value);

inline void require(bool ok, const char* routine, const std::string& argument, const std::string& value,
                    const std::string& why) {
    if (!ok) throw invalid_argument(routine, argument, value, why);
}

// What is wrong with a ladder of tile scales (1 to max_levels, positive, largest first,
// each dividing the one above); empty if nothing.
std::string ladder_problem(const std::vector<int>& scales);

// A Runtime must be alive (grain::runtime_error otherwise).
void require_runtime(const char* routine);
void require_size(const char* routine, const char* name, int64_t value);
void require_rows(const char* routine, const char* name, int64_t rows, int64_t expected, const std::string& what);

// One tile size and one ladder per call.
template <typename T>
void require_same_tiles(const char* routine, const Matrix<T>& A, const char* name, const Matrix<T>& X) {
    require(X.nb() == A.nb(), routine, std::string(name) + ".nb", text(X.nb()),
            "must equal A.nb = " + text(A.nb()) + " (one tile size per call)");
    require(X.scales() == A.scales() && X.level() == A.level(), routine, std::string(name) + ".scales",
            "another ladder", "must equal A's tile scales (one ladder per call)");
}

template <typename T>
void require_square(const char* routine, const char* name, const Matrix<T>& A) {
    require(A.m() == A.n(), routine, std::string(name) + ".n", text(A.n()),
            "must equal " + std::string(name) + ".m = " + text(A.m()) + " (square matrix)");
}

// An output must not share an element with another operand of the same call: views of
// one grid must share no tile; views of grids over user arrays (two Matrix objects, or
// LAPACK-layout pointers, over one array) must share no element.
template <typename T>
void require_disjoint(const char* routine, const Matrix<T>& out, const char* out_name, const Matrix<T>& in,
                      const char* in_name);

// Pivots over a user's array must not share an element with a matrix of the same call
// over a user's array: the routine writes one of the two.
template <typename T>
void require_disjoint(const char* routine, const Pivots& ipiv, const Matrix<T>& M, const char* name);

// The indices a solve applies, as getrf writes them: ipiv[i] in [i + 1, order]. Reading
// them waits for the tasks writing them.
void require_pivots(const char* routine, const Pivots& ipiv, int64_t order);

// The routines not yet written for distributed matrices (getri's column interchanges run
// along rows of tiles, which a distributed matrix spreads over processes; QR's trees; the
// mixed-precision solves' conversions) refuse them, naming the operand.
template <typename T>
void require_local(const char* routine, const Matrix<T>& A, const char* name = "A") {
    require(!A.distributed(), routine, name, "a distributed matrix",
            "this routine runs on one process only, for now (getrf, getrs, gesv, potrf, potrs and posv run "
            "distributed)");
}

// B's rows are the order of a square A, as a solve needs; B is the output.
template <typename T>
void check_solve(const char* routine, const Matrix<T>& A, const Matrix<T>& B) {
    require_runtime(routine);
    require_same_tiles(routine, A, "B", B);
    require_square(routine, "A", A);
    require_rows(routine, "B.m", B.m(), A.n(), "the order of A");
    require_disjoint(routine, B, "B", A, "A");
}

// Enum arguments as LAPACK reads them: either case; anything else is refused, naming the
// argument. Each returns the value it means.
Uplo checked(const char* routine, const char* name, Uplo v);
Side checked(const char* routine, const char* name, Side v);
Diag checked(const char* routine, const char* name, Diag v);
Norm checked(const char* routine, const char* name, Norm v);

// An op of precision T: 'C' is ConjTrans in complex precisions, Trans in real ones. In
// complex precisions syrk takes no ConjTrans and herk no Trans, as BLAS's.
enum class Ops { All, Symmetric, Hermitian };
Op checked_op(const char* routine, const char* name, Op v, bool complex, Ops ops);

template <typename T>
Op checked(const char* routine, const char* name, Op v, Ops ops = Ops::All) {
    return checked_op(routine, name, v, scalar_traits<T>::is_complex, ops);
}

}  // namespace grain::detail
