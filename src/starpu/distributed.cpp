#include "distributed.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "grain/errors.hpp"

#ifdef GRAIN_USE_MPI
#include <starpu_mpi.h>
#endif

namespace grain::detail::mpi {

namespace {

bool running = false;  // StarPU runs under StarPU-MPI
int my_rank = 0, rank_count = 1;
int64_t next_tag = 1;
std::vector<starpu_data_handle_t> turns;  // each rank's (turn())

// Where no worker sends MPI messages (one node; simulated nodes, whose kernels do not run).
class NoPanelMessages final : public PanelMessages {
public:
    void send(const void*, size_t, int, int) const override { fail(); }
    void receive(void*, size_t, int, int) const override { fail(); }

private:
    [[noreturn]] static void fail() { throw runtime_error("grain: internal error: a shared panel's message here"); }
};

}  // namespace

bool launched() {
#ifdef STARPU_SIMGRID
    // Simulated nodes: the programs are shared objects that only SimGrid's smpirun runs.
    return true;
#endif
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (std::getenv(name)) return true;
    return false;
}

bool active() { return running; }
int rank() { return my_rank; }
int ranks() { return rank_count; }

int64_t new_tags(int64_t count) {
    const int64_t first = next_tag;
    next_tag += count;
    return first;
}

#ifdef GRAIN_USE_MPI

namespace {

#ifdef STARPU_SIMGRID
// Simulated nodes: StarPU initialised SimGrid's MPI before main, and grain's messages go
// through StarPU-MPI (below).
void initialise_mpi() {}
#else
// grain's collectives run from the submitting thread while StarPU-MPI's thread makes its
// own MPI calls: MPI must allow several threads, and grain uses a communicator of its own.
MPI_Comm grain_comm = MPI_COMM_NULL;
// A panel's shares (panel_messages) send from the workers: a communicator of their own.
MPI_Comm panel_comm = MPI_COMM_NULL;

void finalize_at_exit() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    // A Runtime still alive (a static, or leaked) ends after this: StarPU-MPI would then
    // call MPI after MPI_Finalize. The launcher reports the missing MPI_Finalize instead.
    if (finalized || running) return;
    if (grain_comm != MPI_COMM_NULL) MPI_Comm_free(&grain_comm);
    if (panel_comm != MPI_COMM_NULL) MPI_Comm_free(&panel_comm);
    MPI_Finalize();
}

void initialise_mpi() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    int provided = 0;
    if (!initialized) {
        if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
            throw runtime_error("grain::Runtime: MPI_Init_thread failed");
        std::atexit(finalize_at_exit);
    } else {
        MPI_Query_thread(&provided);
    }
    if (provided < MPI_THREAD_MULTIPLE)
        throw runtime_error("grain::Runtime: this MPI gives no MPI_THREAD_MULTIPLE, which grain's collectives "
                            "beside StarPU-MPI's thread need");
    if (grain_comm == MPI_COMM_NULL) MPI_Comm_dup(MPI_COMM_WORLD, &grain_comm);
    if (panel_comm == MPI_COMM_NULL) MPI_Comm_dup(MPI_COMM_WORLD, &panel_comm);
}
#endif

// grain's own messages: the collectives below and the LAPACK layout's scatter and gather.
// MPI counts are ints: a large buffer goes in pieces of 1 GiB.
constexpr size_t piece = size_t(1) << 30;

#ifdef STARPU_SIMGRID
// On simulated nodes only StarPU-MPI's thread is an MPI process of SimGrid's (the
// application's main runs beside it): a message is a StarPU-MPI one, of the buffer
// registered for its time, on a tag no tile takes.
constexpr int64_t message_tag = std::numeric_limits<int64_t>::max();

template <typename Transfer>
void by_starpu_mpi(void* data, size_t bytes, Transfer transfer) {
    for (size_t done = 0; done < bytes; done += piece) {
        starpu_data_handle_t h;
        starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(static_cast<char*>(data) + done),
                                    uint32_t(std::min(piece, bytes - done)), 1);
        if (transfer(h) != 0) throw runtime_error("grain: a StarPU-MPI message failed");
        starpu_data_unregister(h);
    }
}

