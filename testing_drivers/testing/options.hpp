#pragma once
// grain_testing's command line: its options and their parsing.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "grain/qr.hpp"
#include "grain/types.hpp"

namespace grain::testing::driver {

// The largest size (-m, -n, -k, --nrhs): the vendor routines and the checks take LAPACK's
// int sizes.
constexpr int64_t max_size = 2147483647;
// The most values a list may expand to (ranges included), and the most cases (one run
// each per --niter) the lists may combine into.
constexpr size_t max_values = 100000;

struct Options {
    bool help = false;  // -h/--help: print usage() and nothing else
    std::string op;
    std::vector<char> precisions{'d'};
    std::vector<int64_t> m, n, k, nrhs{1};  // each in [1, max_size]
    std::vector<int> nb;  // -b; neither it nor --scales: grain::automatic_scales per case
    int niter = 1;
    bool scalapack = false;  // under mpirun, set by the driver: --vendor times ScaLAPACK where it has the operation
    bool warmup = false;  // one untimed run of the first case first
    bool pinned = false;  // GPU runs: the arrays pinned before grain's clock starts, as the vendor's
    bool check = false;
    bool vendor = false;
    bool human = false;
    int threads = -1;
    int gpus = -1;
    int grid_p = 1, grid_q = 1;  // -P, -Q: process grid of a distributed run (under mpirun)
    int gpu_workers = -1;
    int gpu_memory = -1;  // MiB
    int cpu_tile_limit = -1;
    std::string sched;
    std::string gpu_math;  // --gpu-math: RuntimeOptions::gpu_math
    std::vector<std::vector<int>> ladders;  // --scales: one case per ladder, replaces -b
    std::string split;
    int window = -1;
    int lp_period = -1;
    std::string lp_stats;  // --lp-stats FILE
    std::string trace;     // --trace FILE
    bool verbose = false;
    uint64_t seed = 42;
    Uplo uplo = Uplo::Lower;
    grain::QrTree qr_tree = grain::QrTree::Auto;
    int qr_domain = 1;
};

// A command line grain_testing cannot run, or a file it names that cannot be written.
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The options of argv; a bad option throws usage_error. -h/--help stops the parsing there
// and returns options with help set. Every number is range-checked into the type it is
// used as; every list holds 1 to max_values values.
// m and k are {0} when not given: 0 stands for "same as n".
Options parse(int argc, char** argv);

// The text -h prints.
const char* usage();

}  // namespace grain::testing::driver
