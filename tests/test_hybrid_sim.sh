#!/usr/bin/env bash
# darts on a CPU+GPU machine, simulated (scripts/sim-testing.sh --gpus 1, one V100-like
# GPU; deterministic); the workers' task counts come from STARPU_WORKER_STATS, less the
# pin tasks the cores run (one per tile column).
# 1. The cores get work: on 4 cores, a dpotrf n=4096 nb=256 under --sched darts must run
#    some of its kernels on the cores (at nb=512 the GPU is so much faster that none is
#    worth a core), and every kernel exactly once (the workers' counts add up to the
#    driver's). The cores' expected-time rule (src/sched/darts_cores.cpp) is what gives
#    them work: in grain's routines every kernel has a GPU version.
# 2. The cores leave the GPU what it would run sooner: on 15 cores, a dpotrf n=8192
#    nb=1024 runs every kernel on the GPU (as under dmdar). A task that only the loads
#    make worth a core must end there before the GPU has loaded the tiles of the work at
#    least as urgent (core_candidate); without that rule a core takes a panel's trsm early,
#    and the GPU waits for it (doc/notes/darts-notes.md).
# Usage: tests/test_hybrid_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)

# run CPUS ARGS...: a potrf under darts; sets tasks (the driver's kernels), gpu and cpu
# (the kernels the GPU and the cores ran).
run() {
  local cpus=$1 out header row
  shift
  out=$(STARPU_WORKER_STATS=1 bash "$root/scripts/sim-testing.sh" --build "$build" --gpus 1 --cpus "$cpus" \
    -o potrf --split none --sched darts "$@" 2>&1)
  header=$(echo "$out" | grep -m1 '^op;')
  row=$(echo "$out" | grep -m1 '^potrf;') || true
  [ -n "$row" ] || { echo "$out" | tail -20; echo "FAILED: no result row"; exit 1; }
  tasks=$(awk -F';' -v h="$header" -v r="$row" 'BEGIN {
    n = split(h, names, ";"); split(r, values, ";")
    for (i = 1; i <= n; i++) if (names[i] == "tasks_l0") print values[i] }')
  # Per worker, StarPU prints its name line (CUDA ... or CPU ...), then "N task(s)".
  read -r gpu cpu < <(echo "$out" | awk '/^CUDA /{w = "gpu"; next} /^CPU /{w = "cpu"; next}
    /task\(s\)/ && w != "" {n[w] += $1; w = ""} END {print n["gpu"] + 0, n["cpu"] + 0}')
  # The cores also ran one pin task per tile column of the matrix (src/starpu/column_pins.hpp).
  local n b
  n=$(echo "$*" | sed -n 's/.*-n \([0-9]*\).*/\1/p') b=$(echo "$*" | sed -n 's/.*-b \([0-9]*\).*/\1/p')
  cpu=$((cpu - (n + b - 1) / b))
  echo "$cpus cores, $*: kernels: $tasks; ran on the GPU $gpu, on the cores $cpu (and $(((n + b - 1) / b)) pins)"
  [ "$((cpu + gpu))" -eq "$tasks" ] || { echo "FAILED: the workers ran $((cpu + gpu)) tasks, not $tasks"; exit 1; }
}

run 4 -n 4096 -b 256
[ "$cpu" -gt 0 ] || { echo "FAILED: the cores ran no kernel under darts"; exit 1; }
[ "$gpu" -gt 0 ] || { echo "FAILED: the GPU ran no kernel under darts"; exit 1; }

run 15 -n 8192 -b 1024
[ "$cpu" -eq 0 ] || { echo "FAILED: the cores ran $cpu kernels that the GPU would have run sooner"; exit 1; }
