#!/usr/bin/env python3
"""How many loads the DARTS paper's sparse set needs on 4 GPUs sharing one host link, under
other strategies than DARTS (issue 49; doc/results/2026-11-27-sparse-loads-model.md).

On that set every scheduler is bound by the host link, so a schedule's time is its bytes:
the question is whether some schedule loads much less than grain's DARTS. This model counts
loads only (no time): the sparse 2D product (N panels A_i and N panels B_j, 2 % of the N^2
tasks A_i x B_j kept at random), memories of M panels per GPU, and
- darts:      each GPU in turn runs its next planned task or, with none, plans the tasks that
              the data freeing the most unplanned tasks frees (ties: the data with the most
              unplanned users; none frees a task: a random task), evicting the data its
              planned tasks use least, then with the fewest unplanned users (LUF);
- darts-dup:  the same, a data another GPU holds counting one freed task less;
- on G GPUs:  darts on only G of the 4 GPUs (fewer copies of a data, less memory);
- partition:  the tasks split in 4 balanced parts that minimise the data in several parts
              (random starts, then moves of single tasks), then darts on each part alone;
- pooled:     darts on one GPU with the memory of all 4, a reference no real schedule
              reaches: it is what the copies of a data on several GPUs cost;
- on 1 GPU, the order kept, optimal eviction: darts's order on 1 GPU replayed with
              Belady's eviction (the data used again last goes), against LUF's;
- on 1 GPU, reverse Cuthill-McKee: tasks in a bandwidth-reducing order of the data
              (a task when its later input comes), Belady's eviction (needs scipy).
The sets are drawn with Python's generator, not grain_sched_bench's: the same law, other
draws. Usage: scripts/sparse-loads-model.py [N ...]   (default 200 300); M = 35 panels
(500 MiB over 14.7 MB panels) and no limit.
"""
import collections
import random
import sys

GPUS = 4


def sparse_set(n, seed):
    rng = random.Random(seed)
    tasks = [(i, n + j) for i in range(n) for j in range(n)]
    return sorted(rng.sample(tasks, max(1, round(0.02 * len(tasks)))))


def darts(tasks, gpus, slots, dup_penalty=0.0, seed=1, order=None):
    """Loads; the tasks in the order the GPUs run them are appended to order if given."""
    rng = random.Random(seed)
    unplanned_users = collections.defaultdict(set)
    for t, inputs in enumerate(tasks):
        for d in inputs:
            unplanned_users[d].add(t)
    unplanned = set(range(len(tasks)))
    memory = [set() for _ in range(gpus)]
    planned = [collections.deque() for _ in range(gpus)]
    planned_uses = [collections.Counter() for _ in range(gpus)]
    loads = done = 0

    def load(k, d, pinned):
        nonlocal loads
        if d in memory[k]:
            return
        if len(memory[k]) >= slots:
            victim = min((x for x in memory[k] if x not in pinned),
                         key=lambda x: (planned_uses[k][x], len(unplanned_users[x])))
            memory[k].discard(victim)
        memory[k].add(d)
        loads += 1

    while done < len(tasks):
        for k in range(gpus):
            if planned[k]:
                t = planned[k].popleft()
                if order is not None:
                    order.append(tasks[t])
                for d in tasks[t]:
                    load(k, d, set(tasks[t]))
                    planned_uses[k][d] -= 1
                done += 1
                continue
            if not unplanned:
                continue
            candidates = {d for x in memory[k] for t in unplanned_users[x] for d in tasks[t] if d not in memory[k]}
            best, best_score, freed = None, None, []
            for d in sorted(candidates):
                f = [t for t in unplanned_users[d] if all(x in memory[k] or x == d for x in tasks[t])]
                elsewhere = any(d in memory[j] for j in range(gpus) if j != k)
                score = (len(f) - (dup_penalty if elsewhere else 0), len(unplanned_users[d]))
                if best_score is None or score > best_score:
                    best, best_score, freed = d, score, f
            if not freed:
                freed = [rng.choice(sorted(unplanned))]
            for t in freed:
                unplanned.discard(t)
                planned[k].append(t)
                for d in tasks[t]:
                    unplanned_users[d].discard(t)
                    planned_uses[k][d] += 1
    return loads


