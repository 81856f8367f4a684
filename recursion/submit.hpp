#pragma once
// How a tile task is submitted, for tasks.cpp's entries: counted (the LP's announced
// work), split into its algorithm one level down, or its kernel inserted; on a
// distributed matrix, on the rank that runs it, with StarPU-MPI's transfers posted by
// every rank. Internal to tasks.cpp.
#include <algorithm>
#include <initializer_list>
#include <memory>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "grain/errors.hpp"
#include "recursion.hpp"
#include "src/starpu/codelets.hpp"
#include "src/starpu/distributed.hpp"
#include "src/starpu/kernel_task.hpp"
#include "src/base/panel_share.hpp"
#include "src/base/simulation.hpp"
#include "src/starpu/pivot_storage.hpp"
#include "tasks.hpp"

namespace grain::detail::submission {

template <typename T>
int64_t global_priority(const Context& ctx, const Tile<T>& out, int priority) {
    return composed_priority(ctx.priority_base, priority, ctx.level, int(out.grid->scales().size()));
}

// What the split policy is told of a task whose output is `out` (the first of `height`
// tiles for a column task), of loop-nest priority `priority`.
template <typename T>
TaskSite site(Kernel kernel, const Tile<T>& out, int priority, int height = 1) {
    const TileStorage<T>& grid = *out.grid;
    return {kernel, grid.level(), int(grid.scales().size()), out.i, out.j, &grid.scales(),
            scalar_traits<T>::letter, out.use(), grid.writers_in_flight(out.i, out.j) > 0, priority, height};
}

// Whether the last panel writing block k of `pivots` split into sub-panels of the scale
// below `out`'s (a `follows` kernel splits with it).
template <typename T>
bool panel_split_below(const PivotBlocks& pivots, int k, const Tile<T>& out) {
    const std::vector<int>& scales = out.grid->scales();
    const size_t below = size_t(out.grid->level()) + 1;
    return below < scales.size() && pivots.storage->panel_split(pivots.at(k)) == scales[below];
}

// Inserts the kernel of a task that runs whole, with what every kernel reports with:
// `out` is the tile whose writers it counts and whose first column info counts from (of
// the arguments' precision, or its pair's for a conversion).
template <typename T, typename U>
void insert(const Context& ctx, Kernel kernel, TileArgs<T> args, const Tile<U>& out,
            const starpu_data_handle_t* handles, int n, int64_t priority, starpu_task* built = nullptr,
            bool throttled = true) {
    args.col_offset = ctx.col_offset + out.col_offset;
    args.request = ctx.request;
    args.counters = &ctx.recursion->counters().at(kernel, ctx.level);
    args.trace = ctx.recursion->trace();
    args.kernel = kernel;
    args.level = ctx.level;
    args.writers = &out.grid->writers_in_flight(out.i, out.j);
    if (throttled) ctx.recursion->wait_for_window();
    insert_kernel(kernel, args, handles, n, int(priority), built);
}

// The sub-tiles of tile t for a split on this rank. Another rank's tile has no home
// here to partition (StarPU 1.3 partitions on the home node): its received copy is
// copied into a scratch tile of this rank, which the request keeps until it ends.
template <typename T>
Matrix<T> local_children(const Context& ctx, const Tile<T>& t) {
    if (t.grid->is_local(t.i, t.j)) return t.split();
    auto copy = std::make_shared<TileStorage<T>>(t.grid->tile_rows(t.i), t.grid->tile_cols(t.j), t.grid->scales());
    const int ret = starpu_data_cpy(copy->use(0, 0), t.use(), 1, nullptr, nullptr);
    if (ret != 0) throw runtime_error("grain: starpu_data_cpy failed on a received tile");
    ctx.request->scratch.push_back(copy);
    return MatrixAccess::view(copy->split(0, 0));
}

// The context of the algorithm a task on `out` refines into, one level down; the
// top-level task's loop-nest priority carries down (TaskSite::priority).
template <typename T>
Context below(const Context& ctx, const Tile<T>& out, int priority) {
    Context sub{ctx.request, ctx.recursion, ctx.level + 1, ctx.col_offset + out.col_offset, nullptr,
                global_priority(ctx, out, priority)};
    sub.top_priority = ctx.level == 0 ? priority : ctx.top_priority;
    return sub;
}

// Before a task's access to tile t (`writes` it or not, `split` or not): StarPU 1.3
// partitions a tile read-only for sub-tasks that only read its sub-tiles (and its parents
// too, if they were whole), and upgrading such a partition to read-write while a
// read-only one lies below it leaves sub-tiles uninitialized (a StarPU assertion). So
// StarPU never upgrades here: a split that writes a tile first gathers it if its last
// split only read it, then writes its first sub-tile with a task that does nothing, which
// partitions it and its parents read-write before any of its sub-tasks reads.
template <typename T>
void prepare_access(const Tile<T>& t, bool writes, bool split) {
    if (split && writes) {
        if (t.grid->children_read_only(t.i, t.j)) submit_gather(t.use());
        submit_gather(t.grid->split(t.i, t.j).use(0, 0));
    }
    if (split || writes) t.grid->set_children_read_only(t.i, t.j, split && !writes);
}

// A task this process runs: split into its algorithm one level down, or its kernel
// inserted (`built`: the task StarPU-MPI built for it, on a distributed matrix).
template <typename T>
void submit_here(const Context& ctx, Kernel kernel, const TileArgs<T>& args, std::initializer_list<Tile<T>> tiles,
                 int priority, starpu_task* built) {
    const Tile<T>& out = *(tiles.end() - 1);
    const Context down = below(ctx, out, priority);
    const bool split = ctx.recursion->decide(site(kernel, out, down.top_priority));
    const auto& modes = kernel_info(kernel).modes;
    size_t b = 0;
    for (const Tile<T>& t : tiles) prepare_access(t, (modes[b++] & STARPU_W) != 0, split);
    if (split) {
        if (built) {
            built->destroy = 0;
            starpu_task_destroy(built);
        }
        // Sub-tile grids are planned on first use, the output's first (as before this
        // code was shared: the plans' order shows in the handles' addresses).
        std::vector<Matrix<T>> sub;
        sub.reserve(tiles.size());
        for (auto t = tiles.end(); t != tiles.begin();) sub.push_back(local_children(ctx, *--t));
        std::reverse(sub.begin(), sub.end());
        return algorithms::refine(down, kernel, args, sub.data());
    }
    starpu_data_handle_t handles[max_kernel_buffers];
    int n = 0;
    for (const Tile<T>& t : tiles) handles[n++] = t.use();
    insert(ctx, kernel, args, out, handles, n, global_priority(ctx, *tiles.begin(), priority), built);
}

// A column task this process runs (`built`: the task StarPU-MPI built for it), or, where
// `may_split`, the same LU (laswp) on the column's sub-tiles one level down, its pivots
// in sub-blocks of its block, where the policy splits it; laswp never splits alone
// (Recursion::decide).
template <typename T>
void run_column(const Context& ctx, Kernel kernel, TileArgs<T> args, const PivotBlocks& pivots, int k,
                const std::vector<Tile<T>>& column, int64_t first_row, int priority, bool may_split,
                starpu_task* built) {
    const Tile<T>& first = column.front();
    Context down = below(ctx, first, priority);
    TaskSite at = site(kernel, first, down.top_priority, int(column.size()));
    at.panel_split = kernel_info(kernel).follows && panel_split_below(pivots, k, first);
    if (!may_split) at.levels = at.level + 1;  // counted as the last level's: whole
    const bool split = ctx.recursion->decide(at);
    if (kernel == Kernel::Getrf) pivots.storage->set_panel_split(pivots.at(k), split ? at.scales->at(size_t(at.level) + 1) : 0);
    if (split) {
        const TileGrid<T> sub = TileGrid<T>::children_of(column);
        down.row_offset = ctx.row_offset + first_row;
        const PivotBlocks sub_pivots{pivots.storage, &pivots.storage->sub_blocks(pivots.at(k), sub.nb())};
        if (kernel == Kernel::Laswp) return algorithms::laswp(down, sub, sub_pivots, args.transa == Op::Trans);
        return algorithms::getrf(down, sub, sub_pivots);
    }
    std::vector<starpu_data_handle_t> handles{pivots.at(k)};
    for (const Tile<T>& t : column) handles.push_back(t.use());
    args.row_offset = ctx.row_offset + first_row;
    insert(ctx, kernel, args, first, handles.data(), int(handles.size()), global_priority(ctx, first, priority), built);
}

// The processes holding a column's tiles, the first tile's first, and each tile's.
template <typename T>
std::shared_ptr<PanelShare> holders(const std::vector<Tile<T>>& column) {
    auto share = std::make_shared<PanelShare>();
    for (const Tile<T>& t : column) {
        const int owner = t.grid->owner(t.i, t.j);
        auto held = std::find(share->ranks.begin(), share->ranks.end(), owner);
        if (held == share->ranks.end()) held = share->ranks.insert(held, owner);
        share->holder.push_back(int(held - share->ranks.begin()));
    }
    const auto me = std::find(share->ranks.begin(), share->ranks.end(), mpi::rank());
    share->me = me == share->ranks.end() ? -1 : int(me - share->ranks.begin());
    return share;
}

// A panel whose tiles lie on several processes: each process factors its own tiles in a
// task of its own, the shares exchanging the pivot search's messages and the rows that
// trade places (kernels/cpu_panel.hpp). A share blocks its worker until the others run
// theirs, so none starts before every one is submitted, its inputs are ready and its
// process has ended the shares it submitted before: on each process a task writes a token
// once its tiles are ready, in that process's turn (mpi::turn: its shares one at a time,
// in the order every process submits them); each share reads the others' tokens and
// takes the turn. The share goes in past the submission window, whose wait could hold it
// back behind tasks that wait for blocked workers. The pivots are the diagonal tile's
// process's; the others write a scratch block.
template <typename T>
void submit_shared_panel(const Context& ctx, const PivotBlocks& pivots, int k, const std::vector<Tile<T>>& column,
                         int64_t first_row, int priority, std::shared_ptr<PanelShare> share) {
    const int processes = int(share->ranks.size());
    const size_t slots = static_cast<size_t>(processes);
    const int64_t first_tag = mpi::new_tags(2 * int64_t(processes));
    share->tag = int(first_tag % 32768);  // MPI guarantees tags up to 32767
    share->tile_rows = column.front().grid->tile_rows(column.front().i);
    share->messages = &mpi::panel_messages();
    ctx.request->scratch.push_back(share);
    std::vector<starpu_data_handle_t> tokens(slots), blocks(slots, pivots.at(k));
    for (int q = 0; q < processes; ++q) {
        starpu_vector_data_register(&tokens[size_t(q)], -1, 0, 1, sizeof(int));
        mpi::register_tile(tokens[size_t(q)], first_tag + q, share->ranks[size_t(q)]);
        if (q == 0) continue;
        starpu_vector_data_register(&blocks[size_t(q)], -1, 0, starpu_vector_get_nx(pivots.at(k)), sizeof(int));
        mpi::register_tile(blocks[size_t(q)], first_tag + processes + q, share->ranks[size_t(q)]);
    }
    TileArgs<T> args;
    args.share = share.get();
    args.row_offset = ctx.row_offset + first_row;
    const int64_t at_priority = global_priority(ctx, column.front(), priority);
    for (int pass = 0; pass < 2; ++pass)
        for (int q = 0; q < processes; ++q) {
            const int rank = share->ranks[size_t(q)];
            // The token, or the pivots and the others' tokens; the turn; the tiles.
            std::vector<starpu_data_handle_t> handles{pass == 0 ? tokens[size_t(q)] : blocks[size_t(q)]};
            std::vector<starpu_data_access_mode> modes{STARPU_W};
            if (pass == 1)
                for (int other = 0; other < processes; ++other)
                    if (other != q) handles.push_back(tokens[size_t(other)]), modes.push_back(STARPU_R);
            handles.push_back(mpi::turn(rank)), modes.push_back(STARPU_W);
            const Tile<T>* out = nullptr;
            for (size_t t = 0; t < column.size(); ++t)
                if (share->holder[t] == q) {
                    if (!out) out = &column[t];
                    handles.push_back(column[t].use()), modes.push_back(pass == 0 ? STARPU_R : STARPU_RW);
                }
            const int n = int(handles.size());
            starpu_codelet* cl = pass == 0 ? ready_codelet() : codelet<T>(Kernel::Getrf);
            if (starpu_task* built = mpi::build(cl, handles.data(), n, rank, modes.data())) {
                built->priority = int(at_priority);
                if (pass == 0) {
                    if (starpu_task_submit(built) != 0) throw runtime_error("grain: starpu_task_submit failed");
                } else {
                    built->where = STARPU_CPU;  // it calls MPI
                    insert(ctx, Kernel::Getrf, args, *out, handles.data(), n, at_priority, built, false);
                }
            }
            mpi::after_submit(cl, handles.data(), n, rank, modes.data());
        }
    for (int q = 0; q < processes; ++q) {
        starpu_data_unregister_submit(tokens[size_t(q)]);
        if (q > 0) starpu_data_unregister_submit(blocks[size_t(q)]);
    }
}

// A column task on block k of `pivots`, then a column of tiles `column` whose first row
// is first_row of the view: counted, or decided and inserted (run_column). On a
// distributed matrix a panel over several processes is shared (submit_shared_panel);
// any other column task runs on the rank owning the column's first tile (for a panel,
// the diagonal tile, whose rank owns the step's pivot block): every rank submits it, and
// StarPU-MPI brings the column's other tiles and the pivots there and sends the tiles
// written back to their ranks. It stays whole there: a split would write other ranks'
// tiles through local copies, and laswp splits where its panel did, which only the
// panel's rank would know.
template <typename T>
void submit_column(const Context& ctx, Kernel kernel, TileArgs<T> args, const PivotBlocks& pivots, int k,
                   const std::vector<Tile<T>>& column, int64_t first_row, int priority) {
    if (ctx.counting) {
        ++ctx.counting->tasks[size_t(kernel)];
        ctx.counting->tile_tasks[size_t(kernel)] += double(column.size());
        return;
    }
    const Tile<T>& first = column.front();
    if (!(first.grid->distributed() && mpi::active()))
        return run_column(ctx, kernel, args, pivots, k, column, first_row, priority, true, nullptr);
    if (kernel == Kernel::Getrf) pivots.storage->set_panel_split(pivots.at(k), 0);
    if (kernel == Kernel::Getrf && !simulated) {  // simulated kernels send nothing
        std::shared_ptr<PanelShare> share = holders(column);
        if (share->ranks.size() > 1) {
            try {
                return submit_shared_panel(ctx, pivots, k, column, first_row, priority, std::move(share));
            } catch (const std::exception& e) {
                mpi::abort_all(e.what());
            }
        }
    }
    const KernelInfo& info = kernel_info(kernel);
    std::vector<starpu_data_handle_t> handles{pivots.at(k)};
    std::vector<starpu_data_access_mode> modes{info.modes[0]};
    const int owner = first.grid->owner(first.i, first.j);
    // As submit_task's: the other ranks post their transfers whatever happens here.
    try {
        for (const Tile<T>& t : column) {
            handles.push_back(t.use());
            modes.push_back(info.modes[size_t(info.nbuffers - 1)]);
        }
        const int n = int(handles.size());
        if (starpu_task* built = mpi::build(codelet<T>(kernel), handles.data(), n, owner, modes.data()))
            run_column(ctx, kernel, args, pivots, k, column, first_row, priority, false, built);
        mpi::after_submit(codelet<T>(kernel), handles.data(), n, owner, modes.data());
    } catch (const std::exception& e) {
        mpi::abort_all(e.what());
    }
}

// The strips a split update runs on: the s-th of each strip's, the s-th column (from the
// left; row, from the right) of sub-tiles of every tile of it, top to bottom (left to right).
template <typename T>
std::vector<std::vector<std::vector<Tile<T>>>> sub_strips(bool left, const std::vector<std::vector<Matrix<T>>>& children) {
    const Matrix<T>& first = children.front().front();
    std::vector<std::vector<std::vector<Tile<T>>>> subs(size_t(left ? first.nt() : first.mt()));
    for (size_t s = 0; s < subs.size(); ++s)
        for (const std::vector<Matrix<T>>& strip : children) {
            subs[s].emplace_back();
            for (const Matrix<T>& c : strip)
                for (int i = 0; i < (left ? c.mt() : c.nt()); ++i)
                    subs[s].back().push_back(tile(c, left ? i : int(s), left ? int(s) : i));
        }
    return subs;
}

// An update (an `applies` kernel): its factor, the reflectors V, and the strips it writes,
// each a run of tiles across the side the reflectors apply from (down a column from the
// left, along a row from the right; a whole tile is a strip of one). Counted (a strip of h
// tiles does h^2 tile updates' work), or decided: split, it runs as the same update on
// each strip of the tiles' sub-tiles, V and the factor whole; else its kernel is inserted.
template <typename T>
void submit_update(const Context& ctx, Kernel kernel, const TileArgs<T>& args, starpu_data_handle_t factor,
                   const Tile<T>& V, const std::vector<std::vector<Tile<T>>>& strips, int priority) {
    const size_t height = strips.front().size();
    if (ctx.counting) {
        ++ctx.counting->tasks[size_t(kernel)];
        ctx.counting->tile_tasks[size_t(kernel)] += double(height * height);
        return;
    }
    const Tile<T>& out = strips.back().front();
    const Context down = below(ctx, out, priority);
    const bool split = ctx.recursion->decide(site(kernel, out, down.top_priority, int(height)));
    if (split) {
        std::vector<std::vector<Matrix<T>>> children;  // per strip, per tile
        for (const std::vector<Tile<T>>& strip : strips) {
            children.emplace_back();
            for (const Tile<T>& t : strip) {
                prepare_access(t, true, true);
                children.back().push_back(local_children(ctx, t));
            }
        }
        for (const auto& sub : sub_strips(args.side == Side::Left, children))
            submit_update(down, kernel, args, factor, V, sub, priority);
        return;
    }
    for (const std::vector<Tile<T>>& strip : strips)
        for (const Tile<T>& t : strip) prepare_access(t, true, false);
    std::vector<starpu_data_handle_t> handles{factor, V.use()};
    for (const std::vector<Tile<T>>& strip : strips)
        for (const Tile<T>& t : strip) handles.push_back(t.use());
    TileArgs<T> with_strips = args;
    with_strips.first_strip = int(height);
    insert(ctx, kernel, with_strips, out, handles.data(), int(handles.size()), global_priority(ctx, out, priority));
}

// A task of a factor kernel (a T factor, then tiles): counted, or inserted whole.
template <typename T>
void submit_factor(const Context& ctx, Kernel kernel, const TileArgs<T>& args, starpu_data_handle_t factor,
                   std::initializer_list<Tile<T>> tiles, int priority) {
    if (ctx.counting) {
        ++ctx.counting->tasks[size_t(kernel)];
        ctx.counting->tile_tasks[size_t(kernel)] += 1;
        return;
    }
    const Tile<T>& out = *(tiles.end() - 1);
    ctx.recursion->decide(site(kernel, out, below(ctx, out, priority).top_priority));  // counts it; never splits
    starpu_data_handle_t handles[max_kernel_buffers];
    int n = 0;
    handles[n++] = factor;
    for (const Tile<T>& t : tiles) {
        prepare_access(t, true, false);
        handles[n++] = t.use();
    }
    insert(ctx, kernel, args, out, handles, n, global_priority(ctx, out, priority));
}

}  // namespace grain::detail::submission
