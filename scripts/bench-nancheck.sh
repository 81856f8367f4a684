#!/usr/bin/env bash
# The NaN check's cost: time of a factorization with GRAIN_NANCHECK=1 over =0, from
# alternated grain_testing runs; prints each pair's ratio, then the median and range.
# Usage: scripts/bench-nancheck.sh [BUILD_DIR] [N] [PAIRS]
set -euo pipefail
build=${1:-build}
n=${2:-4096}
pairs=${3:-7}
driver=$build/testing_drivers/grain_testing
for op in potrf getrf_nopiv; do
  ratios=()
  for ((r = 0; r < pairs; ++r)); do
    declare -A t
    for check in 1 0; do
      # The time column of the ';'-separated output.
      t[$check]=$(GRAIN_NANCHECK=$check STARPU_SILENT=1 "$driver" -o "$op" -n "$n" -b 512 | awk -F';' 'NR == 2 {print $11}')
    done
    ratio=$(awk -v a="${t[1]}" -v b="${t[0]}" 'BEGIN {printf "%.4f", a / b}')
    echo "$op n=$n pair $r: check on ${t[1]} s, off ${t[0]} s, ratio $ratio"
    ratios+=("$ratio")
  done
  printf '%s\n' "${ratios[@]}" | sort -n | awk -v op="$op" '{v[NR] = $1} END {printf "%s: median on/off %s, range %s-%s (%d pairs)\n", op, v[int((NR + 1) / 2)], v[1], v[NR], NR}'
done
