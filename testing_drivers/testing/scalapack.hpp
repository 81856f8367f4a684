#pragma once
// ScaLAPACK, the distributed baseline of --vendor under mpirun: p?gemm, p?potrf and p?getrf on the
// run's P x Q process grid with grain's distribution (2D block-cyclic over
// row-major ranks, nb x nb blocks), each process's part cut from the whole matrices every
// process of the driver holds. Each returns the call's seconds between two barriers (the
// slowest process's time), or NaN where the driver was built without ScaLAPACK.
#include <grain/distribution.hpp>
#include <grain/types.hpp>

#include "testing_drivers/checks.hpp"

namespace grain::testing::driver::scalapack {

bool available();

// C = alpha A B + beta C, no transposes.
template <typename T>
double gemm(const Distribution& grid, int nb, T alpha, const Array<T>& A, const Array<T>& B, T beta,
            const Array<T>& C);
// The Cholesky factorization of A's uplo triangle.
template <typename T>
double potrf(const Distribution& grid, int nb, Uplo uplo, const Array<T>& A);
// LU with partial pivoting of A.
template <typename T>
double getrf(const Distribution& grid, int nb, const Array<T>& A);

}  // namespace grain::testing::driver::scalapack
