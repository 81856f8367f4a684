// Tile QR and LQ: geqrf's (gelqf's) factors reproduce A (‖A - Q R‖ / (‖A‖ max(m, n) eps)),
// its Q is unitary (‖I - Q^H Q‖ / (order eps)), below LAPACK's threshold of 30, under both
// trees, on square, tall, wide and tall-skinny shapes that are not tile multiples, on
// matrices of condition about 1e8 and of deficient rank; unmqr (unmlq) agrees on both
// sides and both ops.
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <iterator>
#include <utility>
#include <vector>

#include "common.hpp"
#include "src/kernels/cpu_qr.hpp"

namespace grain::test {
namespace {

template <typename T>
class Qr : public ::testing::Test {};
TYPED_TEST_SUITE(Qr, Precisions);

using Wide = std::complex<double>;

template <typename T>
Wide wide(T x) {
    if constexpr (detail::scalar_traits<T>::is_complex)
        return Wide(double(x.real()), double(x.imag()));
    else
        return Wide(double(x), 0);
}

template <typename T>
double frobenius(const Array<T>& x) {
    double s = 0;
    for (int64_t j = 0; j < x.n; ++j)
        for (int64_t i = 0; i < x.m; ++i) s += std::norm(wide(x(i, j)));
    return std::sqrt(s);
}

template <typename T>
double eps() { return double(std::numeric_limits<real_t<T>>::epsilon()); }

// An m x n test matrix: random; its columns scaled from 1 down to 1e-8 (the condition);
// or of rank about n / 2, its later columns copies of earlier ones.
enum class Shape { Random, IllConditioned, RankDeficient };

template <typename T>
Array<T> test_matrix(int64_t m, int64_t n, Shape shape) {
    Array<T> A = random_array<T>(m, n, Kind::General, rng());
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            if (shape == Shape::IllConditioned && n > 1) A(i, j) *= T(real_t<T>(std::pow(1e-8, double(j) / double(n - 1))));
            if (shape == Shape::RankDeficient && j >= (n + 1) / 2) A(i, j) = A(i, j - (n + 1) / 2);
        }
    return A;
}

template <typename T>
Array<T> identity(int64_t m) {
    Array<T> I(m, m);
    for (int64_t i = 0; i < m; ++i) I(i, i) = T(1);
    return I;
}

// ‖X - Y‖_F / scale.
template <typename T>
double distance(const Array<T>& X, const Array<T>& Y, double scale) {
    double s = 0;
    for (int64_t j = 0; j < X.n; ++j)
        for (int64_t i = 0; i < X.m; ++i) s += std::norm(wide(X(i, j)) - wide(Y(i, j)));
    return std::sqrt(s) / scale;
}

// geqrf (gelqf, `lq`) then unmqr (unmlq) on identities: ‖A - Q R‖ (‖A - L Q‖) and the
// unitarity of Q, from both sides.
template <typename T>
void check_factorization(bool lq, int64_t m, int64_t n, QrTree tree, int domain, Shape shape) {
    SCOPED_TRACE(::testing::Message() << (lq ? "LQ " : "QR ") << m << " x " << n << " tree "
                                      << char(tree) << " domain " << domain << " shape " << int(shape));
    const Array<T> a = test_matrix<T>(m, n, shape);
    Matrix<T> A = tiles_of(a, scales());
    QrFactors<T> F(tree, domain);
    ASSERT_EQ(lq ? gelqf(A, F) : geqrf(A, F), 0);
    const Array<T> factored = to_array(A);
    const auto apply = [&](Side side, Op trans, Matrix<T>& C) { return (lq ? unmlq<T> : unmqr<T>)(side, trans, A, F, C); };

    // Q, from Q I on the left and I Q on the right.
    const int64_t order = lq ? n : m, k = std::min(m, n);
    Matrix<T> Q = tiles_of(identity<T>(order), scales()), Qr = tiles_of(identity<T>(order), scales());
    ASSERT_EQ(apply(Side::Left, Op::NoTrans, Q), 0);
    ASSERT_EQ(apply(Side::Right, Op::NoTrans, Qr), 0);
    const Array<T> q = to_array(Q);
    EXPECT_LT(distance(q, to_array(Qr), double(order) * eps<T>()), 30);

    // ‖A - Q R‖, R the upper trapezoid of geqrf's result; ‖A - L Q‖, L the lower one of gelqf's.
    Array<T> product(m, n);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            Wide s = 0;
            if (lq)
                for (int64_t l = 0; l <= std::min(i, k - 1); ++l) s += wide(factored(i, l)) * wide(q(l, j));
            else
                for (int64_t l = 0; l <= std::min(j, k - 1); ++l) s += wide(q(i, l)) * wide(factored(l, j));
            if constexpr (detail::scalar_traits<T>::is_complex)
                product(i, j) = T(real_t<T>(s.real()), real_t<T>(s.imag()));
            else
                product(i, j) = T(s.real());
        }
    EXPECT_LT(distance(a, product, std::max(frobenius(a), 1e-300) * double(std::max(m, n)) * eps<T>()), 30);

