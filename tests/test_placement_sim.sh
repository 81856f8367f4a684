#!/usr/bin/env bash
# The placements on simulated GPUs (the H200 machine with 2 and 4 GPUs, 8 cores), where
# --check is refused: every task runs exactly once. The workers' task counts
# (STARPU_WORKER_STATS), less the tasks that are not kernels (the pin tasks of the
# matrices' tile columns, counted as dmdar's run has them), must add up to the driver's
# kernels over all levels, for potrf, getrf_nopiv and gemm, under every split policy
# (sub-tiles, on cores and GPUs). getrf is not simulated: the H200 machines have no models
# of its panel kernels; tests/test_placements.sh checks its results on the cores.
# Usage: tests/test_placement_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)
n=8192
# run SCHED GPUS OP SPLIT: sets kernels (the driver's, all levels) and ran (the workers' tasks).
run() {
  local out header row
  out=$(STARPU_WORKER_STATS=1 bash "$root/scripts/sim-testing.sh" --build "$build" --machine h200 --gpus "$2" \
    --cpus 8 -o "$3" -n $n --scales 2048,1024 --split "$4" --sched "$1" 2>&1) || true
  header=$(echo "$out" | grep -m1 '^op;') || true
  row=$(echo "$out" | grep -m1 "^$3;") || true
  [ -n "$row" ] || { echo "$out" | tail -20; echo "FAILED: no result row ($*)"; exit 1; }
  kernels=$(awk -F';' -v h="$header" -v r="$row" 'BEGIN {
    n = split(h, names, ";"); split(r, values, ";"); s = 0
    for (i = 1; i <= n; i++) if (names[i] ~ /^tasks_l[0-9]+$/) s += values[i]
    print s }')
  ran=$(echo "$out" | awk '/^(CUDA|CPU) /{w = 1; next} /task\(s\)/ && w {s += $1; w = 0} END {print s + 0}')
}
runs=0
for op in potrf getrf_nopiv gemm; do
  run dmdar 2 "$op" none
  others=$((ran - kernels))
  for sched in xkaapi-heft dada dada-cp owner-random owner-load owner-load:inf owner-cyclic; do
    for gpus in 2 4; do
      for split in none all depth:1 lp random:0.5:1; do
        run "$sched" "$gpus" "$op" "$split"
        if [ "$((ran - others))" -ne "$kernels" ]; then
          echo "FAILED: $sched, $gpus GPUs, $op, --split $split: the workers ran $((ran - others)) kernels, the driver submitted $kernels"
          exit 1
        fi
        runs=$((runs + 1))
      done
    done
  done
done
echo "$runs simulated runs: every kernel ran once"
