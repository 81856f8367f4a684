// grain_testing's option parser on random and mutated command lines: each must give
// options that hold the parser's promises, or a usage_error (the exit-2 path); nothing
// else is thrown, and nothing crashes or hangs (ctest's timeout; the sanitizers' build).
#include <gtest/gtest.h>

#include <grain/grain.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "src/base/constants.hpp"
#include "testing_drivers/testing/options.hpp"
#include "testing_drivers/testing/runners.hpp"

namespace {

namespace driver = grain::testing::driver;

const std::vector<std::string> option_names = {
    "-o", "--op", "-p", "--precision", "-m", "-n", "-k", "--nrhs", "-b", "--nb", "--scales", "--split", "--window",
    "--lp-period", "--lp-stats", "-v", "--niter", "--check", "--vendor", "-H", "--uplo", "-t", "--threads", "-g",
    "--gpus", "--gpu-mem", "--cpu-tile-limit", "--sched", "--gpu-math", "--seed", "-h", "--help"};

const std::vector<std::string> values = {
    // valid
    "gemm", "trsm", "syrk", "potrf", "potrs", "posv", "getrf_nopiv", "gesv_nopiv", "s", "d", "s,d", "L", "U", "1",
    "2", "16", "100", "320", "32,16,8", "64,32", "1:10", "10:100:10", "1,2,3", "none", "all", "lp", "depth:1",
    "random:0.5", "prio", "eager", "dmdar", "darts", "darts-lru", "tf32", "fp16", "/dev/null", "0",
    // out of range and overflowing
    "-1", "-0", "2147483647", "2147483648", "4294967296", "4294967297", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "18446744073709551615", "18446744073709551616",
    "99999999999999999999999999", "1:2147483647", "2147483647:2147483647", "9223372036854775807:9223372036854775807",
    "1:100000", "1:100001", "1:2147483647:1", "2147483646:2147483647:2147483647", "1:10:0", "1:10:-1", "10:1",
    "1:50000,1:50001", "32,24", "64,32,16,8,4,2,1", "512,256,128,64,32,16,8,4,2", "0,1", "1,0",
    // malformed
    "", " ", ",", ",,", "1,", ",1", "1,,2", ":", "::", "1:", ":5", "1::2", "1:2:3:4", "a:b:c", "+1", "0x10", "1e3",
    "1.5", "nan", "inf", " 1", "1 ", "x", "1x", "sd", "s,", ",d", "s,d,", "ss", "nosuch", "-", "--", "-o", "\xff",
    "\t", "\n"};

// A random text: digits, separators and a few other bytes.
std::string garbage(std::mt19937_64& rng) {
    static const std::string alphabet = "0123456789:,-+sdLUx \t\xff";
    std::string text(rng() % 12, ' ');
    for (char& c : text) c = rng() % 8 ? alphabet[rng() % alphabet.size()] : char(1 + rng() % 255);
    return text;
}

std::string pick(std::mt19937_64& rng, const std::vector<std::string>& from) { return from[rng() % from.size()]; }

std::string any_value(std::mt19937_64& rng) { return rng() % 5 ? pick(rng, values) : garbage(rng); }

// A command line of options and values drawn at random; half of them start with an
// operation and a size, so that parsing more often gets to the end.
std::vector<std::string> random_arguments(std::mt19937_64& rng) {
    std::vector<std::string> args;
    if (rng() % 2) args = {"-o", pick(rng, {"gemm", "potrf", "posv", "getrf_nopiv"}), "-n", "10"};
    const size_t words = args.size() + rng() % 12;
    while (args.size() < words) {
        if (rng() % 6) {
            args.push_back(pick(rng, option_names));
            if (rng() % 8) args.push_back(any_value(rng));
        } else {
            args.push_back(any_value(rng));
        }
    }
    return args;
}

// A valid command line with a few words replaced, inserted, removed or changed.
std::vector<std::string> mutated_arguments(std::mt19937_64& rng) {
    static const std::vector<std::vector<std::string>> valid = {
        {"-o", "potrf", "-n", "100", "-b", "32"},
        {"-o", "gemm", "-m", "10:30:10", "-n", "20", "-k", "5,7", "-p", "s,d", "--check", "--vendor"},
        {"-o", "posv", "-n", "64", "--nrhs", "1:3", "--scales", "32,16", "--split", "lp", "--lp-period", "5",
         "--lp-stats", "/dev/null", "-v"},
        {"-o", "getrf_nopiv", "-n", "50", "-t", "2", "-g", "0", "--gpu-mem", "512", "--sched", "dmdar", "--seed",
         "7", "--window", "0", "--niter", "2", "-H", "--uplo", "U"},
    };
    std::vector<std::string> args = valid[rng() % valid.size()];
    for (size_t edits = 1 + rng() % 3; edits > 0; --edits) {
        const size_t at = rng() % (args.size() + 1);
        switch (rng() % 5) {
            case 0:  // replace a word
                if (at < args.size()) args[at] = rng() % 2 ? any_value(rng) : pick(rng, option_names);
                break;
            case 1:  // insert one
                args.insert(args.begin() + long(at), rng() % 2 ? any_value(rng) : pick(rng, option_names));
                break;
            case 2:  // remove one
                if (at < args.size()) args.erase(args.begin() + long(at));
                break;
            case 3:  // change, add or drop a character
                if (at < args.size()) {
                    std::string& w = args[at];
                    const size_t i = w.empty() ? 0 : rng() % w.size();
                    const char c = "0123456789:,-x"[rng() % 14];
                    if (w.empty() || rng() % 3 == 0) w.insert(w.begin() + long(i), c);
                    else if (rng() % 2) w[i] = c;
                    else w.erase(i, 1);
                }
                break;
            default:  // append digits: a value past its type's range
                if (at < args.size()) args[at] += std::string(1 + rng() % 20, char('0' + rng() % 10));
        }
    }
    return args;
}

std::string shown(const std::vector<std::string>& args) {
    std::string text;
    for (const std::string& a : args) text += " '" + a + "'";
    return text;
}

bool sizes_in_range(const std::vector<int64_t>& sizes, int64_t min) {
    return !sizes.empty() && sizes.size() <= driver::max_values &&
           std::all_of(sizes.begin(), sizes.end(), [&](int64_t v) { return v >= min && v <= driver::max_size; });
}

// What parse promises of the options it returns.
void check_invariants(const driver::Options& o, const std::vector<std::string>& args) {
    SCOPED_TRACE(shown(args));
    if (o.help) return;
    static const std::vector<std::string> sched_names = grain::Runtime::sched_policies();
    EXPECT_FALSE(o.op.empty());
    EXPECT_TRUE(sizes_in_range(o.n, 1));
    EXPECT_TRUE(sizes_in_range(o.m, 1) || o.m == std::vector<int64_t>{0});
    EXPECT_TRUE(sizes_in_range(o.k, 1) || o.k == std::vector<int64_t>{0});
    EXPECT_TRUE(sizes_in_range(o.nrhs, 1));
    EXPECT_LE(o.nb.size(), driver::max_values);  // empty: the automatic ladder
    for (int nb : o.nb) EXPECT_GT(nb, 0);
    EXPECT_LE(o.ladders.size(), driver::max_values);
    for (const std::vector<int>& scales : o.ladders) {
        EXPECT_TRUE(!scales.empty() && scales.size() <= size_t(grain::detail::max_levels));
        for (size_t l = 0; l < scales.size(); ++l) {
            EXPECT_GT(scales[l], 0);
            if (l > 0) {
                EXPECT_LT(scales[l], scales[l - 1]);
                EXPECT_EQ(scales[l - 1] % scales[l], 0);
            }
        }
    }
    EXPECT_TRUE(!o.precisions.empty() && o.precisions.size() <= 2 * args.size());
    for (char p : o.precisions) EXPECT_TRUE(p == 's' || p == 'd');
    EXPECT_GE(o.niter, 1);
    EXPECT_TRUE(o.threads == -1 || o.threads >= 1);
    EXPECT_GE(o.gpus, -1);
    EXPECT_TRUE(o.gpu_memory == -1 || o.gpu_memory >= 1);
    EXPECT_GE(o.window, -1);
    EXPECT_TRUE(o.lp_period == -1 || o.lp_period >= 1);
    EXPECT_GE(o.cpu_tile_limit, -1);
    EXPECT_TRUE(o.gpu_math.empty() || o.gpu_math == "fp32" || o.gpu_math == "tf32" || o.gpu_math == "bf16" ||
                o.gpu_math == "fp16");
    EXPECT_TRUE(o.sched.empty() || std::find(sched_names.begin(), sched_names.end(), o.sched) != sched_names.end());
    // The cases of a known operation: at most max_values, each with its sizes in range, and
    // a byte count for the memory check (built only when small, to keep the test short).
    size_t product = o.precisions.size() * o.nb.size() * o.n.size();
    for (size_t count : {o.m.size(), o.k.size(), o.nrhs.size()}) product = std::min<size_t>(product * count, 1 << 20);
    try {
        driver::find_operation(o.op);
    } catch (const driver::usage_error&) {
        return;
    }
    if (product > 10000) return;
    const std::vector<driver::Case> cases = driver::cases_of(o);
    EXPECT_LE(cases.size(), driver::max_values);
    for (const driver::Case& c : cases) {
        EXPECT_TRUE(c.m >= 1 && c.m <= driver::max_size && c.n >= 1 && c.n <= driver::max_size);
        EXPECT_TRUE(c.k >= 0 && c.k <= driver::max_size && c.nrhs >= 0 && c.nrhs <= driver::max_size);
        EXPECT_GT(driver::host_bytes(o, c), 0u);
    }
}

struct Outcomes {
    int parsed = 0, help = 0, refused = 0;
};

// Parses args: usage_error or options that hold the invariants; anything else fails.
void parse_one(const std::vector<std::string>& args, Outcomes& outcomes) {
    std::vector<std::string> words = args;
    words.insert(words.begin(), "grain_testing");
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    try {
        const driver::Options o = driver::parse(int(words.size()), argv.data());
        ++(o.help ? outcomes.help : outcomes.parsed);
        check_invariants(o, args);
    } catch (const driver::usage_error& e) {
        ++outcomes.refused;
        EXPECT_GT(std::string(e.what()).size(), 0u);
    } catch (const std::exception& e) {
        ADD_FAILURE() << "parse threw " << e.what() << " on" << shown(args);
    }
}

TEST(DriverFuzz, ParseGivesOptionsOrAUsageError) {
    std::mt19937_64 rng(46);  // fixed: a failure is reproduced by rerunning
    const auto start = std::chrono::steady_clock::now();
    int runs = 0;
    Outcomes outcomes;
    for (; runs < 50000; ++runs) {
        parse_one(runs % 2 ? random_arguments(rng) : mutated_arguments(rng), outcomes);
        if (::testing::Test::HasFailure()) break;
        // Bounded in time too (the sanitizers' build runs slower): at least a few thousand.
        if (runs >= 5000 && std::chrono::steady_clock::now() - start > std::chrono::seconds(4)) break;
    }
    std::printf("%d command lines: %d parsed, %d asked for help, %d refused\n", runs, outcomes.parsed,
                outcomes.help, outcomes.refused);
    EXPECT_GT(outcomes.parsed, runs / 20);  // the mutations of valid lines still reach the options' checks
}

}  // namespace