    // Q^H Q = I on the left, Q Q^H = I on the right.
    const Op ct = detail::conj_trans<T>();
    Matrix<T> left = tiles_of(q, scales()), right = tiles_of(q, scales());
    ASSERT_EQ(apply(Side::Left, ct, left), 0);
    ASSERT_EQ(apply(Side::Right, ct, right), 0);
    EXPECT_LT(distance(to_array(left), identity<T>(order), double(order) * eps<T>()), 30);
    EXPECT_LT(distance(to_array(right), identity<T>(order), double(order) * eps<T>()), 30);
}

TYPED_TEST(Qr, FactorsReproduceAWithAUnitaryQ) {
    using T = TypeParam;
    const std::pair<QrTree, int> trees[] = {{QrTree::Flat, 1}, {QrTree::Binary, 1}, {QrTree::Binary, 3}, {QrTree::Auto, 1}};
    const std::pair<int, int> sizes[] = {
        {50, 50},    // square, not a tile multiple
        {100, 37},   // tall
        {37, 70},    // wide
        {160, 16},   // tall and skinny: one tile column
        {16, 160}};  // short and wide: one tile row
    const Shape shapes[] = {Shape::Random, Shape::IllConditioned, Shape::RankDeficient};
    // Every tree, size and shape together on one scale; on a ladder, whose runs check the
    // splits, each tree and each size with every shape (the shapes rotate).
    const bool ladder = scales().size() > 1;
    for (bool lq : {false, true})
        for (size_t t = 0; t < std::size(trees); ++t)
            for (size_t z = 0; z < std::size(sizes); ++z)
                for (size_t h = 0; h < std::size(shapes); ++h)
                    if (!ladder || h == (t + z) % std::size(shapes))
                        check_factorization<T>(lq, sizes[z].first, sizes[z].second, trees[t].first, trees[t].second,
                                               shapes[h]);
    check_factorization<T>(false, 1, 1, QrTree::Flat, 1, Shape::Random);
    // 19 tiles: odd binary trees, of single tiles and of domains of 4 (the last of 3); the
    // trees' shapes, on one scale (their Q on 300 x 300 is most of a ladder's run).
    if (ladder) return;
    check_factorization<T>(false, 300, 5, QrTree::Binary, 1, Shape::Random);
    check_factorization<T>(true, 5, 300, QrTree::Binary, 4, Shape::Random);
}

// geqrf_async then unmqr_async, with no wait between them: unmqr's tasks wait for the
// factors they read.
TYPED_TEST(Qr, AsyncChainNeedsNoBarrier) {
    using T = TypeParam;
    const int64_t m = 90, n = 40;
    const Array<T> a = test_matrix<T>(m, n, Shape::Random);
    Matrix<T> A = tiles_of(a, scales()), Q = tiles_of(identity<T>(m), scales());
    QrFactors<T> F(QrTree::Binary);
    Request r1 = geqrf_async(A, F);
    Request r2 = unmqr_async(Side::Left, Op::NoTrans, A, F, Q);
    Request r3 = unmqr_async(Side::Left, detail::conj_trans<T>(), A, F, Q);
    EXPECT_EQ(r1.wait(), 0);
    EXPECT_EQ(r2.wait(), 0);
    EXPECT_EQ(r3.wait(), 0);
    EXPECT_LT(distance(to_array(Q), identity<T>(m), double(m) * eps<T>()), 30);
}

