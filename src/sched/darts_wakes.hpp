#pragma once
// Worker wake-ups. A worker whose pop found nothing is idle (Workers::idle) until a push
// or a pop picks it to wake: the GPUs for any task DARTS holds; one core, as StarPU's
// eager does, when a core has a task to take (a task no GPU can run, or a candidate that
// passes the cores' rule after a push or a GPU's pop); a core that takes a task picks the
// next while there is more. A busy worker is never woken: it pops again when its task
// ends. Waking every core at every push cost more than the cores gave: the pushes of the
// tasks a GPU task releases run on that GPU's worker, which waits for each core inside a
// pop to wake it, and each woken core takes the policy's lock to find nothing
// (doc/notes/darts-notes.md, on the wake-ups).
#include <vector>

#include "darts_state.hpp"

namespace grain::detail::sched::policy {

struct Wakes {
    std::vector<int> workers;
    // Picks the idle workers of this kind (the GPUs, or one core); under the policy's lock.
    void pick(State& s, bool gpus) {
        for (size_t w = 0; w < s.workers.idle.size(); ++w)
            if (s.workers.idle[w] && (s.workers.gpu_of_worker[w] >= 0) == gpus) {
                s.workers.idle[w] = 0;
                workers.push_back(int(w));
                if (!gpus) return;
            }
    }
    // Once the policy's lock is released.
    void wake() const {
        for (int w : workers) starpu_wake_worker_relax_light(w);
    }
};

}  // namespace grain::detail::sched::policy
