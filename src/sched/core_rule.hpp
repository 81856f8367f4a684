#pragma once
// The cores' rule of the darts policy (doc/scheduling.md, "CPU workers", rules 2 and
// 3), independent of StarPU: whether a core takes a task that DARTS holds and has
// neither planned nor handed out, from the performance models' times. The policy
// (darts_cores.cpp, core_candidate) gathers the times and says why each bound is there.

namespace grain::detail::sched {

// Times in us; those of the GPUs are per GPU.
struct CoreRuleTimes {
    double core_us = 0;         // the task on a core, with the transfer home of its tiles
    double gpu_us = 0;          // the task on a GPU
    double work_us = 0;         // the GPUs' work not done yet (handed out and waiting)
    double ahead_us = 0;        // the work handed out, and waiting at least as urgent
    double ahead_loads_us = 0;  // the loads of the tiles the work counted in ahead_us updates
    double bus_us = 0;          // the loads asked for a GPU's planned tasks, not done yet (the least)
};

// A core takes the task when it would end it no later than a GPU would: after the GPUs'
// work, after the loads of the work at least as urgent, or after the bus's backlog (rule
// 2), and not more than core_delay times later than a GPU would reach and run it (rule 3).
inline bool core_takes(const CoreRuleTimes& t, double core_delay) {
    const double reach_us = t.ahead_us > t.bus_us ? t.ahead_us : t.bus_us;
    if (t.core_us > core_delay * (reach_us + t.gpu_us)) return false;
    return t.core_us <= t.work_us + t.gpu_us || t.core_us <= t.ahead_loads_us + t.gpu_us ||
           t.core_us <= t.bus_us + t.gpu_us;
}

}  // namespace grain::detail::sched
