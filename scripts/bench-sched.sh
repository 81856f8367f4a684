#!/usr/bin/env bash
# The DARTS + LUF goals, in simulation (grain_sched_bench from a GRAIN_SIMULATION=ON build):
#   2 GPUs x 500 MB, 2D product and its randomized order, over working sets from the two
#   GPUs' memory (1000 MB) to three times it (N = 40..100 tiles per dimension);
#   4 GPUs x 500 MB, 3D product (N = 5..20, 180-4420 MB) and Cholesky tasks (N = 5..40,
#   55-3020 MB): from below one GPU's memory to several times it.
# Prints every run, then per scenario and scheduler its throughput and its transfers
# against DMDAR's at the same point (the ratio at each point, their mean and minimum;
# transfers: the points where it moves no more bytes than DMDAR, and the total ratio),
# and draws the plots with scripts/plot-sched.sh.
# Usage: scripts/bench-sched.sh [BUILD_SIM_DIR] [OUTDIR]
#   GRAIN_BENCH_JOBS  runs at once [nproc]: the time measured is simulated, so runs in
#                     parallel give the results they give alone
#   GRAIN_BENCH_QUICK=1  the two smallest sizes of each sweep only
#   GRAIN_BENCH_MODE=paper  the DARTS paper's conditions instead (section V, figure by
#                     figure): tasks that only read (its model has no outputs), the
#                     schedulers' time charged where its figure comes from real runs
#                     (STARPU_SIMGRID_SCHED_COST=1; pop included, StarPU patch 06), and
#                     GRAIN_BENCH_REPS runs per point [3] (seeds 1..REPS: the bench's, for
#                     the random order and the sparse choice, and DARTS's own); prints per
#                     figure the mean ratio to DMDAR next to the paper's, the points where
#                     a DARTS variant is below DMDAR, and what bounds each run
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-sim}
out=${2:-$(mktemp -d)}
bench=$build/testing_drivers/grain_sched_bench
[ -x "$bench" ] || { echo "bench-sched.sh: no $bench (build with -DGRAIN_SIMULATION=ON)" >&2; exit 1; }
mkdir -p "$out"
if [ "${GRAIN_BENCH_MODE:-}" = paper ]; then
  exec bash "$root/scripts/bench-sched-paper.sh" "$bench" "$out"
fi

sizes_2gpu="40 50 60 70 80 90 100"
sizes_3d="5 10 15 20"
sizes_cholesky="5 10 15 20 30 40"
if [ "${GRAIN_BENCH_QUICK:-0}" = 1 ]; then sizes_2gpu="40 50" sizes_3d="5 10" sizes_cholesky="5 10"; fi
# One line per run: scenario gpus size sched.
jobs=$(mktemp)
runs=$(mktemp -d)
trap 'rm -rf "$jobs" "$runs"' EXIT
for scenario in 2d 2d-random; do
  for n in $sizes_2gpu; do
    for sched in eager dmdar darts darts-lru darts-wb; do echo "$scenario 2 $n $sched"; done
  done
done >>"$jobs"
for scenario in 3d cholesky; do
  sizes=sizes_$scenario
  for n in ${!sizes}; do
    for sched in eager dmdar darts darts-3inputs darts-opti darts-wb; do echo "$scenario 4 $n $sched"; done
  done
done >>"$jobs"

export bench runs
# The largest first, so that the longest runs do not start last.
sort -k3,3nr -o "$jobs" "$jobs"
xargs -P "${GRAIN_BENCH_JOBS:-$(nproc)}" -L 1 sh -c \
  '"$bench" --scenario "$0" --gpus "$1" --gpu-mem 500 --sizes "$2" --sched "$3" 2>/dev/null |
     grep -v "^#" >"$runs/$0-$1-$2-$3.csv"' <"$jobs"

csv=$out/sched.csv
{
  echo "scenario;sched;gpus;working_set_mb;gflops;bytes_h2d;loads;evictions;n;tasks;executed;time_ms"
  cat "$runs"/*.csv | grep -v '^scenario' | sort -t';' -k1,1 -k3,3n -k9,9n -k2,2
} >"$csv"
[ "$(grep -vc '^scenario' "$csv")" -eq "$(wc -l <"$jobs")" ] || { echo "bench-sched.sh: some runs failed" >&2; exit 1; }
column -s';' -t "$csv"

echo
echo "# against dmdar at the same point: GFlop/s ratio mean (min), bytes h2d: points <= dmdar, total ratio"
awk -F';' 'NR > 1 {
    key = $1 ";" $3; point = key ";" $9
    gf[point ";" $2] = $5; by[point ";" $2] = $6
    if (!seen[point]++) points[key] = points[key] " " $9
    if (!(key ";" $2 in has)) { has[key ";" $2] = 1; scheds[key] = scheds[key] " " $2 }
  }
  END {
    for (key in points) {
      split(key, k, ";")
      np = split(points[key], ns, " "); ns_count = split(scheds[key], ss, " ")
      for (i = 1; i <= ns_count; i++) {
        s = ss[i]; if (s == "dmdar") continue
        sum = 0; min = 1e30; le = 0; bs = 0; bd = 0; m = 0
        for (j = 1; j <= np; j++) {
          p = key ";" ns[j]
          if (!((p ";dmdar") in gf) || !((p ";" s) in gf)) continue
          r = gf[p ";" s] / gf[p ";dmdar"]; sum += r; if (r < min) min = r; m++
          if (by[p ";" s] <= by[p ";dmdar"]) le++
          bs += by[p ";" s]; bd += by[p ";dmdar"]
        }
        if (m) printf "%s %s GPUs, N =%s: %-13s GFlop/s x%.2f (min x%.2f), bytes <= dmdar at %d of %d, total bytes x%.2f\n",
                      k[1], k[2], points[key], s, sum / m, min, le, m, (bd ? bs / bd : 0)
      }
    }
  }' "$csv" | sort

bash "$root/scripts/plot-sched.sh" "$csv" "$out" >/dev/null
echo
echo "# results and plots in $out"