// A least-squares solve as three requests with no wait between them: geqrf_async,
// unmqr_async (Q^H B), trsm_async (R X = (Q^H B)'s first n rows); a consistent system's
// solution comes out.
TYPED_TEST(Qr, AsyncLeastSquaresChain) {
    using T = TypeParam;
    const int64_t m = 100, n = 48, nrhs = 3;  // n: three whole tiles, R a square of them
    const Array<T> a = test_matrix<T>(m, n, Shape::Random), x0 = random_array<T>(n, nrhs, Kind::General, rng());
    Array<T> b(m, nrhs);
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < m; ++i)
            for (int64_t l = 0; l < n; ++l) b(i, j) += a(i, l) * x0(l, j);
    std::vector<int> ladder;  // the suite's, from 16 down
    for (int s : scales())
        if (s <= 16) ladder.push_back(s);
    if (ladder.empty()) ladder = {16};
    Matrix<T> A = tiles_of(a, ladder), B = tiles_of(b, ladder);
    QrFactors<T> F;
    Request r1 = geqrf_async(A, F);
    Request r2 = unmqr_async(Side::Left, detail::conj_trans<T>(), A, F, B);
    Matrix<T> top = B.sub(0, 2, 0, 0);
    Request r3 = trsm_async(Side::Left, Uplo::Upper, Op::NoTrans, Diag::NonUnit, T(1), A.sub(0, 2, 0, 2), top);
    EXPECT_EQ(r1.wait(), 0);
    EXPECT_EQ(r2.wait(), 0);
    EXPECT_EQ(r3.wait(), 0);
    const Array<T> solved = to_array(B);
    Array<T> x(n, nrhs);
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < n; ++i) x(i, j) = solved(i, j);
    EXPECT_LT(distance(x, x0, frobenius(x0) * 1e4 * double(m) * eps<T>()), 1);
}

// Under split policy "all" on a ladder of 3 scales, every update splits into strips down
// to the smallest scale, where they run; the factorizations' own kernels stay whole, at
// the top; and the factors still reproduce A (the same check as above).
TYPED_TEST(Qr, UpdatesSplitIntoStripsOfSubTiles) {
    using T = TypeParam;
    const std::string saved = test_runtime().split();
    test_runtime().set_split("all");
    const int64_t m = 75, n = 60;  // 3 x 2 tiles of 32, the last ones partial
    const Array<T> a = test_matrix<T>(m, n, Shape::Random);
    Matrix<T> A(m, n, {32, 16, 8});
    A.from_lapack(a.data(), a.ld());
    QrFactors<T> F(QrTree::Flat);
    test_runtime().reset_statistics();
    const int info = geqrf(A, F);
    const Statistics s = test_runtime().statistics();
    Matrix<T> Q(m, m, {32, 16, 8});
    const Array<T> I = identity<T>(m);
    Q.from_lapack(I.data(), I.ld());
    const int applied = unmqr(Side::Left, Op::NoTrans, A, F, Q);
    test_runtime().set_split(saved);
    ASSERT_EQ(info, 0);
    ASSERT_EQ(applied, 0);
    for (const char* update : {"gemqrt", "tsmqrt"}) {
        SCOPED_TRACE(update);
        EXPECT_GT(s.at(update, 0).submitted, 0);
        EXPECT_EQ(s.at(update, 0).split, s.at(update, 0).submitted);
        EXPECT_EQ(s.at(update, 1).split, s.at(update, 1).submitted);
        EXPECT_EQ(s.at(update, 0).finished + s.at(update, 1).finished, 0);
        EXPECT_GT(s.at(update, 2).finished, 0);
    }
    EXPECT_EQ(s.at("geqrt", 0).finished, 2);  // one per step, whole
    EXPECT_EQ(s.at("tsqrt", 0).finished, 3);  // two, then one
    // A = Q R, Q from the split updates of unmqr.
    const Array<T> q = to_array(Q), f = to_array(A);
    Array<T> product(m, n);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            Wide x = 0;
            for (int64_t l = 0; l <= std::min<int64_t>(j, n - 1); ++l) x += wide(q(i, l)) * wide(f(l, j));
            product(i, j) = T(real_t<T>(std::abs(x - wide(a(i, j)))));
        }
    EXPECT_LT(frobenius(product) / (frobenius(a) * double(m) * eps<T>()), 30);
}

