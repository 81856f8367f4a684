// grain_testing's command line: the usage text and the parsing of each option's value.
#include "testing_drivers/testing/options.hpp"

#include <starpu.h>  // STARPU_SIMGRID, in a simulating StarPU's configuration

#include <grain/grain.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>

#include "testing_drivers/testing/runners.hpp"

namespace grain::testing::driver {

namespace {

const char* usage_text =
    "usage: grain_testing -o OP [options]\n"
    "  -o, --op OP          @OPERATIONS@\n"
    "  -p, --precision P    s, d, c, z, or a list (s,d,c,z)  [d]\n"
    "  -m, -n, -k LIST      sizes: a,b,c or start:end:step   [m = n, k = n]\n"
    "      --nrhs LIST      right-hand sides                 [1]\n"
    "  -b, --nb LIST        tile sizes       [grain::automatic_scales for the routine, size, machine]\n"
    "      --scales LIST    ladder of tile scales, largest first (instead of -b), e.g. 2048,1024,512;\n"
    "                       several ladders, run in turn, separated by '/': 1024,512,256/768\n"
    "      --split POLICY   none, all, depth:D, random:P[:SEED], lp [GRAIN_SPLIT, lp]\n"
    "      --window N       submission window in tasks, 0: unbounded [GRAIN_WINDOW, 32 per core, 128 per GPU]\n"
    "      --lp-period N    split policy lp: submitted tasks between LP solves [GRAIN_LP_PERIOD, 50]\n"
    "      --lp-stats FILE  split policy lp: write every solve (time, inputs, ratios) as CSV\n"
    "      --trace FILE     write every kernel task (worker, times, bytes loaded) and LP solve as CSV\n"
    "                       (scripts/plot-trace.sh FILE OUT.png draws it)\n"
    "  -v                   also print the LP's final split ratios per (operation, level)\n"
    "      --niter N        runs of each case                [1]\n"
    "      --warmup         first, one untimed run of the first case (and of the vendor's, with\n"
    "                       --vendor): the GPU libraries load a kernel when it first runs\n"
    "      --pinned         GPU runs: pin the arrays before grain's clock starts, as the vendor's\n"
    "                       are (without it, grain pins them inside its time, as for any caller)\n"
    "      --check          check each result by its residual\n"
    "      --vendor         also time the vendor routine: threaded OpenBLAS/LAPACKE, or on\n"
    "                       GPU runs cuBLAS gemm / cuSOLVER potrf, getrf, getrf_nopiv alone on\n"
    "                       GPU 0 (copy to the GPU, call, copy back; nan if it does not fit)\n"
    "      --uplo L|U       triangle for potrf/potrs/posv/syrk [L]\n"
    "      --qr-tree auto|flat|binary  the QR operations: how each step's tiles are eliminated [auto]\n"
    "      --qr-domain N    the binary tree's domains: tiles eliminated flat before it [1]\n"
    "                       (auto: flat with 2 tile columns per worker, else binary, 2 domains per worker)\n"
    "  -t, --threads N      CPU workers                      [GRAIN_NCPU, STARPU_NCPU, all]\n"
    "  -g, --gpus N         GPUs                             [GRAIN_NGPU, STARPU_NCUDA, all]\n"
    "  -P N, -Q N           process grid under mpirun: matrices 2D block-cyclic over P x Q\n"
    "                       processes (P Q = the processes); one result line, from rank 0 [1]\n"
    "      --gpu-mem MB     GPU memory grain may use per GPU [GRAIN_GPU_MEMORY, STARPU_LIMIT_CUDA_MEM, all]\n"
    "      --gpu-workers N  StarPU workers (CUDA streams) per GPU, 1 to 8\n"
    "                       [GRAIN_GPU_WORKERS, STARPU_NWORKER_PER_CUDA, 1]\n"
    "      --cpu-tile-limit N  largest tile side a core runs while GPUs run, 0: any\n"
    "                       [GRAIN_CPU_TILE_LIMIT, 1024]\n"
    "      --sched NAME     StarPU's or grain's (darts...) scheduler [GRAIN_SCHED, STARPU_SCHED, prio]\n"
    "      --gpu-math fp32|tf32|bf16|fp16  the GPUs' single-precision products: IEEE, or tensor\n"
    "                       cores on inputs rounded to that format (gesv_mixed, posv_mixed)\n"
    "                       [GRAIN_GPU_MATH, fp32]\n"
    "      --seed N         random seed, 0 to 2^64-1         [42]\n"
    "  -H                   aligned human-readable columns (default: ';'-separated)\n"
    "Sizes are 1 to 2147483647, other counts 1 (0 for -g, --window, --cpu-tile-limit) to 2147483647; a list\n"
    "holds at most 100000 values, and the lists at most 100000 cases. A case whose matrices\n"
    "(with the copies of --check and --vendor) exceed the available memory is refused.\n"
    "Columns show what ran: m = n for the square routines, k for gemm and syrk only, nrhs\n"
    "for the solves only ('-' elsewhere).\n"
    "Exit status: 0 every checked run passed, 1 a check failed or an error, 2 a bad command\n"
    "line (or an argument grain rejects).\n";

// An integer in [min, max] of the type it is used as; a text that is not one (or does not
// fit the type) is an invalid value, whose message states the range.
template <typename T>
T parse_number(const std::string& option, const std::string& text, T min, T max) {
    T value{};
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || value < min || value > max)
        throw usage_error("invalid value '" + text + "' for " + option + ": expected an integer in [" +
                          std::to_string(min) + ", " + std::to_string(max) + "]");
    return value;
}

// "a,b,c", each item a value or an inclusive range start:end[:step], every value in
// [min, max], at most max_values in all (counted before any is stored). Never empty: an
// empty text is an invalid value.
template <typename T>
std::vector<T> parse_list(const std::string& option, const std::string& text, T min, T max) {
    std::vector<T> values;
    const auto make_room = [&](uint64_t count) {
        if (count > max_values - values.size())
            throw usage_error("invalid value '" + text + "' for " + option + ": more than " +
                              std::to_string(max_values) + " values");
    };
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        const size_t c1 = item.find(':');
        if (c1 == std::string::npos) {
            make_room(1);
            values.push_back(parse_number(option, item, min, max));
        } else {
            const size_t c2 = item.find(':', c1 + 1);
            const int64_t first = parse_number(option, item.substr(0, c1), min, max);
            const int64_t last = parse_number(option, item.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1), min, max);
            const int64_t step = c2 == std::string::npos ? 1 : parse_number(option, item.substr(c2 + 1), T(1), max);
            if (last < first) throw usage_error("invalid range '" + item + "' for " + option + ": end < start");
            // first + i * step for i < count stays in [first, last]: nothing overflows.
            const uint64_t count = uint64_t(last - first) / uint64_t(step) + 1;
            make_room(count);
            for (uint64_t i = 0; i < count; ++i) values.push_back(T(first + int64_t(i) * step));
        }
        start = comma + 1;
    }
    return values;
}

