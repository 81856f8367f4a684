// gen_sim_files: writes the StarPU 1.3.10 SimGrid platform and performance models of a
// V100-like machine with 1, 2 and 4 GPUs (hosts grain-v100-1gpu, -2gpu, -4gpu) into
// OUTDIR/bus and OUTDIR/codelets/45, the layout StarPU reads from STARPU_PERF_MODEL_DIR,
// the platform of a machine of up to 64 CPU cores alone (host grain-cpu), and a machine
// of those cores and 1, 2 or 4 GPUs (hosts grain-hybrid-Ngpu) for grain's own kernels, whose CPU
// models it reads from OUTDIR/codelets/45/*.grain-cpu.
//
//   c++ -std=c++17 -O2 -Wall -Wextra -o /tmp/gen_sim_files sim/gen_sim_files.cpp
//   /tmp/gen_sim_files sim
//
// No StarPU needed: the footprints are computed here with the same CRC as StarPU's
// starpu_hash_crc32c_be(), and grain_sched_bench checks at run time that every task it
// submits finds its entry (it aborts on a NaN prediction). See sim/README.md.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

// ---- machine facts (V100-like, see sim/README.md) ----
constexpr int tile = 960;                                    // single-precision tiles
constexpr double gemm_flops = 2.0 * tile * tile * tile;      // one SGEMM tile kernel
constexpr double gpu_flops = 13.2e12;                        // per GPU, on 960 tiles
constexpr double kernel_us = gemm_flops / gpu_flops * 1e6;   // ~134 us
constexpr double pcie_bytes_per_s = 12e9;                    // shared host link
constexpr double pcie_latency_us = 10;                       // per transfer
constexpr unsigned long long gpu_memsize = 16ULL << 30;      // 16 GiB; the bench limits it
constexpr int maxnodes = 32;                                 // STARPU_MAXNODES of our build
constexpr int ncpu_hosts = 4;                                // CPU hosts StarPU may look up
constexpr int cpu_machine_cores = 64;                        // grain-cpu: STARPU_NCPU <= this
constexpr int samples = 100;                                 // >= STARPU_CALIBRATE_MINIMUM

// StarPU's big-endian CRC32C (src/common/hash.c), on the bytes of a uint32 as they lie
// in memory, like starpu_hash_crc32c_be(input, crc).
uint32_t crc32c_be(uint32_t input, uint32_t crc) {
    unsigned char bytes[4];
    std::memcpy(bytes, &input, 4);
    for (unsigned char byte : bytes) {
        crc ^= uint32_t(byte) << 24;
        for (int bit = 0; bit < 8; ++bit) crc = (crc << 1) ^ ((crc & 0x80000000u) ? 0x1EDC6F41u : 0);
    }
    return crc;
}

// A matrix handle's footprint: the matrix interface hashes (nx, ny), then the data layer
// folds in the interface id (STARPU_MATRIX_INTERFACE_ID = 0).
struct Buffer {
    int nx, ny;  // rows (the contiguous dimension), columns
};
uint32_t matrix_footprint(Buffer b) { return crc32c_be(crc32c_be(uint32_t(b.nx), uint32_t(b.ny)), 0); }

// A task's footprint folds its handles' footprints in buffer order, from 0.
uint32_t task_footprint(const std::vector<Buffer>& buffers) {
    uint32_t footprint = 0;
    for (Buffer b : buffers) footprint = crc32c_be(matrix_footprint(b), footprint);
    return footprint;
}

// One history entry: a task's buffers, its kernel's flops and duration.
struct Entry {
    std::vector<Buffer> buffers;
    double flops;
    size_t bytes() const {
        size_t sum = 0;
        for (Buffer b : buffers) sum += size_t(b.nx) * size_t(b.ny) * sizeof(float);
        return sum;
    }
    double mean_us() const { return flops / gpu_flops * 1e6; }
};
struct Model {
    const char* symbol;  // the perfmodel symbol of grain_sched_bench's codelets
    std::vector<Entry> entries;
};

