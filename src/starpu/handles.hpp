#pragma once
// The owners of tile handles alive while a Runtime runs, and what the scheduling policy
// in use asks of the data layer. StarPU is one runtime per process, so this is too: the
// Runtime opens it after starpu_init, takes the owners back before starpu_shutdown
// (they unregister their handles), then closes it.
#include <starpu.h>

#include <cstddef>
#include <vector>

namespace grain::detail {

// Something holding StarPU handles.
class HandleOwner {
public:
    // StarPU is about to shut down: unregister every handle.
    virtual void runtime_ending() = 0;

protected:
    ~HandleOwner() = default;
};

// Set by the Runtime from the scheduling policy it started; a hook left null does nothing.
struct DataHooks {
    // Whether the policy keeps the handles of the tasks it sees (until forget).
    bool (*keeps_handles)() = nullptr;
    // Handles about to be unregistered, with no task on them left to run.
    void (*forget)(const starpu_data_handle_t* handles, size_t count) = nullptr;
};

void open_handle_registry(const DataHooks& hooks);
// The owners still enlisted, which the registry forgets (it stays open).
std::vector<HandleOwner*> take_handle_owners();
void close_handle_registry();

// Throws grain::runtime_error while the registry is closed (no Runtime alive).
void enlist_handle_owner(HandleOwner* owner);
void delist_handle_owner(HandleOwner* owner);

// The hooks of the policy in use.
bool policy_keeps_handles();
void policy_forget(const starpu_data_handle_t* handles, size_t count);

}  // namespace grain::detail
