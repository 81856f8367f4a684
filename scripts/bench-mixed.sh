#!/usr/bin/env bash
# The mixed-precision solves against the double ones: per round and order n, grain's dgesv,
# then its gesv_mixed with LAPACKE's dsgesv as vendor in the same process (and the same for
# posv), alternated, each process warmed up first; automatic tiles, one right-hand side.
# Prints each run's times, then the medians [lowest-highest] of grain's double solve over
# its mixed one, and of LAPACKE's mixed solve over grain's, with the refinement's steps and
# backward errors.
# Usage: scripts/bench-mixed.sh [BUILD_DIR] [ROUNDS]   GRAIN_BENCH_N: the orders [4096 8192]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
driver=${1:-$root/build}/testing_drivers/grain_testing
rounds=${2:-5}
export STARPU_SILENT=1
out=$(mktemp)
trap 'rm -rf "$out"' EXIT
# The row of OP in the driver's output, by column name.
row() {
  "$driver" "$@" --warmup 2>/dev/null | awk -F';' '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { printf "%s %s %s %s %s\n", $col["time"], ("vendor_time" in col) ? $col["vendor_time"] : "-",
             ("steps" in col) ? $col["steps"] : "-", ("residual" in col) ? $col["residual"] : "-", $col["nb"] }'
}
for r in $(seq "$rounds"); do
  for n in ${GRAIN_BENCH_N:-4096 8192}; do
    for op in gesv posv; do
      echo "$r $n $op double $(row -o $op -p d -n "$n")"
      echo "$r $n $op mixed $(row -o ${op}_mixed -p d -n "$n" --vendor --check)"
    done
  done
  echo "# round $r of $rounds done" >&2
done >"$out"
echo "# round n op kind time vendor_time steps residual nb"
cat "$out"
awk '
  $4 == "double" { double[$1, $2, $3] = $5 }
  $4 == "mixed" {
    key = $2 " " $3; keys[key] = 1; k = ++count[key]
    own[key, k] = double[$1, $2, $3] / $5; vendor[key, k] = $6 / $5
    steps[key] = steps[key] " " $7; residual[key] = residual[key] " " $8
  }
  function median(a, key, k,    i, j, v, s) {  # insertion sort (mawk has no asort)
    for (i = 1; i <= k; i++) {
      v = a[key, i]
      for (j = i; j > 1 && s[j - 1] > v; j--) s[j] = s[j - 1]
      s[j] = v
    }
    return sprintf("%.3f [%.3f-%.3f]", s[int((k + 1) / 2)], s[1], s[k])
  }
  END {
    for (key in keys) {
      printf "n=%s: grain double / mixed %s; LAPACKE mixed / grain mixed %s; steps%s; residuals%s\n", key,
             median(own, key, count[key]), median(vendor, key, count[key]), steps[key], residual[key]
    }
  }' "$out" | sort -t= -k2 -n
