#pragma once
// The arguments of every tile kernel (each uses the fields it needs), and where it
// reports. Trivially copyable: StarPU copies it into the task and frees it.
#include <atomic>
#include <cstdint>

#include "grain/types.hpp"
#include "kernel_table.hpp"

namespace grain::detail {

struct PanelShare;
struct RequestState;
struct TaskCounters;
class TraceLog;

template <typename T>
struct TileArgs {
    Side side = Side::Left;
    Uplo uplo = Uplo::Lower;
    Op transa = Op::NoTrans;
    Op transb = Op::NoTrans;
    Diag diag = Diag::NonUnit;
    Norm norm = Norm::Max;  // a norm's partial results
    bool whole_tile = true;  // Scale, Lange, Lag2: the whole tile, or only its uplo triangle
    bool real_diagonal = false;  // Scale: the diagonal's imaginary parts dropped (herk's C = beta C); Lange: read as real
    bool mirrored = false;  // Lange: the tile is in one triangle of a symmetric matrix
    T alpha = 0;
    T beta = 0;
    int exponent = 0;  // Lag2: its product's scale, 2^exponent
    int first_strip = 1;  // updates: the tiles of the first strip they write (the rest are the second's)
    int64_t col_offset = 0;  // Potrf, GetrfNopiv, Getrf: global column of the tile's first column
    int64_t row_offset = 0;  // Getrf, Laswp: global row of the column's first row (pivots are global)
    const PanelShare* share = nullptr;  // Getrf: this process's share of a panel spread over processes
    RequestState* request = nullptr;  // where factorizations report info
    TaskCounters* counters = nullptr;  // this (kernel, level)'s live counters
    std::atomic<int>* writers = nullptr;  // the output tile's writers_in_flight, while in flight
    // Tracing (TraceLog), when on: what the record of this task needs.
    TraceLog* trace = nullptr;
    Kernel kernel = Kernel(0);
    int level = 0;
    starpu_task* task = nullptr;
    int64_t bytes_loaded = 0;   // set when a worker takes the task
};

}  // namespace grain::detail
