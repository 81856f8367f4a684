#include "testing_drivers/testing/scalapack.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef GRAIN_HAVE_SCALAPACK
#include <mpi.h>

// BLACS and ScaLAPACK have no C header on Debian: their Fortran symbols (LP64), and the
// BLACS C interface, as their reference documentation gives them.
extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int rows, int cols);
void Cblacs_gridinfo(int context, int* rows, int* cols, int* row, int* col);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc,
               const int* icsrc, const int* context, const int* lld, int* info);
#define GRAIN_SCALAPACK_DECLARE(T, p)                                                                         \
    void p##gemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const T* alpha,   \
                  const T* a, const int* ia, const int* ja, const int* desca, const T* b, const int* ib,      \
                  const int* jb, const int* descb, const T* beta, T* c, const int* ic, const int* jc,         \
                  const int* descc);                                                                          \
    void p##potrf_(const char* uplo, const int* n, T* a, const int* ia, const int* ja, const int* desca,      \
                   int* info);                                                                                \
    void p##getrf_(const int* m, const int* n, T* a, const int* ia, const int* ja, const int* desca, int* ipiv, \
                   int* info);
GRAIN_SCALAPACK_DECLARE(float, ps)
GRAIN_SCALAPACK_DECLARE(double, pd)
GRAIN_SCALAPACK_DECLARE(std::complex<float>, pc)
GRAIN_SCALAPACK_DECLARE(std::complex<double>, pz)
#undef GRAIN_SCALAPACK_DECLARE
}
#endif

namespace grain::testing::driver::scalapack {

#ifdef GRAIN_HAVE_SCALAPACK
namespace {

#define GRAIN_SCALAPACK_OVERLOADS(T, p)                                                                       \
    void pgemm(const char* ta, const char* tb, const int* m, const int* n, const int* k, const T* alpha,      \
               const T* a, const int* ia, const int* ja, const int* da, const T* b, const int* ib,             \
               const int* jb, const int* db, const T* beta, T* c, const int* ic, const int* jc, const int* dc) { \
        p##gemm_(ta, tb, m, n, k, alpha, a, ia, ja, da, b, ib, jb, db, beta, c, ic, jc, dc);                 \
    }                                                                                                         \
    void ppotrf(const char* uplo, const int* n, T* a, const int* ia, const int* ja, const int* da, int* info) { \
        p##potrf_(uplo, n, a, ia, ja, da, info);                                                              \
    }                                                                                                         \
    void pgetrf(const int* m, const int* n, T* a, const int* ia, const int* ja, const int* da, int* ipiv,    \
                int* info) {                                                                                  \
        p##getrf_(m, n, a, ia, ja, da, ipiv, info);                                                           \
    }
GRAIN_SCALAPACK_OVERLOADS(float, ps)
GRAIN_SCALAPACK_OVERLOADS(double, pd)
GRAIN_SCALAPACK_OVERLOADS(std::complex<float>, pc)
GRAIN_SCALAPACK_OVERLOADS(std::complex<double>, pz)
#undef GRAIN_SCALAPACK_OVERLOADS

// The BLACS grid of the run's distribution, made once: its ranks row-major, as grain's
// block_cyclic places them.
struct Grid {
    int context = -1, rows = 0, cols = 0, row = -1, col = -1;
};

const Grid& grid_of(const Distribution& d) {
    static Grid g;
    if (d.p() < 1 || d.q() < 1) throw std::invalid_argument("--vendor under mpirun: ScaLAPACK needs a block-cyclic grid");
    if (g.context < 0 || g.rows != d.p() || g.cols != d.q()) {
        Cblacs_get(-1, 0, &g.context);
        Cblacs_gridinit(&g.context, "Row", d.p(), d.q());
        Cblacs_gridinfo(g.context, &g.rows, &g.cols, &g.row, &g.col);
    }
    return g;
}

// This process's part of an m x n array: its blocks of the 2D block-cyclic layout, as
// ScaLAPACK stores them (column-major, leading dimension its local rows), and their
// descriptor.
template <typename T>
struct Local {
    std::vector<T> a;
    int desc[9];

