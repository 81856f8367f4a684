#include "column_pins.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <string>

#include "grain/errors.hpp"
#include "src/base/env.hpp"
#include "src/base/simulation.hpp"
#include "task_buffers.hpp"

namespace grain::detail {

namespace {

std::atomic<const PinHooks*> hooks{nullptr};

// A simulated run pins nothing, but charges the thread that pins the time it takes on the
// machine simulated, GRAIN_SIM_PIN_MBPS and GRAIN_SIM_UNPIN_MBPS (the rates grain_pin_bench
// measures; sim/README.md has the H200's), none where unset.
void charge(const char* variable, size_t bytes) {
    if constexpr (!simulated) return;
    const auto rate = env_integer("grain (simulated)", {variable}, 1, 1L << 40, "MB/s");
    if (rate) starpu_sleep(float(double(bytes) / (double(rate->value) * 1e6)));
}

struct PinArgs {
    PinRange range;
    std::atomic<PinState>* state;
};

// On a worker, under StarPU's C frames: an exception (a bad GRAIN_SIM_PIN_MBPS, a test
// hook) must not leave it; the range then stays unpinned, as when CUDA refuses.
void pin_task(void*[], void* cl_arg) {
    const auto* a = static_cast<const PinArgs*>(cl_arg);
    PinState state = PinState::failed;
    try {
        state = pin_now(a->range);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "grain: a pin failed: %s\n", e.what());
    }
    a->state->store(state);
}

starpu_codelet* pin_codelet() {
    static starpu_codelet cl = [] {
        starpu_codelet c;
        starpu_codelet_init(&c);
        c.where = STARPU_CPU;
        c.cpu_funcs[0] = pin_task;
        c.nbuffers = STARPU_VARIABLE_NBUFFERS;
#ifdef STARPU_SIMGRID
        c.flags = STARPU_CODELET_SIMGRID_EXECUTE;  // runs, and charges its worker the pinning
#endif
        c.name = "grain_pin";
        return c;
    }();
    return &cl;
}

// The last pin submitted, which the next one follows; guarded by chain_mutex. wait_pins
// forgets it before freeing it.
std::mutex chain_mutex;
starpu_task* last_pin = nullptr;

// The callers' pinned ranges, by key; guarded by caller_mutex.
struct CallerPin {
    int key;
    uintptr_t address;
    size_t bytes;
};
std::mutex caller_mutex;
std::vector<CallerPin> caller_pins;
int last_caller_key = 0;

}  // namespace

bool pin_memory(void* address, size_t bytes) {
    if (const PinHooks* h = hooks.load()) return h->pin(address, bytes);
    charge("GRAIN_SIM_PIN_MBPS", bytes);
    return starpu_memory_pin(address, bytes) == 0;
}

void unpin_memory(void* address, size_t bytes) {
    if (const PinHooks* h = hooks.load()) return h->unpin(address, bytes);
    charge("GRAIN_SIM_UNPIN_MBPS", bytes);
    starpu_memory_unpin(address, bytes);
}

PinState pin_now(PinRange range) {
    return pin_memory(reinterpret_cast<void*>(range.address), range.bytes) ? PinState::yes : PinState::failed;
}

bool pin_tasks_possible() { return starpu_cpu_worker_get_count() > 0; }

void set_pin_hooks(const PinHooks* h) { hooks = h; }
bool pinning_wanted() {
    return hooks.load() != nullptr || (starpu_is_initialized() && starpu_cuda_worker_get_count() > 0);
}

int add_caller_pin(const void* address, size_t bytes) {
    if (bytes == 0 || !pinning_wanted() || !pin_memory(const_cast<void*>(address), bytes)) return 0;
    std::lock_guard<std::mutex> lock(caller_mutex);
    caller_pins.push_back({++last_caller_key, reinterpret_cast<uintptr_t>(address), bytes});
    return last_caller_key;
}

void remove_caller_pin(int key) {
    CallerPin pin{};
    {
        std::lock_guard<std::mutex> lock(caller_mutex);
        const auto it = std::find_if(caller_pins.begin(), caller_pins.end(), [&](const CallerPin& p) { return p.key == key; });
        if (it == caller_pins.end()) return;  // never pinned, or unpinned at the Runtime's end
        pin = *it;
        caller_pins.erase(it);
    }
    unpin_memory(reinterpret_cast<void*>(pin.address), pin.bytes);
}

bool inside_caller_pin(const void* address, size_t bytes) {
    const auto first = reinterpret_cast<uintptr_t>(address);
    std::lock_guard<std::mutex> lock(caller_mutex);
    return std::any_of(caller_pins.begin(), caller_pins.end(), [&](const CallerPin& p) {
        return first >= p.address && first - p.address <= p.bytes && bytes <= p.bytes - (first - p.address);
    });
}

// StarPU unpins through the GPUs' contexts, which go with the Runtime.
void unpin_caller_pins() {
    std::vector<CallerPin> pins;
    {
        std::lock_guard<std::mutex> lock(caller_mutex);
        pins.swap(caller_pins);
    }
    for (const CallerPin& p : pins) unpin_memory(reinterpret_cast<void*>(p.address), p.bytes);
}

starpu_task* submit_pin(PinRange range, const std::vector<starpu_data_handle_t>& column,
                        std::atomic<PinState>* state) {
    starpu_task* task = starpu_task_create();
    task->cl = pin_codelet();
    auto* args = static_cast<PinArgs*>(std::malloc(sizeof(PinArgs)));
    try {
        if (!args) throw std::bad_alloc();
        // Updating every tile of the column orders the pin before any later task on them.
        set_task_buffers(task, column.data(), int(column.size()), [](int) { return STARPU_RW; });
    } catch (const std::bad_alloc&) {
        std::free(args);
        task->destroy = 0;  // the clean-up frees what was allocated
        starpu_task_destroy(task);
        throw;
    }
    *args = {range, state};
    task->cl_arg = args;
    task->cl_arg_size = sizeof *args;
    task->cl_arg_free = 1;
    task->priority = STARPU_MAX_PRIO;  // the tasks on the column wait for it
    task->detach = 0;                  // the next pin follows it, and wait_pins frees it
    state->store(PinState::ordered);
    std::lock_guard<std::mutex> lock(chain_mutex);
    if (last_pin) starpu_task_declare_deps_array(task, 1, &last_pin);
    if (const int ret = starpu_task_submit(task); ret != 0) {
        state->store(PinState::no);
        // The previous pin, if any, will notify this task's job when it ends: left alive.
        if (!last_pin) {
            task->destroy = 0;
            starpu_task_destroy(task);
        }
        throw runtime_error(std::string("grain: starpu_task_submit failed (a pin): ") + std::strerror(-ret));
    }
    last_pin = task;
    return task;
}

void wait_pins(std::vector<starpu_task*>& tasks) {
    {
        std::lock_guard<std::mutex> lock(chain_mutex);
        if (std::find(tasks.begin(), tasks.end(), last_pin) != tasks.end()) last_pin = nullptr;
    }
    for (starpu_task* task : tasks)
        if (const int ret = starpu_task_wait(task); ret != 0)  // from a destructor: no throw
            std::fprintf(stderr, "grain: starpu_task_wait failed on a pin: %s\n", std::strerror(-ret));
    tasks.clear();
}

}  // namespace grain::detail
