#pragma once
// A mutex and a condition variable on StarPU's thread wrappers, not std::mutex and
// std::condition_variable: under SimGrid, StarPU's workers are simulated threads, and
// only StarPU's (SimGrid's) primitives block one of them, or the application thread
// waiting for them, without blocking the whole simulation. Outside SimGrid they are
// pthreads. Both meet the standard Lockable requirements (std::lock_guard, std::unique_lock).
#include <starpu.h>

#include <mutex>

namespace grain::detail {

class Mutex {
public:
    Mutex() { starpu_pthread_mutex_init(&m_, nullptr); }
    ~Mutex() { starpu_pthread_mutex_destroy(&m_); }
    Mutex(const Mutex&) = delete;
    Mutex& operator=(const Mutex&) = delete;
    void lock() { starpu_pthread_mutex_lock(&m_); }
    void unlock() { starpu_pthread_mutex_unlock(&m_); }

private:
    friend class CondVar;
    starpu_pthread_mutex_t m_;
};

class CondVar {
public:
    CondVar() { starpu_pthread_cond_init(&c_, nullptr); }
    ~CondVar() { starpu_pthread_cond_destroy(&c_); }
    CondVar(const CondVar&) = delete;
    CondVar& operator=(const CondVar&) = delete;
    void notify_all() { starpu_pthread_cond_broadcast(&c_); }
    template <typename Predicate>
    void wait(std::unique_lock<Mutex>& lock, Predicate done) {
        while (!done()) starpu_pthread_cond_wait(&c_, &lock.mutex()->m_);
    }

private:
    starpu_pthread_cond_t c_;
};

}  // namespace grain::detail