// The updates built from products alone (the GPU's, src/kernels/qr_apply.hpp), on the
// host's BLAS, give LAPACK's gemqrt and tpmqrt: both sides and ops; a whole tile's, a
// pentagon's and a triangle's reflectors (l = 0, 5, k); k not a multiple of ib; C wider and
// narrower than V is tall; and a strip of two sub-tiles that are not one block in memory.
TYPED_TEST(Qr, UpdatesFromProductsMatchLapack) {
    using T = TypeParam;
    using detail::cpu::HostProducts;
    const int ib = 8;
    const double tolerance = 50 * eps<T>() * 64;
    const auto compare = [&](const Array<T>& expected, const Array<T>& got) {
        double d = 0, scale = 1;
        for (int64_t j = 0; j < expected.n; ++j)
            for (int64_t i = 0; i < expected.m; ++i) {
                d = std::max(d, std::abs(wide(expected(i, j)) - wide(got(i, j))));
                scale = std::max(scale, std::abs(wide(expected(i, j))));
            }
        EXPECT_LT(d / scale, tolerance);
    };
    for (const Side side : {Side::Left, Side::Right})
        for (const Op trans : {Op::NoTrans, detail::conj_trans<T>()}) {
            SCOPED_TRACE(std::string(side == Side::Left ? "left " : "right ") + (trans == Op::NoTrans ? "N" : "C"));
            // geqrt's reflectors, V m x kv (k = min), applied to C with m rows (columns).
            for (const auto& [m, kv, other] : std::array<std::array<int, 3>, 3>{{{37, 29, 23}, {20, 33, 41}, {29, 29, 5}}}) {
                Array<T> v = test_matrix<T>(m, kv, Shape::Random), t(ib, kv);
                const int k = std::min(m, kv);
                ASSERT_EQ(blas::geqrt(m, kv, ib, v.data(), int(v.ld()), t.data(), int(t.ld())), 0);
                const int rows = side == Side::Left ? m : other, cols = side == Side::Left ? other : m;
                const Array<T> c = test_matrix<T>(rows, cols, Shape::Random);
                Array<T> expected = c, got = c;
                ASSERT_EQ(blas::gemqrt(side, trans, rows, cols, k, ib, v.data(), int(v.ld()), t.data(), int(t.ld()),
                                       expected.data(), int(expected.ld())), 0);
                HostProducts<T> host;
                detail::kernels::gemqrt(host, side, trans, rows, cols, k, ib, v.data(), int(v.ld()), t.data(),
                                        int(t.ld()), got.data(), int(got.ld()));
                compare(expected, got);
            }
            // tpqrt's reflectors of a k x k triangle on an m x k block, l of its rows a trapezoid.
            for (const auto& [m, k, l] : std::array<std::array<int, 3>, 3>{{{30, 19, 0}, {12, 9, 5}, {19, 19, 19}}}) {
                Array<T> r = test_matrix<T>(k, k, Shape::Random), v = test_matrix<T>(m, k, Shape::Random), t(ib, k);
                ASSERT_EQ(blas::tpqrt(m, k, l, ib, r.data(), int(r.ld()), v.data(), int(v.ld()), t.data(), int(t.ld())), 0);
                const int other = 17;
                const int rows1 = side == Side::Left ? k : other, cols1 = side == Side::Left ? other : k;
                const int rows2 = side == Side::Left ? m : other, cols2 = side == Side::Left ? other : m;
                const Array<T> a = test_matrix<T>(rows1, cols1, Shape::Random), b = test_matrix<T>(rows2, cols2, Shape::Random);
                Array<T> ea = a, eb = b, ga = a, gb = b;
                ASSERT_EQ(blas::tpmqrt(side, trans, rows2, cols2, k, l, ib, v.data(), int(v.ld()), t.data(), int(t.ld()),
                                       ea.data(), int(ea.ld()), eb.data(), int(eb.ld())), 0);
                HostProducts<T> host;
                detail::kernels::tpmqrt(host, side, trans, rows2, cols2, k, l, ib, v.data(), int(v.ld()), t.data(),
                                        int(t.ld()), ga.data(), int(ga.ld()), gb.data(), int(gb.ld()));
                compare(ea, ga);
                compare(eb, gb);
            }
        }
}

