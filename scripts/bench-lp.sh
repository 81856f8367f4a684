#!/usr/bin/env bash
# LP benchmarks: one solve's time (T=5, 4 levels, 2 unit types), the LP's share of a
# dpotrf n=8192 with --split lp, and automatic granularity: --split lp on the ladder
# 2048,1024,512,256 against the best fixed tile size (--split none).
# Usage: scripts/bench-lp.sh [BUILD_DIR]
#   GRAIN_BENCH_REPS=N   interleaved rounds of the granularity comparison [5]
#   GRAIN_BENCH_CASES    its operations and sizes ["potrf:4096 potrf:8192 getrf_nopiv:4096 getrf_nopiv:8192"]
#   GRAIN_BENCH_ONLY=granularity  skip the calibration and the LP timings
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
driver=$build/testing_drivers/grain_testing
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The lp policy reads StarPU's history models, which every run updates: calibrate
# every level first, so that the runs below see settled models.
if [ "${GRAIN_BENCH_ONLY:-}" != granularity ]; then
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
awk -F';' 'NR > 1 && $7 == "gemm" && $8 == 0 { ms[$1] += $5; cpu[$1] += $11; n[$1]++ }
  END { for (r in ms) print "run " r ": " n[r] " solves, " ms[r] " ms in the LP (" cpu[r] " ms of CPU time)" }' "$stats" | sort
rm -f "$stats"
fi

# This machine's run-to-run noise (a few %) is as large as the differences measured:
# the candidates run interleaved, REPS rounds of one process each, and the first
# iteration of each process (warm-up) is dropped. The paired ratio is the median over rounds
# of lp / best fixed within the round (the mean of its two timed iterations each).
reps=${GRAIN_BENCH_REPS:-5}
echo "# automatic granularity: lp vs the best fixed tile size, median GFlop/s over $reps interleaved rounds of --niter 3 (first dropped)"
for case in ${GRAIN_BENCH_CASES:-potrf:4096 potrf:8192 getrf_nopiv:4096 getrf_nopiv:8192}; do
  op=${case%%:*} n=${case#*:}
  results=$(mktemp)
  for round in $(seq "$reps"); do
    for nb in 256 512 1024 2048; do
      "$driver" -o $op -n $n -b $nb --niter 3 2>/dev/null | awk -F';' -v c=$nb -v r=$round 'NR > 2 { print c, $12, r }' >>"$results"
    done
    "$driver" -o $op -n $n --scales 2048,1024,512,256 --split lp --niter 3 2>/dev/null |
      awk -F';' -v r=$round 'NR > 2 { print "lp", $12, r }' >>"$results"
  done
  best=0 best_nb=0
  for nb in 256 512 1024 2048; do
    g=$(awk -v c=$nb '$1 == c { print $2 }' "$results" | median)
    if awk "BEGIN { exit !($g > $best) }"; then best=$g best_nb=$nb; fi
  done
  lp=$(awk '$1 == "lp" { print $2 }' "$results" | median)
  # The machine drifts between rounds: also the median over rounds of lp / best within a round.
  paired=$(awk -v b=$best_nb '$1 == "lp" { l[$3] += $2 } $1 == b { f[$3] += $2 } END { for (r in l) if (f[r] > 0) print l[r] / f[r] }' "$results" | median)
  echo "$op n=$n: best fixed nb=$best_nb $best, lp $lp, ratio $(awk "BEGIN { printf \"%.3f\", $lp / $best }")," \
    "paired ratio $(awk "BEGIN { printf \"%.3f\", $paired }")" \
    "(all: $(for c in 256 512 1024 2048 lp; do printf '%s=%s ' $c "$(awk -v c=$c '$1 == c { print $2 }' "$results" | median)"; done))"
  rm -f "$results"
done
