#!/usr/bin/env bash
# The placements of src/sched/placement.hpp compute right results: potrf, getrf_nopiv,
# getrf and gemm under every placement and every split policy, with --check (the driver's
# residual test; it exits 1 when a residual fails), at a size that is not a multiple of
# the scales. On cores only: the GPU side is tests/test_placement_sim.sh's.
# Usage: tests/test_placements.sh path/to/grain_testing (GRAIN_TEST_PLACEMENT_SPLITS: other
# split policies)
set -euo pipefail
testing=${1:?usage: $0 path/to/grain_testing}
placements="xkaapi-heft dada dada:0 dada-cp:1 owner-random owner-load owner-load:inf owner-cyclic"
splits=${GRAIN_TEST_PLACEMENT_SPLITS:-none all depth:1 lp random:0.5:3}
runs=0
for sched in $placements; do
  for split in $splits; do
    for op in potrf getrf_nopiv getrf gemm; do
      out=$("$testing" -o "$op" -n 333 --scales 96,48,24 --split "$split" --sched "$sched" --check 2>&1) && rc=0 || rc=$?
      if [ "$rc" -ne 0 ]; then
        # The exit status says how it ended: above 128, killed by signal status - 128.
        echo "$out" | tail -20
        echo "FAILED: $op under --sched $sched --split $split (exit status $rc)"
        exit 1
      fi
      echo "$out" | grep -q ";SUCCESS;" || { echo "$out" | tail -5; echo "FAILED: no SUCCESS row ($op, $sched, $split)"; exit 1; }
      runs=$((runs + 1))
    done
  done
done
echo "$runs runs: every residual below its bound"