std::vector<Buffer> tiles(int n) { return std::vector<Buffer>(size_t(n), Buffer{tile, tile}); }
// The 2D products' task (the DARTS paper's): a block-row of A (960 x 3840) times a
// block-column of B (3840 x 960) into a 960 x 960 tile of C: four tile kernels.
constexpr int panel = 4 * tile;
const std::vector<Buffer> panel_product = {{tile, panel}, {panel, tile}, {tile, tile}};
const std::vector<Buffer> panel_inputs = {{tile, panel}, {panel, tile}};

// The other tasks are one 960^3 SGEMM-equivalent kernel each; only their buffers, hence
// their footprints, differ. With grain_sched_bench's --outputs none, a task lacks its
// last buffer (its private output): 3d's A, B then, and Cholesky's gemm A, B, C is the
// footprint of 3d's A, B, out.
const std::vector<Model> models = {
    {"grain_sim_gemm",
     {{panel_product, 4 * gemm_flops},  // 2d, 2d-random, sparse
      {panel_inputs, 4 * gemm_flops},   // the same, --outputs none
      {tiles(2), gemm_flops},           // 3d, --outputs none: A, B
      {tiles(3), gemm_flops},           // 3d: A, B, out; cholesky gemm, --outputs none: A, B, C
      {tiles(4), gemm_flops}}},         // cholesky gemm: A, B, C, out
    {"grain_sim_potrf", {{tiles(1), gemm_flops}, {tiles(2), gemm_flops}}},  // A_kk (, out)
    {"grain_sim_trsm", {{tiles(2), gemm_flops}, {tiles(3), gemm_flops}}},   // A_kk, A_mk (, out)
    {"grain_sim_syrk", {{tiles(2), gemm_flops}, {tiles(3), gemm_flops}}},   // A_nk, A_nn (, out)
};

std::string hostname(int gpus) { return "grain-v100-" + std::to_string(gpus) + "gpu"; }

FILE* open_or_die(const std::filesystem::path& path, const char* mode = "w") {
    FILE* f = std::fopen(path.c_str(), mode);
    if (!f) {
        std::perror(path.c_str());
        std::exit(1);
    }
    return f;
}

// One history entry as written: footprint, bytes, flops, mean duration.
struct Row {
    uint32_t footprint;
    unsigned long bytes;
    double flops, mean_us;
};

// Combination `comb` of a version-45 codelet model: one core (cuda false) or CUDA device
// `dev`, one implementation, history only (deviation 0: SimGrid runs the mean anyway).
void write_combination(FILE* f, int comb, bool cuda, int dev, const std::vector<Row>& rows) {
    const char* kind = cuda ? "cuda" : "cpu";
    std::fprintf(f, "####################\n# COMB_%d\n# number of types devices\n1\n", comb);
    std::fprintf(f, "####################\n# DEV_0\n# device type (CPU - 0, CUDA - 1, OPENCL - 2, MIC - 3)\n%d\n",
                 cuda ? 1 : 0);
    std::fprintf(f, "####################\n# DEV_0\n# device id \n%d\n", dev);
    std::fprintf(f, "####################\n# DEV_0\n# number of cores \n1\n");
    std::fprintf(f, "##########\n# number of implementations\n1\n");
    std::fprintf(f, "#####\n# Model for %s%d_impl0 (Comb%d)\n# number of entries\n%zu\n", kind, dev, comb, rows.size());
    std::fprintf(f, "# sumlnx\tsumlnx2\t\tsumlny\t\tsumlnxlny\talpha\t\tbeta\t\tn\tminx\t\tmaxx\n");
    std::fprintf(f, "0.000000e+00\t0.000000e+00\t0.000000e+00\t0.000000e+00\tnan\tnan\t0\t0\t0\n");
    std::fprintf(f, "# a\t\tb\t\tc\nnan\tnan\tnan\n# not multiple-regression-base\n0\n");
    std::fprintf(f, "# hash\t\tsize\t\tflops\t\tmean (us)\tdev (us)\tsum\t\tsum2\t\tn\n");
    for (const Row& r : rows)
        std::fprintf(f, "%08x\t%-15lu\t%-15e\t%-15e\t%-15e\t%-15e\t%-15e\t%d\n", r.footprint, r.bytes, r.flops,
                     r.mean_us, 0.0, r.mean_us * samples, r.mean_us * r.mean_us * samples, samples);
    std::fprintf(f, "\n");
}

