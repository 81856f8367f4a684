#!/usr/bin/env bash
# --split lp against the best fixed tile size on a simulated machine with GPUs
# (scripts/sim-testing.sh), each scheduler against its own best:
# one ladder per machine for every size and scheduler, GFlop/s as the mean over the
# submission windows of scripts/bench-hybrid.sh (a run with recursive tiles is chaotic in
# the window: see there), and the MB moved to and from the GPUs, also as means.
# Usage: scripts/bench-splits.sh [BUILD_SIM_DIR] [OUTDIR]
#   GRAIN_BENCH_MACHINE  hybrid (V100-like GPUs, ladder 2048,1024,512,256, fixed 512 1024
#                        2048), h100 or h200 (ladder 4096,2048,1024,512, fixed 1024 2048 4096)
#                        [hybrid]
#   GRAIN_BENCH_GPUS     simulated GPUs [1]
#   GRAIN_BENCH_CPUS     simulated cores [15]
#   GRAIN_BENCH_OPS      ["potrf getrf_nopiv"]
#   GRAIN_BENCH_SIZES    ["16384 32768"]
#   GRAIN_BENCH_SCHEDS   ["darts dmdar"]
#   GRAIN_BENCH_WINDOWS  ["448 480 512 544 576"]
#   GRAIN_BENCH_JOBS     runs at once [2] (simulated time: runs in parallel give the
#                        results they give alone)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-sim}
out=${2:-$(mktemp -d)}
[ -x "$build/testing_drivers/grain_testing" ] || { echo "bench-splits.sh: no grain_testing in $build (build with -DGRAIN_SIMULATION=ON)" >&2; exit 1; }
mkdir -p "$out"
machine=${GRAIN_BENCH_MACHINE:-hybrid}
case $machine in
  hybrid) ladder=2048,1024,512,256 fixed="512 1024 2048" ;;
  h100 | h200) ladder=4096,2048,1024,512 fixed="1024 2048 4096" ;;
  *) echo "bench-splits.sh: GRAIN_BENCH_MACHINE=$machine: hybrid, h100 or h200" >&2; exit 2 ;;
esac
windows=${GRAIN_BENCH_WINDOWS:-448 480 512 544 576}

# One job per line: op n sched window tiles...; each run prints
# op n sched|tiles|window|gflops|MB to GPUs|MB from GPUs.
for op in ${GRAIN_BENCH_OPS:-potrf getrf_nopiv}; do
  for n in ${GRAIN_BENCH_SIZES:-16384 32768}; do
    for s in ${GRAIN_BENCH_SCHEDS:-darts dmdar}; do
      for w in $windows; do
        for b in $fixed; do echo "$op $n $s $w -b $b --split none"; done
        echo "$op $n $s $w --scales $ladder --split lp"
      done
    done
  done
done > "$out/jobs"
export root build machine
export gpus=${GRAIN_BENCH_GPUS:-1} cpus=${GRAIN_BENCH_CPUS:-15}
run() {
  read -r op n s w tiles <<< "$1"
  # shellcheck disable=SC2086
  STARPU_SILENT=1 bash "$root/scripts/sim-testing.sh" --build "$build" --machine "$machine" --gpus "$gpus" \
    --cpus "$cpus" -o "$op" -n "$n" --sched "$s" --window "$w" $tiles -v 2>/dev/null |
    awk -F';' -v key="$op $n $s|$tiles|$w" -f "$root/scripts/splits-line.awk" || true
}
export -f run
xargs -P "${GRAIN_BENCH_JOBS:-2}" -I{} bash -c 'run "$@"' _ {} < "$out/jobs" > "$out/runs"

echo "# $machine, $gpus GPU(s), $cpus cores: mean GFlop/s over windows ($windows) [min-max]," \
  "mean MB to / from the GPUs; lp against the best fixed tile of the same scheduler"
awk -F'|' -f "$root/scripts/splits-summary.awk" "$out/runs" | tee "$out/summary"
