#pragma once
// The checks of the test programs that run on a simulated machine (scripts/sim-testing.sh
// --program): plain mains, since SimGrid wraps main. Each check prints its outcome; the
// program returns checks_failed() ? 1 : 0.
#include <cstdio>
#include <grain/grain.hpp>
#include <string>

namespace grain::test {

inline int failures = 0;

inline void check(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) ++failures;
}

inline bool checks_failed() { return failures > 0; }

// The options of a runtime on one simulated core and one simulated GPU under `sched`.
inline RuntimeOptions one_core_one_gpu(const std::string& sched) {
    RuntimeOptions options;
    options.ncpu = 1;
    options.ngpu = 1;
    options.sched = sched;
    return options;
}

// Whether StarPU gave `runtime` its simulated GPU; says so when it did not.
inline bool has_its_gpu(const Runtime& runtime) {
    if (runtime.ngpu() == 1) return true;
    std::printf("FAILED: no simulated GPU\n");
    return false;
}

}  // namespace grain::test
