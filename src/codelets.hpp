#pragma once
// The kernel table: one StarPU codelet per (operation, precision), each with its
// CPU kernel and a history-based performance model whose footprint is the tile's
// dimensions (so timings are kept apart per tile size).
#include <starpu.h>

#include <atomic>
#include <cstdint>

#include "grain/types.hpp"
#include "request_state.hpp"

namespace grain::detail {

struct TaskCounters;

enum class Kernel { Gemm, Trsm, Syrk, Potrf, GetrfNopiv, Scale, Count };

// The arguments of every tile kernel (each uses the fields it needs). Trivially
// copyable: StarPU copies it into the task and frees it.
template <typename T>
struct TileArgs {
    Side side = Side::Left;
    Uplo uplo = Uplo::Lower;
    Op transa = Op::NoTrans;
    Op transb = Op::NoTrans;
    Diag diag = Diag::NonUnit;
    bool whole_tile = true;  // Scale: the whole tile, or only its uplo triangle
    T alpha = 0;
    T beta = 0;
    int64_t col_offset = 0;  // Potrf, GetrfNopiv: global column of the tile's first column
    RequestState* request = nullptr;  // where factorizations report info
    TaskCounters* counters = nullptr;  // this (operation, level)'s live counters
    std::atomic<int>* writers = nullptr;  // the output tile's writers_in_flight, while in flight
};

template <typename T>
starpu_codelet* codelet(Kernel kernel);

}  // namespace grain::detail
