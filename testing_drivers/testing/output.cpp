#include "testing_drivers/testing/output.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <grain/grain.hpp>

namespace grain::testing::driver {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string number(double v) {  // four significant digits
    char text[64];
    std::snprintf(text, sizeof text, "%.4g", v);
    return text;
}

std::string scientific(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.2e", v);
    return text;
}

void print_ratios(const grain::Statistics& s) {
    std::string line = "# lp split ratios (" + std::to_string(s.lp.failures) + " failed solves, " +
                       std::to_string(s.lp.uncalibrated) + " durations estimated without history):";
    for (size_t op = 0; op < s.operations.size(); ++op) {
        line += " " + s.operations[op];
        for (int l = 0; l < s.lp.levels; ++l) line += (l ? "," : "=") + number(s.lp.ratios[op * size_t(s.lp.levels) + size_t(l)]);
    }
    std::printf("%s\n", line.c_str());
}

// The LP's share of a run: its solves' wall time, and their CPU time on the submitting
// thread (the wall time also counts ticks in which that thread waited for a core that
// was running tasks).
void print_lp_time(const grain::LpStatistics& lp, double run_seconds) {
    const double wall = lp.total_milliseconds, cpu = lp.total_cpu_milliseconds;
    std::printf("# lp time: %lld solves, %s ms (%s %% of the run), %s ms of CPU time (%s %%)\n",
                static_cast<long long>(lp.solves), number(wall).c_str(), number(100 * wall / (run_seconds * 1e3)).c_str(),
                number(cpu).c_str(), number(100 * cpu / (run_seconds * 1e3)).c_str());
}

// Which kinds of task the split policy split: per operation and level, "split/submitted".
void print_splits(const grain::Statistics& s, int levels) {
    std::string line = "# tasks split/submitted per operation and level:";
    for (size_t op = 0; op < s.operations.size(); ++op) {
        int64_t submitted = 0;
        for (int l = 0; l < levels; ++l) submitted += s.counts[op][size_t(l)].submitted;
        if (submitted == 0) continue;
        line += " " + s.operations[op];
        for (int l = 0; l < levels; ++l)
            line += (l ? "," : "=") + std::to_string(s.counts[op][size_t(l)].split) + "/" +
                    std::to_string(s.counts[op][size_t(l)].submitted);
    }
    std::printf("%s\n", line.c_str());
}

// The LP's columns: its solves, the median time of those kept (the last
// LpStatistics::history_limit), and the longest of all.
std::vector<std::string> lp_cells(const grain::LpStatistics& lp) {
    std::vector<double> solve_ms;
    for (const grain::LpSolve& solve : lp.history) solve_ms.push_back(solve.milliseconds);
    std::sort(solve_ms.begin(), solve_ms.end());
    return {std::to_string(lp.solves), number(solve_ms.empty() ? 0 : solve_ms[solve_ms.size() / 2]),
            number(lp.max_milliseconds)};
}

}  // namespace

Progress::Progress() : thread_([this] { loop(); }) {}

Progress::~Progress() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void Progress::start(std::string label) {
    std::lock_guard<std::mutex> lock(mutex_);
    label_ = std::move(label);
    started_ = std::chrono::steady_clock::now();
}

void Progress::loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::seconds(5), [this] { return stop_; }))
        if (!label_.empty() && seconds_since(started_) >= 4.5)
            std::fprintf(stderr, "grain_testing: %s: %.0f s so far\n", label_.c_str(), seconds_since(started_));
}

Table::Table(bool human, std::vector<std::string> columns) : human_(human), columns_(std::move(columns)) {
    row(columns_);
}

void Table::row(const std::vector<std::string>& cells) const {
    if (grain::Runtime::rank() > 0) return;  // rank 0 alone prints
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
        if (human_) {
            const size_t width = std::max<size_t>(columns_[i].size(), 11);
            line += cells[i] + std::string(width > cells[i].size() ? width - cells[i].size() : 0, ' ');
            line += i + 1 < cells.size() ? " " : "";
        } else {
            line += cells[i] + (i + 1 < cells.size() ? ";" : "");
        }
    }
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
}

CsvFile::CsvFile(const char* option, const std::string& path, const char* header)
    : option_(option), header_(header) {
    open_at(path);
}

