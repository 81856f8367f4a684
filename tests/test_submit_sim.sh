#!/usr/bin/env bash
# Submission in simulated time (recursion.cpp): with GRAIN_SIM_SUBMIT_US, each tile task
# costs the submitting thread that long, so a call cannot end before all of its tasks'
# submissions have: a dpotrf of 816 tile tasks at 2 ms each takes at least 1.632 s, where
# the same uncharged takes its kernels' time.
# Usage: tests/test_submit_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)
seconds() {  # environment words -> the call's time
  env "$@" STARPU_SILENT=1 bash "$root/scripts/sim-testing.sh" --build "$build" --cpus 4 \
    -o potrf -n 4096 -b 256 2>/dev/null | awk -F';' '
    $1 == "op" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 == "potrf" { print $col["time"] }'
}
none=$(seconds GRAIN_SIM_SUBMIT_US=0) charged=$(seconds GRAIN_SIM_SUBMIT_US=2000)
echo "potrf n=4096 nb=256 (816 tile tasks) on 4 simulated cores: $none s uncharged, $charged s at 2 ms a submission"
awk -v none="$none" -v charged="$charged" 'BEGIN {
  if (none == "" || charged == "") { print "FAILED: a run gave no row"; exit 1 }
  if (charged < 816 * 0.002) { print "FAILED: " charged " s is shorter than the 816 submissions charged"; exit 1 }
  if (none >= 816 * 0.002) { print "FAILED: uncharged, the call took the submissions time already"; exit 1 }
  print "PASSED"
}'
