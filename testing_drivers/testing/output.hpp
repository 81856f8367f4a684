#pragma once
// What grain_testing prints: the table of runs (';'-separated, or aligned with -H), -v's
// '#' lines, the --lp-stats file, and the progress of long runs on stderr.
#include <grain/grain.hpp>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "testing_drivers/testing/options.hpp"
#include "testing_drivers/testing/runners.hpp"

namespace grain::testing::driver {

// Says on stderr, every few seconds, which run is still going on, so that long
// runs show progress and short ones stay quiet.
class Progress {
public:
    Progress();
    ~Progress();
    void start(std::string label);

private:
    void loop();

    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::string label_;
    std::chrono::steady_clock::time_point started_;
    std::thread thread_;
};

// Prints its header when constructed, then one line per row.
class Table {
public:
    Table(bool human, std::vector<std::string> columns);
    void row(const std::vector<std::string>& cells) const;

private:
    bool human_;
    std::vector<std::string> columns_;
};

// A CSV file an option names (--lp-stats, --trace); nothing for an empty path. Opened
// before StarPU starts, its header written through: usage_error for a file it cannot
// open or write to. A later write or the close that fails throws std::runtime_error.
class CsvFile {
public:
    CsvFile(const char* option, const std::string& path, const char* header);
    ~CsvFile();  // closes, if close() did not, saying nothing of an error
    CsvFile(const CsvFile&) = delete;
    CsvFile& operator=(const CsvFile&) = delete;
    bool open() const { return file_ != nullptr; }
    void line(const char* format, ...) __attribute__((format(printf, 2, 3)));
    void flush();  // throws if a write failed
    void close();
    // Writes to `path` from now on, an open file only (simulated nodes: FILE.rankR once the
    // Runtime says which rank this is).
    void reopen(const std::string& path);

private:
    void open_at(const std::string& path);
    std::string error(const char* what) const;  // the message of a failed write, with errno's
    const char* option_;
    const char* header_;
    std::string path_;
    std::FILE* file_ = nullptr;
};

// --lp-stats: one line per LP solve of every run and (operation, level), to plot how
// ratios evolve.
std::unique_ptr<CsvFile> lp_stats_file(const std::string& path);
void write_lp_stats(CsvFile& file, size_t run, const grain::Statistics& s);

// --trace: one line per kernel task of every run (worker, kernel, level, tile, priority,
// times, bytes loaded), and one per LP solve and (operation, level) with its ratio, on
// the same clock; scripts/plot-trace.sh draws it.
std::unique_ptr<CsvFile> trace_file(const std::string& path);
void write_trace(CsvFile& file, size_t run, const std::vector<grain::TaskRecord>& tasks, const grain::Statistics& s);

// The table's columns: those of every run (tasks and splits per level for `levels`
// levels), then those the options add, and a mixed-precision solve's refinement steps
// (Operation::mixed); `peak` (GPU runs of a CUDA build) adds the rates
// as fractions of the GPUs' FP64 peak, and with --vendor whether grain's arrays were
// --pinned and the vendor's rates from pageable arrays and on the GPU alone.
std::vector<std::string> columns(const Options& options, const Operation& operation, int levels, bool peak);

// One run's row, iteration iter of case c, in a table of `levels` levels; ok: whether its
// check passed; peak_gflops: the FP64 peak of one GPU, given when the columns have `peak`
// (NaN for a GPU not in the table).
std::vector<std::string> row_cells(const Options& options, const Operation& operation, const Case& c, int levels,
                                   int iter, const Result& res, const grain::Runtime& runtime, bool ok,
                                   std::optional<double> peak_gflops);

// -v's lines after a run's row: its splits, the LP's ratios and time, its GPU transfers.
void print_details(const Options& options, const Case& c, const Result& res, const grain::Runtime& runtime);

}  // namespace grain::testing::driver