void CsvFile::open_at(const std::string& path) {
    path_ = path;
    if (path.empty()) return;
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) throw usage_error(error("cannot open"));
    // Written through now, so that a file that takes nothing (a full disk) fails here too.
    std::fprintf(file_, "%s\n", header_);
    if (std::fflush(file_) != 0 || std::ferror(file_)) {
        const std::string message = error("cannot write to");
        std::fclose(file_);
        file_ = nullptr;
        throw usage_error(message);
    }
}

void CsvFile::reopen(const std::string& path) {
    if (!file_) return;
    close();
    open_at(path);
}

CsvFile::~CsvFile() {
    if (file_) std::fclose(file_);
}

std::string CsvFile::error(const char* what) const {
    return std::string(what) + " " + option_ + " file " + path_ + ": " + std::strerror(errno);
}

void CsvFile::line(const char* format, ...) {
    if (!file_) return;
    va_list args;
    va_start(args, format);
    std::vfprintf(file_, format, args);
    va_end(args);
    std::fputc('\n', file_);
}

void CsvFile::flush() {
    if (file_ && (std::fflush(file_) != 0 || std::ferror(file_))) throw std::runtime_error(error("cannot write to"));
}

void CsvFile::close() {
    if (!file_) return;
    const bool failed = std::ferror(file_) != 0;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (failed || !closed) throw std::runtime_error(error("cannot write to"));
}

std::unique_ptr<CsvFile> lp_stats_file(const std::string& path) {
    return std::make_unique<CsvFile>("--lp-stats", path, "run;solve;at_s;submitted;solve_ms;solved;operation;level;pending;ratio;solve_cpu_ms;cause");
}

void write_lp_stats(CsvFile& file, size_t run, const grain::Statistics& s) {
    if (!file.open()) return;
    const int levels = s.lp.levels;
    const size_t first = size_t(s.lp.solves) - s.lp.history.size();  // the solves before are not kept
    if (first > 0)
        std::fprintf(stderr, "grain_testing: --lp-stats: run %zu kept its last %zu of %lld solves\n", run,
                     s.lp.history.size(), static_cast<long long>(s.lp.solves));
    for (size_t i = 0; i < s.lp.history.size(); ++i) {
        const grain::LpSolve& solve = s.lp.history[i];
        for (size_t op = 0; op < s.operations.size(); ++op)
            for (int l = 0; l < levels; ++l) {
                const size_t k = op * size_t(levels) + size_t(l);
                file.line("%zu;%zu;%.6f;%lld;%.4f;%d;%s;%d;%g;%.4f;%.4f;%s", run, first + i, solve.at,
                          static_cast<long long>(solve.submitted), solve.milliseconds, int(solve.solved),
                          s.operations[op].c_str(), l, solve.pending[k], solve.ratios[k], solve.cpu_milliseconds,
                          solve.cause.c_str());
            }
    }
    file.flush();
}

std::unique_ptr<CsvFile> trace_file(const std::string& path) {
    return std::make_unique<CsvFile>("--trace", path,
                   "record;run;worker;unit;operation;level;rows;cols;priority;submit_us;start_us;end_us;"
                   "bytes_loaded;ratio");
}

void write_trace(CsvFile& file, size_t run, const std::vector<grain::TaskRecord>& tasks, const grain::Statistics& s) {
    if (!file.open()) return;
    for (const grain::TaskRecord& t : tasks)
        file.line("task;%zu;%d;%s;%s;%d;%d;%d;%d;%.3f;%.3f;%.3f;%lld;", run, t.worker, t.gpu ? "gpu" : "cpu",
                  t.operation, t.level, t.rows, t.cols, t.priority, t.submit_us, t.start_us, t.end_us,
                  static_cast<long long>(t.bytes_loaded));
    const int levels = s.lp.levels;
    for (const grain::LpSolve& solve : s.lp.history)
        for (size_t op = 0; op < s.operations.size(); ++op)
            for (int l = 0; l < levels; ++l)
                file.line("lp;%zu;;;%s;%d;;;;%.3f;%.3f;%.3f;;%.4f", run, s.operations[op].c_str(), l, solve.starpu_us,
                          solve.starpu_us, solve.starpu_us, solve.ratios[op * size_t(levels) + size_t(l)]);
    file.flush();
}

