#!/usr/bin/env bash
# The automatic granularity with several GPUs: a tile a factorization's step hands on from
# one GPU to another moves through the host, which lengthens each step's chain by a tile's
# two copies. So on two simulated H200s the automatic GPU tile of dpotrf n = 16384 is
# smaller than on one, where the tiles stay on the GPU (without the moves it was the same).
# Usage: tests/test_granularity_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)
tile() {  # the automatic nb of dpotrf n = 16384 on 15 cores and $1 H200s
  local out row
  out=$(STARPU_SILENT=1 bash "$root/scripts/sim-testing.sh" --build "$build" --machine h200 --gpus "$1" --cpus 15 \
    -o potrf -n 16384 --sched dmdar 2>&1) || { echo "$out" | tail >&2; echo "FAILED: the run on $1 GPUs" >&2; exit 1; }
  row=$(echo "$out" | grep "^potrf;") || { echo "$out" | tail >&2; echo "FAILED: no potrf row on $1 GPUs" >&2; exit 1; }
  echo "$row" | awk -F';' '{print $9}'
}
one=$(tile 1)
two=$(tile 2)
echo "automatic GPU tile of dpotrf n = 16384: one H200 $one, two H200s $two"
[ "$two" -lt "$one" ] || { echo "FAILED: two GPUs should get a smaller tile than one"; exit 1; }
echo "PASSED"
