// The QR operations: geqrf and gelqf (the factorizations), unmqr (Q^H applied to a
// right-hand side after an untimed geqrf), ungqr (Q made explicit after one), gels.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "src/base/kernel_table.hpp"
#include "testing_drivers/testing/run_common.hpp"

namespace grain::testing::driver {

namespace {

using grain::detail::Kernel;
using grain::detail::kernel_flops;

// Q1, the first k columns of Q (QR) or rows (LQ), from grain's factors: Q [I; 0] or [I 0] Q.
template <typename T>
Array<T> leading_q(const Run& r, bool lq, const grain::Matrix<T>& factored, grain::QrFactors<T>& F) {
    const int64_t m = factored.m(), n = factored.n(), k = std::min(m, n);
    Array<T> q(lq ? k : m, lq ? n : k);
    for (int64_t i = 0; i < k; ++i) q(i, i) = T(1);
    const WorkersRunning running;
    grain::Matrix<T> Q(q.m, q.n, r.c.scales, q.data(), q.ld());
    if (lq)
        grain::unmlq(Side::Right, Op::NoTrans, factored, F, Q);
    else
        grain::unmqr(Side::Left, Op::NoTrans, factored, F, Q);
    return q;
}

// geqrf and gelqf (`lq`) of a random m x n matrix; --check: dqrt02's residuals.
template <typename T, bool lq>
Result run_factor(const Run& r) {
    const Case& c = r.c;
    Factorization<T> f(r, c.m, Kind::General, false);
    grain::QrFactors<T> F(r.options.qr_tree, r.options.qr_domain);
    Result res;
    run_grain(r, res, [&] {
        grain::Matrix<T> tF = in_place(r, f.F);
        res.info = lq ? grain::gelqf(tF, F) : grain::geqrf(tF, F);
    });
    const BlasThreads blas_threads(r.threads);
    const bool gpu_baseline = !lq && r.gpu_vendor();  // cuSOLVER's geqrf (it has no gelqf), else LAPACKE's
    if (r.options.vendor && !gpu_baseline) {
        Array<T> vA = f.A;
        std::vector<T> tau(size_t(std::min(c.m, c.n)) + 1);
        res.vendor_time = timed([&] {
            if (lq)
                blas::gelqf(int(c.m), int(c.n), vA.data(), vA.ld(), tau.data());
            else
                blas::geqrf(int(c.m), int(c.n), vA.data(), vA.ld(), tau.data());
        });
    }
    if (r.options.check) {
        const grain::Matrix<T> tF(c.m, c.n, c.scales, f.F.data(), f.F.ld());
        res.residual = qr_residual(lq, f.A, f.F, leading_q(r, lq, tF, F));
    }
#ifdef GRAIN_USE_CUDA
    // After the check: cuSOLVER's factors come back into grain's, no longer needed.
    if (gpu_baseline) set_vendor(res, gpu::geqrf(c.m, c.n, f.A.data(), f.A.ld(), f.F.data(), f.F.ld(), r.runtime.gpu_memory()));
#endif
    return res;
}

// The QR of f.F in place, untimed, before the operation that reads it; its info.
template <typename T>
int untimed_geqrf(const Run& r, Factorization<T>& f, grain::QrFactors<T>& F) {
    const WorkersRunning running;
    grain::Matrix<T> tF = in_place(r, f.F);
    return grain::geqrf(tF, F);
}

// unmqr: C = Q^H C, C m x nrhs, Q from an untimed geqrf of a random m x n A; --check:
// ||Q (Q^H C) - C||_1 / (||C||_1 m eps), Q applied back by grain, with geqrf's residuals.
template <typename T>
Result run_unmqr(const Run& r) {
    const Case& c = r.c;
    Factorization<T> f(r, c.m, Kind::General, false);
    Array<T> C = random_array<T>(c.m, c.nrhs, Kind::General, r.rng), X = C;
    grain::QrFactors<T> F(r.options.qr_tree, r.options.qr_domain);
    Result res;
    res.info = untimed_geqrf(r, f, F);
    const grain::Matrix<T> tF(c.m, c.n, c.scales, f.F.data(), f.F.ld());
    run_grain(r, res, [&] {
        grain::Matrix<T> tX = in_place(r, X);
        res.info = std::max(res.info, grain::unmqr(Side::Left, grain::detail::conj_trans<T>(), tF, F, tX));
    });
    const BlasThreads blas_threads(r.threads);
    if (r.options.vendor && !r.gpu_vendor()) {  // LAPACK's own factors, untimed, then its Q^H applied
        Array<T> vA = f.A, vC = C;
        std::vector<T> tau(size_t(std::min(c.m, c.n)) + 1);
        blas::geqrf(int(c.m), int(c.n), vA.data(), vA.ld(), tau.data());
        res.vendor_time = timed([&] {
            blas::unmqr(Side::Left, grain::detail::conj_trans<T>(), int(c.m), int(c.nrhs), int(std::min(c.m, c.n)),
                        vA.data(), vA.ld(), tau.data(), vC.data(), vC.ld());
        });
    }
    if (r.options.check) {
        Array<T> back = X;
        {
            const WorkersRunning running;
            grain::Matrix<T> tB(c.m, c.nrhs, c.scales, back.data(), back.ld());
            grain::unmqr(Side::Left, Op::NoTrans, tF, F, tB);
        }
        const double applied = factor_residual(C, back) * double(std::max(c.m, c.nrhs)) / double(std::max<int64_t>(c.m, 1));
        res.residual = std::max(applied, qr_residual(false, f.A, f.F, leading_q(r, false, tF, F)));
    }
#ifdef GRAIN_USE_CUDA
    // cuSOLVER's own factors, untimed, then its Q^H applied.
    if (r.gpu_vendor()) {
        Array<T> out(c.m, c.nrhs);
        set_vendor(res, gpu::unmqr(c.m, c.n, c.nrhs, f.A.data(), f.A.ld(), C.data(), C.ld(), out.data(), out.ld(),
                                   r.runtime.gpu_memory()));
    }
#endif
    return res;
}

// ungqr: Q's first n columns from an untimed geqrf of a random m x n A (m >= n); --check:
// dqrt02's residuals on that Q; --vendor: LAPACKE's orgqr or ungqr after its own geqrf.
template <typename T>
Result run_ungqr(const Run& r) {
    const Case& c = r.c;
    if (c.m < c.n) throw std::invalid_argument("ungqr: m must be at least n (Q is m x n)");
    Factorization<T> f(r, c.m, Kind::General, false);
    grain::QrFactors<T> F(r.options.qr_tree, r.options.qr_domain);
    Result res;
    res.info = untimed_geqrf(r, f, F);
    const grain::Matrix<T> tF(c.m, c.n, c.scales, f.F.data(), f.F.ld());
    Array<T> q(c.m, c.n);
    run_grain(r, res, [&] {
        grain::Matrix<T> tQ = in_place(r, q);
        res.info = std::max(res.info, grain::ungqr(tF, F, tQ));
    });
    const BlasThreads blas_threads(r.threads);
    if (r.options.vendor) {
        Array<T> vA = f.A;
        std::vector<T> tau(size_t(c.n) + 1);
        blas::geqrf(int(c.m), int(c.n), vA.data(), vA.ld(), tau.data());
        res.vendor_time = timed([&] { blas::ungqr(int(c.m), int(c.n), int(c.n), vA.data(), vA.ld(), tau.data()); });
    }
    if (r.options.check) res.residual = qr_residual(false, f.A, f.F, q);
    return res;
}

// gels: the least-squares solution of a random m x n system (m >= n), or the minimum-norm
// one (m < n), nrhs right-hand sides; --check: LAPACK's dqrt17 (m > n: the residual
// orthogonal to A's columns, ||A^H (B - A X)|| / (||A|| ||B|| max(m, n, nrhs) eps)) or dqrt16
// (||B - A X|| / (||A|| ||X|| max(m, n) eps)), 1-norms; --vendor: LAPACKE's gels.
template <typename T>
Result run_gels(const Run& r) {
    const Case& c = r.c;
    const int64_t rows = std::max(c.m, c.n);
    Factorization<T> f(r, c.m, Kind::General, false);
    const Array<T> B = random_array<T>(rows, c.nrhs, Kind::General, r.rng);
    Array<T> X = B;
    Result res;
    run_grain(r, res, [&] {
        grain::Matrix<T> tF = in_place(r, f.F), tX = in_place(r, X);
        res.info = grain::gels(Op::NoTrans, tF, tX);
    });
    const BlasThreads blas_threads(r.threads);
    if (r.options.vendor) {
        Array<T> vA = f.A, vB = B;
        res.vendor_time = timed([&] {
            blas::gels(Op::NoTrans, int(c.m), int(c.n), int(c.nrhs), vA.data(), vA.ld(), vB.data(), vB.ld());
        });
    }
    if (r.options.check) {
        const int m = int(c.m), n = int(c.n), nrhs = int(c.nrhs);
        const double eps = std::numeric_limits<real_t<T>>::epsilon();
        Array<T> residual(m, nrhs);  // B - A X, X the solution's first n rows
        for (int j = 0; j < nrhs; ++j)
            for (int i = 0; i < m; ++i) residual(i, j) = B(i, j);
        if (m > 0 && n > 0 && nrhs > 0)
            blas::gemm(Op::NoTrans, Op::NoTrans, m, nrhs, n, T(-1), f.A.data(), f.A.ld(), X.data(), X.ld(), T(1),
                       residual.data(), residual.ld());
        if (m > n) {
            Array<T> normal(n, nrhs);
            blas::gemm(grain::detail::conj_trans<T>(), Op::NoTrans, n, nrhs, m, T(1), f.A.data(), f.A.ld(),
                       residual.data(), residual.ld(), T(0), normal.data(), normal.ld());
            const double scale = double(norm('1', f.A)) * double(norm('1', B)) * double(std::max<int64_t>({c.m, c.n, c.nrhs})) * eps;
            res.residual = double(norm('1', normal)) / scale;
        } else {
            Array<T> x(n, nrhs);
            for (int j = 0; j < nrhs; ++j)
                for (int i = 0; i < n; ++i) x(i, j) = X(i, j);
            const double scale = double(norm('1', f.A)) * double(norm('1', x)) * double(std::max(m, n)) * eps;
            res.residual = double(norm('1', residual)) / scale;
        }
    }
    return res;
}

template <typename T>
Result run_geqrf(const Run& r) { return run_factor<T, false>(r); }
template <typename T>
Result run_gelqf(const Run& r) { return run_factor<T, true>(r); }

// The kernel table's counts: LAPACK Working Note 41's for an m x n QR (LQ when wider).
double factor_flops(const Case& c) {
    return c.m >= c.n ? kernel_flops(Kernel::Geqrt, double(c.m), double(c.n), 0)
                      : kernel_flops(Kernel::Gelqt, double(c.m), double(c.n), 0);
}
double unmqr_flops(const Case& c) {
    return kernel_flops(Kernel::Gemqrt, double(c.m), double(c.nrhs), double(std::min(c.m, c.n)));
}
// LAPACK's gels: the factorization, Q^H B (Q B for the minimum norm) and the solve.
double gels_flops(const Case& c) {
    const double k = double(std::min(c.m, c.n)), rows = double(std::max(c.m, c.n)), nrhs = double(c.nrhs);
    return factor_flops(c) + kernel_flops(Kernel::Gemqrt, rows, nrhs, k) + k * k * nrhs;
}

// A and its copy; the factors (2 ib/nb of A, their blocks whole); the vendor's copy and
// tau; the check's Q1, product and Gram matrix. unmqr: C, its copy and the check's.
uint64_t qr_bytes(const Options& o, const Case& c) {
    const int64_t k = std::min(c.m, c.n), nb = c.scales.empty() ? 1 : c.scales.front();
    const int64_t blocks = 2 * ((c.m + nb - 1) / nb) * ((c.n + nb - 1) / nb);
    const uint64_t a = array_bytes(c, c.m, c.n),
                   factors = times(uint64_t(blocks), array_bytes(c, grain::detail::qr_inner_block(int(nb)), nb));
    const uint64_t rhs = c.nrhs > 0 ? times(array_bytes(c, std::max(c.m, c.n), c.nrhs), 3) : 0;
    const uint64_t vendor = o.vendor ? add(add(a, array_bytes(c, k + 1, 1)), rhs / 3) : 0;
    const uint64_t check = o.check ? add(add(array_bytes(c, c.m, c.n), add(a, a)), array_bytes(c, k, k)) : 0;
    return add(add(add(times(a, 2), factors), rhs), std::max(vendor, check));
}

const Registered qr{
    // name, residual bound, runner, flops, bytes, whether it reads -m, -k, --nrhs, workload
    {"geqrf", 30, GRAIN_BY_PRECISION(run_geqrf), factor_flops, qr_bytes, true, false, false, grain::Workload::Qr},
    {"gelqf", 30, GRAIN_BY_PRECISION(run_gelqf), factor_flops, qr_bytes, true, false, false, grain::Workload::Qr},
    {"unmqr", 30, GRAIN_BY_PRECISION(run_unmqr), unmqr_flops, qr_bytes, true, false, true, grain::Workload::Qr},
    {"ungqr", 30, GRAIN_BY_PRECISION(run_ungqr), factor_flops, qr_bytes, true, false, false, grain::Workload::Qr},
    {"gels", 30, GRAIN_BY_PRECISION(run_gels), gels_flops, qr_bytes, true, false, true, grain::Workload::Qr},
};

}  // namespace
}  // namespace grain::testing::driver
