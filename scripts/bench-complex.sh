#!/usr/bin/env bash
# The complex precisions against threaded OpenBLAS in the same process: zgemm and zpotrf
# (fixed tiles and the lp ladder) and cgemm, ROUNDS rounds, each running every
# configuration once, so that the configurations alternate; medians [lowest-highest] of
# the paired grain/vendor ratios.
# Usage: scripts/bench-complex.sh [BUILD_DIR] [ROUNDS]   (build first: scripts/build.sh)
#   GRAIN_BENCH_N  the order n [4096]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
driver=${1:-$root/build}/testing_drivers/grain_testing
rounds=${2:-5}
n=${GRAIN_BENCH_N:-4096}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for r in $(seq "$rounds"); do
  for run in "gemm z -b 512,1024" "gemm z --scales 1024,512,256 --split lp" \
             "potrf z -b 384,512" "potrf z --scales 512,256,128 --split lp" \
             "gemm c -b 512,1024" "gemm c --scales 1024,512,256 --split lp"; do
    read -r op p rest <<<"$run"
    # shellcheck disable=SC2086  # rest holds several options
    "$driver" -o "$op" -p "$p" -n "$n" $rest --vendor 2>/dev/null >>"$out"
  done
  echo "# round $r of $rounds done" >&2
done
awk -F';' -f "$root/scripts/vendor-ratio.awk" "$out"
