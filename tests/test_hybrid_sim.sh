#!/usr/bin/env bash
# darts on a CPU+GPU machine: the cores get work. On a simulated machine of 4 cores and
# one V100-like GPU (scripts/sim-testing.sh --gpus 1; deterministic), a dpotrf n=4096
# nb=256 under --sched darts must run some of its kernels on the cores (84 of 816 when
# written; at nb=512 the GPU is so much faster that none is worth a core), and every
# kernel exactly once (the workers' task counts, STARPU_WORKER_STATS, add up to the driver's).
# Before the cores' expected-time rule (src/sched/darts_policy.hpp), they took only
# tasks below a size that was 0 by default: in grain's routines, where every kernel has
# a GPU version, they ran nothing.
# Usage: tests/test_hybrid_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(STARPU_WORKER_STATS=1 bash "$root/scripts/sim-testing.sh" --build "$build" --gpus 1 --cpus 4 \
  -o potrf -n 4096 -b 256 --split none --sched darts 2>&1)
header=$(echo "$out" | grep -m1 '^op;')
row=$(echo "$out" | grep -m1 '^potrf;')
[ -n "$row" ] || { echo "$out" | tail -20; echo "FAILED: no result row"; exit 1; }
tasks=$(awk -F';' -v h="$header" -v r="$row" 'BEGIN {
  n = split(h, names, ";"); split(r, values, ";")
  for (i = 1; i <= n; i++) if (names[i] == "tasks_l0") print values[i] }')
# Per worker, StarPU prints its name line (CUDA ... or CPU ...), then "N task(s)".
read -r gpu cpu < <(echo "$out" | awk '/^CUDA /{w = "gpu"; next} /^CPU /{w = "cpu"; next}
  /task\(s\)/ && w != "" {n[w] += $1; w = ""} END {print n["gpu"] + 0, n["cpu"] + 0}')
echo "kernels: $tasks; ran on the GPU $gpu, on the cores $cpu"
[ "$cpu" -gt 0 ] || { echo "FAILED: the cores ran no kernel under darts"; exit 1; }
[ "$gpu" -gt 0 ] || { echo "FAILED: the GPU ran no kernel under darts"; exit 1; }
[ "$((cpu + gpu))" -eq "$tasks" ] || { echo "FAILED: the workers ran $((cpu + gpu)) tasks, not $tasks"; exit 1; }
