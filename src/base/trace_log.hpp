#pragma once
// The kernel tasks that ran, while a Runtime traces: the kernel tasks' end callbacks add
// them (several workers at once), the application reads them between routine calls.
#include <vector>

#include "grain/statistics.hpp"
#include "starpu_sync.hpp"

namespace grain::detail {

class TraceLog {
public:
    void add(const TaskRecord& record) {
        std::lock_guard<Mutex> lock(mutex_);
        records_.push_back(record);
    }
    std::vector<TaskRecord> records() const {
        std::lock_guard<Mutex> lock(mutex_);
        return records_;
    }
    void clear() {
        std::lock_guard<Mutex> lock(mutex_);
        records_.clear();
    }

private:
    mutable Mutex mutex_;
    std::vector<TaskRecord> records_;
};

}  // namespace grain::detail
