// libgrain_lapack's session (session.hpp): one Runtime for the process, started on the
// first call through grain and ended at exit; the calls' counters and argument checks.
#include "session.hpp"

#include <starpu.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <exception>
#include <string>

extern "C" {
int openblas_get_num_threads(void);
void openblas_set_num_threads(int threads);
void xerbla_(const char* name, const int* info, size_t length);
}

namespace grain::lapack_api {

namespace {

thread_local int inside = 0;  // > 0 while this thread runs a call through grain
// Trivially destructible, so still readable after the session's destructor.
std::atomic<bool> over{false};

// Built when the library loads, so that the trace is printed at exit even when no
// interposed routine was called.
[[maybe_unused]] const bool counters_built = (Counters::get(), true);

// Calls smaller than GRAIN_LAPACK_MIN_N go to the system (doc/results: the runtime's cost
// per call dominates below it). 0 sends every valid call through grain.
constexpr long default_min_n = 1024;

}  // namespace

Counters& Counters::get() {
    static Counters counters;
    return counters;
}

Counter& Counters::add(const char* symbol) {
    const std::lock_guard<std::mutex> lock(mutex_);
    counters_.push_back(std::make_unique<Counter>());
    counters_.back()->symbol = symbol;
    return *counters_.back();
}

Counters::~Counters() {
    const char* trace = std::getenv("GRAIN_LAPACK_TRACE");
    if (!trace || std::strcmp(trace, "1") != 0) return;
    if (startup_seconds < 0)
        std::fprintf(stderr, "grain_lapack: runtime never started\n");
    else
        std::fprintf(stderr, "grain_lapack: runtime started in %.3f s\n", startup_seconds.load());
    for (const auto& c : counters_)
        std::fprintf(stderr, "grain_lapack: %s: %ld through grain, %ld to the system, %ld nested\n", c->symbol,
                     c->grain.load(), c->system.load(), c->nested.load());
}

bool session_over() { return over; }

long min_n() {
    static const long value = [] {
        const char* text = std::getenv("GRAIN_LAPACK_MIN_N");
        if (!text) return default_min_n;
        char* end = nullptr;
        const long v = std::strtol(text, &end, 10);
        if (end == text || *end || v < 0) {
            std::fprintf(stderr, "grain_lapack: GRAIN_LAPACK_MIN_N='%s' is not a size >= 0; using %ld\n", text,
                         default_min_n);
            return default_min_n;
        }
        return v;
    }();
    return value;
}

Session& Session::get() {
    static Session session;
    return session;
}

std::optional<int> Session::call(const std::function<int()>& f) {
    const std::lock_guard<std::mutex> lock(mutex_);
    // Once the runtime could not start (StarPU failed), calls are the system's. So they
    // are while the program's own Runtime is alive: through it, they would change its
    // statistics, its trace and its splits.
    if (failed_ || (!runtime_ && Runtime::active())) return std::nullopt;
    // Inside from here: a symbol called on this thread while the runtime starts or the
    // call runs goes to the system (and never waits for this lock).
    ++inside;
    const int program_threads = openblas_get_num_threads();  // the program may change it between calls
    std::optional<int> info;
    if (ready()) {
        starpu_resume();
        openblas_set_num_threads(1);  // one per worker, as the Runtime sets it
        try {
            // grain checks its arguments before it submits anything: if it throws, the
            // arrays are untouched and the system's routine can still run.
            info = f();
        } catch (const std::exception& e) {
            if (!warned_) std::fprintf(stderr, "grain_lapack: %s; the system's LAPACK runs the call\n", e.what());
            warned_ = true;
        }
        starpu_pause();
    }
    openblas_set_num_threads(program_threads);
    --inside;
    return info;
}

bool Session::ready() {
    if (runtime_) return true;
    try {
        start();
        starpu_pause();  // as between calls
    } catch (const std::exception& e) {
        // Not a failure where the program's own Runtime started meanwhile.
        if (!Runtime::active()) {
            std::fprintf(stderr, "grain_lapack: %s; calls go to the system's LAPACK\n", e.what());
            failed_ = true;
        }
    }
    return runtime_ != nullptr;
}

bool Session::pin(const void* address, std::size_t bytes) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (failed_ || over || (!runtime_ && Runtime::active())) return false;
    ++inside;
    bool pinned = false;
    if (ready()) {
        try {
            auto p = std::make_unique<Pinned>(address, bytes);
            pinned = p->pinned();
            if (pinned) pins_.emplace_back(address, std::move(p));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "grain_lapack: grain_lapack_pin: %s\n", e.what());
        }
    }
    --inside;
    return pinned;
}

void Session::unpin(const void* address) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = std::find_if(pins_.begin(), pins_.end(), [&](const auto& p) { return p.first == address; });
    if (it != pins_.end()) pins_.erase(it);
}

bool Session::nested() { return inside > 0 || (Runtime::active() && starpu_worker_get_id() >= 0); }

Session::~Session() {
    over = true;
    end();
}

void Session::start() {
    RuntimeOptions options;
    options.nancheck = 0;     // Fortran LAPACK does not check for NaN
    options.distributed = 0;  // each call is local to its process, also under mpirun
    const auto t0 = std::chrono::steady_clock::now();
    runtime_ = std::make_unique<Runtime>(options);
    Counters::get().startup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // A Runtime the program makes later takes this one's place; the next call after the
    // program's ends starts this one again.
    runtime_->yield_to_next([this] { end(); });
}

void Session::end() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!runtime_) return;
    pins_.clear();
    starpu_resume();
    runtime_.reset();
}

void xerbla(Counter& c, int position) {
    std::string name(c.symbol);
    name.pop_back();  // the trailing underscore
    for (char& ch : name) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    ++c.system;
    xerbla_(name.c_str(), &position, name.size());
}

bool one_of(char c, const char* letters) {
    return c != 0 && std::strchr(letters, std::toupper(static_cast<unsigned char>(c))) != nullptr;
}

char up(char c) { return char(std::toupper(static_cast<unsigned char>(c))); }

}  // namespace grain::lapack_api
