#pragma once
// Pinning host memory for GPU transfers (cudaHostRegister through StarPU), and pinning a
// matrix's tile column in a task on a core. The task updates every tile of the column, so
// StarPU's data dependencies order it before any other task on them, and the submitting
// thread goes on submitting while it runs: the GPU works on the pinned columns while the
// next ones are pinned (cudaHostRegister is slower than the link to the GPU:
// doc/results/2026-11-28-h200-loan.md). The pins run one after the other, in the order
// they are submitted: the driver registers at one rate however many threads ask
// (grain_pin_bench), so serial pins make the first column ready soonest.
#include <starpu.h>

#include <atomic>
#include <cstddef>
#include <vector>

#include "src/base/pin_ranges.hpp"

namespace grain::detail {

// Pins or unpins memory; in a simulation, charges the calling thread the time it takes on
// the machine simulated (GRAIN_SIM_PIN_MBPS, GRAIN_SIM_UNPIN_MBPS).
bool pin_memory(void* address, std::size_t bytes);
void unpin_memory(void* address, std::size_t bytes);

enum class PinState : char { no, ordered, yes, failed };

// Pins `range` now, on this thread: yes, or failed where it could not.
PinState pin_now(PinRange range);

// Whether a pin can be a task: a CPU worker exists to run it.
bool pin_tasks_possible();

// Submits the pin of `range`, which holds the tiles `column`, after the pins submitted
// before it; the task sets *state to yes or failed. The caller waits for it with
// wait_pins, which frees it.
starpu_task* submit_pin(PinRange range, const std::vector<starpu_data_handle_t>& column,
                        std::atomic<PinState>* state);
void wait_pins(std::vector<starpu_task*>& tasks);

// Tests: pinning through `hooks`, also without GPUs (null: StarPU's pinning, with GPUs).
struct PinHooks {
    bool (*pin)(void* address, std::size_t bytes);
    void (*unpin)(void* address, std::size_t bytes);
};
void set_pin_hooks(const PinHooks* hooks);
bool pinning_wanted();  // a Runtime with GPUs, or hooks

// Arrays a caller keeps pinned across calls (grain::Pinned): a matrix over memory inside
// one is not pinned again. add_caller_pin pins the range now and gives its key (0 when
// nothing was pinned: no GPU, or the driver refused); remove_caller_pin unpins it, unless
// the Runtime's end did already (unpin_caller_pins).
int add_caller_pin(const void* address, std::size_t bytes);
void remove_caller_pin(int key);
bool inside_caller_pin(const void* address, std::size_t bytes);
void unpin_caller_pins();

}  // namespace grain::detail
