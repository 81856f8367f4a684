#pragma once
// libgrain_lapack's session: the one Runtime a process's LAPACK calls share, the choice
// between grain and the system for each call (dispatch), the calls' counters, and the
// argument checks every interposed routine makes (lapack_api.cpp).
#include <grain/grain.hpp>

#include <dlfcn.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

namespace grain::lapack_api {

// ---- calls counted per symbol (GRAIN_LAPACK_TRACE prints them at exit) ----

struct Counter {
    const char* symbol;
    std::atomic<long> grain{0}, system{0}, nested{0};
};

class Counters {
public:
    static Counters& get();
    Counter& add(const char* symbol);
    std::atomic<double> startup_seconds{-1};    // the Runtime's construction; -1: never started
    ~Counters();

private:
    Counters() = default;
    std::mutex mutex_;
    std::vector<std::unique_ptr<Counter>> counters_;
};

// ---- the process's session ----

// Whether the session ended, at exit: later calls (from other static destructors or
// atexit handlers) are the system's.
bool session_over();
// GRAIN_LAPACK_MIN_N: calls smaller than this go to the system.
long min_n();

class Session {
public:
    static Session& get();
    // Runs f (a grain call returning info) with the workers running; nothing if grain
    // cannot (the runtime does not start, or f throws): the caller then asks the system.
    std::optional<int> call(const std::function<int()>& f);
    // Whether the calling thread is inside grain: a call through grain, or a StarPU worker
    // (a kernel) of any grain Runtime, the session's or the program's own.
    static bool nested();
    // grain_lapack_pin and grain_lapack_unpin: a program's array kept pinned for the calls
    // between them, while the session's Runtime lasts (a grain::Pinned each).
    bool pin(const void* address, std::size_t bytes);
    void unpin(const void* address);
    ~Session();

private:
    Session() = default;
    bool ready();  // the Runtime started (by this call or before), under mutex_
    void start();
    void end();
    std::mutex mutex_;
    std::unique_ptr<Runtime> runtime_;
    std::vector<std::pair<const void*, std::unique_ptr<Pinned>>> pins_;  // ended before runtime_
    bool failed_ = false;
    bool warned_ = false;
};

// The next definition of `symbol` after this library's: the system's.
template <typename F>
F next(const char* symbol) {
    void* f = dlsym(RTLD_NEXT, symbol);
    if (!f) {
        std::fprintf(stderr, "grain_lapack: %s: no system definition to call (%s)\n", symbol, dlerror());
        std::abort();
    }
    return reinterpret_cast<F>(f);
}

// A call: through grain when `grain_computes` (valid, not degenerate) and `size` reaches
// GRAIN_LAPACK_MIN_N, else, or when nested, the system's; `grain_call` returns info,
// written to `info` when the routine has one.
template <typename G, typename S>
void dispatch(Counter& c, bool grain_computes, int64_t size, int* info, G grain_call, S system_call) {
    if (Session::nested()) {
        ++c.nested;
        return system_call();
    }
    if (grain_computes && size > 0 && size >= min_n() && !session_over()) {  // size 0: LAPACK's quick return
        if (const std::optional<int> result = Session::get().call(grain_call)) {
            ++c.grain;
            if (info) *info = *result;
            return;
        }
    }
    ++c.system;
    system_call();
}

// ---- argument checks: which calls grain computes as LAPACK and BLAS do ----

// An illegal argument at `position`, reported as LAPACK does: to xerbla_ (the program's,
// else the system's), with the routine's name in capitals.
void xerbla(Counter& c, int position);
bool one_of(char c, const char* letters);
inline bool at_least(int ld, int rows) { return ld >= (rows > 1 ? rows : 1); }
char up(char c);

template <typename T>
constexpr bool is_complex = !std::is_same_v<T, real_type<T>>;

}  // namespace grain::lapack_api

// ---- for the files that define the symbols ----

// This symbol's counter, and its next definition (the system's), looked up once.
#define GRAIN_COUNTER(sym) []() -> grain::lapack_api::Counter& { \
        static grain::lapack_api::Counter& c = grain::lapack_api::Counters::get().add(#sym); return c; }()
#define GRAIN_NEXT(sym) grain::lapack_api::next<decltype(&sym)>(#sym)
// Forwards the call, hidden lengths included, to the system's definition.
#define GRAIN_SYSTEM(sym, ...) [&] { static const auto f = GRAIN_NEXT(sym); f(__VA_ARGS__); }

using fortran_length = std::size_t;  // a hidden Fortran string length (gfortran 8 and later)