void send_bytes(const void* data, size_t bytes, int destination) {
    by_starpu_mpi(const_cast<void*>(data), bytes, [&](starpu_data_handle_t h) {
        return starpu_mpi_send(h, destination, message_tag, MPI_COMM_WORLD);
    });
}

void receive_bytes(void* data, size_t bytes, int source) {
    by_starpu_mpi(data, bytes, [&](starpu_data_handle_t h) {
        MPI_Status status;
        return starpu_mpi_recv(h, source, message_tag, MPI_COMM_WORLD, &status);
    });
}

void broadcast_bytes(void* data, size_t bytes, int root) {
    if (my_rank != root) return receive_bytes(data, bytes, root);
    for (int r = 0; r < rank_count; ++r)
        if (r != root) send_bytes(data, bytes, r);
}

// Element-wise MPI_MIN or MPI_MAX over the processes, through rank 0.
template <typename T>
void all_reduce(T* values, int count, MPI_Op op) {
    if (my_rank == 0) {
        std::vector<T> other(size_t(count), T{});
        for (int r = 1; r < rank_count; ++r) {
            receive_bytes(other.data(), sizeof(T) * size_t(count), r);
            for (int i = 0; i < count; ++i)
                values[i] = op == MPI_MIN ? std::min(values[i], other[size_t(i)]) : std::max(values[i], other[size_t(i)]);
        }
    } else {
        send_bytes(values, sizeof(T) * size_t(count), 0);
    }
    broadcast_bytes(values, sizeof(T) * size_t(count), 0);
}

[[noreturn]] void abort_processes() { std::abort(); }  // the simulation is one process
#else
void send_bytes(const void* data, size_t bytes, int destination) {
    for (size_t done = 0; done < bytes; done += piece)
        MPI_Send(static_cast<const char*>(data) + done, int(std::min(piece, bytes - done)), MPI_BYTE, destination, 0,
                 grain_comm);
}

void receive_bytes(void* data, size_t bytes, int source) {
    for (size_t done = 0; done < bytes; done += piece)
        MPI_Recv(static_cast<char*>(data) + done, int(std::min(piece, bytes - done)), MPI_BYTE, source, 0, grain_comm,
                 MPI_STATUS_IGNORE);
}

void broadcast_bytes(void* data, size_t bytes, int root) {
    for (size_t done = 0; done < bytes; done += piece)
        MPI_Bcast(static_cast<char*>(data) + done, int(std::min(piece, bytes - done)), MPI_BYTE, root, grain_comm);
}

template <typename T>
void all_reduce(T* values, int count, MPI_Op op) {
    static_assert(sizeof(T) == 8, "grain reduces 64-bit integers");
    MPI_Allreduce(MPI_IN_PLACE, values, count, std::is_signed_v<T> ? MPI_INT64_T : MPI_UINT64_T, op, grain_comm);
}

[[noreturn]] void abort_processes() {
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::abort();
}

class PanelMpi final : public PanelMessages {
public:
    void send(const void* data, size_t bytes, int rank, int tag) const override {
        MPI_Send(data, int(bytes), MPI_BYTE, rank, tag, panel_comm);
    }
    void receive(void* data, size_t bytes, int rank, int tag) const override {
        MPI_Recv(data, int(bytes), MPI_BYTE, rank, tag, panel_comm, MPI_STATUS_IGNORE);
    }
};
#endif

std::vector<starpu_data_descr> descriptions(starpu_codelet* codelet, const starpu_data_handle_t* handles, int n,
                                            const starpu_data_access_mode* modes) {
    std::vector<starpu_data_descr> d(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) d[size_t(i)] = {handles[i], modes ? modes[i] : STARPU_CODELET_GET_MODE(codelet, i)};
    return d;
}

// A setting StarPU reads from the environment at its start, given for that start only
// and only where the user has not set it.
class StartDefault {
public:
    StartDefault(const char* name, const std::string& value, bool wanted = true)
        : name_(name), set_(wanted && !std::getenv(name)) {
        if (set_) setenv(name, value.c_str(), 1);
    }
    ~StartDefault() {
        if (set_) unsetenv(name_);
    }
    StartDefault(const StartDefault&) = delete;
    StartDefault& operator=(const StartDefault&) = delete;

private:
    const char* name_;
    bool set_;
};

