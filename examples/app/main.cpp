#include <grain/grain.hpp>
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
    return info != 0 ? info : info2;
}