std::vector<int64_t> parse_sizes(const std::string& option, const std::string& text) {
    return parse_list<int64_t>(option, text, 1, max_size);
}

// LAPACK's precision letters (s, d, c, z) or a list of them.
std::vector<char> parse_precisions(const std::string& option, const std::string& text) {
    std::vector<char> precisions;
    for (size_t j = 0; j < text.size(); j += 2) {
        if (std::string("sdcz").find(text[j]) == std::string::npos || (j + 1 < text.size() && text[j + 1] != ','))
            throw usage_error("invalid value '" + text + "' for " + option + ": expected s, d, c, z or a list (s,d,c,z)");
        precisions.push_back(text[j]);
    }
    if (precisions.empty() || text.back() == ',') throw usage_error("invalid value '" + text + "' for " + option);
    return precisions;
}

Uplo parse_uplo(const std::string& text) {
    if (text != "L" && text != "U") throw usage_error("invalid value '" + text + "' for --uplo: expected L or U");
    return text == "L" ? Uplo::Lower : Uplo::Upper;
}

// Ladders grain::Matrix takes, separated by '/': each 1 to grain's most levels, each scale
// dividing the one above.
std::vector<std::vector<int>> parse_ladders(const std::string& option, const std::string& text) {
    std::vector<std::vector<int>> ladders;
    size_t begin = 0;
    for (size_t end; begin <= text.size(); begin = end + 1) {
        end = std::min(text.find('/', begin), text.size());
        const std::string one = text.substr(begin, end - begin);
        if (one.empty()) throw usage_error("invalid value '" + text + "' for " + option + ": an empty ladder");
        std::vector<int> scales = parse_list<int>(option, one, 1, std::numeric_limits<int>::max());
        try {
            grain::Matrix<double>(0, 0, scales);  // allocates nothing
        } catch (const grain::invalid_argument& e) {
            throw usage_error("invalid value '" + one + "' for " + option + ": " + e.what());
        }
        ladders.push_back(std::move(scales));
    }
    return ladders;
}