// The node's memory in MiB.
long node_mib() { return long(sysconf(_SC_PHYS_PAGES) / (1024 * 1024 / sysconf(_SC_PAGESIZE))); }

}  // namespace

bool built() { return true; }

starpu_data_handle_t turn(int rank) {
    if (turns.empty()) {
        const int64_t tag = new_tags(rank_count);
        turns.resize(size_t(rank_count));
        for (int r = 0; r < rank_count; ++r) {
            starpu_vector_data_register(&turns[size_t(r)], -1, 0, 1, sizeof(int));
            starpu_mpi_data_register(turns[size_t(r)], tag + r, r);
        }
    }
    return turns[size_t(rank)];
}

const PanelMessages& panel_messages() {
#ifdef STARPU_SIMGRID
    static const NoPanelMessages none;
    return none;
#else
    static const PanelMpi messages;
    return messages;
#endif
}

int start(starpu_conf& conf, bool distributed) {
    if (!distributed) return starpu_init(&conf);
    initialise_mpi();
    // StarPU binds its workers from the machine's first core whatever the launcher bound
    // the process to: every rank's first worker would share core 0. Unless the user says
    // otherwise, StarPU keeps to the cores the launcher gave the rank (doc/distributed.md).
    // StarPU-MPI also keeps a core for its progress thread (when the worker count is
    // StarPU's to choose), which leaves no worker to a rank given one core: there one
    // worker and the thread share it (STARPU_MPI_NOBIND).
    cpu_set_t cores;
    const bool one_core = sched_getaffinity(0, sizeof cores, &cores) == 0 && CPU_COUNT(&cores) < 2;
    if (one_core && conf.ncpus == -1) conf.ncpus = 1;
    const StartDefault getbind("STARPU_WORKERS_GETBIND", "1");
    const StartDefault nobind("STARPU_MPI_NOBIND", "1", one_core);
    // A copy of another process's tile lives from its reception to the flush after its
    // step's last reader. StarPU frees it then, and pins the next one anew (with CUDA
    // workers; about as long as its transfer), unless main memory has a limit: its
    // allocation cache then keeps the buffer for the next copy of that size.
    const StartDefault cache("STARPU_LIMIT_CPU_MEM", std::to_string(node_mib()));
    const int ret = starpu_mpi_init_conf(nullptr, nullptr, 0, MPI_COMM_WORLD, &conf);
    if (ret != 0) return ret;
#ifdef STARPU_SIMGRID
    // The copies StarPU keeps of other processes' tiles are folded memory too, as the
    // simulated tiles are (host_memory.cpp): SimGrid's MPI copies them, nothing reads them.
    starpu_malloc_on_node_set_default_flags(
        STARPU_MAIN_RAM, STARPU_MALLOC_PINNED | STARPU_MALLOC_COUNT | STARPU_MALLOC_SIMULATION_FOLDED);
#endif
    running = true;
    starpu_mpi_comm_rank(MPI_COMM_WORLD, &my_rank);
    starpu_mpi_comm_size(MPI_COMM_WORLD, &rank_count);
    return 0;
}

void stop() {
    if (!running) return starpu_shutdown();
    for (starpu_data_handle_t h : turns) starpu_data_unregister(h);
    turns.clear();
    starpu_mpi_shutdown();  // and StarPU, which it started
    running = false;
    my_rank = 0, rank_count = 1;
}

void register_tile(starpu_data_handle_t handle, int64_t tag, int owner) {
    // One process without a launcher: a distributed matrix is a local one (and StarPU-MPI
    // would call MPI when the tile is unregistered).
    if (running) starpu_mpi_data_register(handle, tag, owner);
}

starpu_task* build(starpu_codelet* codelet, const starpu_data_handle_t* handles, int n, int executor,
                   const starpu_data_access_mode* modes) {
    std::vector<starpu_data_descr> d = descriptions(codelet, handles, n, modes);
    return starpu_mpi_task_build(MPI_COMM_WORLD, codelet, STARPU_EXECUTE_ON_NODE, executor, STARPU_DATA_MODE_ARRAY,
                                 d.data(), n, 0);
}

