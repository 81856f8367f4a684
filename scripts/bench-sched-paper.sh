#!/usr/bin/env bash
# The experiments of the DARTS paper ("Memory-Aware Scheduling of Tasks Sharing Data on
# Multiple GPUs with Dynamic Runtime Systems", IPDPS 2022, section V) under its own
# conditions, in grain's simulator: scripts/bench-sched.sh runs this with
# GRAIN_BENCH_MODE=paper. What differs from bench-sched.sh's default mode:
# - tasks only read (grain_sched_bench --outputs none): the paper's model has no outputs;
# - the schedulers' time is charged (STARPU_SIMGRID_SCHED_COST=1) for the figures that
#   come from real runs, not for Figures 5 and 10, which the paper simulated without it;
# - REPS runs per point, seeds 1..REPS (the task order of 2d-random, the tasks sparse
#   keeps, DARTS's random choices; with the time charged, each run also differs by what
#   the machine's clock measured): the paper averages 10;
# - every figure's set: 2D on 1, 2 and 4 GPUs, 2D in random order, 3D, Cholesky tasks,
#   sparse 2D with 500 MB per GPU and without a limit (32 GB). The sparse sets reach the
#   paper's 8400 MB (N = 300); the others stop at 1770 MB (1 GPU), 2359 (2 GPUs), 3539 (2D
#   random), 2949 (2D, 4 GPUs), 14930 (3D), 3023 (Cholesky), where the paper's 2D go to 8400
#   MB and 3D to 50000: with the time charged, a 2D point of 40000 tasks on 4 GPUs takes
#   DMDAR minutes of a 2-core machine.
# Usage: scripts/bench-sched-paper.sh GRAIN_SCHED_BENCH OUTDIR
#   GRAIN_BENCH_REPS   runs per point [3]
#   GRAIN_BENCH_SCHEDS the schedulers that get REPS runs per point, the others one [all]
#   GRAIN_BENCH_JOBS   runs at once [nproc]
#   GRAIN_BENCH_QUICK=1  the two smallest sizes of each figure
#   GRAIN_BENCH_FIGS   the figures to run ["3 5 6 8 9 10 11 12 13"]
#   GRAIN_BENCH_EXTRA  more schedulers on every figure, e.g. the other papers' placements
#                      ("xkaapi-heft dada owner-load owner-cyclic"; doc/scheduling.md) [none]
#   GRAIN_BENCH_NMAX   the sizes N above it left out [none]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bench=${1:?usage: $0 GRAIN_SCHED_BENCH OUTDIR}
out=${2:?usage: $0 GRAIN_SCHED_BENCH OUTDIR}
reps=${GRAIN_BENCH_REPS:-3}
mkdir -p "$out"

# figure|scenario|GPUs|MB per GPU|time charged|sizes N|schedulers|DARTS variant the paper
# reports|its gain over DMDAR, as the paper states it
figures='3|2d|1|500|1|10 20 30 40 50 60|eager dmdar darts-lru darts|darts|+8.5 % on average
5|2d|2|500|0|10 20 40 60 80|eager dmdar darts-lru darts|darts|not stated (simulated, time not charged)
6|2d|2|500|1|10 20 40 60 80|eager dmdar darts-lru darts|darts|+9.4 %
8|2d|4|500|1|20 40 60 80 100|eager dmdar darts-lru darts|darts|not stated (above DMDAR on its last two points)
9|2d-random|2|500|1|10 20 40 60 80 100 120|eager dmdar darts-lru darts|darts|+75 % on average over all points
10|3d|4|500|0|5 10 15 20 25 30 35 40 45|eager dmdar darts darts-3inputs|darts-3inputs|+61 %
11|cholesky|4|500|1|5 10 20 30 40|eager dmdar darts darts-3inputs darts-opti-3inputs|darts-opti-3inputs|+49 % over hMETIS+R without its partitioning time (grain has no hMETIS+R)
12|sparse|4|500|1|50 100 150 200 250 300|eager dmdar darts darts-opti|darts|+40 %
13|sparse|4|32768|1|50 100 150 200 250 300|eager dmdar darts darts-opti|darts-opti|not stated (the best of all)'
figs=" ${GRAIN_BENCH_FIGS:-3 5 6 8 9 10 11 12 13} "

