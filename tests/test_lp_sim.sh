#!/usr/bin/env bash
# The lp split policy adapts the granularity to the machine: on simulated CPU cores
# (scripts/sim-testing.sh; kernels timed from sim/ models, deterministic), a dpotrf
# n=4096 on the ladder 2048..256 must run a larger share of its kernels at the finest
# scale on 16 cores than on 2, and at least 95% of them at 256 on 16 cores (where the
# best fixed tile size is 256; on 2 cores it is 512). An LP that meets its MinN with
# phantom kernels instead of real tasks fails it. And 2 cores must keep at least 10% of
# their kernels above 256: the critical-path split asks the ready work to cover R - 1
# times a task's duration, not R times (lp_split.cpp), which split too much on 2 cores,
# where small tiles cost per flop (doc/results/tuning-history.md).
# Usage: tests/test_lp_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)
finest_share() {  # cores -> share of kernels at level 3, from the driver's row
  bash "$root/scripts/sim-testing.sh" --build "$build" --cpus "$1" -o potrf -n 4096 \
    --scales 2048,1024,512,256 --split lp 2>/dev/null | awk -F';' '
    $1 == "op" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    /^#/ { next }
    {
      if ($col["info"] != 0) { print "info " $col["info"] > "/dev/stderr"; exit 1 }
      total = 0
      for (l = 0; l < 4; l++) total += $col["tasks_l" l]
      if (total == 0) { print "no kernel ran" > "/dev/stderr"; exit 1 }
      printf "%.4f\n", $col["tasks_l3"] / total
    }'
}
two=$(finest_share 2)
sixteen=$(finest_share 16)
echo "share of kernels at 256: 2 cores $two, 16 cores $sixteen"
awk -v a="$two" -v b="$sixteen" 'BEGIN {
  if (a == "" || b == "") { print "FAILED: a run gave no row"; exit 1 }
  if (!(b > a)) { print "FAILED: 16 cores do not split finer than 2"; exit 1 }
  if (!(b >= 0.95)) { print "FAILED: 16 cores run less than 95% of their kernels at 256"; exit 1 }
  if (!(a <= 0.9)) { print "FAILED: 2 cores run more than 90% of their kernels at 256"; exit 1 }
}'

# With a GPU, the policy also solves at the first decision on a kind (operation, level)
# the last solve had no pending task of, instead of letting the workers' need, counted in
# cores, split it (lp_split.cpp): a solve sooner than the period (50 tasks) must come at
# such a kind, and some must. The first solve sees every top-level task a call announced,
# so within one factorization no kind is new; a second call is where one comes: posv is
# potrf, then potrs's triangular solves (4 cores + one simulated GPU, n=4096, 2048
# right-hand sides).
stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
bash "$root/scripts/sim-testing.sh" --build "$build" --gpus 1 --cpus 4 -o posv -n 4096 --nrhs 2048 \
  --scales 2048,1024,512,256 --split lp --lp-period 50 --sched dmdar --lp-stats "$stats" >/dev/null 2>&1
awk -F';' -v period=50 '
  NR == 1 { next }
  { submitted[$2] = $4; kind = $7 ";" $8; pending[$2, kind] = $9; kinds[kind] = 1; if ($2 > last) last = $2 }
  END {
    if (last < 1) { print "FAILED: fewer than 2 solves with a GPU"; exit 1 }
    early = 0
    for (s = 1; s <= last; s++) {
      if (submitted[s] - submitted[s - 1] >= period) continue
      new_kind = 0
      for (k in kinds) if (pending[s - 1, k] == 0 && pending[s, k] > 0) new_kind = 1
      if (!new_kind) { print "FAILED: solve " s " came " submitted[s] - submitted[s - 1] " tasks after the last, for no new kind"; exit 1 }
      early++
    }
    print "with a GPU: " early " of " last " solves came early, for a new kind"
    if (early == 0) { print "FAILED: no solve for a kind the last solve had no task of"; exit 1 }
  }' "$stats"

# With a GPU, a top-level task splits only if the chain of children it would give the
# cores fits in the GPUs' remaining work (lp_split.cpp, critical_path_allows): on one
# V100-like GPU and 15 cores, potrf n = 16384 splits none of its 8 panels (the best
# there is the GPU alone, -b 2048), n = 32768 splits the first of its 16 and not the
# last (9 when written).
panels_split() {  # n -> "split submitted" of potrf at level 0
  bash "$root/scripts/sim-testing.sh" --build "$build" --gpus 1 --cpus 15 -o potrf -n "$1" --sched dmdar \
    --window 480 --scales 2048,1024,512,256 --split lp -v 2>/dev/null |
    sed -n 's/.*potrf=\([0-9]*\)\/\([0-9]*\),.*/\1 \2/p' | head -1
}
read -r small_split small_total <<<"$(panels_split 16384)"
read -r large_split large_total <<<"$(panels_split 32768)"
echo "potrf panels split at level 0: n=16384 $small_split of $small_total, n=32768 $large_split of $large_total"
[ "${small_total:-0}" = 8 ] && [ "${large_total:-0}" = 16 ] || { echo "FAILED: no potrf counts in the -v output"; exit 1; }
[ "$small_split" = 0 ] || { echo "FAILED: n=16384 split panels the GPU would run sooner"; exit 1; }
[ "$large_split" -gt 0 ] && [ "$large_split" -lt 16 ] || { echo "FAILED: n=32768 should split its first panels only"; exit 1; }

