#pragma once
// The placements of the other source papers, independent of StarPU: each decides, for the
// tasks that became ready together, the worker that runs each of them.
//   xkaapi-heft   XKaapi's HEFT: the tasks by decreasing GPU speed-up, each on the worker
//                 that finishes it first, its transfers counted.
//   dada[:ALPHA]  XKaapi's DADA: a binary search on the makespan guess lambda; for each
//                 guess an affinity phase (a task goes where the data it writes are, while
//                 the phase's work there lasts at most ALPHA lambda), then a dual approximation
//                 of the rest (the largest speed-ups on the GPUs up to their share of the
//                 area, the others on the cores, each set by earliest finish).
//   dada-cp[:ALPHA]  the same with the transfers a task needs counted in its times.
//   owner-random, owner-load[:SKEW], owner-cyclic[:GPxGQ]  PaRSEC's owner-compute: a task
//                 runs on the GPU that owns the data it writes; a datum with no owner gets
//                 one at its first write, at random, by load (the GPU holding the task's
//                 inputs while its finish time is within 1 + SKEW of the least loaded
//                 GPU's, else the least loaded), or by a 2D block-cyclic map of its tile.
// Workers are GPUs 0..gpus-1, then cores gpus..gpus+cores-1. Times are microseconds.
// A worker's load is the predicted time of the tasks placed on it and not yet finished.
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "darts.hpp"

namespace grain::detail::sched {

enum class PlacementKind { Heft, Dada, OwnerRandom, OwnerLoad, OwnerCyclic };

struct PlacementSpec {
    PlacementKind kind = PlacementKind::Heft;
    double alpha = 0.5;            // dada: the affinity phase's share of the guess
    bool communication = false;    // dada-cp: transfers count in the dual approximation
    double skew = 0.2;             // owner-load; infinity: always the inputs' GPU
    int grid_p = 0, grid_q = 0;    // owner-cyclic; 0: the squarest grid of the GPUs
};

// The placement a --sched name asks for, or nullopt if the name is none of them; throws
// std::invalid_argument, saying why, for a placement name with a bad parameter.
std::optional<PlacementSpec> parse_placement(const std::string& name);
// The placements' names, without their parameters.
std::vector<std::string> placement_names();

// One datum of a task, as the runtime sees it when the task is placed.
struct Access {
    DataId data;
    double bytes;
    bool reads, writes;
    uint32_t valid;          // memory nodes with a valid copy: bit 0 host, bit 1 + g GPU g
    int row = -1, col = -1;  // its tile's coordinates, where known (owner-cyclic)
};

struct PlacedTask {
    uint64_t id;
    std::vector<Access> data;
    double cpu_us, gpu_us;  // predicted duration on a core, on a GPU; infinity: no such kernel
    int64_t priority = 0;
};

struct PlacementMachine {
    int gpus = 0, cores = 0;
    double bytes_per_us = 1e4;  // each GPU's link to host memory
};

class Placement {
public:
    Placement(PlacementSpec spec, PlacementMachine machine, uint64_t seed = 1);

    // The worker of each task of `batch` (tasks made ready together), in its order. A task
    // with no GPU kernel goes to a core, one with no CPU kernel to a GPU.
    std::vector<int> place(const std::vector<PlacedTask>& batch);
    // Placed task `id` ended: its worker's load and the data it holds there follow.
    void finished(uint64_t id);
    // Datum d no longer exists (its id may be reused).
    void forget(DataId d);

    int workers() const { return machine_.gpus + machine_.cores; }
    double load(int worker) const { return load_[size_t(worker)]; }
    // The GPU that owns d (owner-compute), or -1.
    int owner(DataId d) const;
    // Predicted transfer time of task t's inputs to `worker`: what is valid neither there
    // nor on its way there (an input of a task placed there and not finished).
    double transfer_us(const PlacedTask& t, int worker) const;
    int grid_p() const { return grid_p_; }
    int grid_q() const { return grid_q_; }

private:
    struct Placed {
        int worker;
        double us;
        std::vector<DataId> data;
    };
    bool is_gpu(int w) const { return w < machine_.gpus; }
    double duration(const PlacedTask& t, int w) const { return is_gpu(w) ? t.gpu_us : t.cpu_us; }
    bool coming(DataId d, int gpu) const;  // on its way to gpu: a placed task there uses it
    void assign(const PlacedTask& t, int w, double us);
    int least_loaded(int first, int last, const PlacedTask& t, bool transfers) const;

    std::vector<int> heft(const std::vector<PlacedTask>& batch);
    std::vector<int> dada(const std::vector<PlacedTask>& batch);
    // One guess of dada: the workers of the batch, or empty if no schedule of length
    // lambda exists by the dual approximation's test. `order`: the batch by priority;
    // `by_gain`: by decreasing speed-up.
    std::vector<int> dada_guess(const std::vector<PlacedTask>& batch, const std::vector<size_t>& order,
                                const std::vector<size_t>& by_gain, double lambda) const;
    int owner_compute(const PlacedTask& t);
    int affine_gpu(const PlacedTask& t, bool writes) const;  // most bytes there, -1 if none

    PlacementSpec spec_;
    PlacementMachine machine_;
    int grid_p_ = 1, grid_q_ = 1;
    std::vector<double> load_;                       // per worker
    std::vector<std::vector<int>> users_;            // per GPU, per datum: placed tasks using it
    std::vector<int> owner_;                         // per datum
    std::unordered_map<uint64_t, Placed> placed_;    // tasks placed, not finished
    std::mt19937_64 random_;
};

}  // namespace grain::detail::sched
