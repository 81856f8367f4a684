#!/usr/bin/env bash
# LP benchmarks: one solve's time (T=5, 4 levels, 2 unit types), the LP's share of a
# dpotrf n=8192 with --split lp, and automatic granularity: --split lp on the ladder
# 2048,1024,512,256 against the best fixed tile size (--split none), medians of 5.
# Usage: scripts/bench-lp.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
driver=$build/testing_drivers/grain_testing
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The lp policy reads StarPU's history models, which every run updates: calibrate
# every level first, so that the runs below see settled models.
echo "# calibrating the models of every level (random splits)"
for op in potrf getrf_nopiv; do
  STARPU_CALIBRATE=1 "$driver" -o $op -n 4096 --scales 2048,1024,512,256 --split random:0.5 --niter 4 >/dev/null 2>&1
done

echo "# one LP solve, T=5 L=4 R=2 (grain_lp_bench)"
"$build/testing_drivers/grain_lp_bench" 2000

echo "# LP share of dpotrf n=8192 --scales 2048,1024,512,256 --split lp"
stats=$(mktemp)
"$driver" -o potrf -n 8192 --scales 2048,1024,512,256 --split lp --niter 3 --lp-stats "$stats" 2>/dev/null |
  awk -F';' 'NR > 1 { print "run " NR - 2 ": time " $11 " s, " $12 " GFlop/s" }'
awk -F';' 'NR > 1 && $6 == "gemm" && $7 == 0 { ms[$1] += $4; n[$1]++ }
  END { for (r in ms) print "run " r ": " n[r] " solves, " ms[r] " ms in the LP" }' "$stats" | sort
rm -f "$stats"

echo "# automatic granularity: lp vs the best fixed tile size (median GFlop/s of 5)"
for op in potrf getrf_nopiv; do
  for n in 4096 8192; do
    best=0 best_nb=0
    for nb in 256 512 1024 2048; do
      g=$("$driver" -o $op -n $n -b $nb --niter 5 2>/dev/null | awk -F';' 'NR > 1 { print $12 }' | median)
      if awk "BEGIN { exit !($g > $best) }"; then best=$g best_nb=$nb; fi
    done
    lp=$("$driver" -o $op -n $n --scales 2048,1024,512,256 --split lp --niter 5 2>/dev/null |
      awk -F';' 'NR > 1 { print $12 }' | median)
    echo "$op n=$n: best fixed nb=$best_nb $best, lp $lp, ratio $(awk "BEGIN { printf \"%.3f\", $lp / $best }")"
  done
done
