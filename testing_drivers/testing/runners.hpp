#pragma once
// The routines grain_testing runs: one runner per routine sets up a case's matrices,
// times grain on them and, as the options ask, the vendor routine and the check.
#include <grain/grain.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "testing_drivers/checks.hpp"
#include "testing_drivers/testing/options.hpp"

namespace grain::testing::driver {

// One case as it runs: m is n for the square routines, k is 0 but for gemm and syrk, nrhs
// is 0 but for the solves.
struct Case {
    char precision;
    int64_t m, n, k, nrhs;
    std::vector<int> scales;  // scales[0] is the tile size; empty until choose_scales where none was given
};

struct Result {
    double time = 0, flops = 0;
    grain::Statistics statistics;  // of the timed run
    std::vector<grain::TaskRecord> trace;  // its kernel tasks, with --trace
    double vendor_time = 0;  // GPU runs: from pinned arrays (vendor_gpu.hpp)
    double vendor_pageable_time = 0, vendor_resident_time = 0;  // GPU runs: from pageable arrays; on the GPU alone
    double to_gpu_bytes = 0, from_gpu_bytes = 0;  // moved during grain's run (GPU runs)
    double caller_cpu_seconds = 0;  // the calling thread's CPU time in grain's run: submitting
    double residual = 0;
    int info = 0;
    int steps = 0;  // a mixed-precision solve's refinement steps (its iter, as LAPACK's)
};

struct Run {
    const Options& options;  // options.op: the routine
    const Case& c;
    Random& rng;
    grain::Runtime& runtime;
    int threads;
    // Distributed runs (-P, -Q under mpirun): the matrices' placement, and the outputs to
    // bring back into the host arrays after the timed call; null otherwise.
    const grain::Distribution* grid = nullptr;
    std::vector<std::function<void()>>* gathers = nullptr;
    // Seconds the timed call spent making and filling distributed matrices, which the
    // run's time leaves out (an application's data are in place before it calls).
    double* setup_seconds = nullptr;

    // Whether --vendor times the GPU baseline (cuBLAS / cuSOLVER) of this run.
    bool gpu_vendor() const { return options.vendor && runtime.ngpu() > 0; }
};

// One operation -o names: everything the driver knows of it. A family's file (ops_*.cpp)
// registers its operations; nothing else in the driver names one.
struct Operation {
    const char* name;
    double threshold;  // residual bound (design.md)
    Result (*run)(const Run&);  // in the case's precision
    // The run's floating-point operations in real precision (the kernel table's counts,
    // which complex precisions weigh more: routine_flops), and the bytes of host memory
    // the runner allocates at its peak (host_bytes).
    double (*flops)(const Case&);
    uint64_t (*bytes)(const Options&, const Case&);
    bool takes_m, takes_k, takes_nrhs;  // which of -m, -k and --nrhs it reads
    grain::Workload workload;  // what the automatic granularity weighs it as
    // A mixed-precision solve: it runs in d and z only, factors in s and c (on their
    // automatic ladder), and reports its refinement steps.
    bool mixed = false;
};

// Adds a family's operations to the table, from its file's static initialization.
struct Registered {
    Registered(std::initializer_list<Operation> operations);
};

// Every operation, by name.
const std::vector<Operation>& operations();

// The operation -o names; usage_error if there is none.
const Operation& find_operation(const std::string& name);

// Every combination of the options' precisions and sizes, in the table's order: one
// case for the values of the lists options.op does not read. usage_error for an unknown
// operation, or for more than max_values cases.
// A case's ladder is the one -b or --scales gives, else empty until choose_scales.
std::vector<Case> cases_of(const Options& options);

// Gives each case without a ladder grain's automatic one for the operation, the case's
// precision and its largest size, on the Runtime alive (its workers and models; the
// priors alone where `distributed`, so that every process chooses the same).
void choose_scales(const Operation& operation, std::vector<Case>& cases, bool distributed);

// The most tile scales a case has.
int levels(const std::vector<Case>& cases);

// The options options.op does not read ("-m", "-k", "--nrhs") that were given.
std::vector<std::string> ignored_options(const Options& options);

// The bytes of host memory a run of c allocates at its peak: its operands, the copies
// grain works in (in place, as a user's arrays), and the copies --check and --vendor make (those
// of the CPU baselines: the GPU ones copy from the operands). Each runner below allocates
// what this counts. UINT64_MAX where 64 bits cannot hold them.
uint64_t host_bytes(const Options& options, const Case& c);

// One run of r.c, in its precision, with its flops.
Result run_case(const Operation& operation, const Run& r);

// Whether a checked run passed: info 0 and a residual under the operation's bound.
bool passed(const Operation& operation, const Result& res);

}  // namespace grain::testing::driver