// Codelet model, format version 45: one combination per CUDA device (device ids are
// matched unless STARPU_PERF_MODEL_HOMOGENEOUS_CUDA=1), one implementation each.
void write_model(const std::filesystem::path& dir, const Model& model, int gpus) {
    FILE* f = open_or_die(dir / (std::string(model.symbol) + "." + hostname(gpus)));
    std::fprintf(f, "##################\n# Performance Model Version\n45\n\n");
    std::fprintf(f, "####################\n# COMBs\n# number of combinations\n%d\n", gpus);
    std::vector<Row> rows;
    for (const Entry& e : model.entries)
        rows.push_back({task_footprint(e.buffers), static_cast<unsigned long>(e.bytes()), e.flops, e.mean_us()});
    for (int dev = 0; dev < gpus; ++dev) write_combination(f, dev, true, dev, rows);
    std::fclose(f);
}

// ---- grain-hybrid-1gpu: up to 64 cores and one V100-like GPU in double precision ----
// grain's own kernels (grain_testing). The cores keep the models measured on the
// development machine (the grain-cpu files); the GPU's are synthetic (sim/README.md):
// flops / (peak x size efficiency x kernel efficiency) + launch, per tile size.
constexpr double hybrid_fp64_flops = 7e12;  // V100 FP64 peak; FP32 twice that
constexpr double hybrid_half_size = 300;    // tile size at half the peak: nb^3 / (nb^3 + 300^3)
constexpr double hybrid_launch_us = 5;
constexpr double hybrid_memory_bytes_per_s = 800e9;  // scale: read and write the tile
struct GpuKernel {
    const char* name;    // grain_<prec><name>
    int buffers;         // square tiles the task reads or writes
    double nb3_flops;    // flops / nb^3
    double efficiency;   // of the gemm rate
};
const GpuKernel gpu_kernels[] = {{"gemm", 3, 2, 1.0},          {"syrk", 2, 1, 0.9},
                                 {"trsm", 2, 1, 0.8},          {"potrf", 1, 1.0 / 3, 0.2},
                                 {"getrf_nopiv", 1, 2.0 / 3, 0.2}, {"scale", 1, 0, 0}};

double hybrid_gpu_us(const GpuKernel& k, char precision, unsigned long bytes) {
    const double element = precision == 's' ? 4 : 8;
    if (k.nb3_flops == 0) return 2 * double(bytes) / hybrid_memory_bytes_per_s * 1e6 + hybrid_launch_us;
    const double nb = std::sqrt(double(bytes) / (k.buffers * element)), nb3 = nb * nb * nb;
    const double peak = precision == 's' ? 2 * hybrid_fp64_flops : hybrid_fp64_flops;
    const double rate = peak * nb3 / (nb3 + hybrid_half_size * hybrid_half_size * hybrid_half_size) * k.efficiency;
    return k.nb3_flops * nb3 / rate * 1e6 + hybrid_launch_us;
}

