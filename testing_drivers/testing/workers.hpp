#pragma once
// StarPU's idle workers poll for tasks, spinning on the cores, so the driver keeps
// them paused except while grain runs: the set-up, the vendor routines and the
// checks then have the cores to themselves.
#include <starpu.h>

namespace grain::testing::driver {

class WorkersPaused {
public:
    WorkersPaused() { starpu_pause(); }
    ~WorkersPaused() { starpu_resume(); }
};

class WorkersRunning {
public:
    WorkersRunning() { starpu_resume(); }
    ~WorkersRunning() { starpu_pause(); }
};

}  // namespace grain::testing::driver
