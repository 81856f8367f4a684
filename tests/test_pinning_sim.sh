#!/usr/bin/env bash
# Pinning in simulated time (tile_storage.cpp): with GRAIN_SIM_PIN_MBPS and
# GRAIN_SIM_UNPIN_MBPS, a simulated dpotrf on the H200 machine pays pinning its array.
# Pinned whole before the first task (GRAIN_PIN_COLUMNS=0), the call takes its time without
# pinning plus the whole array's pinning and unpinning, to 1 %; pinned by tile column in
# pin tasks, the GPU works on the first columns while the next are pinned, and the call is
# shorter (doc/results/2026-11-28-sim-pin-tasks.md).
# Usage: tests/test_pinning_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)
seconds() {  # environment words -> the call's time
  env "$@" STARPU_SILENT=1 bash "$root/scripts/sim-testing.sh" --build "$build" --machine h200 --gpus 1 --cpus 15 \
    -o potrf -n 16384 -b 4096 --sched darts 2>/dev/null | awk -F';' '
    $1 == "op" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 == "potrf" { print $col["time"] }'
}
rates="GRAIN_SIM_PIN_MBPS=25000 GRAIN_SIM_UNPIN_MBPS=60000"
# shellcheck disable=SC2086
none=$(seconds GRAIN_PIN_COLUMNS=1) whole=$(seconds GRAIN_PIN_COLUMNS=0 $rates) columns=$(seconds GRAIN_PIN_COLUMNS=1 $rates)
echo "potrf n=16384 on the simulated H200: no pinning charged $none s, pinned whole $whole s, by column $columns s"
awk -v none="$none" -v whole="$whole" -v columns="$columns" 'BEGIN {
  if (none == "" || whole == "" || columns == "") { print "FAILED: a run gave no row"; exit 1 }
  bytes = 16384 * 16384 * 8
  serial = none + bytes / 25e9 + bytes / 60e9
  if (whole < 0.99 * serial || whole > 1.01 * serial) { print "FAILED: pinned whole, " whole " s is not " serial " s"; exit 1 }
  if (!(columns < whole)) { print "FAILED: pinning by column is not shorter than whole"; exit 1 }
  if (!(columns > none)) { print "FAILED: pinning by column cost nothing"; exit 1 }
  print "PASSED"
}'
