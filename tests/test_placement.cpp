// The placements of the XKaapi and PaRSEC papers (placement.hpp) on hand-made tasks,
// independent of StarPU: the cases each paper describes.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

#include "src/sched/placement.hpp"

namespace grain::detail::sched {
namespace {

constexpr double none = std::numeric_limits<double>::infinity();
constexpr uint32_t host = 1u;
uint32_t on_gpu(int g) { return 1u << (1 + g); }

PlacementSpec spec(const std::string& name) { return *parse_placement(name); }

// A task updating datum `out` (valid where `out_valid` says) and reading `in` (if >= 0).
PlacedTask task(uint64_t id, double cpu, double gpu, DataId out, uint32_t out_valid, DataId in = -1,
                uint32_t in_valid = host, double bytes = 1e6) {
    PlacedTask t{id, {{out, bytes, true, true, out_valid}}, cpu, gpu, 0};
    if (in >= 0) t.data.push_back({in, bytes, true, false, in_valid});
    return t;
}

TEST(Placement, NamesAndParameters) {
    EXPECT_FALSE(parse_placement("darts"));
    EXPECT_FALSE(parse_placement("heft"));  // StarPU's dmda
    EXPECT_EQ(spec("xkaapi-heft").kind, PlacementKind::Heft);
    EXPECT_EQ(spec("dada").kind, PlacementKind::Dada);
    EXPECT_DOUBLE_EQ(spec("dada:0.25").alpha, 0.25);
    EXPECT_FALSE(spec("dada:0.25").communication);
    EXPECT_TRUE(spec("dada-cp").communication);
    EXPECT_DOUBLE_EQ(spec("owner-load").skew, 0.2);
    EXPECT_EQ(spec("owner-load:inf").skew, none);
    EXPECT_EQ(spec("owner-cyclic:2x4").grid_p, 2);
    EXPECT_EQ(spec("owner-cyclic:2x4").grid_q, 4);
    for (const char* bad : {"dada:2", "dada:x", "dada:", "owner-load:-1", "owner-cyclic:2", "owner-cyclic:0x2",
                            "owner-cyclic:1.5x2", "xkaapi-heft:1", "owner-random:3"})
        EXPECT_THROW(parse_placement(bad), std::invalid_argument) << bad;
    for (const std::string& n : placement_names()) EXPECT_TRUE(parse_placement(n)) << n;
}

// XKaapi's HEFT takes the tasks by decreasing speed-up: the task that gains most from a
// GPU gets it, and the one that gains little goes to the core, although in the batch's
// order it came first and would have had the GPU.
TEST(Placement, HeftOrdersTheBatchBySpeedup) {
    Placement p(spec("xkaapi-heft"), {1, 1});
    const std::vector<int> w = p.place({task(0, 10, 5, 0, host, -1, host, 0), task(1, 100, 10, 1, host, -1, host, 0)});
    EXPECT_EQ(w[1], 0);  // speed-up 10: the GPU
    EXPECT_EQ(w[0], 1);  // speed-up 2: the core (10) ends before the GPU after the other (15)
    EXPECT_DOUBLE_EQ(p.load(0), 10);
    EXPECT_DOUBLE_EQ(p.load(1), 10);
}

// HEFT's finish times count the transfers: a GPU that holds a task's input wins unless
// its queue is longer than the other GPU's load of it.
TEST(Placement, HeftCountsTransfers) {
    const double bw = 1e4;  // 1 MB in 100 us
    Placement p(spec("xkaapi-heft"), {2, 0, bw});
    // A task writing a datum of no size and reading datum 1 (1 MB), valid on GPU 1.
    const auto reader = [](uint64_t id, double gpu_us) {
        PlacedTask t = task(id, none, gpu_us, DataId(100 + id), host, 1, on_gpu(1));
        t.data[0].bytes = 0;
        return t;
    };
    EXPECT_EQ(p.place({reader(0, 10)})[0], 1);
    // GPU 1 now has 10 us of work; the next reader still goes there (110 on GPU 0).
    EXPECT_EQ(p.place({reader(1, 10)})[0], 1);
    // Once GPU 1's queue is longer than the load, GPU 0.
    p.place({reader(2, 200)});
    EXPECT_DOUBLE_EQ(p.load(1), 220);
    EXPECT_EQ(p.place({reader(3, 10)})[0], 0);
    EXPECT_DOUBLE_EQ(p.load(0), 110);
    // Placed there, its input is on its way: the next reader needs no load there.
    EXPECT_DOUBLE_EQ(p.transfer_us(reader(4, 10), 0), 0);
    p.finished(3);
    EXPECT_DOUBLE_EQ(p.transfer_us(reader(4, 10), 0), 100);
    EXPECT_DOUBLE_EQ(p.load(0), 0);
}

// DADA's affinity phase keeps tasks with the data they write: with alpha = 1 no datum
// moves; with alpha = 0 (a pure dual approximation) the same balance is reached with the
// tasks on the wrong GPUs.
TEST(Placement, DadaAffinityKeepsTasksWithWhatTheyWrite) {
    const std::vector<PlacedTask> batch = {task(0, none, 10, 0, on_gpu(1)), task(1, none, 10, 1, on_gpu(0)),
                                           task(2, none, 10, 2, on_gpu(1)), task(3, none, 10, 3, on_gpu(0))};
    Placement affine(spec("dada:1"), {2, 0}), blind(spec("dada:0"), {2, 0});
    const std::vector<int> a = affine.place(batch), b = blind.place(batch);
    EXPECT_EQ(a, (std::vector<int>{1, 0, 1, 0}));
    EXPECT_EQ(std::count(b.begin(), b.end(), 0), 2);
    double moved_a = 0, moved_b = 0;
    for (size_t i = 0; i < batch.size(); ++i) {
        moved_a += (batch[i].data[0].valid & on_gpu(a[i])) ? 0 : 1;
        moved_b += (batch[i].data[0].valid & on_gpu(b[i])) ? 0 : 1;
    }
    EXPECT_EQ(moved_a, 0);
    EXPECT_GT(moved_b, 0);
}

// The affinity phase is bounded by alpha lambda: four tasks on data of GPU 0 are shared
// with GPU 1 rather than serialized there.
TEST(Placement, DadaAffinityIsBoundedForBalance) {
    std::vector<PlacedTask> batch;
    for (int i = 0; i < 4; ++i) batch.push_back(task(uint64_t(i), none, 10, i, on_gpu(0)));
    Placement p(spec("dada:1"), {2, 0});
    const std::vector<int> w = p.place(batch);
    EXPECT_EQ(std::count(w.begin(), w.end(), 0), 2);
    EXPECT_NEAR(p.load(0), 20, 1e-9);
    EXPECT_NEAR(p.load(1), 20 + 2 * 100, 1e-9);  // its two tasks load their tiles
}

// The dual approximation: the tasks that fit only a GPU within the guess go there, then
// the largest speed-ups up to the GPUs' share of the area; the others on the cores.
TEST(Placement, DadaDualApproximationSplitsBySpeedup) {
    std::vector<PlacedTask> batch;
    for (int i = 0; i < 3; ++i) batch.push_back(task(uint64_t(i), 30, 3, i, host, -1, host, 0));
    for (int i = 3; i < 5; ++i) batch.push_back(task(uint64_t(i), 4, 3, i, host, -1, host, 0));
    Placement p(spec("dada:0"), {1, 1});
    EXPECT_EQ(p.place(batch), (std::vector<int>{0, 0, 0, 1, 1}));
    EXPECT_NEAR(p.load(0), 9, 1e-9);
    EXPECT_NEAR(p.load(1), 8, 1e-9);
}

// +CP: the transfers a task needs count, so a task stays with its data on a busier GPU;
// without them it goes to the idle GPU and its data move.
TEST(Placement, DadaCommunicationPrediction) {
    const auto run = [](const char* name) {
        Placement p(spec(name), {2, 0, 1e4});
        EXPECT_EQ(p.place({task(0, none, 50, 9, host, -1, host, 0)})[0], 0);  // GPU 0 busy for 50 us
        return p.place({task(1, none, 10, 1, on_gpu(0), 2, on_gpu(0), 1e6)})[0];  // 200 us from GPU 1
    };
    EXPECT_EQ(run("dada:0"), 1);
    EXPECT_EQ(run("dada-cp:0"), 0);
}

// Owner-compute: a datum's first write gives it an owner; the tasks that write it later
// run there while the owner holds it (or will); once it left, it gets a new owner.
TEST(Placement, OwnerComputeKeepsWritersWithTheOwner) {
    Placement p(spec("owner-random"), {4, 2}, 7);
    std::vector<int> count(4, 0);
    for (int d = 0; d < 200; ++d) {
        const int g = p.place({task(uint64_t(d), 5, 1, d, host)})[0];
        ASSERT_GE(g, 0);
        ASSERT_LT(g, 4);  // never a core: the task has a GPU kernel
        ++count[size_t(g)];
        EXPECT_EQ(p.owner(d), g);
    }
    for (int c : count) EXPECT_GT(c, 20);  // random first touch spreads the data
    // Datum 0's writer is placed on its owner while the first one is pending...
    const int g = p.owner(0);
    EXPECT_EQ(p.place({task(1000, 5, 1, 0, host)})[0], g);
    p.finished(0), p.finished(1000);
    // ...and while its copy is valid there; not once it left.
    EXPECT_EQ(p.place({task(1001, 5, 1, 0, on_gpu(g))})[0], g);
    p.finished(1001);
    int moved = 0;
    for (int i = 0; i < 20; ++i) {
        moved += p.place({task(uint64_t(2000 + i), 5, 1, 0, host)})[0] != g;
        p.finished(uint64_t(2000 + i));
        p.forget(0);
    }
    EXPECT_GT(moved, 0);
}

// PaRSEC's load-based placement: the GPU that holds the task's inputs while its finish
// time is within 1 + skew of the least loaded GPU's, else the least loaded.
TEST(Placement, OwnerLoadSkew) {
    const auto run = [](const char* name, double busy) {
        Placement p(spec(name), {2, 0});
        p.place({task(0, none, busy, 9, on_gpu(0))});
        return p.place({task(1, none, 10, 1, host, 2, on_gpu(0))})[0];  // reads data on GPU 0
    };
    EXPECT_EQ(run("owner-load", 1), 0);        // 11 against 10: within 20 %
    EXPECT_EQ(run("owner-load", 10), 1);       // 20 against 10
    EXPECT_EQ(run("owner-load:1", 10), 0);     // within 100 %
    EXPECT_EQ(run("owner-load:inf", 1000), 0); // always the inputs' GPU
    EXPECT_EQ(run("owner-load:0", 1), 1);      // always the least loaded
}

// Always reusing collapses onto the GPU that holds the shared input (PaRSEC's skew 0 on
// potrf); skew 0.2 spreads the same tasks.
TEST(Placement, OwnerLoadAlwaysReusingCollapses) {
    const auto spread = [](const char* name) {
        Placement p(spec(name), {2, 0});
        std::vector<int> count(2, 0);
        for (int i = 0; i < 8; ++i) ++count[size_t(p.place({task(uint64_t(i), none, 10, 10 + i, host, 0, on_gpu(0))})[0])];
        return count;
    };
    EXPECT_EQ(spread("owner-load:inf"), (std::vector<int>{8, 0}));
    const std::vector<int> c = spread("owner-load");
    EXPECT_GE(c[1], 3);
    EXPECT_GE(c[0], 3);
}

// The user-directed map: tile (m, n) on GPU (m mod GP) GQ + n mod GQ, whoever holds it.
TEST(Placement, OwnerCyclicFollowsTheGrid) {
    Placement p(spec("owner-cyclic"), {4, 1});
    EXPECT_EQ(p.grid_p(), 2);
    EXPECT_EQ(p.grid_q(), 2);
    for (int m = 0; m < 5; ++m)
        for (int n = 0; n < 5; ++n) {
            PlacedTask t = task(uint64_t(m * 5 + n), 5, 1, m * 5 + n, on_gpu(3));
            t.data[0].row = m, t.data[0].col = n;
            EXPECT_EQ(p.place({t})[0], (m % 2) * 2 + n % 2);
        }
    // A task that only reads follows its first input's place on the map.
    for (int m = 0; m < 4; ++m) {
        PlacedTask t = task(uint64_t(100 + m), 5, 1, 50 + m, host);
        t.data[0].writes = false, t.data[0].row = m, t.data[0].col = 1;
        EXPECT_EQ(p.place({t})[0], (m % 2) * 2 + 1);
    }
    EXPECT_EQ(Placement(spec("owner-cyclic"), {8, 0}).grid_q(), 4);
    EXPECT_EQ(Placement(spec("owner-cyclic"), {2, 0}).grid_p(), 1);
    EXPECT_EQ(Placement(spec("owner-cyclic:4x1"), {4, 0}).grid_p(), 4);
    EXPECT_THROW(Placement(spec("owner-cyclic:3x1"), {4, 0}), std::invalid_argument);
}

// Every policy: a task with no GPU kernel runs on a core, one with no CPU kernel on a GPU,
// and without GPUs everything on the cores, balanced; a task no worker runs is refused.
TEST(Placement, EveryPolicyRespectsTheKernels) {
    for (const std::string& name : placement_names()) {
        SCOPED_TRACE(name);
        Placement p(spec(name), {2, 2});
        EXPECT_GE(p.place({task(0, 5, none, 0, host)})[0], 2);
        EXPECT_LT(p.place({task(1, none, 5, 1, host)})[0], 2);
        Placement cores(spec(name), {0, 2});
        std::vector<PlacedTask> batch;
        for (int i = 0; i < 4; ++i) batch.push_back(task(uint64_t(i), 5, 1, i, host));
        const std::vector<int> w = cores.place(batch);
        EXPECT_EQ(std::count(w.begin(), w.end(), 0), 2);
        EXPECT_EQ(std::count(w.begin(), w.end(), 1), 2);
        EXPECT_THROW(cores.place({task(9, none, 1, 9, host)}), std::invalid_argument);
        for (int i = 0; i < 4; ++i) cores.finished(uint64_t(i));
        EXPECT_DOUBLE_EQ(cores.load(0) + cores.load(1), 0);
    }
}

}  // namespace
}  // namespace grain::detail::sched
