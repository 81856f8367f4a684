#!/usr/bin/env bash
# The overhead of distributed runs on one machine: dpotrf (or $GRAIN_BENCH_OP) by one process with
# 2 workers (no mpirun) against 2 processes of 1 worker each under mpirun (grids 1 x 2
# and 2 x 1), and one process with 1 worker (the per-core rate); ROUNDS rounds, each
# running every configuration once, so that they alternate. Prints each run's GFlop/s,
# then the medians [lowest-highest] of each configuration's rate over the 2-worker run of
# its round.
# Usage: scripts/bench-mpi.sh [BUILD_DIR] [ROUNDS]   (a build with GRAIN_USE_MPI)
#   GRAIN_BENCH_OP the operation [potrf]; GRAIN_BENCH_N  the order n [8192];
#   GRAIN_BENCH_NB the tile size [512]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
driver=${1:-$root/build}/testing_drivers/grain_testing
rounds=${2:-3}
n=${GRAIN_BENCH_N:-8192}
nb=${GRAIN_BENCH_NB:-512}
op=${GRAIN_BENCH_OP:-potrf}
# Open MPI as root, and more processes than cores where asked; its single-copy
# shared-memory transport fails in containers.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export STARPU_SILENT=1
out=$(mktemp)
# Ranks bound to one core would recalibrate the bus model the one-process runs keep for
# the whole machine, every round and together (doc/distributed.md): they get a copy of
# the StarPU home (its codelet models included), calibrated once by one rank.
mpi_home=$(mktemp -d)
trap 'rm -rf "$out" "$mpi_home"' EXIT
cp -r "${STARPU_HOME:-$HOME}/.starpu" "$mpi_home/" 2>/dev/null || true
mpirun() { STARPU_HOME=$mpi_home command mpirun "$@"; }
mpirun -np 1 "$driver" -o potrf -n 256 -b 64 -t 1 >/dev/null 2>&1
rate() { "$@" 2>/dev/null | awk -F';' -v op="$op" '$1 == op { print $12 }'; }
run="-o $op -n $n -b $nb"
for r in $(seq "$rounds"); do
  # shellcheck disable=SC2086  # run holds several options
  {
    echo "$r one-process-2-workers $(rate "$driver" $run -t 2)"
    echo "$r mpirun-2x1worker-1x2 $(rate mpirun -np 2 "$driver" $run -t 1 -P 1 -Q 2)"
    echo "$r mpirun-2x1worker-2x1 $(rate mpirun -np 2 "$driver" $run -t 1 -P 2 -Q 1)"
    echo "$r one-process-1-worker $(rate "$driver" $run -t 1)"
  }
  echo "# round $r of $rounds done" >&2
done >"$out"
cat "$out"
awk '
  { rate[$1, $2] = $3; names[$2] = 1; rounds[$1] = 1 }
  END {
    for (name in names) {
      k = 0
      for (r in rounds) {  # insertion sort (mawk has no asort)
        v = rate[r, name] / rate[r, "one-process-2-workers"]
        for (i = ++k; i > 1 && ratio[i - 1] > v; i--) ratio[i] = ratio[i - 1]
        ratio[i] = v
      }
      printf "%-24s median %.3f [%.3f-%.3f] of one process with 2 workers\n", name, ratio[int((k + 1) / 2)], ratio[1], ratio[k]
      delete ratio
    }
  }' "$out"
