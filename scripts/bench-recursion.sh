#!/usr/bin/env bash
# Recursion benchmarks (dpotrf n=8192): the overhead of splitting every task (scales
# {2048,512}, split all) against the flat run with nb=512 (same leaves), alternated;
# GFlop/s for flat tile sizes and for all/depth:1 on {2048,1024,512,256}; and the
# submission window. Medians over the runs. Usage: scripts/bench-recursion.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
driver=${1:-$root/build}/testing_drivers/grain_testing
n=8192
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# time;gflops of each run of one configuration (CSV columns 11 and 12)
runs() { "$driver" -o potrf -n $n "$@" 2>/dev/null | awk -F';' 'NR > 1 { print $11 ";" $12 }'; }

echo "# overhead: flat nb=512 vs {2048,512} split all, alternated 5 times"
flat=() recursive=()
for i in 1 2 3 4 5; do
  flat+=("$(runs -b 512 --split none)")
  recursive+=("$(runs --scales 2048,512 --split all)")
done
tf=$(printf '%s\n' "${flat[@]}" | cut -d';' -f1 | median)
tr=$(printf '%s\n' "${recursive[@]}" | cut -d';' -f1 | median)
echo "flat nb=512: median $tf s; {2048,512} all: median $tr s; ratio recursive/flat $(awk "BEGIN { printf \"%.3f\", $tr / $tf }")"

echo "# GFlop/s (median of 3)"
for nb in 2048 1024 512 256; do
  echo "none nb=$nb: $(runs -b $nb --split none --niter 3 | cut -d';' -f2 | median)"
done
for split in all depth:1; do
  echo "$split {2048,1024,512,256}: $(runs --scales 2048,1024,512,256 --split $split --niter 3 | cut -d';' -f2 | median)"
done

echo "# submission window, {1024,256} split all (median GFlop/s of 3)"
for window in 8 16 32 64 128 0; do
  echo "window $window: $(runs --scales 1024,256 --split all --window $window --niter 3 | cut -d';' -f2 | median)"
done
