#pragma once
// Enumerations shared by the public API (BLAS/LAPACK conventions).
#include <complex>
#include <cstdint>

namespace grain {

enum class Uplo : char { Lower = 'L', Upper = 'U' };
// ConjTrans is the conjugate transpose; in real precisions it means Trans, as in BLAS.
enum class Op : char { NoTrans = 'N', Trans = 'T', ConjTrans = 'C' };
enum class Side : char { Left = 'L', Right = 'R' };
enum class Diag : char { NonUnit = 'N', Unit = 'U' };
// A matrix norm, as LAPACK's lange names them: the largest |a_ij| (not a norm), the
// largest column sum of |a_ij| ('O', also '1'), the largest row sum, the Frobenius norm
// ('F', also 'E').
enum class Norm : char { Max = 'M', One = 'O', Inf = 'I', Frobenius = 'F' };
// What a call does, as the automatic granularity weighs it (grain::automatic_scales): its
// bulk of tile updates and the chain of tile kernels each step of it waits for.
enum class Workload : char {
    Product = 'P',    // gemm, trsm, syrk, herk: each output tile a chain of updates
    Cholesky = 'C',   // potrf and its solves: potrf, trsm, syrk per step
    Lu = 'L',         // getrf_nopiv and its solves: getrf_nopiv, trsm, gemm per step
    PivotedLu = 'G',  // getrf and its solves: the LU of a whole column, trsm, gemm per step
    Qr = 'Q',         // geqrf, gels, ungqr: a column of QR kernels, its updates per step
};

// The real type of a precision: herk's alpha and beta, a norm.
template <typename T>
struct real_of {
    using type = T;
};
template <typename R>
struct real_of<std::complex<R>> {
    using type = R;
};
template <typename T>
using real_type = typename real_of<T>::type;

}  // namespace grain