std::vector<std::string> columns(const Options& options, const Operation& operation, int levels, bool peak) {
    std::vector<std::string> names = {"op", "prec", "threads", "gpus", "m", "n", "k", "nrhs", "nb",
                                      "iter", "time", "gflops", "levels", "split"};
    for (const char* kind : {"tasks_l", "split_l"})
        for (int l = 0; l < levels; ++l) names.push_back(kind + std::to_string(l));
    names.insert(names.end(), {"lp_solves", "lp_median_ms", "lp_max_ms"});
    if (options.vendor) names.insert(names.end(), {"vendor_time", "vendor_gflops"});
    if (peak) names.insert(names.end(), {"gpu_workers", "peak"});
    if (peak && options.vendor)
        names.insert(names.end(), {"vendor_peak", "pinned", "vendor_pageable_gflops", "vendor_resident_gflops"});
    if (options.check) names.insert(names.end(), {"residual", "status"});
    if (operation.mixed) names.push_back("steps");
    names.push_back("info");
    return names;
}

std::vector<std::string> row_cells(const Options& options, const Operation& operation, const Case& c, int levels,
                                   int iter, const Result& res, const grain::Runtime& runtime, bool ok,
                                   std::optional<double> peak_gflops) {
    const double gflops = res.flops / res.time * 1e-9, vendor_gflops = res.flops / res.vendor_time * 1e-9;
    std::vector<std::string> cells = {operation.name, std::string(1, c.precision),
                                      std::to_string(runtime.ncpu()), std::to_string(runtime.ngpu()),
                                      std::to_string(c.m), std::to_string(c.n), c.k ? std::to_string(c.k) : "-",
                                      c.nrhs ? std::to_string(c.nrhs) : "-", std::to_string(c.scales[0]),
                                      std::to_string(iter), number(res.time),
                                      number(gflops), std::to_string(c.scales.size()),
                                      runtime.split()};
    for (int l = 0; l < levels; ++l) cells.push_back(std::to_string(res.statistics.at("", l).finished));
    for (int l = 0; l < levels; ++l) cells.push_back(std::to_string(res.statistics.at("", l).split));
    const std::vector<std::string> lp = lp_cells(res.statistics.lp);
    cells.insert(cells.end(), lp.begin(), lp.end());
    if (options.vendor) cells.insert(cells.end(), {number(res.vendor_time), number(vendor_gflops)});
    // grain runs on every GPU (and the cores, which the peak leaves out); the vendor on one.
    if (peak_gflops) {
        cells.push_back(std::to_string(runtime.gpu_workers()));
        cells.push_back(number(gflops / (*peak_gflops * runtime.ngpu())));
        if (options.vendor)
            cells.insert(cells.end(), {number(vendor_gflops / *peak_gflops), options.pinned ? "1" : "0",
                                       number(res.flops / res.vendor_pageable_time * 1e-9),
                                       number(res.flops / res.vendor_resident_time * 1e-9)});
    }
    if (options.check) cells.insert(cells.end(), {scientific(res.residual), ok ? "SUCCESS" : "FAILED"});
    if (operation.mixed) cells.push_back(std::to_string(res.steps));
    cells.push_back(std::to_string(res.info));
    return cells;
}

void print_details(const Options& options, const Case& c, const Result& res, const grain::Runtime& runtime) {
    if (!options.verbose) return;
    if (c.scales.size() > 1) print_splits(res.statistics, int(c.scales.size()));
    if (res.statistics.lp.levels > 0) {
        print_ratios(res.statistics);
        print_lp_time(res.statistics.lp, res.time);
    }
    // What submitting cost the calling thread per tile task (split or not), the LP's
    // solves left out: the simulator's GRAIN_SIM_SUBMIT_US (doc/simulation.md).
    int64_t submitted = 0;
    for (const auto& levels : res.statistics.counts)
        for (const grain::TaskCounts& t : levels) submitted += t.submitted;
    const double submit_us = (res.caller_cpu_seconds * 1e3 - res.statistics.lp.total_cpu_milliseconds) * 1e3;
    if (submitted > 0)
        std::printf("# submission: %lld tile tasks, %s us of the calling thread's CPU time each (the LP's solves "
                    "left out)\n",
                    static_cast<long long>(submitted), number(submit_us / double(submitted)).c_str());
    if (runtime.ngpu() > 0)
        std::printf("# gpu transfers: %.1f MB to GPUs, %.1f MB from GPUs; %lld tasks left whole on a GPU\n",
                    res.to_gpu_bytes * 1e-6, res.from_gpu_bytes * 1e-6,
                    static_cast<long long>(res.statistics.kept_whole_on_gpu));
}

}  // namespace grain::testing::driver
