#pragma once
// The checks of the test programs that run on a simulated machine (scripts/sim-testing.sh
// --program): plain mains, since SimGrid wraps main. Each check prints its outcome; the
// program returns checks_failed() ? 1 : 0.
#include <cstdio>

namespace grain::test {

inline int failures = 0;

inline void check(bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
    if (!ok) ++failures;
}

inline bool checks_failed() { return failures > 0; }

}  // namespace grain::test