// Reads grain_<prec><kernel>.grain-cpu from `dir` and writes it for `host` with one more
// combination per GPU (CUDA devices 0 to gpus - 1, all alike), at the same footprints.
void write_hybrid_model(const std::filesystem::path& dir, const GpuKernel& k, char precision, const std::string& host,
                        int gpus) {
    const std::string symbol = std::string("grain_") + precision + k.name;
    FILE* in = open_or_die(dir / (symbol + ".grain-cpu"), "r");
    std::string text;
    for (int c; (c = std::fgetc(in)) != EOF;) text += char(c);
    std::fclose(in);
    const std::string one = "# number of combinations\n1\n", header = "# hash\t\tsize";
    const size_t combs = text.find(one), table = text.find(header);
    if (combs == std::string::npos || table == std::string::npos) {
        std::fprintf(stderr, "%s.grain-cpu: not a one-combination history model\n", symbol.c_str());
        std::exit(1);
    }
    text.replace(combs, one.size(), "# number of combinations\n" + std::to_string(1 + gpus) + "\n");
    std::vector<Row> rows;
    size_t line = text.find('\n', text.find(header)) + 1;
    for (size_t end; line < text.size() && (end = text.find('\n', line)) != std::string::npos; line = end + 1) {
        unsigned footprint = 0;
        unsigned long bytes = 0;
        if (std::sscanf(text.c_str() + line, "%x %lu", &footprint, &bytes) != 2) break;  // end of the table
        rows.push_back({footprint, bytes, 0.0, hybrid_gpu_us(k, precision, bytes)});
    }
    while (!text.empty() && text.back() == '\n') text.pop_back();
    FILE* f = open_or_die(dir / (symbol + "." + host));
    std::fprintf(f, "%s\n\n", text.c_str());
    for (int dev = 0; dev < gpus; ++dev) write_combination(f, 1 + dev, true, dev, rows);
    std::fclose(f);
}

// Bandwidth (MB/s, i.e. bytes/us) or latency (us) matrix, indexed by memory node (0 = RAM,
// 1..gpus = CUDA). StarPU's parser wants all STARPU_MAXNODES columns and rows, each value
// followed by a tab; unused nodes are nan.
void write_matrix(const std::filesystem::path& path, int gpus, double host_gpu, double gpu_gpu) {
    FILE* f = open_or_die(path);
    std::fprintf(f, "# ");
    for (int dst = 0; dst < maxnodes; ++dst) std::fprintf(f, "to %d\t\t", dst);
    std::fprintf(f, "\n");
    for (int src = 0; src < maxnodes; ++src) {
        for (int dst = 0; dst < maxnodes; ++dst) {
            double value = NAN;
            if (src <= gpus && dst <= gpus) value = src == dst ? 0 : (src == 0 || dst == 0) ? host_gpu : gpu_gpu;
            std::fprintf(f, "%e\t", value);
        }
        std::fprintf(f, "\n");
    }
    std::fclose(f);
}

// The links between RAM and the GPUs.
struct Bus {
    double to_gpu_bytes_per_s, from_gpu_bytes_per_s, latency_us;  // each GPU's own link
    unsigned long long gpu_memsize;
    bool shared_host_link;  // every transfer also crosses one host link (to_gpu's bandwidth)
};
const Bus v100_bus = {pcie_bytes_per_s, pcie_bytes_per_s, pcie_latency_us, gpu_memsize, true};