// A strip of sub-tiles that are apart in memory is copied into one block and back.
TYPED_TEST(Qr, StripsApartInMemoryAreGathered) {
    using T = TypeParam;
    using detail::cpu::HostProducts;
    Array<T> top = test_matrix<T>(5, 3, Shape::Random), bottom = test_matrix<T>(4, 3, Shape::Random);
    const Array<T> top0 = top, bottom0 = bottom;
    starpu_matrix_interface parts[2] = {};
    for (auto [part, x] : {std::pair{&parts[0], &top}, std::pair{&parts[1], &bottom}}) {
        part->ptr = reinterpret_cast<uintptr_t>(x->data());
        part->nx = uint32_t(x->m), part->ny = uint32_t(x->n), part->ld = uint32_t(x->ld());
        part->elemsize = sizeof(T);
    }
    void* buffers[2] = {&parts[0], &parts[1]};
    {
        HostProducts<T> host;
        detail::kernels::Strip<T, HostProducts<T>> strip(host, buffers, 0, 2, true);
        ASSERT_EQ(strip.rows(), 9);
        ASSERT_EQ(strip.cols(), 3);
        EXPECT_NE(strip.data_ptr(), top.data());
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 9; ++i) {
                T& x = strip.data_ptr()[i + int64_t(j) * strip.ld()];
                EXPECT_EQ(x, i < 5 ? top0(i, j) : bottom0(i - 5, j));
                x = T(real_t<T>(i + 10 * j));
            }
    }
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 9; ++i) EXPECT_EQ(i < 5 ? top(i, j) : bottom(i - 5, j), T(real_t<T>(i + 10 * j)));
}

TYPED_TEST(Qr, BadArgumentsAreRefused) {
    using T = TypeParam;
    Matrix<T> A(40, 30, 16), B(30, 30, 16), C(40, 5, 16), D(40, 5, 8);
    QrFactors<T> F, unused;
    ASSERT_EQ(geqrf(A, F), 0);
    expect_invalid("F", [&] { unmqr(Side::Left, Op::NoTrans, A, unused, C); });
    expect_invalid("F", [&] { unmqr(Side::Left, Op::NoTrans, B, F, C); });
    expect_invalid("C.m", [&] { unmqr(Side::Left, Op::NoTrans, A, F, B); });
    expect_invalid("C.n", [&] { unmqr(Side::Right, Op::NoTrans, A, F, C); });
    expect_invalid("C.nb", [&] { unmqr(Side::Left, Op::NoTrans, A, F, D); });
    if (detail::scalar_traits<T>::is_complex) expect_invalid("trans", [&] { unmqr(Side::Left, Op::Trans, A, F, C); });
    expect_invalid("F", [&] { unmlq(Side::Left, Op::NoTrans, A, F, B); });  // a QR's factors
    expect_invalid("tree", [] { QrFactors<T>(QrTree('X')); });
    expect_invalid("domain", [] { QrFactors<T>(QrTree::Binary, 0); });
}

}  // namespace
}  // namespace grain::test

