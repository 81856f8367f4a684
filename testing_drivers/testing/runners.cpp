// The table of operations -o chooses from, which the families' files (ops_*.cpp) fill,
// and what the driver asks of an operation.
#include "testing_drivers/testing/runners.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "src/api/granularity.hpp"
#include "testing_drivers/testing/flops.hpp"
#include "testing_drivers/testing/run_common.hpp"

namespace grain::testing::driver {

namespace {

std::vector<Operation>& registry() {
    static std::vector<Operation> table;
    return table;
}

}  // namespace

Registered::Registered(std::initializer_list<Operation> operations) {
    std::vector<Operation>& table = registry();
    table.insert(table.end(), operations);
    std::sort(table.begin(), table.end(),
              [](const Operation& a, const Operation& b) { return std::strcmp(a.name, b.name) < 0; });
}

const std::vector<Operation>& operations() { return registry(); }

uint64_t element_bytes(const Case& c) {
    return !holds_elements ? 0 : grain::detail::with_precision(c.precision, [](auto zero) { return uint64_t(sizeof zero); });
}

uint64_t factorization_bytes(const Options& options, const Case& c, bool lu, bool pivoting) {
    const int64_t m = c.m, n = c.n;
    const bool solve = c.nrhs > 0;
    const uint64_t a = array_bytes(c, m, n), b = solve ? array_bytes(c, n, c.nrhs) : 0;
    const int64_t mn = std::min(m, n);
    const uint64_t pivots = lu ? times(uint64_t(mn) + 1, sizeof(lapack_int)) : 0;  // the vendor's
    const uint64_t grain_pivots = pivoting ? times(uint64_t(mn), sizeof(int)) : 0;  // the grain::Pivots array
    const uint64_t vendor_copies = options.vendor ? add(add(a, b), pivots) : 0;
    // The residual's B copy; the product of the factors (L and U apart where not square).
    const uint64_t product = m == n && n >= vector_check_from ? times(uint64_t(n), 3 * element_bytes(c))  // vectors
                             : lu && m != n ? add(add(array_bytes(c, m, mn), array_bytes(c, mn, n)), array_bytes(c, m, n))
                                            : a;
    const uint64_t check_copies = options.check ? (solve ? b : product) : 0;
    return add(add(times(add(a, b), 2), grain_pivots), std::max(vendor_copies, check_copies));
}

const Operation& find_operation(const std::string& name) {
    for (const Operation& op : operations())
        if (name == op.name) return op;
    throw usage_error("invalid value '" + name + "' for -o/--op: unknown operation");
}

std::vector<Case> cases_of(const Options& options) {
    const Operation& op = find_operation(options.op);
    const std::vector<int64_t> unread{0};
    std::vector<std::vector<int>> ladders = options.ladders;
    for (int nb : options.ladders.empty() ? options.nb : std::vector<int>{}) ladders.push_back({nb});
    if (ladders.empty()) ladders.emplace_back();  // chosen per case once the Runtime runs
    const std::vector<int64_t>& ms = op.takes_m ? options.m : unread;
    const std::vector<int64_t>& ks = op.takes_k ? options.k : unread;
    const std::vector<int64_t>& nrhss = op.takes_nrhs ? options.nrhs : unread;
    size_t count = 1;
    for (size_t values : {options.precisions.size(), ladders.size(), options.n.size(), ms.size(), ks.size(), nrhss.size()})
        if (__builtin_mul_overflow(count, values, &count) || count > max_values)
            throw usage_error("the lists of precisions, tile sizes and sizes " + std::string(op.name) +
                              " reads combine into more than " + std::to_string(max_values) + " cases");
    for (char p : options.precisions)
        if (op.mixed && p != 'd' && p != 'z')
            throw usage_error(std::string(op.name) + " runs in precisions d and z (it factors in s and c), not " +
                              std::string(1, p));
    std::vector<Case> cases;
    for (char p : options.precisions)
        for (const std::vector<int>& ladder : ladders)
            for (int64_t n : options.n)
                for (int64_t m : ms)
                    for (int64_t k : ks)
                        for (int64_t nrhs : nrhss)
                            cases.push_back({p, m ? m : n, n, op.takes_k ? (k ? k : n) : 0, nrhs, ladder});
    return cases;
}

namespace {
// The letter of the precision a mixed-precision solve in `precision` factors in.
char paired(char precision) {
    return grain::detail::with_precision(precision, [](auto zero) {
        return grain::detail::scalar_traits<grain::detail::paired_t<decltype(zero)>>::letter;
    });
}
}  // namespace

void choose_scales(const Operation& operation, std::vector<Case>& cases, bool distributed) {
    for (Case& c : cases)
        if (c.scales.empty())
            c.scales = grain::detail::choose_scales(operation.workload, std::max({c.m, c.n, c.k}),
                                                    operation.mixed ? paired(c.precision) : c.precision,
                                                    !distributed);
}

int levels(const std::vector<Case>& cases) {
    size_t most = 1;
    for (const Case& c : cases) most = std::max(most, c.scales.size());
    return int(most);
}

std::vector<std::string> ignored_options(const Options& options) {
    const Operation& op = find_operation(options.op);
    std::vector<std::string> ignored;
    if (!op.takes_m && options.m != std::vector<int64_t>{0}) ignored.push_back("-m");
    if (!op.takes_k && options.k != std::vector<int64_t>{0}) ignored.push_back("-k");
    if (!op.takes_nrhs && options.nrhs != std::vector<int64_t>{1}) ignored.push_back("--nrhs");
    return ignored;
}

Result run_case(const Operation& operation, const Run& r) {
    Result res = operation.run(r);
    res.flops = routine_flops(operation, r.c);
    return res;
}

bool passed(const Operation& operation, const Result& res) {
    return res.info == 0 && std::isfinite(res.residual) && res.residual < operation.threshold;
}

uint64_t host_bytes(const Options& options, const Case& c) { return find_operation(options.op).bytes(options, c); }

}  // namespace grain::testing::driver
