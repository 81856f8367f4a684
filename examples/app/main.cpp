#include <grain/grain.hpp>
#include <algorithm>
#include <cmath>
#include <vector>
int main() {
    grain::Runtime runtime;                  // StarPU up; workers from options or environment
    const int n = 1000;
    std::vector<double> a(n * n);            // an SPD matrix, column-major
    auto fill = [&] {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) a[i + j * n] = (i == j) ? n : 1.0 / (1 + i + j);
    };
    fill();
    grain::Matrix<double> A(n, n, 256);      // m, n, tile size
    A.from_lapack(a.data(), n);
    const int info = grain::potrf(grain::Uplo::Lower, A);
    A.to_lapack(a.data(), n);
    fill();
    const int info2 = grain::potrf(grain::Uplo::Lower, n, a.data(), n);   // LAPACK-layout overload
    // A general system A x = b, by LU with partial pivoting: a zero leading element
    // needs the pivoting. x = (1, ..., 1) solves it.
    fill();
    a[0] = 0;
    std::vector<double> b(n, 0.0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) b[i] += a[i + j * n];
    std::vector<int> ipiv(n);
    const int info3 = grain::gesv(n, 1, a.data(), n, ipiv.data(), b.data(), n);
    double error = 0;
    for (double x : b) error = std::max(error, std::abs(x - 1));
    return info != 0 ? info : info2 != 0 ? info2 : info3 != 0 ? info3 : error > 1e-8 ? 99 : 0;
}