void after_submit(starpu_codelet* codelet, const starpu_data_handle_t* handles, int n, int executor,
                  const starpu_data_access_mode* modes) {
    std::vector<starpu_data_descr> d = descriptions(codelet, handles, n, modes);
    const int ret = starpu_mpi_task_post_build(MPI_COMM_WORLD, codelet, STARPU_EXECUTE_ON_NODE, executor,
                                               STARPU_DATA_MODE_ARRAY, d.data(), n, 0);
    if (ret != 0) throw runtime_error("grain: starpu_mpi_task_post_build failed");
}

void flush(starpu_data_handle_t handle) { starpu_mpi_cache_flush(MPI_COMM_WORLD, handle); }

void flush_received() { starpu_mpi_cache_flush_all_data(MPI_COMM_WORLD); }

int64_t reduce_info(int64_t info) {
    if (!running) return info;
    // The first failing column is the smallest positive info; argument errors are negative.
    int64_t global[2] = {info > 0 ? info : std::numeric_limits<int64_t>::max(), info < 0 ? info : 0};
    all_reduce(global, 2, MPI_MIN);
    return global[0] != std::numeric_limits<int64_t>::max() ? global[0] : global[1];
}

int64_t min_over_ranks(int64_t value) {
    if (!running) return value;
    all_reduce(&value, 1, MPI_MIN);
    return value;
}

[[noreturn]] void abort_all(const char* what) {
    std::fprintf(stderr, "grain: rank %d: %s; aborting every process (the others would wait for this one)\n",
                 my_rank, what);
    abort_processes();
}

bool agree(bool ok, uint64_t fingerprint, bool& same) {
    same = true;
    if (!running) return ok;
    // A process that failed contributes nothing to the fingerprints (0 is neutral to
    // MPI_MAX), so that the others report its refusal, not different arguments.
    // The tag counters too: a process that failed before making a call's matrices (a bad
    // argument) has used fewer tags than the others; from here on every process takes
    // the same ones again.
    uint64_t global[4] = {ok ? 0u : 1u, ok ? fingerprint : 0u, ok ? ~fingerprint : 0u, uint64_t(next_tag)};
    all_reduce(global, 4, MPI_MAX);
    next_tag = int64_t(global[3]);
    same = global[1] == ~global[2];  // the largest fingerprint is also the smallest
    return global[0] == 0 && same;
}

void bring_everywhere(starpu_data_handle_t handle) {
    starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, handle);
}

void send(const void* data, size_t bytes, int destination) { send_bytes(data, bytes, destination); }
void receive(void* data, size_t bytes, int source) { receive_bytes(data, bytes, source); }
void broadcast(void* data, size_t bytes, int root) { broadcast_bytes(data, bytes, root); }

#else  // one node: nothing is distributed

bool built() { return false; }
int start(starpu_conf& conf, bool) { return starpu_init(&conf); }
[[noreturn]] void abort_all(const char* what) {
    std::fprintf(stderr, "grain: %s\n", what);
    std::abort();
}
void stop() { starpu_shutdown(); }
void register_tile(starpu_data_handle_t, int64_t, int) {}
starpu_task* build(starpu_codelet*, const starpu_data_handle_t*, int, int, const starpu_data_access_mode*) {
    return nullptr;
}
void after_submit(starpu_codelet*, const starpu_data_handle_t*, int, int, const starpu_data_access_mode*) {}
void flush(starpu_data_handle_t) {}
void flush_received() {}
int64_t reduce_info(int64_t info) { return info; }
int64_t min_over_ranks(int64_t value) { return value; }
bool agree(bool ok, uint64_t, bool& same) {
    same = true;
    return ok;
}
void bring_everywhere(starpu_data_handle_t) {}
void send(const void*, size_t, int) {}
void receive(void*, size_t, int) {}
void broadcast(void*, size_t, int) {}
const PanelMessages& panel_messages() {
    static const NoPanelMessages none;
    return none;
}
starpu_data_handle_t turn(int) { return nullptr; }

#endif

}  // namespace grain::detail::mpi
