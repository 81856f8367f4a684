// What a host matrix costs on its way to a GPU, when the caller's memory is not pinned:
// cudaHostRegister / cudaHostUnregister of 128 MiB to 8 GiB (one thread, and 4 threads on
// quarters), the same on memory advised for huge pages, copies of a 4096 x 4096 double tile
// (ld 16384) up and down from pageable and from pinned memory (one stream, and 4 threads at
// once), a tile across two ranges registered apart (its bytes checked), and the whole array
// staged to the GPU and back through small pinned buffers by 1 to all cores. grain's
// time includes pinning the caller's matrix; the vendor's does not
// (doc/results/2026-11-28-h200-loan.md).
// Built with GRAIN_USE_CUDA; scripts/device-run.sh runs it in its machine phase.
// Usage: grain_pin_bench [GiB, default 8]   (one "name;value;unit" line per measure)
#include <cuda_runtime.h>

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "pin-bench: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void line(const char* name, double value, const char* unit) { std::printf("%s;%.4g;%s\n", name, value, unit); }

constexpr size_t tile = 4096, ld = 16384, tile_bytes = tile * tile * sizeof(double);

// Seconds for `reps` copies of one tile (ld 16384) between host `h` and device `d`.
double copy_tiles(char* h, double* d, bool up, int reps, cudaStream_t s) {
    const double t0 = now();
    for (int r = 0; r < reps; ++r) {
        char* hp = h + size_t(r % 4) * tile * sizeof(double);  // 4 different tiles of a row of tiles
        if (up)
            check(cudaMemcpy2DAsync(d, tile * sizeof(double), hp, ld * sizeof(double), tile * sizeof(double), tile,
                                    cudaMemcpyHostToDevice, s), "memcpy up");
        else
            check(cudaMemcpy2DAsync(hp, ld * sizeof(double), d, tile * sizeof(double), tile * sizeof(double), tile,
                                    cudaMemcpyDeviceToHost, s), "memcpy down");
    }
    check(cudaStreamSynchronize(s), "sync");
    return now() - t0;
}

// Seconds to move the whole host array (rows of ld, tiles of tile x tile) to the GPU (up) or
// from it through pinned buffers: each of `threads` threads takes every threads-th piece (a
// tile's 512 columns, 16 MiB), copies it into one of its two pinned buffers and sends it
// on its own stream (up), or fetches it into a buffer and copies it out (down), so that
// its memcpy overlaps its previous piece's DMA. The device holds 4 tiles; pieces of later
// tiles overwrite them.
double staged(char* host, size_t bytes, double* dev, bool up, int threads) {
    constexpr size_t piece_cols = 512, piece_bytes = piece_cols * tile * sizeof(double);
    const size_t cols = bytes / (ld * sizeof(double)), tiles = (ld / tile) * (cols / tile);
    const size_t pieces = tiles * (tile / piece_cols);
    auto piece_host = [&](size_t p) {  // the piece's first column in the caller's array
        const size_t t = p / (tile / piece_cols), i = t % (ld / tile), j = t / (ld / tile);
        return host + ((j * tile + (p % (tile / piece_cols)) * piece_cols) * ld + i * tile) * sizeof(double);
    };
    auto piece_dev = [&](size_t p) { return dev + (p % (4 * tile / piece_cols)) * piece_cols * tile; };
    auto columns = [&](char* to, size_t to_ld, const char* from, size_t from_ld) {
        for (size_t c = 0; c < piece_cols; ++c)
            std::memcpy(to + c * to_ld * sizeof(double), from + c * from_ld * sizeof(double), tile * sizeof(double));
    };
    struct Lane {
        char* buffer[2];
        cudaEvent_t done[2];
        cudaStream_t stream;
    };
    std::vector<Lane> lanes(threads);
    for (auto& l : lanes) {
        for (int b = 0; b < 2; ++b) {
            check(cudaMallocHost(&l.buffer[b], piece_bytes), "cudaMallocHost piece");
            check(cudaEventCreateWithFlags(&l.done[b], cudaEventDisableTiming), "event");
        }
        check(cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking), "lane stream");
    }
    std::vector<std::thread> th;
    const double t0 = now();
    for (int w = 0; w < threads; ++w)
        th.emplace_back([&, w] {
            Lane& l = lanes[w];
            int k = 0;  // which buffer
            if (up) {
                for (size_t p = w; p < pieces; p += threads, k ^= 1) {
                    check(cudaEventSynchronize(l.done[k]), "wait buffer");  // its last DMA is done
                    columns(l.buffer[k], tile, piece_host(p), ld);
                    check(cudaMemcpyAsync(piece_dev(p), l.buffer[k], piece_bytes, cudaMemcpyHostToDevice, l.stream),
                          "staged up");
                    check(cudaEventRecord(l.done[k], l.stream), "record");
                }
            } else {
                auto fetch = [&](size_t p, int b) {
                    check(cudaMemcpyAsync(l.buffer[b], piece_dev(p), piece_bytes, cudaMemcpyDeviceToHost, l.stream),
                          "staged down");
                    check(cudaEventRecord(l.done[b], l.stream), "record");
                };
                if (size_t(w) < pieces) fetch(w, 0);
                for (size_t p = w; p < pieces; p += threads, k ^= 1) {
                    if (p + threads < pieces) fetch(p + threads, k ^ 1);  // the next piece comes meanwhile
                    check(cudaEventSynchronize(l.done[k]), "wait piece");
                    columns(piece_host(p), ld, l.buffer[k], tile);
                }
            }
            check(cudaStreamSynchronize(l.stream), "lane sync");
        });
    for (auto& t : th) t.join();
    const double seconds = now() - t0;
    for (auto& l : lanes) {
        for (int b = 0; b < 2; ++b) {
            cudaFreeHost(l.buffer[b]);
            cudaEventDestroy(l.done[b]);
        }
        cudaStreamDestroy(l.stream);
    }
    return seconds;
}

}  // namespace