// SimGrid platform: each GPU has its own link to RAM, and every transfer may also cross one
// shared host link. SPLITDUPLEX makes that link full-duplex (one resource per direction),
// so write-backs do not slow loads down, as on PCIe. No peer copies (memcpy_peer 0): GPU
// to GPU goes through RAM, as the DARTS paper's transfer counts assume.
void write_platform(const std::filesystem::path& path, int gpus, int cpus = ncpu_hosts, const Bus& bus = v100_bus) {
    FILE* f = open_or_die(path);
    std::fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
    std::fprintf(f, "<platform version=\"4.1\">\n");
    // Plain max-min sharing: no TCP window, no latency or bandwidth correction factors,
    // no reverse (ack) traffic, so a link delivers exactly its bandwidth.
    std::fprintf(f, " <config id=\"General\">\n");
    std::fprintf(f, "   <prop id=\"network/TCP-gamma\" value=\"-1\"/>\n");
    std::fprintf(f, "   <prop id=\"network/latency-factor\" value=\"1\"/>\n");
    std::fprintf(f, "   <prop id=\"network/bandwidth-factor\" value=\"1\"/>\n");
    std::fprintf(f, "   <prop id=\"network/weight-S\" value=\"0.0\"/>\n");
    std::fprintf(f, "   <prop id=\"network/crosstraffic\" value=\"0\"/>\n");
    std::fprintf(f, " </config>\n");
    std::fprintf(f, " <zone id=\"AS0\" routing=\"Full\">\n");
    std::fprintf(f, "  <host id=\"MAIN\" speed=\"1f\"/>\n  <host id=\"RAM\" speed=\"1f\"/>\n");
    for (int c = 0; c < cpus; ++c) std::fprintf(f, "  <host id=\"CPU%d\" speed=\"2000000000f\"/>\n", c);
    for (int g = 0; g < gpus; ++g) {
        std::fprintf(f, "  <host id=\"CUDA%d\" speed=\"2000000000f\">\n", g);
        std::fprintf(f, "    <prop id=\"memsize\" value=\"%llu\"/>\n", bus.gpu_memsize);
        std::fprintf(f, "    <prop id=\"memcpy_peer\" value=\"0\"/>\n  </host>\n");
    }
    if (gpus == 0) {  // CPU cores alone: nothing moves
        std::fprintf(f, " </zone>\n</platform>\n");
        std::fclose(f);
        return;
    }
    if (bus.shared_host_link)
        std::fprintf(f, "  <link id=\"Host\" bandwidth=\"%.0fBps\" latency=\"0s\" sharing_policy=\"SPLITDUPLEX\"/>\n",
                     bus.to_gpu_bytes_per_s);
    for (int g = 0; g < gpus; ++g) {
        std::fprintf(f, "  <link id=\"RAM-CUDA%d\" bandwidth=\"%.0fBps\" latency=\"%gus\"/>\n", g,
                     bus.to_gpu_bytes_per_s, bus.latency_us);
        std::fprintf(f, "  <link id=\"CUDA%d-RAM\" bandwidth=\"%.0fBps\" latency=\"%gus\"/>\n", g,
                     bus.from_gpu_bytes_per_s, bus.latency_us);
    }
    const char* up = bus.shared_host_link ? "<link_ctn id=\"Host\" direction=\"UP\"/>" : "";
    const char* down = bus.shared_host_link ? "<link_ctn id=\"Host\" direction=\"DOWN\"/>" : "";
    for (int g = 0; g < gpus; ++g) {
        std::fprintf(f, "  <route src=\"RAM\" dst=\"CUDA%d\" symmetrical=\"NO\"><link_ctn id=\"RAM-CUDA%d\"/>%s</route>\n",
                     g, g, up);
        std::fprintf(f, "  <route src=\"CUDA%d\" dst=\"RAM\" symmetrical=\"NO\"><link_ctn id=\"CUDA%d-RAM\"/>%s</route>\n",
                     g, g, down);
    }
    std::fprintf(f, " </zone>\n</platform>\n");
    std::fclose(f);
}

// ---- <host>-Ngpu: 64 cores and 1, 2, 4 or 8 GPUs, from a real GPU machine's models ----
// MEASURED is the .starpu/sampling folder saved on a GPU machine (scripts/device-run.sh,
// host grain-h100 or grain-h200, read from its bus files): its cores and its GPU ran
// grain's double-precision kernels. Every
// kernel gets an entry for every square tile of the ladder, on both units: the measured
// mean where at least measured_min_samples runs were timed, else the same unit's dgemm at that
// tile times the kernel's ratio to it at the nearest tile where the kernel was measured,
// else dgemm's time times the kernel's share of dgemm's flops over its efficiency (the
// hybrid machine's constants). dgemm must be measured at every tile on the GPU; on the
// cores, a tile above the largest measured one scales that one's time by the flops.
constexpr int measured_ladder[] = {256, 512, 1024, 2048, 4096};
// Fewer runs: a first call's setup may be in them, but two that agree within 10 % are
// kept, as a kernel's own mean is closer than dgemm's ratio at another tile gives
// (dgetrf_nopiv 4096 on the H200: doc/results/2026-11-28-h200-loan.md).
constexpr int measured_min_samples = 3;
constexpr double gpu_memory_bytes_per_s = 2e12;  // scale on the GPU: read and write the tile
constexpr double core_memory_bytes_per_s = 10e9;

