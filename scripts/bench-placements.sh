#!/usr/bin/env bash
# The placements side by side with DARTS and dmdar (doc/scheduling.md, "The other papers'
# placements"), in simulation: grain's potrf, getrf_nopiv and gemm on 1, 2, 4 and 8
# simulated H200s with their cores (scripts/sim-testing.sh --machine h200), with the GPUs'
# memory unlimited and limited to half of the matrix (A's bytes / 2 per GPU). Tiles: 2048
# at n = 49152, 4096 at n = 98304 (24 x 24 tiles at both), no splits. Prints every run,
# then per point each policy's GFlop/s and GB moved to and from the GPUs (medians over the
# submission windows), its GFlop/s over darts's and over the best policy's. Then the DARTS
# paper's sets under its conditions with the placements beside DARTS
# (scripts/bench-sched-paper.sh, into OUTDIR/paper).
# Usage: scripts/bench-placements.sh [BUILD_SIM_DIR] [OUTDIR]
#   GRAIN_BENCH_OPS      ["potrf getrf_nopiv gemm"]
#   GRAIN_BENCH_SIZES    ["49152 98304"]
#   GRAIN_BENCH_GPUS     ["1 2 4 8"] (8 needs the StarPU of scripts/build-starpu.sh --simgrid)
#   GRAIN_BENCH_MEMS     ["all half"]
#   GRAIN_BENCH_SCHEDS   ["dmdar dmdar-link darts xkaapi-heft dada dada-cp owner-random
#                         owner-load owner-load:inf owner-cyclic"]; dmdar-link is dmdar with
#                         transfers predicted at one link's time (sim-testing.sh --predict
#                         link), where StarPU 1.3 predicts 2 x GPUs times it
#   GRAIN_BENCH_WINDOWS  submission windows, one run each ["512"]
#   GRAIN_BENCH_CPUS     simulated cores [8]
#   GRAIN_BENCH_JOBS     runs at once [2] (simulated time: runs in parallel give the
#                        results they give alone)
#   GRAIN_BENCH_PAPER_FIGS  the DARTS paper's figures to run ["6 11"; "" for none], with
#                        GRAIN_BENCH_PAPER_NMAX [40] and one run per point
# The whole table takes hours on 2 cores (the simulation's cost grows with the simulated
# time: gemm n = 98304 on one GPU simulates 33 s); GRAIN_BENCH_SIZES=49152 about 15 minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-sim}
out=${2:-$(mktemp -d)}
[ -x "$build/testing_drivers/grain_testing" ] ||
  { echo "bench-placements.sh: no grain_testing in $build (build with -DGRAIN_SIMULATION=ON)" >&2; exit 1; }
mkdir -p "$out"
scheds=${GRAIN_BENCH_SCHEDS:-dmdar dmdar-link darts xkaapi-heft dada dada-cp owner-random owner-load owner-load:inf owner-cyclic}

# One job per line: op n gpus mem sched window.
for op in ${GRAIN_BENCH_OPS:-potrf getrf_nopiv gemm}; do
  for n in ${GRAIN_BENCH_SIZES:-49152 98304}; do
    for g in ${GRAIN_BENCH_GPUS:-1 2 4 8}; do
      for mem in ${GRAIN_BENCH_MEMS:-all half}; do
        for s in $scheds; do
          for w in ${GRAIN_BENCH_WINDOWS:-512}; do echo "$op $n $g $mem $s $w"; done
        done
      done
    done
  done
done > "$out/jobs"
# The longest first (the largest n, the fewest GPUs), so that they do not start last.
sort -k2,2nr -k3,3n -o "$out/jobs" "$out/jobs"
export root build cpus=${GRAIN_BENCH_CPUS:-8}
run() {
  read -r op n g mem s w <<< "$1"
  local b=2048 limit=() predict=starpu sched=$s
  [ "$n" -gt 65536 ] && b=4096
  [ "$mem" = half ] && limit=(--gpu-mem $((n * n * 8 / 2 / 1048576)))
  [ "$s" = dmdar-link ] && predict=link sched=dmdar
  STARPU_SILENT=1 bash "$root/scripts/sim-testing.sh" --build "$build" --machine h200 --gpus "$g" --cpus "$cpus" \
    --predict "$predict" -o "$op" -n "$n" -b "$b" --split none --sched "$sched" --window "$w" "${limit[@]}" -v 2>/dev/null |
    awk -F';' -v key="$op $n $g $mem|$s|$w" -f "$root/scripts/splits-line.awk" || true
}
export -f run
xargs -P "${GRAIN_BENCH_JOBS:-2}" -I{} bash -c 'run "$@"' _ {} < "$out/jobs" > "$out/runs"
sort -o "$out/runs" "$out/runs"
cat "$out/runs"

echo
echo "# per point (op n GPUs memory): GFlop/s, GB to+from the GPUs, GFlop/s over darts's, over the best's"
awk -F'|' -f "$root/scripts/placements-summary.awk" "$out/runs" | tee "$out/summary"

figs=${GRAIN_BENCH_PAPER_FIGS-6 11}
if [ -n "$figs" ]; then
  echo
  echo "# the DARTS paper's sets under its conditions (tasks that only read), the placements beside DARTS"
  GRAIN_BENCH_FIGS=$figs GRAIN_BENCH_REPS=1 GRAIN_BENCH_NMAX=${GRAIN_BENCH_PAPER_NMAX:-40} \
    GRAIN_BENCH_EXTRA="xkaapi-heft dada owner-random owner-load owner-cyclic" GRAIN_BENCH_JOBS=${GRAIN_BENCH_JOBS:-2} \
    bash "$root/scripts/bench-sched-paper.sh" "$build/testing_drivers/grain_sched_bench" "$out/paper"
fi
echo "# results in $out"