    Local(const Grid& g, int nb, const Array<T>& x) {
        const int m = int(x.m), n = int(x.n), zero = 0;
        const int rows = numroc_(&m, &nb, &g.row, &zero, &g.rows);
        const int cols = numroc_(&n, &nb, &g.col, &zero, &g.cols), lld = std::max(1, rows);
        a.resize(size_t(lld) * size_t(cols));
        // Local block b holds global block b * (processes) + this process's coordinate.
        const auto global = [nb](int local, int coordinate, int processes) {
            return int64_t(local / nb * processes + coordinate) * nb + local % nb;
        };
        for (int j = 0; j < cols; ++j)
            for (int i = 0; i < rows; ++i)
                a[size_t(i) + size_t(j) * size_t(lld)] = x(global(i, g.row, g.rows), global(j, g.col, g.cols));
        int info = 0;
        descinit_(desc, &m, &n, &nb, &nb, &zero, &zero, &g.context, &lld, &info);
        if (info != 0) throw std::runtime_error("ScaLAPACK's descinit returned info " + std::to_string(info));
    }
};

// The seconds of `call` on every process, between barriers.
template <typename F>
double between_barriers(F&& call) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    call();
    MPI_Barrier(MPI_COMM_WORLD);
    return MPI_Wtime() - start;
}

void require_zero(const char* routine, int info) {
    if (info != 0) throw std::runtime_error(std::string("ScaLAPACK's ") + routine + " returned info " + std::to_string(info));
}

}  // namespace

bool available() { return true; }

template <typename T>
double gemm(const Distribution& d, int nb, T alpha, const Array<T>& A, const Array<T>& B, T beta, const Array<T>& C) {
    const Grid& g = grid_of(d);
    Local<T> a(g, nb, A), b(g, nb, B), c(g, nb, C);
    const int m = int(C.m), n = int(C.n), k = int(A.n), one = 1;
    return between_barriers([&] {
        pgemm("N", "N", &m, &n, &k, &alpha, a.a.data(), &one, &one, a.desc, b.a.data(), &one, &one, b.desc, &beta,
              c.a.data(), &one, &one, c.desc);
    });
}

template <typename T>
double potrf(const Distribution& d, int nb, Uplo uplo, const Array<T>& A) {
    const Grid& g = grid_of(d);
    Local<T> a(g, nb, A);
    const int n = int(A.n), one = 1;
    const char u = char(uplo);
    int info = 0;
    const double seconds = between_barriers([&] { ppotrf(&u, &n, a.a.data(), &one, &one, a.desc, &info); });
    require_zero("p?potrf", info);
    return seconds;
}

template <typename T>
double getrf(const Distribution& d, int nb, const Array<T>& A) {
    const Grid& g = grid_of(d);
    Local<T> a(g, nb, A);
    const int m = int(A.m), n = int(A.n), one = 1, zero = 0;
    // The pivots of this process's block rows, and one block more (p?getrf's LOCr(m) + nb).
    std::vector<int> ipiv(size_t(numroc_(&m, &nb, &g.row, &zero, &g.rows) + nb));
    int info = 0;
    const double seconds = between_barriers([&] { pgetrf(&m, &n, a.a.data(), &one, &one, a.desc, ipiv.data(), &info); });
    require_zero("p?getrf", info);
    return seconds;
}

#else

bool available() { return false; }

template <typename T>
double gemm(const Distribution&, int, T, const Array<T>&, const Array<T>&, T, const Array<T>&) {
    return std::numeric_limits<double>::quiet_NaN();
}
template <typename T>
double potrf(const Distribution&, int, Uplo, const Array<T>&) {
    return std::numeric_limits<double>::quiet_NaN();
}
template <typename T>
double getrf(const Distribution&, int, const Array<T>&) {
    return std::numeric_limits<double>::quiet_NaN();
}

#endif

#define GRAIN_INSTANTIATE(T)                                                                                    \
    template double gemm<T>(const Distribution&, int, T, const Array<T>&, const Array<T>&, T, const Array<T>&); \
    template double potrf<T>(const Distribution&, int, Uplo, const Array<T>&);                              \
    template double getrf<T>(const Distribution&, int, const Array<T>&);
GRAIN_INSTANTIATE(float)
GRAIN_INSTANTIATE(double)
GRAIN_INSTANTIATE(std::complex<float>)
GRAIN_INSTANTIATE(std::complex<double>)
#undef GRAIN_INSTANTIATE

}  // namespace grain::testing::driver::scalapack