struct Measured {
    unsigned long bytes;
    double mean_us;
    double dev_us;
    unsigned samples;
};
using Unit = std::vector<std::pair<uint32_t, Measured>>;  // footprint -> entry

// The history entries of a codelet model file, per unit (0: cores, 1: CUDA device 0).
std::array<Unit, 2> read_measured(const std::filesystem::path& path) {
    std::array<Unit, 2> units;
    FILE* in = std::fopen(path.c_str(), "r");
    if (!in) return units;
    char line[512];
    int type = -1;
    bool table = false;
    while (std::fgets(line, sizeof line, in)) {
        if (std::strncmp(line, "# device type", 13) == 0) {
            if (std::fgets(line, sizeof line, in)) type = std::atoi(line);
            table = false;
        } else if (std::strncmp(line, "# hash", 6) == 0) {
            table = true;
        } else if (table) {
            unsigned footprint = 0, n = 0;
            unsigned long bytes = 0;
            double flops, mean, dev, sum, sum2;
            if (std::sscanf(line, "%x %lu %lf %lf %lf %lf %lf %u", &footprint, &bytes, &flops, &mean, &dev, &sum, &sum2,
                            &n) != 8) {
                table = false;
                continue;
            }
            if (type == 0 || type == 1) units[size_t(type)].push_back({footprint, {bytes, mean, dev, n}});
        }
    }
    std::fclose(in);
    return units;
}

const Measured* find(const Unit& unit, uint32_t footprint) {
    for (const auto& [f, m] : unit)
        if (f == footprint && (m.samples >= unsigned(measured_min_samples) ||
                               (m.samples == 2 && m.dev_us <= 0.1 * m.mean_us)))
            return &m;
    return nullptr;
}

uint32_t square_footprint(const GpuKernel& k, int nb) {
    return task_footprint(std::vector<Buffer>(size_t(k.buffers), Buffer{nb, nb}));
}

// The time of kernel k on a tile nb on `unit` (0: a core, 1: the GPU), and how it was had.
double measured_us(const GpuKernel& k, int nb, const std::array<Unit, 2>& kernel, const std::array<Unit, 2>& gemm,
               int unit, std::string& how) {
    const Unit& u = kernel[size_t(unit)];
    // dgemm where measured; else (the cores above the tile they take, which the device
    // script does not calibrate) the nearest measured tile's time scaled by the flops.
    const auto gemm_us = [&](int size) {
        const auto at = [&](int s) { return find(gemm[size_t(unit)], square_footprint(gpu_kernels[0], s)); };
        if (const Measured* g = at(size)) return g->mean_us;
        int nearest = 0;
        for (int s : measured_ladder)
            if (at(s) && (nearest == 0 || std::abs(std::log2(double(s) / size)) < std::abs(std::log2(double(nearest) / size))))
                nearest = s;
        if (!nearest) {
            std::fprintf(stderr, "gen_sim_files: no measured dgemm on the %s\n", unit ? "GPU" : "cores");
            std::exit(1);
        }
        return at(nearest)->mean_us * std::pow(double(size) / nearest, 3);
    };
    const double bytes = double(k.buffers) * nb * nb * 8;
    if (k.nb3_flops == 0) {  // scale: memory-bound
        how = "estimated (memory)";
        return 2 * bytes / (unit ? gpu_memory_bytes_per_s : core_memory_bytes_per_s) * 1e6 + (unit ? 5 : 0);
    }
    if (const Measured* m = find(u, square_footprint(k, nb))) {
        how = "measured (" + std::to_string(m->samples) + ")";
        return m->mean_us;
    }
    int nearest = 0;
    for (int size : measured_ladder)
        if (find(u, square_footprint(k, size)) && (nearest == 0 || std::abs(std::log2(double(size) / nb)) <
                                                                      std::abs(std::log2(double(nearest) / nb))))
            nearest = size;
    if (nearest) {
        how = "dgemm x ratio at " + std::to_string(nearest);
        return gemm_us(nb) * find(u, square_footprint(k, nearest))->mean_us / gemm_us(nearest);
    }
    how = "dgemm x flops / efficiency";
    return gemm_us(nb) * (k.nb3_flops / 2) / k.efficiency;
}

