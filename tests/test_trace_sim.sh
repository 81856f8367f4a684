#!/usr/bin/env bash
# The trace's bytes against StarPU's bus statistics, on a simulated CPU+GPU machine
# (scripts/sim-testing.sh --gpus 1): under eager, which prefetches nothing, every load
# happens after a worker took its task, so the bytes the GPU's tasks loaded add up to
# what went to the GPU; what came back is the cores' loads and the results brought home
# at the end of the call (the driver's time includes it). (Under dmda* and darts
# the scheduler prefetches a task's inputs before the pop; the trace counts only what
# was still missing then.) Also: one line per kernel that ran, on 1 and on 2 GPUs (both
# used), the cores' tile limit holds, and the plot is drawn.
# Usage: tests/test_trace_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
# The kernels a run's row says ran: the sum of its tasks_l columns.
kernels_of() {
  awk -v h="$1" -v r="$2" 'BEGIN { n = split(h, names, ";"); split(r, v, ";")
    for (i = 1; i <= n; i++) if (names[i] ~ /^tasks_l/) s += v[i]; print s }'
}
trap 'rm -rf "$dir"' EXIT
# Runs OP on the simulated machine with the rest of the arguments (sim-testing.sh's
# first); sets `kernels`, the kernels its row says ran.
kernels_of_run() {
  local op=$1 out header row; shift
  out=$(bash "$root/scripts/sim-testing.sh" --build "$build" "$@" -o "$op" 2>&1) ||
    { echo "$out" | tail -20; echo "FAILED: sim-testing.sh $* -o $op"; exit 1; }
  header=$(echo "$out" | grep -m1 '^op;')
  row=$(echo "$out" | grep -m1 "^$op;") || { echo "$out" | tail -20; echo "FAILED: no $op row: $*"; exit 1; }
  kernels=$(kernels_of "$header" "$row")
}
out=$(bash "$root/scripts/sim-testing.sh" --build "$build" --gpus 1 --cpus 4 -o potrf -n 4096 -b 512 --sched eager \
  --trace "$dir/trace.csv" -v 2>&1)
bus=$(echo "$out" | sed -n 's/^# gpu transfers: \([0-9.]*\) MB to GPUs, \([0-9.]*\) MB from GPUs.*/\1 \2/p')
[ -n "$bus" ] || { echo "$out" | tail -20; echo "FAILED: no transfer line"; exit 1; }
traced=$(awk -F';' '$1 == "task" { b[$4] += $13 } END { printf "%.1f %.1f", b["gpu"] / 1e6, b["cpu"] / 1e6 }' "$dir/trace.csv")
echo "MB to / from the GPU: bus $bus, trace $traced"
read -r bus_to bus_from <<<"$bus"
read -r traced_to traced_from <<<"$traced"
[ "$bus_to" = "$traced_to" ] || { echo "FAILED: the GPU's tasks loaded $traced_to MB, the bus took $bus_to MB to it"; exit 1; }
# From the GPU: the cores' loads, and the results brought home at the end of the call.
awk -v t="$traced_from" -v b="$bus_from" 'BEGIN { exit !(t > 0 && t <= b) }' ||
  { echo "FAILED: the cores loaded $traced_from MB from the GPU, the bus brought $bus_from MB"; exit 1; }
[ "$bus_to" != "0.0" ] || { echo "FAILED: nothing went to the GPU"; exit 1; }
header=$(echo "$out" | grep -m1 '^op;')
row=$(echo "$out" | grep -m1 '^potrf;')
kernels=$(kernels_of "$header" "$row")
lines=$(grep -c '^task;' "$dir/trace.csv")
gpu_lines=$(grep -c '^task;[0-9]*;[0-9]*;gpu;' "$dir/trace.csv" || true)
echo "kernels: $kernels, trace lines: $lines ($gpu_lines on the GPU)"
[ "$lines" -eq "$kernels" ] || { echo "FAILED: $lines trace lines for $kernels kernels"; exit 1; }
[ "$gpu_lines" -gt 0 ] || { echo "FAILED: no task on the GPU"; exit 1; }
# Two GPUs (grain-hybrid-2gpu), darts: every kernel once, and both GPUs run some (dmdar
# runs this gemm on one GPU).
kernels_of_run gemm --gpus 2 --cpus 4 -n 8192 -b 1024 --sched darts --trace "$dir/two.csv"
read -r lines gpus < <(awk -F';' '$1 == "task" { n++; if ($4 == "gpu" && !($3 in g)) { g[$3] = 1; k++ } } END { print n, k + 0 }' "$dir/two.csv")
echo "2 GPUs: kernels $kernels, trace lines $lines, GPUs that ran some: $gpus"
[ "$lines" -eq "$kernels" ] || { echo "FAILED: $lines trace lines for $kernels kernels on 2 GPUs"; exit 1; }
[ "$gpus" -eq 2 ] || { echo "FAILED: $gpus of the 2 GPUs ran kernels"; exit 1; }
# The cores' tile limit: under eager, which gives a task to whichever worker asks first, the
# cores take most 2048 tiles without the limit, and none over it with it; every kernel
# still runs once.
for limit in 0 1024; do
  kernels_of_run potrf --gpus 1 --cpus 4 -n 8192 -b 2048 --sched eager --cpu-tile-limit "$limit" --trace "$dir/limit.csv"
  read -r lines large < <(awk -F';' '$1 == "task" { n++; if ($4 == "cpu" && $7 > 1024) k++ } END { print n, k + 0 }' "$dir/limit.csv")
  echo "cpu tile limit $limit: kernels $kernels, trace lines $lines, 2048 tiles on the cores: $large"
  [ "$lines" -eq "$kernels" ] || { echo "FAILED: $lines trace lines for $kernels kernels, limit $limit"; exit 1; }
  if [ "$limit" = 0 ]; then
    [ "$large" -gt 0 ] || { echo "FAILED: without a limit eager gave the cores no 2048 tile"; exit 1; }
  else
    [ "$large" -eq 0 ] || { echo "FAILED: the cores ran $large tiles over the limit"; exit 1; }
  fi
done
if command -v gnuplot >/dev/null; then
  bash "$root/scripts/plot-trace.sh" "$dir/trace.csv" "$dir/trace.png" >/dev/null
  [ -s "$dir/trace.png" ] || { echo "FAILED: no picture"; exit 1; }
fi
echo "PASSED"
