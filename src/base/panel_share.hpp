#pragma once
// A panel of LU with partial pivoting whose column of tiles lies on several processes:
// each process factors its tiles of it in a task of its own, and the pivot search runs
// across them (kernels/cpu_panel.hpp); the messages are MPI's (starpu/distributed.cpp).
#include <cstddef>
#include <vector>

namespace grain::detail {

// Blocking messages between the panel's processes, sent and received from a worker.
class PanelMessages {
public:
    virtual void send(const void* data, size_t bytes, int rank, int tag) const = 0;
    virtual void receive(void* data, size_t bytes, int rank, int tag) const = 0;

protected:
    ~PanelMessages() = default;
};

struct PanelShare {
    std::vector<int> ranks;   // the processes holding the column's tiles, the diagonal tile's first
    std::vector<int> holder;  // per tile of the column, top to bottom: its process's index in ranks
    int me = -1;              // this process's index in ranks (-1: it holds none)
    int tile_rows = 0;        // rows of every tile of the column but the last
    int tag = 0;              // the panel's messages
    const PanelMessages* messages = nullptr;
};

}  // namespace grain::detail