// The measured link of the machine: bandwidth (MB/s) and latency (us) matrices, node 0 the
// RAM and node 1 the GPU.
double matrix_value(const std::filesystem::path& path, int src, int dst) {
    FILE* in = open_or_die(path, "r");
    char line[4096];
    double value = NAN;
    for (int row = -1; std::fgets(line, sizeof line, in);) {
        if (line[0] == '#') continue;
        if (++row != src) continue;
        char* p = line;
        for (int col = 0; col <= dst; ++col) value = std::strtod(p, &p);
        break;
    }
    std::fclose(in);
    return value;
}

unsigned long long platform_memsize(const std::filesystem::path& path) {
    FILE* in = open_or_die(path, "r");
    char line[512];
    unsigned long long memsize = 0;
    while (std::fgets(line, sizeof line, in))
        if (const char* p = std::strstr(line, "\"memsize\" value=\"")) {
            memsize = std::strtoull(p + 17, nullptr, 10);
            break;
        }
    std::fclose(in);
    return memsize;
}

// The host whose bus StarPU measured in MEASURED/bus (its one <host>.bandwidth file).
std::string measured_host(const std::filesystem::path& measured) {
    std::string host;
    for (const auto& entry : std::filesystem::directory_iterator(measured / "bus"))
        if (entry.path().extension() == ".bandwidth") {
            if (!host.empty()) {
                std::fprintf(stderr, "gen_sim_files: several hosts in %s\n", (measured / "bus").c_str());
                std::exit(1);
            }
            host = entry.path().stem().string();
        }
    if (host.empty()) {
        std::fprintf(stderr, "gen_sim_files: no measured bus in %s\n", (measured / "bus").c_str());
        std::exit(1);
    }
    return host;
}