# One job per run: figure scenario gpus mem cost n sched rep.
jobs=$out/jobs
: >"$jobs"
while IFS='|' read -r fig scenario gpus mem cost sizes scheds _; do
  [[ $figs == *" $fig "* ]] || continue
  # shellcheck disable=SC2086
  [ "${GRAIN_BENCH_QUICK:-0}" = 1 ] && sizes=$(echo $sizes | cut -d' ' -f1-2)
  for n in $sizes; do
    [ -n "${GRAIN_BENCH_NMAX:-}" ] && [ "$n" -gt "$GRAIN_BENCH_NMAX" ] && continue
    for s in $scheds ${GRAIN_BENCH_EXTRA:-}; do
    runs=$reps
    [ -n "${GRAIN_BENCH_SCHEDS:-}" ] && [[ " $GRAIN_BENCH_SCHEDS " != *" $s "* ]] && runs=1
    for r in $(seq "$runs"); do
    echo "$fig $scenario $gpus $mem $cost $n $s $r"
  done; done; done >>"$jobs"
done <<<"$figures"
sort -k6,6nr -o "$jobs" "$jobs"  # the largest first, so that the longest runs do not start last

mkdir -p "$out/runs"
export bench out
# A run whose file is already in OUTDIR is not run again: an interrupted sweep goes on.
xargs -P "${GRAIN_BENCH_JOBS:-$(nproc)}" -L 1 sh -c '
  f=$0 sc=$1 g=$2 m=$3 c=$4 n=$5 s=$6 r=$7
  [ -s "$out/runs/$f-$n-$s-$r.csv" ] && exit 0
  if [ "$c" = 1 ]; then export STARPU_SIMGRID_SCHED_COST=1; else unset STARPU_SIMGRID_SCHED_COST; fi
  GRAIN_DARTS_SEED=$r "$bench" --scenario "$sc" --gpus "$g" --gpu-mem "$m" --sizes "$n" --sched "$s" \
    --seed "$r" --outputs none 2>/dev/null | grep -v "^#" | grep -v "^scenario" |
    sed "s/^/$f;$r;/" >"$out/runs/$f-$n-$s-$r.csv"' <"$jobs"

csv=$out/paper.csv
{
  echo "figure;rep;scenario;sched;gpus;working_set_mb;gflops;bytes_h2d;loads;evictions;n;tasks;executed;time_ms"
  while read -r f _ _ _ _ n s r; do cat "$out/runs/$f-$n-$s-$r.csv" 2>/dev/null || true; done <"$jobs" |
    sort -t';' -k1,1n -k11,11n -k4,4 -k2,2n
} >"$csv"
done_runs=$(($(wc -l <"$csv") - 1))
[ "$done_runs" -eq "$(wc -l <"$jobs")" ] || echo "bench-sched-paper.sh: $(($(wc -l <"$jobs") - done_runs)) runs failed" >&2