int main(int argc, char** argv) {
    const size_t gib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 8;
    const size_t bytes = gib << 30;
    check(cudaSetDevice(0), "set device");
    check(cudaFree(nullptr), "context");
    char* host = static_cast<char*>(std::malloc(bytes));
    if (!host) return 1;
    const double t_touch = now();
    std::memset(host, 1, bytes);  // the caller's matrix exists and was written: pages are there
    line("first_touch", bytes / (now() - t_touch) / 1e9, "GB/s");

    // Registering as grain does today: the whole array, once, then unregistering.
    for (size_t mib : {size_t(128), size_t(512), size_t(2048), gib * 1024}) {
        const size_t b = mib << 20;
        double t0 = now();
        check(cudaHostRegister(host, b, cudaHostRegisterDefault), "register");
        const double reg = now() - t0;
        t0 = now();
        check(cudaHostUnregister(host), "unregister");
        const double unreg = now() - t0;
        char name[64];
        std::snprintf(name, sizeof name, "register_%zuMiB", mib);
        line(name, b / reg / 1e9, "GB/s");
        std::snprintf(name, sizeof name, "unregister_%zuMiB", mib);
        line(name, b / unreg / 1e9, "GB/s");
    }
    {  // four threads, each a quarter: does the driver register in parallel?
        const size_t q = bytes / 4;
        std::vector<std::thread> th;
        const double t0 = now();
        for (int i = 0; i < 4; ++i)
            th.emplace_back([&, i] { check(cudaHostRegister(host + i * q, q, cudaHostRegisterDefault), "register q"); });
        for (auto& t : th) t.join();
        line("register_4threads", bytes / (now() - t0) / 1e9, "GB/s");
        th.clear();  // and unregistering: would grain's unpinning at the end gain from threads?
        const double t1 = now();
        for (int i = 0; i < 4; ++i) th.emplace_back([&, i] { check(cudaHostUnregister(host + i * q), "unregister q"); });
        for (auto& t : th) t.join();
        line("unregister_4threads", bytes / (now() - t1) / 1e9, "GB/s");
    }
    {  // registering one half while another thread unregisters the other: could grain unpin
       // the columns a call is done with while it pins the next ones (pin tasks run one at
       // a time, unpins included: src/starpu/column_pins.hpp)?
        const size_t h = bytes / 2;
        check(cudaHostRegister(host + h, h, cudaHostRegisterDefault), "register second half");
        const double t0 = now();
        std::thread unpin([&] { check(cudaHostUnregister(host + h), "unregister second half"); });
        check(cudaHostRegister(host, h, cudaHostRegisterDefault), "register first half");
        unpin.join();
        const double both = now() - t0;
        check(cudaHostUnregister(host), "unregister first half");
        line("register_while_unregistering", h / both / 1e9, "GB/s of each");
    }

    {  // the same on memory aligned to and advised for huge pages (where the kernel has them)
        const size_t huge = size_t(2) << 20;
        char* h = static_cast<char*>(std::aligned_alloc(huge, bytes));
        if (!h) return 1;
        line("madvise_hugepage", madvise(h, bytes, MADV_HUGEPAGE) == 0 ? 1 : 0, "ok");
        double t0 = now();
        std::memset(h, 1, bytes);
        line("huge_first_touch", bytes / (now() - t0) / 1e9, "GB/s");
        t0 = now();
        check(cudaHostRegister(h, bytes, cudaHostRegisterDefault), "register huge");
        line("huge_register_all", bytes / (now() - t0) / 1e9, "GB/s");
        t0 = now();
        check(cudaHostUnregister(h), "unregister huge");
        line("huge_unregister_all", bytes / (now() - t0) / 1e9, "GB/s");
        std::free(h);
    }

    double* dev = nullptr;
    check(cudaMalloc(&dev, 4 * tile_bytes), "cudaMalloc");
    cudaStream_t s[4];
    for (auto& st : s) check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "stream");
    const int reps = 16;
    copy_tiles(host, dev, true, 2, s[0]);  // warm-up
    line("pageable_up_tile", reps * tile_bytes / copy_tiles(host, dev, true, reps, s[0]) / 1e9, "GB/s");
    line("pageable_down_tile", reps * tile_bytes / copy_tiles(host, dev, false, reps, s[0]) / 1e9, "GB/s");
    {
        std::vector<std::thread> th;
        const double t0 = now();
        for (int i = 0; i < 4; ++i)
            th.emplace_back([&, i] { copy_tiles(host + size_t(i) * tile * ld * sizeof(double), dev + i * tile * tile, true, reps / 4, s[i]); });
        for (auto& t : th) t.join();
        line("pageable_up_tile_4threads", reps * tile_bytes / (now() - t0) / 1e9, "GB/s");
    }
    const size_t region = 4 * tile * ld * sizeof(double);  // 4 rows of tiles, 2 GiB
    check(cudaHostRegister(host, region, cudaHostRegisterDefault), "register region");
    line("pinned_up_tile", reps * tile_bytes / copy_tiles(host, dev, true, reps, s[0]) / 1e9, "GB/s");
    line("pinned_down_tile", reps * tile_bytes / copy_tiles(host, dev, false, reps, s[0]) / 1e9, "GB/s");
    check(cudaHostUnregister(host), "unregister region");

    {  // one tile across two ranges registered apart (as grain pins tile columns): right
       // bytes, and at which speed. The tile starts 2048 columns before the boundary.
        char* aligned = host + (4096 - reinterpret_cast<uintptr_t>(host) % 4096) % 4096;
        const size_t half = size_t(4096) * ld * sizeof(double);  // 4096 columns: 512 MiB
        check(cudaHostRegister(aligned, half, cudaHostRegisterDefault), "register first half");
        check(cudaHostRegister(aligned + half, half, cudaHostRegisterDefault), "register second half");
        char* first = aligned + 2048 * ld * sizeof(double);
        for (size_t c = 0; c < tile; ++c)
            for (size_t r = 0; r < tile; ++r) reinterpret_cast<double*>(first)[c * ld + r] = double(c * tile + r);
        double t0 = now();
        for (int r = 0; r < reps; ++r)
            check(cudaMemcpy2DAsync(dev, tile * sizeof(double), first, ld * sizeof(double), tile * sizeof(double), tile,
                                    cudaMemcpyHostToDevice, s[0]), "memcpy across");
        check(cudaStreamSynchronize(s[0]), "sync");
        line("across_registrations_up_tile", reps * tile_bytes / (now() - t0) / 1e9, "GB/s");
        std::vector<double> back(tile * tile);
        check(cudaMemcpy(back.data(), dev, tile_bytes, cudaMemcpyDeviceToHost), "memcpy back");
        size_t wrong = 0;
        for (size_t i = 0; i < back.size(); ++i) wrong += back[i] != double(i);
        line("across_registrations_wrong_elements", double(wrong), "count");
        check(cudaHostUnregister(aligned + half), "unregister second half");
        check(cudaHostUnregister(aligned), "unregister first half");
    }

    // Staging instead of pinning: cores copy the caller's (pageable) tiles into pinned
    // buffers kept from call to call, and the copy engine takes them from there (and the
    // reverse on the way home). Nothing is pinned or unpinned per call, and a triangular
    // routine moves only its triangle, where pinning takes whole tile columns. Worth building
    // if all the cores together stage faster than cudaHostRegister pins (doc/gpu.md,
    // "Pinning or staging").
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    std::set<int> counts{1, 4, cores / 2, cores - 1};  // sorted, once each
    counts.erase(0);
    for (int threads : counts) {
        char name[64];
        std::snprintf(name, sizeof name, "staged_up_%dthreads", threads);
        line(name, bytes / staged(host, bytes, dev, true, threads) / 1e9, "GB/s");
        std::snprintf(name, sizeof name, "staged_down_%dthreads", threads);
        line(name, bytes / staged(host, bytes, dev, false, threads) / 1e9, "GB/s");
    }
    cudaFree(dev);
    std::free(host);
    return 0;
}