void write_measured_machines(const std::filesystem::path& measured, const std::filesystem::path& bus_dir,
                             const std::filesystem::path& codelets) {
    const std::string from = measured_host(measured);
    const auto bus_file = [&](const char* ext) { return measured / "bus" / (from + ext); };
    const Bus bus = {matrix_value(bus_file(".bandwidth"), 0, 1) * 1e6, matrix_value(bus_file(".bandwidth"), 1, 0) * 1e6,
                     matrix_value(bus_file(".latency"), 0, 1), platform_memsize(bus_file(".platform.v4.xml")), false};
    if (!(bus.to_gpu_bytes_per_s > 0) || !(bus.from_gpu_bytes_per_s > 0) || !(bus.latency_us >= 0) || !bus.gpu_memsize) {
        std::fprintf(stderr, "gen_sim_files: no measured bus in %s\n", (measured / "bus").c_str());
        std::exit(1);
    }
    std::printf("%s bus: %.0f MB/s to the GPU, %.0f MB/s back, %.1f us, %llu bytes of GPU memory\n",
                from.c_str(), bus.to_gpu_bytes_per_s / 1e6, bus.from_gpu_bytes_per_s / 1e6, bus.latency_us, bus.gpu_memsize);
    const auto model_path = [&](const GpuKernel& k) {
        return measured / "codelets" / "45" / (std::string("grain_d") + k.name + "." + from);
    };
    const std::array<Unit, 2> gemm = read_measured(model_path(gpu_kernels[0]));
    for (int gpus : {1, 2, 4, 8}) {
        const std::string host = from + "-" + std::to_string(gpus) + "gpu";
        write_platform(bus_dir / (host + ".platform.v4.xml"), gpus, cpu_machine_cores, bus);
        write_matrix(bus_dir / (host + ".bandwidth"), gpus, bus.to_gpu_bytes_per_s / 1e6, bus.to_gpu_bytes_per_s / 2e6);
        write_matrix(bus_dir / (host + ".latency"), gpus, bus.latency_us, 2 * bus.latency_us);
        for (const GpuKernel& k : gpu_kernels) {
            const std::array<Unit, 2> kernel = read_measured(model_path(k));
            std::array<std::vector<Row>, 2> rows;
            for (int unit : {0, 1})
                for (int nb : measured_ladder) {
                    std::string how;
                    const double us = measured_us(k, nb, kernel, gemm, unit, how);
                    rows[size_t(unit)].push_back({square_footprint(k, nb), (unsigned long)(k.buffers) * nb * nb * 8, 0.0, us});
                    if (gpus == 1) std::printf("d%-12s %5d %-5s %12.1f us  %s\n", k.name, nb, unit ? "GPU" : "core", us, how.c_str());
                }
            FILE* f = open_or_die(codelets / (std::string("grain_d") + k.name + "." + host));
            std::fprintf(f, "##################\n# Performance Model Version\n45\n\n");
            std::fprintf(f, "####################\n# COMBs\n# number of combinations\n%d\n", 1 + gpus);
            write_combination(f, 0, false, 0, rows[0]);
            for (int dev = 0; dev < gpus; ++dev) write_combination(f, 1 + dev, true, dev, rows[1]);
            std::fclose(f);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s OUTDIR [MEASURED...]   (writes OUTDIR/bus and OUTDIR/codelets/45; each MEASURED:\n"
                             "  the .starpu/sampling of a GPU machine, e.g. host grain-h100, for its <host>-Ngpu machines)\n", argv[0]);
        return 2;
    }
    const std::filesystem::path out = argv[1];
    const auto bus = out / "bus", codelets = out / "codelets" / "45";
    std::filesystem::create_directories(bus);
    std::filesystem::create_directories(codelets);
    const double host_gpu_mb_s = pcie_bytes_per_s / 1e6;
    for (int gpus : {1, 2, 4}) {
        const std::string host = hostname(gpus);
        write_platform(bus / (host + ".platform.v4.xml"), gpus);
        // GPU to GPU goes through RAM: two hops.
        write_matrix(bus / (host + ".bandwidth"), gpus, host_gpu_mb_s, host_gpu_mb_s / 2);
        write_matrix(bus / (host + ".latency"), gpus, pcie_latency_us, 2 * pcie_latency_us);
        for (const Model& model : models) write_model(codelets, model, gpus);
    }
    // grain-cpu: CPU cores alone, for grain_testing's simulated runs (scripts/sim-testing.sh);
    // its kernel models are measured ones (sim/README.md), not written here.
    write_platform(bus / "grain-cpu.platform.v4.xml", 0, cpu_machine_cores);
    write_matrix(bus / "grain-cpu.bandwidth", 0, 0, 0);
    write_matrix(bus / "grain-cpu.latency", 0, 0, 0);
    // grain-hybrid-Ngpu: grain-cpu's cores and N GPUs (scripts/sim-testing.sh --gpus N).
    for (int gpus : {1, 2, 4}) {
        const std::string hybrid = "grain-hybrid-" + std::to_string(gpus) + "gpu";
        write_platform(bus / (hybrid + ".platform.v4.xml"), gpus, cpu_machine_cores);
        write_matrix(bus / (hybrid + ".bandwidth"), gpus, host_gpu_mb_s, host_gpu_mb_s / 2);
        write_matrix(bus / (hybrid + ".latency"), gpus, pcie_latency_us, 2 * pcie_latency_us);
        for (const GpuKernel& k : gpu_kernels)
            for (char precision : {'s', 'd'}) write_hybrid_model(codelets, k, precision, hybrid, gpus);
    }
    for (int i = 2; i < argc; ++i) write_measured_machines(argv[i], bus, codelets);
    std::printf("tile kernel %.2f us; footprints: 2d task %08x, 3 tiles %08x, 4 tiles %08x, 2 tiles %08x\n",
                kernel_us, task_footprint(panel_product), task_footprint(tiles(3)), task_footprint(tiles(4)),
                task_footprint(tiles(2)));
    return 0;
}