# Per figure and scheduler: the mean over repetitions at each point, its ratio to DMDAR's
# mean there, the mean and lowest of those ratios over the points (the paper's "on
# average"), and the points below DMDAR. Per point: the mean GFlop/s with the lowest and
# highest run, the MB loaded, and the mean time against two bounds: the run's own (the
# larger of the GPUs' compute time, tasks x flops at 13.2 TFlop/s each (sim/README.md),
# and its bytes over the shared 12 GB/s host link) and the set's (the working set loaded
# once instead of the run's bytes); idle is the GPUs' time not computing.
echo "$figures" | awk -F'|' -v csv="$csv" '
  { paper[$1] = $9; reported[$1] = $8; set[$1] = $2 ", " $3 " GPU(s), " ($4 >= 32768 ? "no memory limit" : $4 " MB each") ", " ($5 ? "time charged" : "time not charged") }
  END {
    FS = ";"
    while ((getline line < csv) > 0) {
      split(line, f, ";"); if (f[1] == "figure") continue
      k = f[1] SUBSEP f[4] SUBSEP f[11]
      gf[k] += f[7]; n[k]++; by[k] += f[8]; tm[k] += f[14]; ws[f[1] SUBSEP f[11]] = f[6]
      if (n[k] == 1 || f[7] < lo_gf[k]) lo_gf[k] = f[7]
      if (n[k] == 1 || f[7] > hi_gf[k]) hi_gf[k] = f[7]
      flops = f[7] * 1e9 * f[14] / 1e3  # the run'"'"'s flops, from its rate and time
      bound = flops / (f[5] * 13.2e12) * 1e3; bus = f[8] / 12e9 * 1e3
      cb[k] += bound; bb[k] += bus; sb[k] += (bound > f[6] / 12 ? bound : f[6] / 12)  # MB at 12 GB/s, in ms
      if (!((f[1] SUBSEP f[11]) in seenp)) { seenp[f[1] SUBSEP f[11]] = 1; pts[f[1]] = pts[f[1]] " " f[11] }
      if (!((f[1] SUBSEP f[4]) in seens)) { seens[f[1] SUBSEP f[4]] = 1; scs[f[1]] = scs[f[1]] " " f[4] }
    }
    for (fig = 1; fig <= 13; fig++) {
      if (!(fig in pts)) continue
      printf "\nFigure %s: %s; N =%s\n", fig, set[fig], pts[fig]
      printf "  the paper: %s for %s\n", paper[fig], reported[fig]
      np = split(pts[fig], p, " "); ns = split(scs[fig], s, " ")
      for (i = 1; i <= ns; i++) {
        if (s[i] == "dmdar") continue
        sum = 0; m = 0; lo = 1e9; below = ""
        for (j = 1; j <= np; j++) {
          a = fig SUBSEP s[i] SUBSEP p[j]; d = fig SUBSEP "dmdar" SUBSEP p[j]
          if (!n[a] || !n[d]) continue
          r = (gf[a] / n[a]) / (gf[d] / n[d]); sum += r; m++; if (r < lo) lo = r
          if (r < 1) below = below sprintf(" N=%s (%.0f MB) x%.3f", p[j], ws[fig SUBSEP p[j]], r)
        }
        if (m) printf "  %-19s x%.3f on average over %d points (lowest x%.3f)%s\n", s[i], sum / m, m, lo,
                      below == "" ? "" : "; below DMDAR at" below
      }
      printf "  per point, mean of the runs: GFlop/s [lowest-highest run, runs], MB loaded, time against the run'"'"'s own bound and the set'"'"'s, GPUs idle\n"
      for (j = 1; j <= np; j++) {
        printf "    N=%s (%.0f MB):\n", p[j], ws[fig SUBSEP p[j]]
        for (i = 1; i <= ns; i++) {
          a = fig SUBSEP s[i] SUBSEP p[j]; if (!n[a]) continue
          t = tm[a] / n[a]; c = cb[a] / n[a]; b = bb[a] / n[a]
          printf "      %-19s %6.0f [%.0f-%.0f, %d]  %6.0f MB  own %.2f  set %.2f  idle %.0f%%\n", s[i], gf[a] / n[a], lo_gf[a],
                 hi_gf[a], n[a], by[a] / n[a] / 1e6, (c > b ? c : b) / t, sb[a] / n[a] / t, 100 * (1 - c / t)
        }
      }
    }
  }' | tee "$out/summary"
echo
echo "# runs in $csv, summary in $out/summary"
