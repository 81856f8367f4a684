#!/usr/bin/env bash
# Simulated nodes (a SimGrid StarPU with StarPU-MPI; scripts/sim-testing.sh --nodes): a
# dpotrf on 2 and 4 simulated H200 machines, one process each, on the grids 1 x 2, 2 x 1
# and 2 x 2. Each must end with info 0, every kernel must run exactly once over the
# processes (their workers' counts, STARPU_WORKER_STATS, add up to the tile count's), and
# every process's GPU must run some; every process refuses a grid that is not theirs.
# --trace: each process writes its own file (FILE, FILE.rank1, ...), its kernels alone.
# Usage: tests/test_nodes_sim.sh path/to/simulated-nodes/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulated-nodes/build}
root=$(cd "$(dirname "$0")/.." && pwd)
n=16384 nb=4096
nt=$((n / nb))
kernels=$((nt * (nt + 1) * (nt + 2) / 6))  # potrf, trsm, syrk and gemm of the tile loop nest

traces=$(mktemp -d)
trap 'rm -rf "$traces"' EXIT
for grid in "2 1 2" "2 2 1" "4 2 2"; do
  set -- $grid
  trace=$traces/$2x$3.csv
  out=$(STARPU_WORKER_STATS=1 bash "$root/scripts/sim-testing.sh" --build "$build" --nodes "$1" --machine h200 \
    --gpus 1 --cpus 2 -o potrf -n $n -b $nb --split none -P "$2" -Q "$3" --trace "$trace" 2>&1)
  row=$(echo "$out" | grep '^potrf;') || { echo "$out" | tail -20; echo "FAILED: no result row on $2 x $3"; exit 1; }
  [ "$(echo "$row" | wc -l)" -eq 1 ] || { echo "FAILED: $(echo "$row" | wc -l) result rows, not rank 0's alone"; exit 1; }
  [ "${row##*;}" = 0 ] || { echo "FAILED: info ${row##*;} on $2 x $3"; exit 1; }
  # Each process prints its workers' stats at its end, a worker's name line (CUDA ... or
  # CPU ...) and then its "N task(s)"; the processes' blocks interleave, a worker's two
  # lines do not. One GPU per process: at tiles of 4096 the GPUs run every kernel.
  stats=$(echo "$out" | awk '/^CUDA /{w = "gpu"; next} /^CPU /{w = "cpu"; next}
    /task\(s\)/ && w != "" {t += $1; if (w == "gpu") g = g " " $1; w = ""} END {print t + 0; print substr(g, 2)}')
  total=$(echo "$stats" | sed -n 1p) gpus=$(echo "$stats" | sed -n 2p)
  echo "$1 nodes, grid $2 x $3: kernels per GPU: $gpus; $total of $kernels; $row"
  [ "$total" -eq "$kernels" ] || { echo "FAILED: the processes ran $total kernels, not $kernels"; exit 1; }
  [ "$(echo "$gpus" | wc -w)" -eq "$1" ] || { echo "FAILED: $(echo "$gpus" | wc -w) GPUs' counts, not $1"; exit 1; }
  for g in $gpus; do [ "$g" -gt 0 ] || { echo "FAILED: a process's GPU ran no kernel"; exit 1; }; done
  traced=0
  for ((r = 0; r < $1; ++r)); do
    file=$trace; [ "$r" -eq 0 ] || file=$trace.rank$r
    lines=$(grep -c '^task;' "$file" 2>/dev/null) || true
    [ "${lines:-0}" -gt 0 ] || { echo "FAILED: no kernel in rank $r's trace $file"; exit 1; }
    traced=$((traced + lines))
  done
  [ "$traced" -eq "$kernels" ] || { echo "FAILED: the processes' traces hold $traced kernels, not $kernels"; exit 1; }
done

# SimGrid's smpirun exits 0 whatever the simulated processes return: each must say it refused.
refusals=$(bash "$root/scripts/sim-testing.sh" --build "$build" --nodes 2 --machine h200 --gpus 1 --cpus 2 \
  -o potrf -n 8192 -b 4096 -P 1 -Q 3 2>&1 | grep -c 'must equal the processes of the run, 2') || true
[ "$refusals" -eq 2 ] || { echo "FAILED: $refusals of 2 processes refused a 1 x 3 grid"; exit 1; }
echo "a 1 x 3 grid on 2 processes: refused by both"
