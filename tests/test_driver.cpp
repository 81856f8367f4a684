// grain_testing as a user runs it: exit code, columns, and its checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "src/base/kernel_table.hpp"
#include "testing_drivers/checks.hpp"
#include "testing_drivers/testing/flops.hpp"
#include "testing_drivers/testing/memory.hpp"
#include "testing_drivers/testing/options.hpp"
#include "testing_drivers/testing/output.hpp"
#include "testing_drivers/testing/runners.hpp"

namespace {

namespace driver = grain::testing::driver;

struct Output {
    int exit_code;
    std::string out;  // stdout and stderr together
};

// The driver: where the build put it, or GRAIN_TESTING_BINARY where the build was moved
// (scripts/device-run.sh runs the packed tests on a GPU machine).
std::string driver_binary() {
    const char* moved = std::getenv("GRAIN_TESTING_BINARY");
    return moved && *moved ? moved : GRAIN_TESTING_BINARY;
}

// `environment`: VAR=value words for env(1). A run that does not end within two minutes
// is killed (exit code 124).
Output run(const std::string& arguments, const std::string& environment = "") {
    const std::string command =
        "timeout 120 env " + environment + " " + driver_binary() + " " + arguments + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return {-1, ""};
    std::string out;
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    const int status = pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::vector<std::string> split(const std::string& line, char separator) {
    std::vector<std::string> cells;
    std::stringstream stream(line);
    for (std::string cell; std::getline(stream, cell, separator);) cells.push_back(cell);
    return cells;
}

// The driver's options from its arguments, in this process.
driver::Options parse(const std::string& arguments) {
    std::vector<std::string> args = split("grain_testing " + arguments, ' ');
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    return driver::parse(int(args.size()), argv.data());
}

// The message of the usage_error parsing `arguments` throws; "" where they parse.
std::string refusal(const std::string& arguments) {
    try {
        parse(arguments);
        return "";
    } catch (const driver::usage_error& e) {
        return e.what();
    }
}

// The lines of the CSV table (from its header on; '#' lines are -v's comments).
std::vector<std::vector<std::string>> table(const std::string& out) {
    std::vector<std::vector<std::string>> rows;
    std::stringstream stream(out);
    for (std::string line; std::getline(stream, line);) {
        if (line.rfind('#', 0) == 0) continue;
        if (line.rfind("op;", 0) == 0 || !rows.empty()) {
            if (line.find(';') != std::string::npos) rows.push_back(split(line, ';'));
        }
    }
    return rows;
}

TEST(Driver, ChecksEveryOperationAndPrintsItsColumns) {
    for (const char* op :
         {"gemm", "trsm", "syrk", "herk", "potrf", "potrs", "posv", "getrf", "getrs", "gesv", "getrf_nopiv",
          "gesv_nopiv", "geqrf", "gelqf", "unmqr", "ungqr", "gels"}) {
        SCOPED_TRACE(op);
        const Output o = run(std::string("-o ") + op + " -n 50,64 -b 16 -p s,d,c,z --nrhs 3 --check --vendor -t 2");
        EXPECT_EQ(o.exit_code, 0) << o.out;
        const auto rows = table(o.out);
        ASSERT_EQ(rows.size(), 1u + 8u) << o.out;  // header + 2 sizes x 4 precisions
        const std::vector<std::string> expected = {"op", "prec", "threads", "gpus", "m", "n", "k", "nrhs", "nb",
                                                   "iter", "time", "gflops", "levels", "split", "tasks_l0",
                                                   "split_l0", "lp_solves", "lp_median_ms", "lp_max_ms",
                                                   "vendor_time", "vendor_gflops",
                                                   "residual", "status", "info"};
        EXPECT_EQ(rows[0], expected);
        for (size_t i = 1; i < rows.size(); ++i) {
            ASSERT_EQ(rows[i].size(), expected.size());
            EXPECT_EQ(rows[i][0], op);
            EXPECT_EQ(rows[i][1], std::string(1, "sdcz"[(i - 1) / 2]));  // the precisions in order, 2 sizes each
            EXPECT_EQ(rows[i][2], "2");
            EXPECT_EQ(rows[i][22], "SUCCESS");
            EXPECT_GT(std::stod(rows[i][11]), 0.0);
        }
    }
}

// With no -b and no --scales, every operation runs on grain's automatic ladder for its
// workload and size, and passes its check: sizes that are and are not multiples of the
// tile, real and complex. On cores alone the ladder is one tile, no larger than the call.
TEST(Driver, NoTileSizeRunsEveryOperationOnTheAutomaticLadder) {
    for (const char* op : {"gemm", "trsm", "syrk", "herk", "potrf", "potrs", "posv", "getrf", "getrs", "gesv",
                           "getrf_nopiv", "gesv_nopiv", "lange", "lansy", "lanhe", "lantr", "trmm", "symm", "hemm", "syr2k",
                           "her2k", "trtri", "lauum", "potri", "poinv", "getri", "geqrf", "gelqf", "unmqr", "ungqr",
                           "gels", "gesv_mixed", "posv_mixed"}) {
        SCOPED_TRACE(op);
        const Output o = run(std::string("-o ") + op + " -n 150,600 -p d,z --nrhs 2 --check -t 2");
        EXPECT_EQ(o.exit_code, 0) << o.out;
        const auto rows = table(o.out);
        ASSERT_EQ(rows.size(), 1u + 4u) << o.out;
        const auto column = [&](const char* name) {
            return size_t(std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin());
        };
        for (size_t i = 1; i < rows.size(); ++i) {
            const int64_t n = std::stoll(rows[i][column("n")]);
            const int nb = std::stoi(rows[i][column("nb")]);
            EXPECT_GE(nb, 1);
            EXPECT_LE(nb, n);
            EXPECT_EQ(rows[i][column("levels")], "1");
            EXPECT_EQ(rows[i][column("status")], "SUCCESS");
        }
    }
}

// The mixed-precision solves: in d and z only (a usage error otherwise), their refinement's
// steps in a column of their own, checked by the backward error.
TEST(Driver, MixedSolvesReportTheirSteps) {
    const Output refused = run("-o gesv_mixed -p d,s -n 100");
    EXPECT_EQ(refused.exit_code, 2) << refused.out;
    EXPECT_NE(refused.out.find("runs in precisions d and z"), std::string::npos) << refused.out;
    for (const char* op : {"gesv_mixed", "posv_mixed"}) {
        SCOPED_TRACE(op);
        const Output o = run(std::string("-o ") + op + " -n 200 -b 64 -p d,z --nrhs 2 --check --vendor -t 2");
        EXPECT_EQ(o.exit_code, 0) << o.out;
        const auto rows = table(o.out);
        ASSERT_EQ(rows.size(), 3u) << o.out;
        const auto column = [&](const char* name) {
            return size_t(std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin());
        };
        ASSERT_LT(column("steps"), rows[0].size());
        for (size_t i = 1; i < rows.size(); ++i) {
            EXPECT_EQ(rows[i][column("status")], "SUCCESS");
            EXPECT_GE(std::stoi(rows[i][column("steps")]), 1);  // a single-precision solve refined
            EXPECT_LE(std::stoi(rows[i][column("steps")]), 30);
            EXPECT_GT(std::stod(rows[i][column("vendor_time")]), 0.0);
        }
    }
}

TEST(Driver, ScalesAndSplitPolicyColumns) {
    const Output o = run("-o potrf -n 100 --scales 32,16,8 --split all --check --window 16");
    EXPECT_EQ(o.exit_code, 0) << o.out;
    const auto rows = table(o.out);
    ASSERT_EQ(rows.size(), 2u) << o.out;
    const std::vector<std::string> tail = {"levels", "split", "tasks_l0", "tasks_l1", "tasks_l2", "split_l0",
                                           "split_l1", "split_l2", "lp_solves", "lp_median_ms", "lp_max_ms",
                                           "residual", "status", "info"};
    ASSERT_EQ(rows[0].size(), 12 + tail.size());
    EXPECT_EQ(std::vector<std::string>(rows[0].begin() + 12, rows[0].end()), tail);
    const std::vector<std::string>& row = rows[1];
    EXPECT_EQ(row[8], "32");   // nb: the first scale
    EXPECT_EQ(row[12], "3");
    EXPECT_EQ(row[13], "all");
    EXPECT_EQ(row[14], "0");   // nothing runs at the top level...
    EXPECT_EQ(row[15], "0");
    EXPECT_GT(std::stol(row[16]), 0);  // ...everything at the finest
    EXPECT_GT(std::stol(row[17]), 0);
    EXPECT_GT(std::stol(row[18]), 0);
    EXPECT_EQ(row[19], "0");   // the finest level never splits
    EXPECT_EQ(row[20], "0");   // no LP without the lp policy
    EXPECT_EQ(row[24], "SUCCESS");
}

// Several ladders separated by '/' run in turn in one process, each reported with its own
// tile size and levels, so ladders and fixed tiles compare under the same conditions.
TEST(Driver, SeveralLaddersRunInTurn) {
    const Output o = run("-o getrf -n 100 --scales 32,16/24/48,24,12 --split all --check");
    EXPECT_EQ(o.exit_code, 0) << o.out;
    const auto rows = table(o.out);
    ASSERT_EQ(rows.size(), 4u) << o.out;
    auto column = [&](const std::string& name) {
        return size_t(std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin());
    };
    const std::vector<std::pair<std::string, std::string>> expected = {{"32", "2"}, {"24", "1"}, {"48", "3"}};
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(rows[i + 1][column("nb")], expected[i].first);
        EXPECT_EQ(rows[i + 1][column("levels")], expected[i].second);
        EXPECT_EQ(rows[i + 1][column("status")], "SUCCESS");
    }
    for (const char* bad : {"32,16/", "/32", "32//16", "32/24,16,3"}) {
        const Output b = run(std::string("-o getrf -n 100 --scales ") + bad);
        EXPECT_EQ(b.exit_code, 2) << bad << ": " << b.out;
        EXPECT_NE(b.out.find("--scales"), std::string::npos) << bad << ": " << b.out;
    }
}

// The O(n^2) check of the large factorizations: it passes the factors LAPACK computes, as
// the full check does, and fails factors with one wrong element, in each triangle.
TEST(DriverChecks, VectorResidualPassesRightFactorsAndFailsWrongOnes) {
    using grain::testing::Factors;
    grain::testing::Random rng(5);
    const int64_t n = 150;
    const auto A_spd = grain::testing::random_array<double>(n, n, grain::testing::Kind::Spd, rng);
    const auto A_lu = grain::testing::random_array<double>(n, n, grain::testing::Kind::DiagonallyDominant, rng);
    for (Factors factors : {Factors::CholeskyLower, Factors::CholeskyUpper, Factors::Lu}) {
        SCOPED_TRACE(int(factors));
        const auto& A = factors == Factors::Lu ? A_lu : A_spd;
        auto F = A;
        std::vector<lapack_int> ipiv(static_cast<size_t>(n));
        if (factors == Factors::Lu) {
            ASSERT_EQ(grain::blas::getrf(int(n), int(n), F.data(), F.ld(), ipiv.data()), 0);
            for (int64_t i = 0; i < n; ++i) ASSERT_EQ(ipiv[size_t(i)], i + 1);  // no row swapped
        } else {
            ASSERT_EQ(grain::blas::potrf(factors == Factors::CholeskyLower ? grain::Uplo::Lower : grain::Uplo::Upper,
                                         int(n), F.data(), F.ld()),
                      0);
        }
        EXPECT_LT(grain::testing::factor_residual_by_vector(A, F, factors, grain::testing::Random(1)), 60);
        for (auto [i, j] : {std::pair<int64_t, int64_t>{120, 30}, {30, 120}, {77, 77}}) {
            const bool used = factors == Factors::Lu || (factors == Factors::CholeskyLower ? i >= j : i <= j);
            if (!used) continue;
            auto wrong = F;
            wrong(i, j) += 1e-6 * std::abs(F(j, j));
            EXPECT_GT(grain::testing::factor_residual_by_vector(A, wrong, factors, grain::testing::Random(1)), 1000)
                << "element " << i << "," << j;
        }
    }
}

// The same for gemm: C = alpha A B + beta C0 by BLAS passes, one wrong element fails.
TEST(DriverChecks, GemmVectorResidualPassesRightProductsAndFailsWrongOnes) {
    grain::testing::Random rng(6);
    using grain::testing::Kind;
    const auto A = grain::testing::random_array<double>(90, 70, Kind::General, rng);
    const auto B = grain::testing::random_array<double>(70, 110, Kind::General, rng);
    const auto C0 = grain::testing::random_array<double>(90, 110, Kind::General, rng);
    auto C = C0;
    grain::blas::gemm(grain::Op::NoTrans, grain::Op::NoTrans, 90, 110, 70, 1.5, A.data(), A.ld(), B.data(), B.ld(),
                      -0.5, C.data(), C.ld());
    EXPECT_LT(grain::testing::gemm_residual_by_vector(A, B, C0, C, 1.5, -0.5, grain::testing::Random(1)), 10);
    C(45, 100) += 1e-6;
    EXPECT_GT(grain::testing::gemm_residual_by_vector(A, B, C0, C, 1.5, -0.5, grain::testing::Random(1)), 1000);
}

// --trace: one line per kernel that ran (the tasks_l columns count them), each with its
// times in order and its worker; the LP's solves on the same clock.
TEST(Driver, TraceHasALinePerKernelThatRan) {
    const std::string path = ::testing::TempDir() + "grain-driver-trace.csv";
    const Output o = run("-o potrf -n 200 --scales 64,32,16 --split lp --trace " + path);
    ASSERT_EQ(o.exit_code, 0) << o.out;
    const auto rows = table(o.out);
    ASSERT_EQ(rows.size(), 2u) << o.out;
    int64_t ran = 0;
    for (size_t c = 0; c < rows[0].size(); ++c)
        if (rows[0][c].rfind("tasks_l", 0) == 0) ran += std::stol(rows[1][c]);
    ASSERT_GT(ran, 0);
    std::ifstream file(path);
    std::string line;
    ASSERT_TRUE(std::getline(file, line));
    const std::vector<std::string> header = split(line, ';');
    ASSERT_EQ(header.size(), 14u) << line;
    int64_t tasks = 0, solves = 0;
    while (std::getline(file, line)) {
        std::vector<std::string> f = split(line, ';');
        f.resize(header.size());
        if (f[0] == "lp") {
            ++solves;
            continue;
        }
        ASSERT_EQ(f[0], "task") << line;
        ++tasks;
        EXPECT_EQ(f[1], "0");
        EXPECT_TRUE(f[3] == "cpu" || f[3] == "gpu") << line;
        EXPECT_LE(std::stod(f[9]), std::stod(f[10])) << line;   // submitted, then started
        EXPECT_LE(std::stod(f[10]), std::stod(f[11])) << line;  // then ended
    }
    EXPECT_EQ(tasks, ran);
    EXPECT_GT(solves, 0);
    std::remove(path.c_str());
}

// --warmup: one more run first, printed nowhere, traced nowhere, and the timed runs factor
// the same matrices as without it (the same residuals).
TEST(Driver, WarmupRunIsNeitherPrintedNorTracedNorChangesTheMatrices) {
    const std::string path = ::testing::TempDir() + "grain-driver-warmup-trace.csv";
    const std::string args = "-o potrf -n 300 -b 64 --niter 2 --check";
    const Output plain = run(args), warm = run(args + " --warmup --trace " + path);
    ASSERT_EQ(plain.exit_code, 0) << plain.out;
    ASSERT_EQ(warm.exit_code, 0) << warm.out;
    const auto rows = table(plain.out), warm_rows = table(warm.out);
    ASSERT_EQ(rows.size(), 3u) << plain.out;
    ASSERT_EQ(warm_rows.size(), 3u) << warm.out;
    size_t residual = 0, tasks = 0;
    for (size_t c = 0; c < rows[0].size(); ++c) {
        if (rows[0][c] == "residual") residual = c;
        if (rows[0][c] == "tasks_l0") tasks = c;
    }
    ASSERT_GT(residual, 0u);
    ASSERT_GT(tasks, 0u);
    for (size_t r = 1; r < 3; ++r) EXPECT_EQ(rows[r][residual], warm_rows[r][residual]) << "run " << r - 1;
    std::ifstream file(path);
    std::string line;
    std::map<std::string, int64_t> per_run;
    while (std::getline(file, line))
        if (line.rfind("task;", 0) == 0) ++per_run[split(line, ';')[1]];
    ASSERT_EQ(per_run.size(), 2u) << "runs in the trace";
    EXPECT_EQ(per_run["0"], std::stol(warm_rows[1][tasks]));
    EXPECT_EQ(per_run["1"], std::stol(warm_rows[2][tasks]));
    std::remove(path.c_str());
}

// -v says which kinds of task were split: n=64 on 32-tiles is potrf, trsm, syrk and
// potrf at the top, every one split under "all", and the finest level never splits.
TEST(Driver, VerboseListsSplitsPerOperationAndLevel) {
    const Output o = run("-o potrf -n 64 --scales 32,16 --split all -v");
    EXPECT_EQ(o.exit_code, 0) << o.out;
    const size_t at = o.out.find("# tasks split/submitted per operation and level:");
    ASSERT_NE(at, std::string::npos) << o.out;
    const std::string line = o.out.substr(at, o.out.find('\n', at) - at);
    for (const char* expected : {" potrf=2/2,0/", " trsm=1/1,0/", " syrk=1/1,0/", " gemm=0/0,0/"})
        EXPECT_NE(line.find(expected), std::string::npos) << expected << " in " << line;
    EXPECT_EQ(line.find("getrf_nopiv"), std::string::npos) << line;  // operations that never ran are left out
}

TEST(Driver, LpPolicyReportsItsSolves) {
    const std::string stats = ::testing::TempDir() + "grain_lp_stats.csv";
    const Output o = run("-o getrf_nopiv -n 200 --scales 64,32,16 --split lp --lp-period 5 --check -v --lp-stats " + stats);
    EXPECT_EQ(o.exit_code, 0) << o.out;
    const auto rows = table(o.out);
    ASSERT_EQ(rows.size(), 2u) << o.out;
    EXPECT_EQ(rows[1][13], "lp");
    const long solves = std::stol(rows[1][20]);
    EXPECT_GE(solves, 1);
    EXPECT_GT(std::stod(rows[1][22]), 0.0);                      // max solve time
    EXPECT_LE(std::stod(rows[1][21]), std::stod(rows[1][22]));   // median <= max
    EXPECT_NE(o.out.find("# lp split ratios"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("# lp time: " + std::to_string(solves) + " solves, "), std::string::npos) << o.out;
    // One line per solve, kernel and level, after the header.
    FILE* f = std::fopen(stats.c_str(), "r");
    ASSERT_NE(f, nullptr);
    long lines = 0;
    for (int c; (c = std::fgetc(f)) != EOF;) lines += c == '\n';
    std::fclose(f);
    EXPECT_EQ(lines, 1 + solves * long(grain::detail::kernel_count) * 3);
}

// The lp policy asks StarPU's models about the operations a run can submit only: asking a
// model about a tile size it has no history for makes StarPU measure the run's tasks of
// that model and print a warning naming it, so with no history at all (an empty
// STARPU_HOME) the warnings say which models were asked.
TEST(Driver, LpPolicyAsksOnlyTheModelsOfTheRunsOperations) {
    char home[] = "/tmp/grain_starpu_home_XXXXXX";
    ASSERT_NE(mkdtemp(home), nullptr);
    const Output o = run("-o gemm -n 100 --scales 32,16 --split lp", "-u STARPU_SILENT STARPU_HOME=" + std::string(home));
    EXPECT_EQ(std::system(("rm -rf " + std::string(home)).c_str()), 0);
    EXPECT_EQ(o.exit_code, 0) << o.out;
    EXPECT_NE(o.out.find("model grain_dgemm is not calibrated"), std::string::npos) << o.out;
    for (const char* other : {"grain_dtrsm", "grain_dsyrk", "grain_dpotrf", "grain_dgetrf_nopiv", "grain_dscale",
                              "grain_dgetrf", "grain_dlaswp", "grain_sgemm", "grain_strsm", "grain_ssyrk",
                              "grain_spotrf", "grain_sgetrf_nopiv", "grain_sscale", "grain_sgetrf", "grain_slaswp"})
        EXPECT_EQ(o.out.find(other), std::string::npos) << other << " asked in\n" << o.out;
}

TEST(Driver, RangesAndHumanReadableOutput) {
    const Output o = run("-o potrf -n 20:60:20 -b 8,16 -H --check");
    EXPECT_EQ(o.exit_code, 0) << o.out;
    size_t successes = 0;
    for (size_t at = o.out.find("SUCCESS"); at != std::string::npos; at = o.out.find("SUCCESS", at + 1)) ++successes;
    EXPECT_EQ(successes, 6u) << o.out;  // n in {20, 40, 60} x nb in {8, 16}
    EXPECT_EQ(o.out.find(';'), std::string::npos) << o.out;
}

TEST(Driver, InvalidArgumentsExitNonZeroNamingThem) {
    const std::pair<const char*, const char*> cases[] = {
        {"-o potrf -n -5", "-n"},
        {"-o potrf -n 100 -b 0", "-b"},
        {"-o nosuchop -n 10", "-o"},
        {"-o potrf", "-n"},
        {"-o potrf -n 10 --niter x", "--niter"},
        {"-o potrf -n 10 -p x", "-p"},
        {"-o potrf -n 10 -p d,", "-p"},
        {"-o potrf -n 10 --bogus", "--bogus"},
        {"-o potrf -n 100 --scales 32,24", "scales"},
        {"-o potrf -n 100 --scales 32,16 --split sometimes", "split"},
        {"-o potrf -n 100 --scales 32,16 --split lp --lp-period 0", "--lp-period"},
    };
    for (auto [arguments, name] : cases) {
        SCOPED_TRACE(arguments);
        const Output o = run(arguments);
        EXPECT_NE(o.exit_code, 0);
        EXPECT_NE(o.out.find(name), std::string::npos) << o.out;
        EXPECT_TRUE(table(o.out).empty()) << o.out;
    }
}

// An array's rows * cols is checked, not wrapped: 2^62 x 4 elements would wrap to none,
// and the generator would write past it.
TEST(DriverSizes, ArraysRefuseSizesThatOverflow) {
    using grain::testing::Array;
    EXPECT_THROW(Array<double>(int64_t(1) << 62, 4), std::length_error);
    EXPECT_THROW(Array<double>(4, int64_t(1) << 62), std::length_error);
    EXPECT_THROW(Array<double>(-1, 4), std::length_error);
    EXPECT_THROW(Array<double>(3037000500, 3037000500), std::length_error);
    EXPECT_EQ(Array<float>(3, 5).a.size(), 15u);
    EXPECT_EQ(Array<float>(0, 5).a.size(), 0u);
}

// --pinned pins the arrays for a GPU's transfers before grain's clock starts: a build
// without CUDA refuses it, a CUDA build refuses it on a run without GPUs; where a GPU is
// visible, the routine runs right on arrays the caller pinned (grain's own pins of them
// then fail, and it must not unpin them: the driver's unpinning would fail).
TEST(DriverOptions, PinnedArraysNeedAGpu) {
#ifdef GRAIN_USE_CUDA
    const Output none = run("-o potrf -n 64 --pinned -g 0");
    EXPECT_EQ(none.exit_code, 2) << none.out;
    EXPECT_NE(none.out.find("this run has no GPU"), std::string::npos) << none.out;
    for (const char* op : {"potrf", "gemm"}) {
        const Output o = run(std::string("-o ") + op + " -n 1000 -b 256 --pinned --check --vendor");
        if (o.out.find("this run has no GPU") != std::string::npos) GTEST_SKIP() << "no GPU visible: the pinned runs skipped";
        EXPECT_EQ(o.exit_code, 0) << o.out;
        EXPECT_NE(o.out.find("# --pinned"), std::string::npos) << o.out;
    }
#else
    EXPECT_NE(refusal("-o potrf -n 64 --pinned").find("this grain_testing has no CUDA"), std::string::npos);
#endif
}

// Sizes are LAPACK ints (the checks and the vendor routines take them so).
TEST(Driver, SizesBeyondLapackIntsExitTwo) {
    const Output o = run("-o potrf -n 3037000500");
    EXPECT_EQ(o.exit_code, 2) << o.out;
    EXPECT_NE(o.out.find("for -n: expected an integer in [1, 2147483647]"), std::string::npos) << o.out;
}

// A range is expanded by its count of values, so that its last step cannot overflow
// (start:end at the largest value would otherwise loop forever).
TEST(Driver, RangesEndingAtTheLargestValueEnd) {
    const Output o = run("-o potrf -n 9223372036854775807:9223372036854775807");
    EXPECT_EQ(o.exit_code, 2) << o.out;
    EXPECT_EQ(parse("-o potrf -n 2147483646:2147483647:1000").n, std::vector<int64_t>{2147483646});
    EXPECT_EQ(parse("-o potrf -n 10 -b 2147483645:2147483647:2").nb, (std::vector<int>{2147483645, 2147483647}));
    EXPECT_EQ(parse("-o potrf -n 1:10:4").n, (std::vector<int64_t>{1, 5, 9}));
}

// A list holds at most max_values values, counted before any is stored; the cases the
// lists an operation reads combine into, too.
TEST(DriverOptions, ListsAndCasesAreBounded) {
    EXPECT_EQ(parse("-o potrf -n 1:100000").n.size(), driver::max_values);
    for (const char* arguments : {"-o potrf -n 1:100001", "-o potrf -n 1:50000,1:50001", "-o potrf -n 10 -b 1:2000000000"})
        EXPECT_NE(refusal(arguments).find("more than 100000 values"), std::string::npos) << arguments;
    const Output o = run("-o potrf -n 1:2000000000");
    EXPECT_EQ(o.exit_code, 2) << o.out;
    EXPECT_NE(o.out.find("more than 100000 values"), std::string::npos) << o.out;
    EXPECT_EQ(driver::cases_of(parse("-o gemm -n 1:100 -m 1:100 -k 1:10")).size(), 100000u);
    EXPECT_THROW(driver::cases_of(parse("-o gemm -n 1:100 -m 1:100 -k 1:11")), driver::usage_error);
    EXPECT_THROW(driver::cases_of(parse("-o gemm -n 1:100 -m 1:100 -k 1:10 -p s,d")), driver::usage_error);
    EXPECT_EQ(driver::cases_of(parse("-o potrf -n 1:100 -m 1:100 -k 1:100")).size(), 100u);  // reads n only
}

// The host bytes a case needs, copy by copy (runners.cpp).
TEST(DriverMemory, HostBytesCountOperandsResultsAndCopies) {
    const auto bytes = [](const std::string& arguments) {
        const driver::Options o = parse(arguments);
        const std::vector<driver::Case> cases = driver::cases_of(o);
        EXPECT_EQ(cases.size(), 1u) << arguments;
        return driver::host_bytes(o, cases.at(0));
    };
    // potrf: A and the copy grain factors in place; --check's product of the factors;
    // --vendor's copy of A, freed before the check's.
    EXPECT_EQ(bytes("-o potrf -n 1000"), 2u * 8000000);
    EXPECT_EQ(bytes("-o potrf -n 1000 --check"), 3u * 8000000);
    EXPECT_EQ(bytes("-o potrf -n 1000 --check --vendor"), 3u * 8000000);
    // posv: A and B, and grain's copies of them; the vendor's A and B.
    EXPECT_EQ(bytes("-o posv -n 1000 --nrhs 10 -p s"), 2u * (4000000 + 40000));
    EXPECT_EQ(bytes("-o posv -n 1000 --nrhs 10 -p s --check"), 2u * (4000000 + 40000) + 40000);
    EXPECT_EQ(bytes("-o posv -n 1000 --nrhs 10 -p s --check --vendor"), 3u * (4000000 + 40000));
    // gemm: A, B, C0, and C; the reference and C - reference.
    EXPECT_EQ(bytes("-o gemm -m 100 -n 200 -k 300 -p s"), 4u * (30000 + 60000 + 20000 + 20000));
    EXPECT_EQ(bytes("-o gemm -m 100 -n 200 -k 300 -p s --check"), 4u * (30000 + 60000 + 20000 + 3 * 20000));
    EXPECT_EQ(bytes("-o trsm -m 100 -n 200"), 8u * (10000 + 20000 + 20000));
    EXPECT_EQ(bytes("-o trsm -m 100 -n 200 --vendor --check"), 8u * (10000 + 20000 + 2 * 20000));
    EXPECT_EQ(bytes("-o syrk -n 100 -k 50 --vendor"), 8u * (5000 + 10000 + 2 * 10000));
    // getrf_nopiv on 300 x 100: the check's L, U and their product; the vendor's A and pivots.
    EXPECT_EQ(bytes("-o getrf_nopiv -m 300 -n 100 --check"), 8u * (2 * 30000 + 30000 + 10000 + 30000));
    EXPECT_EQ(bytes("-o getrf_nopiv -m 300 -n 100 --vendor"), 8u * 3 * 30000 + 101 * sizeof(lapack_int));
    EXPECT_EQ(bytes("-o gesv_nopiv -m 300 -n 100 --nrhs 2 --check"), 8u * (2 * (10000 + 200) + 200));
    // getrf and gesv: the same, and grain's min(m, n) pivots.
    EXPECT_EQ(bytes("-o getrf -m 300 -n 100 --check"), 8u * (2 * 30000 + 30000 + 10000 + 30000) + 100 * sizeof(int));
    EXPECT_EQ(bytes("-o gesv -n 100 --nrhs 2 --vendor"),
              8u * (3 * (10000 + 200)) + 101 * sizeof(lapack_int) + 100 * sizeof(int));
    // n = 49152, --check and --vendor: A, the factors, the vendor's copy (the check is by
    // vector there): 3 x 18 GiB, within the GPU machine's 128 GiB.
    EXPECT_EQ(bytes("-o potrf -n 49152 --check --vendor"), uint64_t(3) * 49152 * 49152 * 8);
    EXPECT_EQ(bytes("-o gemm -n 2147483647"), std::numeric_limits<uint64_t>::max());  // more than 64 bits hold
}

// A case that cannot fit is refused before anything is allocated, saying what it needs.
TEST(DriverMemory, CasesBeyondTheMemoryAreRefused) {
    const driver::Options o = parse("-o potrf -n 50,100");
    EXPECT_NO_THROW(driver::check_memory(o, driver::cases_of(o), {160000, "test"}));
    try {
        driver::check_memory(o, driver::cases_of(o), {159999, "test"});
        ADD_FAILURE() << "n = 100 needs 160000 bytes";
    } catch (const driver::usage_error& e) {
        EXPECT_NE(std::string(e.what()).find("n=100: needs 160000 bytes of host memory, more than the 159999 bytes "
                                             "available (test)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_GT(driver::available_memory().bytes, 0u);
    Output out = run("-o potrf -n 2000000");
    EXPECT_EQ(out.exit_code, 2) << out.out;
    EXPECT_NE(out.out.find("needs 64000000000000 bytes of host memory"), std::string::npos) << out.out;
    out = run("-o gemm -n 2147483647 --check");
    EXPECT_EQ(out.exit_code, 2) << out.out;
    EXPECT_NE(out.out.find("needs more than 2^64 bytes"), std::string::npos) << out.out;
}

// Every number is parsed into the type it is used as, and a value out of its range is
// refused, saying the range (4294967297 must not wrap to nb = 1).
TEST(DriverOptions, NumbersOutOfTheirRangeAreRefusedSayingIt) {
    const struct {
        const char* arguments;
        const char* expected;
    } cases[] = {
        {"-b 4294967297", "for -b: expected an integer in [1, 2147483647]"},
        {"--nb 0", "for --nb: expected an integer in [1, 2147483647]"},
        {"-t 4294967298", "for -t: expected an integer in [1, 2147483647]"},
        {"--threads -4294967295", "for --threads: expected an integer in [1, 2147483647]"},
        {"--scales 4294967296", "for --scales: expected an integer in [1, 2147483647]"},
        {"-g 4294967296", "for -g: expected an integer in [0, 2147483647]"},
        {"--gpu-mem 4294967297", "for --gpu-mem: expected an integer in [1, 2147483647]"},
        {"--window 4294967296", "for --window: expected an integer in [0, 2147483647]"},
        {"--cpu-tile-limit -1", "for --cpu-tile-limit: expected an integer in [0, 2147483647]"},
        {"--lp-period 4294967297", "for --lp-period: expected an integer in [1, 2147483647]"},
        {"--niter 4294967297", "for --niter: expected an integer in [1, 2147483647]"},
        {"--nrhs 4294967297", "for --nrhs: expected an integer in [1, 2147483647]"},
        {"-m 2147483648", "for -m: expected an integer in [1, 2147483647]"},
        {"-k 1:99999999999", "for -k: expected an integer in [1, 2147483647]"},
        {"-n 1:10:4294967296", "for -n: expected an integer in [1, 2147483647]"},
        {"--seed 18446744073709551616", "for --seed: expected an integer in [0, 18446744073709551615]"},
        {"--seed -1", "for --seed: expected an integer in [0, 18446744073709551615]"},
        {"--niter 1x", "for --niter: expected an integer in [1, 2147483647]"},
        {"--gpu-math fp64", "for --gpu-math: expected fp32, tf32, bf16 or fp16"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.arguments);
        EXPECT_NE(refusal(std::string("-o potrf -n 10 ") + c.arguments).find(c.expected), std::string::npos)
            << refusal(std::string("-o potrf -n 10 ") + c.arguments);
    }
    const driver::Options o = parse("-o potrf -n 2147483647 -t 2147483647 --seed 18446744073709551615 -b 2147483647");
    EXPECT_EQ(o.n, std::vector<int64_t>{2147483647});
    EXPECT_EQ(o.threads, 2147483647);
    EXPECT_EQ(o.seed, std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(o.nb, std::vector<int>{2147483647});
    // -b with --scales would be ignored; a ladder grain refuses is refused here.
    EXPECT_NE(refusal("-o potrf -n 10 -b 16 --scales 32,16").find("-b and --scales"), std::string::npos);
    EXPECT_NE(refusal("-o potrf -n 10 --scales 32,24").find("--scales"), std::string::npos);
    const Output out = run("-o potrf -n 10 -b 4294967297");
    EXPECT_EQ(out.exit_code, 2) << out.out;
    EXPECT_TRUE(table(out.out).empty()) << out.out;
}

// -h asks for the usage, wherever it stands (the arguments after it are not read).
TEST(DriverOptions, HelpIsAnOutcomeOfParse) {
    EXPECT_TRUE(parse("-h").help);
    EXPECT_TRUE(parse("-o potrf --help --bogus").help);
    const Output o = run("-o potrf --help");
    EXPECT_EQ(o.exit_code, 0);
    EXPECT_NE(o.out.find("usage: grain_testing"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("Exit status"), std::string::npos) << o.out;
}

// A scheduler neither StarPU nor grain has is refused, listing those there are (rather
// than running StarPU's default and exiting 0); from a variable too.
TEST(Driver, UnknownSchedulerExitsTwoListingTheValidOnes) {
    Output o = run("-o potrf -n 10 --sched nosuch");
    EXPECT_EQ(o.exit_code, 2) << o.out;
    for (const char* listed : {"for --sched", "prio", "dmdar", "darts-lru"})
        EXPECT_NE(o.out.find(listed), std::string::npos) << listed << " in " << o.out;
    o = run("-o potrf -n 10", "GRAIN_SCHED=nosuch");
    EXPECT_EQ(o.exit_code, 2) << o.out;
    EXPECT_NE(o.out.find("GRAIN_SCHED = nosuch: no such scheduling policy"), std::string::npos) << o.out;
    o = run("-o potrf -n 10 --sched eager");
    EXPECT_EQ(o.exit_code, 0) << o.out;
}

// An --lp-stats file that cannot be opened, or takes nothing, is refused before the runtime
// (and StarPU) starts: a GRAIN_SCHED the runtime would refuse is never looked at.
TEST(Driver, LpStatsFileThatCannotBeWrittenExitsTwoBeforeStarpuStarts) {
    for (const std::string path : {"/nonexistent_grain_dir/stats.csv", "/dev/full"}) {
        SCOPED_TRACE(path);
        const Output o = run("-o potrf -n 10 --lp-stats " + path, "GRAIN_SCHED=nosuch");
        EXPECT_EQ(o.exit_code, 2) << o.out;
        EXPECT_NE(o.out.find("--lp-stats file " + path + ": "), std::string::npos) << o.out;
        EXPECT_EQ(o.out.find("GRAIN_SCHED"), std::string::npos) << o.out;
    }
    EXPECT_NE(refusal("-o potrf -n 10 --lp-stats").find("missing value"), std::string::npos);
}

// A write to the --lp-stats file that fails later (a reader gone, a disk full) throws.
TEST(DriverLpStats, WriteErrorsAreReported) {
    const auto previous = std::signal(SIGPIPE, SIG_IGN);  // a write to a closed pipe: EPIPE
    int ends[2];
    ASSERT_EQ(pipe(ends), 0);
    const std::string path = "/dev/fd/" + std::to_string(ends[1]);
    {
        const std::unique_ptr<driver::CsvFile> file = driver::lp_stats_file(path);  // the header fits in the pipe
        grain::Statistics s;
        s.operations = {"gemm"};
        s.lp.levels = 1;
        grain::LpSolve solve;
        solve.pending = {1};
        solve.ratios = {0.5};
        s.lp.history = {solve};
        EXPECT_NO_THROW(driver::write_lp_stats(*file, 0, s));
        close(ends[0]);
        try {
            driver::write_lp_stats(*file, 1, s);
            ADD_FAILURE() << "a failed write went unnoticed";
        } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("cannot write to --lp-stats file " + path), std::string::npos)
                << e.what();
        }
    }
    // A file that takes no header is refused when it is opened.
    EXPECT_THROW(driver::lp_stats_file(path), driver::usage_error);
    EXPECT_THROW(driver::trace_file(path), driver::usage_error);
    close(ends[1]);
    std::signal(SIGPIPE, previous);
}

// The columns say what ran: potrf reads neither -m nor -k nor --nrhs (one run, m = n, and
// a note on stderr), gemm reads no --nrhs, the solves read no -k.
// The FP64 peaks of the GPUs the driver knows, by their CUDA names; PCIe and NVL boards are not
// taken for the SXM ones; an unknown GPU has none. The peak columns come with GPU runs.
TEST(DriverPeak, GpuNamesGiveTheirFp64Peak) {
    EXPECT_EQ(driver::fp64_peak_gflops("NVIDIA H100 80GB HBM3"), 67000);
    EXPECT_EQ(driver::fp64_peak_gflops("NVIDIA H100 PCIe"), 51000);
    EXPECT_EQ(driver::fp64_peak_gflops("NVIDIA H100 NVL"), 60000);
    EXPECT_EQ(driver::fp64_peak_gflops("NVIDIA H200"), 67000);
    EXPECT_EQ(driver::fp64_peak_gflops("NVIDIA H200 NVL"), 60000);
    EXPECT_TRUE(std::isnan(driver::fp64_peak_gflops("Tesla V100-SXM2-16GB")));
    driver::Options options;
    const driver::Operation& potrf = driver::find_operation("potrf");
    const auto has = [](const std::vector<std::string>& names, const char* name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    EXPECT_FALSE(has(driver::columns(options, potrf, 1, false), "peak"));
    EXPECT_TRUE(has(driver::columns(options, potrf, 1, true), "peak"));
    EXPECT_FALSE(has(driver::columns(options, potrf, 1, true), "vendor_peak"));
    options.vendor = true;
    EXPECT_TRUE(has(driver::columns(options, potrf, 1, true), "vendor_peak"));
    // The refinement's steps: a mixed-precision solve's column only.
    EXPECT_FALSE(has(driver::columns(options, potrf, 1, false), "steps"));
    EXPECT_TRUE(has(driver::columns(options, driver::find_operation("gesv_mixed"), 1, false), "steps"));
}

TEST(Driver, ColumnsShowWhatRan) {
    const struct {
        const char* arguments;
        std::vector<std::string> m_n_k_nrhs;
        const char* note;
    } cases[] = {
        {"-o potrf -n 30 -m 50,60 -k 7 --nrhs 3", {"30", "30", "-", "-"}, "potrf ignores -m"},
        {"-o gemm -n 30 -m 20 -k 10 --nrhs 5", {"20", "30", "10", "-"}, "gemm ignores --nrhs"},
        {"-o gemm -n 30", {"30", "30", "30", "-"}, nullptr},
        {"-o posv -n 30 --nrhs 4 -m 50", {"30", "30", "-", "4"}, "posv ignores -m"},
        {"-o syrk -n 30 -k 8", {"30", "30", "8", "-"}, nullptr},
        {"-o trsm -n 30 -m 20", {"20", "30", "-", "-"}, nullptr},
        {"-o getrf_nopiv -n 30 -m 40", {"40", "30", "-", "-"}, nullptr},
        {"-o gesv_nopiv -n 30 -m 40 --nrhs 2", {"30", "30", "-", "2"}, "gesv_nopiv ignores -m"},
        {"-o getrf -n 30 -m 40", {"40", "30", "-", "-"}, nullptr},
        {"-o getrf -n 40 -m 30", {"30", "40", "-", "-"}, nullptr},
        {"-o gesv -n 30 -m 40 --nrhs 2", {"30", "30", "-", "2"}, "gesv ignores -m"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.arguments);
        const Output o = run(std::string(c.arguments) + " -b 16 --check");
        EXPECT_EQ(o.exit_code, 0) << o.out;
        const auto rows = table(o.out);
        ASSERT_EQ(rows.size(), 2u) << o.out;
        EXPECT_EQ(std::vector<std::string>(rows[1].begin() + 4, rows[1].begin() + 8), c.m_n_k_nrhs) << o.out;
        if (c.note) EXPECT_NE(o.out.find(c.note), std::string::npos) << o.out;
        else EXPECT_EQ(o.out.find("ignores"), std::string::npos) << o.out;
    }
}

}  // namespace
