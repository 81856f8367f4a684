#!/usr/bin/env bash
# LU with partial pivoting against threaded LAPACKE (OpenBLAS) in the same process, and
# against getrf_nopiv: ROUNDS rounds, each running every configuration once, so that the
# configurations alternate; medians [lowest-highest] of the paired grain/vendor ratios.
# Each configuration runs in a process of its own after an untimed run (--warmup): a
# ladder run as its process's first and fixed tiles after others in one process made lp
# look 0.90 of the best tile where warmed runs of both gave 0.97.
# Usage: scripts/bench-getrf.sh [BUILD_DIR] [ROUNDS]   (build first: scripts/build.sh)
#   GRAIN_BENCH_SIZES  sizes n [4096 8192]
#   GRAIN_BENCH_NITER  timed runs per process [1]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
driver=${1:-$root/build}/testing_drivers/grain_testing
rounds=${2:-5}
niter=${GRAIN_BENCH_NITER:-1}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for r in $(seq "$rounds"); do
  for n in ${GRAIN_BENCH_SIZES:-4096 8192}; do
    if [ "$n" -le 4096 ]; then tiles=256,320,384,512 ladder=512,256,128; else tiles=384,512,768 ladder=1024,512,256; fi
    for op in getrf getrf_nopiv; do
      for nb in ${tiles//,/ }; do
        "$driver" -o $op -n "$n" -b "$nb" --vendor --warmup --niter "$niter" 2>/dev/null >>"$out"
      done
      "$driver" -o $op -n "$n" --scales "$ladder" --split lp --vendor --warmup --niter "$niter" 2>/dev/null >>"$out"
    done
  done
  echo "# round $r of $rounds done" >&2
done
awk -F';' -f "$root/scripts/vendor-ratio.awk" "$out"