namespace grain::test {
namespace {

// gels in its four cases (QR or LQ, NoTrans or ConjTrans) on shapes that are not tile
// multiples: a consistent system's solution makes op(A) X = B (LAPACK's dqrt16,
// ‖B - op(A) X‖ / (‖op(A)‖ ‖X‖ max(m, n) eps)); an overdetermined one's residual is
// orthogonal to op(A)'s columns (dqrt17, ‖op(A)^H (B - op(A) X)‖ / (‖A‖ ‖B‖ max(m, n, nrhs) eps)).
template <typename T>
void check_gels(Op trans, int64_t m, int64_t n, int64_t nrhs, bool consistent, Shape shape = Shape::Random) {
    SCOPED_TRACE(::testing::Message() << "trans " << char(trans) << " " << m << " x " << n << " nrhs " << nrhs
                                      << (consistent ? " consistent" : " least squares") << " shape " << int(shape));
    const bool adjoint = trans != Op::NoTrans;
    const int64_t rows = std::max(m, n), ar = adjoint ? n : m, ac = adjoint ? m : n;  // op(A) is ar x ac
    const Array<T> a = test_matrix<T>(m, n, shape);
    Array<T> opa(ar, ac);
    for (int64_t j = 0; j < ac; ++j)
        for (int64_t i = 0; i < ar; ++i) opa(i, j) = adjoint ? detail::conj(a(j, i)) : a(i, j);
    Array<T> b(rows, nrhs);
    const Array<T> x0 = random_array<T>(ac, nrhs, Kind::General, rng()), noise = random_array<T>(ar, nrhs, Kind::General, rng());
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < ar; ++i) {
            Wide s = 0;
            for (int64_t l = 0; l < ac; ++l) s += wide(opa(i, l)) * wide(x0(l, j));
            b(i, j) = T(real_t<T>(s.real())) + (consistent ? T(0) : noise(i, j));
            if constexpr (detail::scalar_traits<T>::is_complex) b(i, j) += T(0, real_t<T>(s.imag()));
        }
    Matrix<T> A = tiles_of(a, scales()), B = tiles_of(b, scales());
    ASSERT_EQ(gels(trans, A, B), 0);
    const Array<T> solved = to_array(B);
    Array<T> x(ac, nrhs), r(ar, nrhs);
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < ac; ++i) x(i, j) = solved(i, j);
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < ar; ++i) {
            Wide s = wide(b(i, j));
            for (int64_t l = 0; l < ac; ++l) s -= wide(opa(i, l)) * wide(x(l, j));
            if constexpr (detail::scalar_traits<T>::is_complex)
                r(i, j) = T(real_t<T>(s.real()), real_t<T>(s.imag()));
            else
                r(i, j) = T(s.real());
        }
    const double scale = double(std::max(m, n)) * eps<T>();
    if (consistent) {
        EXPECT_LT(frobenius(r) / (frobenius(opa) * frobenius(x) * scale), 30);
        return;
    }
    Array<T> ortho(ac, nrhs);
    double s2 = 0;
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < ac; ++i) {
            Wide s = 0;
            for (int64_t l = 0; l < ar; ++l) s += std::conj(wide(opa(l, i))) * wide(r(l, j));
            s2 += std::norm(s);
        }
    EXPECT_LT(std::sqrt(s2) / (frobenius(a) * frobenius(b) * double(std::max({m, n, nrhs})) * eps<T>()), 30);
}

TYPED_TEST(Qr, GelsSolvesInItsFourCases) {
    using T = TypeParam;
    const Op ct = detail::conj_trans<T>();
    for (Op trans : {Op::NoTrans, ct})
        for (auto [m, n] : {std::pair<int64_t, int64_t>{70, 30}, {30, 70}, {50, 50}, {100, 17}, {17, 100}}) {
            check_gels<T>(trans, m, n, 3, true);
            // Overdetermined: least squares of an inconsistent system.
            if ((trans == Op::NoTrans) == (m > n) && m != n) check_gels<T>(trans, m, n, 3, false);
        }
    // Condition about 1e8, tall and wide.
    check_gels<T>(Op::NoTrans, 100, 37, 2, true, Shape::IllConditioned);
    check_gels<T>(Op::NoTrans, 100, 37, 2, false, Shape::IllConditioned);
    check_gels<T>(Op::NoTrans, 37, 100, 2, true, Shape::IllConditioned);
}

// An exactly zero column makes R's diagonal exactly zero there: info is its index, as
// LAPACK's, through the tiled and the LAPACK-layout forms.
TYPED_TEST(Qr, GelsReportsAnExactlySingularTriangle) {
    using T = TypeParam;
    for (auto [m, n] : {std::pair<int64_t, int64_t>{60, 40}, {40, 60}}) {
        Array<T> a = test_matrix<T>(m, n, Shape::Random), b = random_array<T>(std::max(m, n), 2, Kind::General, rng());
        const int64_t zero = 21;  // in the second tile
        for (int64_t i = 0; i < (m >= n ? m : n); ++i) (m >= n ? a(i, zero) : a(zero, i)) = T(0);
        Matrix<T> A = tiles_of(a, scales()), B = tiles_of(b, scales());
        EXPECT_EQ(gels(Op::NoTrans, A, B), zero + 1) << m << " x " << n;
        EXPECT_EQ(gels(Op::NoTrans, m, n, 2, a.data(), a.ld(), b.data(), b.ld()), zero + 1) << m << " x " << n;
    }
}

