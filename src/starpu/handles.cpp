#include "handles.hpp"

#include <mutex>
#include <set>

#include "grain/errors.hpp"

namespace grain::detail {

namespace {

std::mutex registry_mutex;
bool registry_open = false;
std::set<HandleOwner*> owners;
DataHooks hooks;

}  // namespace

void open_handle_registry(const DataHooks& policy_hooks) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    registry_open = true;
    hooks = policy_hooks;
}

std::vector<HandleOwner*> take_handle_owners() {
    std::lock_guard<std::mutex> lock(registry_mutex);
    std::vector<HandleOwner*> taken(owners.begin(), owners.end());
    owners.clear();
    return taken;
}

void close_handle_registry() {
    std::lock_guard<std::mutex> lock(registry_mutex);
    registry_open = false;
    hooks = DataHooks{};
}

void enlist_handle_owner(HandleOwner* owner) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    if (!registry_open)
        throw runtime_error("grain: no grain::Runtime is alive; create one before using grain routines");
    owners.insert(owner);
}

void delist_handle_owner(HandleOwner* owner) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    owners.erase(owner);
}

bool policy_keeps_handles() { return hooks.keeps_handles && hooks.keeps_handles(); }

void policy_forget(const starpu_data_handle_t* handles, size_t count) {
    if (hooks.forget) hooks.forget(handles, count);
}

}  // namespace grain::detail