def belady(sequence, slots):
    """Loads of one GPU running the tasks of sequence in that order, evicting the data used
    again last (optimal for a given order), never the other input of the running task."""
    refs = [d for t in sequence for d in t]
    next_use, last = [0] * len(refs), {}
    for i in range(len(refs) - 1, -1, -1):
        next_use[i] = last.get(refs[i], len(refs))
        last[refs[i]] = i
    memory, loads = {}, 0
    for i, d in enumerate(refs):
        if d not in memory:
            loads += 1
            if len(memory) >= slots:
                pinned = refs[i - 1] if i % 2 else None
                del memory[max((x for x in memory if x != pinned), key=memory.get)]
        memory[d] = next_use[i]
    return loads


def darts_order_belady(tasks, slots, seed):
    order = []
    darts(tasks, 1, slots, seed=seed, order=order)
    return belady(order, slots)


def rcm_belady(tasks, slots):
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import reverse_cuthill_mckee
    n = 1 + max(d for t in tasks for d in t)
    rows = [a for a, b in tasks] + [b for a, b in tasks]
    cols = [b for a, b in tasks] + [a for a, b in tasks]
    graph = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)).tocsr()
    position = {int(d): i for i, d in enumerate(reverse_cuthill_mckee(graph, symmetric_mode=True))}
    key = [sorted((position[a], position[b]), reverse=True) for a, b in tasks]
    return belady([t for _, t in sorted(zip(key, tasks))], slots)


def partition(tasks, parts, starts=5, tolerance=1.03):
    """Balanced parts that minimise the sum over parts of their distinct data."""
    best = None
    for s in range(starts):
        rng = random.Random(s)
        part = [p % parts for p in range(len(tasks))]
        rng.shuffle(part)
        count = collections.defaultdict(lambda: [0] * parts)
        for t, p in enumerate(part):
            for d in tasks[t]:
                count[d][p] += 1
        size = [part.count(p) for p in range(parts)]
        cap = len(tasks) / parts * tolerance
        moved = True
        while moved:
            moved = False
            for t, inputs in enumerate(tasks):
                p = part[t]
                gain = {q: sum((count[d][p] == 1) - (count[d][q] == 0) for d in inputs)
                        for q in range(parts) if q != p and size[q] + 1 <= cap}
                q = max(gain, key=gain.get, default=None)
                if q is not None and gain[q] > 0:
                    for d in inputs:
                        count[d][p] -= 1
                        count[d][q] += 1
                    size[p] -= 1
                    size[q] += 1
                    part[t] = q
                    moved = True
        spread = sum(sum(c > 0 for c in count[d]) for d in count)
        if best is None or spread < best[0]:
            best = (spread, part)
    return [[tasks[t] for t in range(len(tasks)) if best[1][t] == p] for p in range(parts)]


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [200, 300]
    strategies = [
        ("darts, 4 GPUs", lambda ts, m, s: darts(ts, GPUS, m, seed=s)),
        ("darts-dup, 4 GPUs", lambda ts, m, s: darts(ts, GPUS, m, dup_penalty=1.0, seed=s)),
        ("darts on 2 GPUs", lambda ts, m, s: darts(ts, 2, m, seed=s)),
        ("darts on 1 GPU", lambda ts, m, s: darts(ts, 1, m, seed=s)),
        ("partition + darts", lambda ts, m, s: sum(darts(p, 1, m, seed=s) for p in partition(ts, GPUS))),
        ("pooled (reference)", lambda ts, m, s: darts(ts, 1, GPUS * m, seed=s)),
        ("1 GPU, Belady", lambda ts, m, s: darts_order_belady(ts, m, s)),
    ]
    try:
        import scipy  # noqa: F401
        strategies.append(("1 GPU, RCM + Belady", lambda ts, m, s: rcm_belady(ts, m)))
    except ImportError:
        print("(no scipy: the reverse Cuthill-McKee order is left out)")
    print("loads over the working set (data used), mean of seeds 1-3 [lowest-highest]")
    for slots, label in ((35, "500 MiB per GPU"), (10**9, "no limit")):
        for n in sizes:
            print(f"N = {n}, {label}:")
            sets = [sparse_set(n, s) for s in (1, 2, 3)]
            for name, run in strategies:
                r = [run(ts, slots, s) / len({d for t in ts for d in t}) for s, ts in zip((1, 2, 3), sets)]
                print(f"  {name:20s} {sum(r) / len(r):.2f} [{min(r):.2f}-{max(r):.2f}]")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
