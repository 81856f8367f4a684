#pragma once
// grain::Runtime: RAII owner of the StarPU runtime. Exactly one may be alive at a
// time (StarPU is a per-process runtime); grain routines need one.
#include <string>

namespace grain {

struct RuntimeOptions {
    // Number of CPU workers; -1: GRAIN_NCPU, else STARPU_NCPU, else StarPU's default.
    int ncpu = -1;
    // Number of GPU workers; -1: GRAIN_NGPU, else STARPU_NCUDA, else 0.
    // This build has no GPU kernels: a positive value is rejected.
    int ngpu = -1;
    // StarPU scheduling policy; empty: GRAIN_SCHED, else STARPU_SCHED, else "dmdas".
    std::string sched;
};

class Runtime {
public:
    Runtime();
    explicit Runtime(const RuntimeOptions& options);
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    int ncpu() const { return ncpu_; }
    int ngpu() const { return ngpu_; }
    const std::string& sched() const { return sched_; }

    // Whether a Runtime is alive in this process.
    static bool active();

private:
    int ncpu_ = 0;
    int ngpu_ = 0;
    std::string sched_;
    int saved_blas_threads_ = 1;
};

}  // namespace grain
