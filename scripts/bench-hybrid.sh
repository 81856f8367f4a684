#!/usr/bin/env bash
# darts against dmdar on a simulated machine of CPU cores and one V100-like GPU
# (scripts/sim-testing.sh --gpus 1), over an ensemble of submission windows.
# A simulated run is deterministic, but with recursive tiles (--split lp) its schedule is
# chaotic: the LP's split decisions follow the order in which tasks end, so any change
# in timing (a scheduler rule, the window) moves a point by several percent either way,
# for dmdar as for darts (doc/scheduling.md, "Comparing schedulers"). One run per point
# compares two draws; this compares, per configuration, the mean over windows of
# 448..576 tasks (32 per core is 480 with 15 cores; the default adds 128 per GPU, which
# one GPU does not notice), and prints each
# scheduler's range.
# Usage: scripts/bench-hybrid.sh [BUILD_SIM_DIR] [OUTDIR]
#   GRAIN_BENCH_CPUS     simulated cores [15]
#   GRAIN_BENCH_SCHEDS   schedulers, the first is the baseline ["dmdar darts"]
#   GRAIN_BENCH_WINDOWS  the ensemble ["448 480 512 544 576"]
#   GRAIN_BENCH_JOBS     runs at once [2]: the time measured is simulated, so runs in
#                        parallel give the results they give alone; but the driver holds
#                        its matrices (gemm n = 16384: 14 GiB resident), so a run that fails
#                        in parallel (out of memory) is run again alone at the end
#   GRAIN_BENCH_CASES    configurations, one per line (OP, then grain_testing arguments)
# With STARPU_SIMGRID_SCHED_COST=1 in the environment, StarPU charges the time the policies
# take to the simulation: the runs are no longer deterministic, and the windows act as
# repetitions.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-sim}
out=${2:-$(mktemp -d)}
[ -x "$build/testing_drivers/grain_testing" ] || { echo "bench-hybrid.sh: no grain_testing in $build (build with -DGRAIN_SIMULATION=ON)" >&2; exit 1; }
mkdir -p "$out"
cpus=${GRAIN_BENCH_CPUS:-15}
scheds=${GRAIN_BENCH_SCHEDS:-dmdar darts}
windows=${GRAIN_BENCH_WINDOWS:-448 480 512 544 576}
lp='--scales 2048,1024,512,256 --split lp'
lp3='--scales 2048,1024,512 --split lp'  # the ladder of the examples, also with the GPU's memory limited
default_cases=$(
  for op in getrf_nopiv potrf; do for n in 12288 16384 20480; do echo "$op -b 1024 --split none -n $n"; done; done
  for n in 12288 14336 16384; do echo "gemm $lp -n $n"; done
  for op in getrf_nopiv potrf; do for n in 10240 12288 14336 16384 18432; do echo "$op $lp -n $n"; done; done
  for op in getrf_nopiv potrf; do
    for n in 8192 12288 16384; do echo "$op $lp3 -n $n"; done
    echo "$op $lp3 --gpu-mem 1024 -n 16384"
  done)
cases=${GRAIN_BENCH_CASES:-$default_cases}

# One job per line: sched|window|case. Each run prints sched|window|case|gflops.
jobs=$out/jobs
while IFS= read -r c; do
  for s in $scheds; do for w in $windows; do echo "$s|$w|$c"; done; done
done <<< "$cases" > "$jobs"
export root build cpus
run() {
  IFS='|' read -r s w c <<< "$1"
  read -r op args <<< "$c"
  # shellcheck disable=SC2086
  g=$(STARPU_SILENT=1 bash "$root/scripts/sim-testing.sh" --build "$build" --gpus 1 --cpus "$cpus" -o "$op" $args \
      --window "$w" --sched "$s" 2>/dev/null | awk -F';' -v op="$op" '$1 == op { print $12; exit }') || true
  echo "$s|$w|$c|${g:-failed}"
}
export -f run
xargs -P "${GRAIN_BENCH_JOBS:-2}" -I{} bash -c 'run "$@"' _ {} < "$jobs" > "$out/runs"
grep '|failed$' "$out/runs" | sed 's/|failed$//' > "$out/retry" || true
if [ -s "$out/retry" ]; then
  grep -v '|failed$' "$out/runs" > "$out/runs.ok" || true
  while IFS= read -r j; do run "$j"; done < "$out/retry" >> "$out/runs.ok"
  mv "$out/runs.ok" "$out/runs"
fi
sort -t'|' -k3,3 -k1,1 -k2,2n "$out/runs"

echo "# mean GFlop/s over windows ($windows), [min-max], and the ratio of means to the first scheduler"
awk -F'|' -v scheds="$scheds" -f "$root/scripts/sched-means.awk" "$out/runs" | tee "$out/summary"