// One of the names grain::Runtime takes (it would refuse any other, once StarPU's
// workers are about to start).
std::string parse_sched(const std::string& option, const std::string& text) {
    if (grain::Runtime::is_sched_policy(text)) return text;
    const std::vector<std::string> names = grain::Runtime::sched_policies();
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
    throw usage_error("invalid value '" + text + "' for " + option + ": expected one of " + list +
                      " (with parameters: dada:ALPHA and dada-cp:ALPHA, ALPHA from 0 to 1; owner-load:SKEW, "
                      "SKEW >= 0 or inf; owner-cyclic:GPxGQ)");
}

constexpr int max_int = std::numeric_limits<int>::max();

// Sets the option arg in o, taking its value, where it has one, from value().
// False for an option grain_testing does not have.
template <typename Value>
bool set_option(Options& o, const std::string& arg, Value&& value) {
    if (arg == "-h" || arg == "--help") {
        o.help = true;
    } else if (arg == "-o" || arg == "--op") {
        o.op = value();
    } else if (arg == "-p" || arg == "--precision") {
        o.precisions = parse_precisions(arg, value());
    } else if (arg == "-m") {
        o.m = parse_sizes(arg, value());
    } else if (arg == "-n") {
        o.n = parse_sizes(arg, value());
    } else if (arg == "-k") {
        o.k = parse_sizes(arg, value());
    } else if (arg == "--nrhs") {
        o.nrhs = parse_sizes(arg, value());
    } else if (arg == "-b" || arg == "--nb") {
        o.nb = parse_list<int>(arg, value(), 1, max_int);
    } else if (arg == "--scales") {
        o.ladders = parse_ladders(arg, value());
    } else if (arg == "--split") {
        o.split = value();
    } else if (arg == "--window") {
        o.window = parse_number<int>(arg, value(), 0, max_int);
    } else if (arg == "--lp-period") {
        o.lp_period = parse_number<int>(arg, value(), 1, max_int);
    } else if (arg == "--lp-stats") {
        o.lp_stats = value();
        if (o.lp_stats.empty()) throw usage_error("invalid value '' for --lp-stats: expected a file name");
    } else if (arg == "--trace") {
        o.trace = value();
        if (o.trace.empty()) throw usage_error("invalid value '' for --trace: expected a file name");
    } else if (arg == "-v") {
        o.verbose = true;
    } else if (arg == "--niter") {
        o.niter = parse_number<int>(arg, value(), 1, max_int);
    } else if (arg == "--warmup") {
        o.warmup = true;
    } else if (arg == "--pinned") {
        o.pinned = true;
    } else if (arg == "--check") {
        o.check = true;
    } else if (arg == "--vendor") {
        o.vendor = true;
    } else if (arg == "-H") {
        o.human = true;
    } else if (arg == "--uplo") {
        o.uplo = parse_uplo(value());
    } else if (arg == "--qr-tree") {
        const std::string tree = value();
        if (tree != "flat" && tree != "binary" && tree != "auto")
            throw usage_error("invalid value '" + tree + "' for --qr-tree: expected auto, flat or binary");
        o.qr_tree = tree == "flat" ? grain::QrTree::Flat : tree == "binary" ? grain::QrTree::Binary : grain::QrTree::Auto;
    } else if (arg == "--qr-domain") {
        o.qr_domain = parse_number<int>(arg, value(), 1, max_int);
    } else if (arg == "-t" || arg == "--threads") {
        o.threads = parse_number<int>(arg, value(), 1, max_int);
    } else if (arg == "-P") {
        o.grid_p = parse_number<int>(arg, value(), 1, max_int);
    } else if (arg == "-Q") {
        o.grid_q = parse_number<int>(arg, value(), 1, max_int);
    } else if (arg == "-g" || arg == "--gpus") {
        o.gpus = parse_number<int>(arg, value(), 0, max_int);
    } else if (arg == "--gpu-workers") {
        o.gpu_workers = parse_number<int>(arg, value(), 1, 8);
    } else if (arg == "--gpu-mem") {
        o.gpu_memory = parse_number<int>(arg, value(), 1, max_int);
    } else if (arg == "--cpu-tile-limit") {
        o.cpu_tile_limit = parse_number<int>(arg, value(), 0, max_int);
    } else if (arg == "--sched") {
        o.sched = parse_sched(arg, value());
    } else if (arg == "--gpu-math") {
        o.gpu_math = value();
        if (o.gpu_math != "fp32" && o.gpu_math != "tf32" && o.gpu_math != "bf16" && o.gpu_math != "fp16")
            throw usage_error("invalid value '" + o.gpu_math + "' for " + arg + ": expected fp32, tf32, bf16 or fp16");
    } else if (arg == "--seed") {
        o.seed = parse_number<uint64_t>(arg, value(), 0, std::numeric_limits<uint64_t>::max());
    } else {
        return false;
    }
    return true;
}

}  // namespace

