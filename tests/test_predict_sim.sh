#!/usr/bin/env bash
# sim-testing.sh --predict link: StarPU 1.3 predicts each transfer at 2 x GPUs times the
# bus matrix's time, so that dmdar on 4 simulated H200s keeps a potrf on the GPU holding its
# first tiles. With the prediction at one link's time, it must spread over the GPUs: at
# least 3 of the 4 run kernels, and the run is faster. An unknown --predict is refused.
# Usage: tests/test_predict_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)
# run PREDICT: sets gpus_used (CUDA workers that ran a task) and gflops.
run() {
  local out
  out=$(STARPU_WORKER_STATS=1 STARPU_SILENT=1 bash "$root/scripts/sim-testing.sh" --build "$build" --machine h200 \
    --gpus 4 --cpus 8 --predict "$1" -o potrf -n 24576 -b 2048 --split none --sched dmdar 2>&1) || true
  gflops=$(echo "$out" | awk -F';' '/^potrf;/ { print $12 }')
  [ -n "$gflops" ] || { echo "$out" | tail; echo "FAILED: no potrf row (--predict $1)"; exit 1; }
  gpus_used=$(echo "$out" | awk '/^CUDA / { w = 1; next } /^CPU / { w = 0 } /task\(s\)/ && w && $1 > 0 { n++ } END { print n + 0 }')
}
run starpu
echo "--predict starpu: $gpus_used GPUs ran kernels, $gflops GFlop/s"
starpu_gflops=$gflops
run link
echo "--predict link: $gpus_used GPUs ran kernels, $gflops GFlop/s"
[ "$gpus_used" -ge 3 ] || { echo "FAILED: with --predict link dmdar ran on $gpus_used of 4 GPUs"; exit 1; }
awk -v a="$gflops" -v b="$starpu_gflops" 'BEGIN { exit !(a > b) }' ||
  { echo "FAILED: --predict link ($gflops GFlop/s) is not faster than starpu ($starpu_gflops)"; exit 1; }
if bash "$root/scripts/sim-testing.sh" --build "$build" --predict bus --cpus 1 -o potrf -n 256 >/dev/null 2>&1; then
  echo "FAILED: --predict bus was accepted"; exit 1
fi
echo "--predict link spreads dmdar over the GPUs; an unknown --predict is refused"