# A kind's target is a share of its decisions, kept as a credit over solves (lp_split.cpp):
# counted from each solve instead, the first decision after one split whatever the
# target, and with GPUs solves come every few decisions of a kind, so gemm n = 65536 on
# one simulated H100 and 15 cores, whose targets for the 4096 tasks are far below 1 %,
# would split many of them; the credit splits at most 1 %
# (doc/results/2026-11-27-sim-h100-darts-vs-dmdar-windows.md).
gemm_split=$(bash "$root/scripts/sim-testing.sh" --build "$build" --machine h100 --gpus 1 --cpus 15 -o gemm -n 65536 \
  --sched darts --window 512 --scales 4096,2048,1024 --split lp -v 2>/dev/null |
  sed -n 's/.*tasks split\/submitted per operation and level: gemm=\([0-9]*\)\/\([0-9]*\),.*/\1 \2/p' | head -1)
read -r gemm_done gemm_total <<<"$gemm_split"
echo "gemm n=65536 on one H100: $gemm_done of $gemm_total top-level tasks split"
[ "${gemm_total:-0}" = 4096 ] || { echo "FAILED: no gemm counts in the -v output"; exit 1; }
[ "$gemm_done" -le 40 ] || { echo "FAILED: the lp policy split more than 1 % of the 4096 gemm tasks"; exit 1; }

# Cores under 2 % of the machine's flop rate count for no task in the LP, and each GPU
# task costs its worker 30 us beside its kernel (lp_tuning.hpp): on the simulated H200 and
# 15 cores, potrf n = 16384 on the ladder 4096..512 then splits nothing, as the best fixed
# tile there (4096) does not. Otherwise the area bound cuts tiles for work the cores could
# take, and for 2048 dgemms whose kernels alone are slower than eight 1024 ones
# (doc/results/2026-11-28-sim-h200-lp.md).
h200_split=$(bash "$root/scripts/sim-testing.sh" --build "$build" --machine h200 --gpus 1 --cpus 15 -o potrf -n 16384 \
  --sched darts --scales 4096,2048,1024,512 --split lp 2>/dev/null | awk -F';' '
    $1 == "op" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 == "potrf" { s = 0; for (l = 0; l < 4; l++) s += $col["split_l" l]; print s }')
echo "potrf n=16384 on the simulated H200: $h200_split tasks split"
[ -n "$h200_split" ] || { echo "FAILED: no potrf row on the H200"; exit 1; }
[ "$h200_split" = 0 ] || { echo "FAILED: the lp policy split tiles for cores worth 0.3 % of an H200"; exit 1; }

# LU with partial pivoting on 2 simulated cores (the development VM's models, every panel
# height of its tiles): lp on the ladder 512..128 at least 0.98 of -b 512, the best fixed
# tile there. The LP prices a panel as a one-tile column's history and counts a split
# panel's column tasks by their heights (lp_split.cpp, tasks.cpp); panels priced at the
# cores' default rate, with the first child (two sub-tiles high) counted as one
# sub-tile's, make every split look cheaper, and most panels split
# (doc/results/2026-11-29-getrf-lp-panels.md).
getrf_gflops() {
  bash "$root/scripts/sim-testing.sh" --build "$build" --cpus 2 -o getrf -n 4096 "$@" 2>/dev/null | awk -F';' '
    $1 == "op" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 == "getrf" { if ($col["info"] != 0) { print "info " $col["info"] > "/dev/stderr"; exit 1 }; print $col["gflops"] }'
}
fixed=$(getrf_gflops -b 512) || { echo "FAILED: the simulated getrf -b 512 did not run"; exit 1; }
ladder=$(getrf_gflops --scales 512,256,128 --split lp) || { echo "FAILED: the simulated getrf on the ladder did not run"; exit 1; }
echo "getrf n=4096 on 2 simulated cores: -b 512 $fixed GFlop/s, lp $ladder"
awk -v f="$fixed" -v l="$ladder" 'BEGIN {
  if (f == "" || l == "") { print "FAILED: a getrf run gave no row"; exit 1 }
  if (!(l >= 0.98 * f)) { printf "FAILED: lp at %.3f of -b 512\n", l / f; exit 1 }
}'