Options parse(int argc, char** argv) {
    Options o;
    bool nb_given = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw usage_error("missing value for " + arg);
            return argv[++i];
        };
        if (!set_option(o, arg, value)) throw usage_error("unknown option " + arg);
        if (o.help) return o;
        nb_given = nb_given || arg == "-b" || arg == "--nb";
    }
    if (nb_given && !o.ladders.empty()) throw usage_error("-b and --scales: give one (--scales replaces -b)");
#ifdef STARPU_SIMGRID
    // A simulated machine times kernels from models and runs none of them.
    if (o.check || o.vendor)
        throw usage_error(std::string(o.check ? "--check" : "--vendor") +
                          ": this grain_testing is built against a simulating StarPU (SimGrid), where kernels do not run");
    // sim/ holds performance models of the real precisions only (calibrated on real runs).
    for (char p : o.precisions)
        if (p == 'c' || p == 'z')
            throw usage_error(std::string("-p ") + p +
                              ": the simulated machines (sim/) have performance models for s and d only; "
                              "complex precisions run on real machines");
#endif
#ifndef GRAIN_USE_CUDA
    if (o.pinned) throw usage_error("--pinned: pins arrays for GPU transfers; this grain_testing has no CUDA");
#endif
    if (o.op.empty()) throw usage_error("missing -o/--op");
    if (o.n.empty()) throw usage_error("missing -n");
    if (o.m.empty()) o.m = {0};  // 0: same as n (a given list is never empty)
    if (o.k.empty()) o.k = {0};
    return o;
}

const char* usage() {
    // The operations' names, from their table, in lines under the option's description.
    static const std::string text = [] {
        std::string names, line;
        for (const Operation& op : operations()) {
            if (!line.empty() && line.size() + std::strlen(op.name) + 2 > 58) {
                names += line + ",\n                       ";
                line.clear();
            }
            line += (line.empty() ? "" : ", ") + std::string(op.name);
        }
        std::string usage = usage_text;
        usage.replace(usage.find("@OPERATIONS@"), std::strlen("@OPERATIONS@"), names + line);
        return usage;
    }();
    return text.c_str();
}


}  // namespace grain::testing::driver
