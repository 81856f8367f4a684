#pragma once
// grain over StarPU-MPI: one process per rank, each running StarPU on its own
// workers. A program started by an MPI launcher (mpirun) in a build with StarPU-MPI
// starts StarPU through StarPU-MPI; any other program runs as on one node, with no MPI
// call at all. Tiles of a distributed matrix are registered with StarPU-MPI (owner and
// tag), and a top-level task runs on the rank that owns its output tile: every rank
// submits every top-level task (the same sequence), and StarPU-MPI sends the inputs the
// owner lacks. See doc/distributed.md.
#include <starpu.h>

#include <cstdint>

#include "src/base/panel_share.hpp"

namespace grain::detail::mpi {

// Whether this build has StarPU-MPI.
bool built();
// Whether an MPI launcher started this process (Open MPI's or a PMI's variables).
bool launched();

// Starts StarPU with `conf`, through StarPU-MPI where `distributed` (built() required;
// MPI is initialised once per process, and finalised at exit); returns starpu_init's code.
int start(starpu_conf& conf, bool distributed);
// Stops what start() started.
void stop();
// Whether StarPU runs under StarPU-MPI now.
bool active();
// This process's rank and the number of ranks (0 and 1 when not active()).
int rank();
int ranks();

// The first of `count` new StarPU-MPI data tags, the same on every rank as long as every
// rank creates its distributed matrices in the same order.
int64_t new_tags(int64_t count);
// Registers a tile handle with StarPU-MPI: its tag and owner.
void register_tile(starpu_data_handle_t handle, int64_t tag, int owner);

// Owner computes, around a task of `codelet` on `handles` (their modes are `modes`, or
// the codelet's where null) that rank `executor` runs: build() posts the transfers of the inputs the
// executor lacks (sends on their owners, receives on the executor, through StarPU-MPI's
// cache) and returns the task on the executor (to be submitted, or destroyed when it is
// split into a local sub-DAG), nullptr elsewhere; after_submit() then clears the caches
// of the tile written, on every rank.
starpu_task* build(starpu_codelet* codelet, const starpu_data_handle_t* handles, int n, int executor,
                   const starpu_data_access_mode* modes = nullptr);
void after_submit(starpu_codelet* codelet, const starpu_data_handle_t* handles, int n, int executor,
                  const starpu_data_access_mode* modes = nullptr);

// Drops the copies other ranks received of this tile (StarPU-MPI's cache) once the tasks
// submitted so far have read them: a call's last reader of a tile is behind it.
void flush(starpu_data_handle_t handle);

// Collectives over every rank (on grain's own communicator, so they never meet
// StarPU-MPI's messages). Each rank must call them at the same point of its calls.
// Drops every copy received from another rank (StarPU-MPI's cache): at the end of a call,
// so that the next one sees tiles the application wrote in between.
void flush_received();
// LAPACK's info over the ranks: the smallest positive one (the first failing column), else
// the smallest negative one, else 0.
int64_t reduce_info(int64_t info);
// After the agreement of a call, a failure leaves the other processes waiting for this
// one's messages: prints the message and aborts every process (MPI_Abort).
[[noreturn]] void abort_all(const char* what);
// The smallest of the ranks' values.
int64_t min_over_ranks(int64_t value);
// Whether every rank is ok and gave the same fingerprint of its arguments; `same` tells
// whether the fingerprints matched. The ranks' tag counters (new_tags) agree afterwards.
bool agree(bool ok, uint64_t fingerprint, bool& same);
// Point to point on grain's communicator, from the application's thread (a matrix
// scattered from or gathered to one rank); messages between two ranks keep their order.
void send(const void* data, size_t bytes, int destination);
void receive(void* data, size_t bytes, int source);
// The root's bytes to every rank (a collective).
void broadcast(void* data, size_t bytes, int root);
// Brings the tile to every rank's main memory (a collective over its registration).
void bring_everywhere(starpu_data_handle_t handle);
// The messages of a panel spread over processes, sent from the workers running its shares.
const PanelMessages& panel_messages();
// Rank `rank`'s turn: a handle its shares of columns spread over processes write, so that
// each process runs them one at a time in the order every process submits them
// (registered on every rank at the first share, until stop()).
starpu_data_handle_t turn(int rank);

}  // namespace grain::detail::mpi