// The LAPACK-layout gels finds a consistent system's exact solution (A well conditioned).
TYPED_TEST(Qr, GelsOnLapackLayoutSolves) {
    using T = TypeParam;
    const int64_t m = 90, n = 33, nrhs = 4;
    Array<T> a = test_matrix<T>(m, n, Shape::Random), x0 = random_array<T>(n, nrhs, Kind::General, rng());
    Array<T> b(m, nrhs);
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < m; ++i)
            for (int64_t l = 0; l < n; ++l) b(i, j) += a(i, l) * x0(l, j);
    ASSERT_EQ(gels(Op::NoTrans, m, n, nrhs, a.data(), a.ld(), b.data(), b.ld()), 0);
    Array<T> x(n, nrhs);
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < n; ++i) x(i, j) = b(i, j);
    EXPECT_LT(distance(x, x0, frobenius(x0) * 1e4 * double(m) * eps<T>()), 1) << "x far from the exact solution";
}

// ungqr's Q (unglq's) has orthonormal columns (rows) and Q R (L Q) is A, under both trees.
TYPED_TEST(Qr, UngqrGivesQExplicitly) {
    using T = TypeParam;
    for (bool lq : {false, true})
        for (QrTree tree : {QrTree::Flat, QrTree::Binary}) {
            const int64_t m = lq ? 37 : 100, n = lq ? 100 : 37, k = std::min(m, n);
            SCOPED_TRACE(::testing::Message() << (lq ? "LQ" : "QR") << " tree " << char(tree));
            const Array<T> a = test_matrix<T>(m, n, Shape::IllConditioned);
            Matrix<T> A = tiles_of(a, scales()), Q(lq ? k : m, lq ? n : k, scales());
            QrFactors<T> F(tree);
            ASSERT_EQ(lq ? gelqf(A, F) : geqrf(A, F), 0);
            ASSERT_EQ(lq ? unglq(A, F, Q) : ungqr(A, F, Q), 0);
            const Array<T> q = to_array(Q), f = to_array(A);
            Array<T> gram(k, k), product(m, n);
            for (int64_t j = 0; j < k; ++j)
                for (int64_t i = 0; i < k; ++i) {
                    Wide s = i == j ? -1 : 0;
                    for (int64_t l = 0; l < (lq ? n : m); ++l)
                        s += lq ? wide(q(i, l)) * std::conj(wide(q(j, l))) : std::conj(wide(q(l, i))) * wide(q(l, j));
                    gram(i, j) = T(real_t<T>(std::abs(s)));
                }
            for (int64_t j = 0; j < n; ++j)
                for (int64_t i = 0; i < m; ++i) {
                    Wide s = 0;
                    for (int64_t l = 0; l < k; ++l)
                        if (lq ? l <= i : l <= j) s += lq ? wide(f(i, l)) * wide(q(l, j)) : wide(q(i, l)) * wide(f(l, j));
                    product(i, j) = T(real_t<T>(std::abs(s - wide(a(i, j)))));
                }
            EXPECT_LT(frobenius(gram) / (double(std::max(m, n)) * eps<T>()), 30);
            EXPECT_LT(frobenius(product) / (frobenius(a) * double(std::max(m, n)) * eps<T>()), 30);
        }
    Matrix<T> A(40, 30, 16), tooWide(40, 41, 16), wrongRows(30, 30, 16);
    QrFactors<T> F;
    ASSERT_EQ(geqrf(A, F), 0);
    expect_invalid("Q.n", [&] { ungqr(A, F, tooWide); });
    expect_invalid("Q.m", [&] { ungqr(A, F, wrongRows); });
    expect_invalid("F", [&] { unglq(A, F, wrongRows); });
}

}  // namespace
}  // namespace grain::test
