#!/usr/bin/env bash
# Draws a grain_testing --trace file as a Gantt chart: one row per worker (CPU cores,
# then GPUs), each kernel task a bar from its start to its end, coloured by its level in
# the ladder, so that idle gaps show; under it, the LP's split ratio of each (operation,
# level) over the same time axis. Needs gnuplot (Debian: gnuplot-nox, installed if missing).
# Usage: scripts/plot-trace.sh TRACE.csv OUT.png [RUN]   RUN: which run of the file [the last]
set -euo pipefail
trace=${1:?usage: $0 TRACE.csv OUT.png [RUN]}
out=${2:?usage: $0 TRACE.csv OUT.png [RUN]}
run=${3:-$(awk -F';' '$1 == "task" { r = $2 } END { print r }' "$trace")}
[ -n "$run" ] || { echo "$0: no task in $trace" >&2; exit 2; }
if ! command -v gnuplot >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq gnuplot-nox >/dev/null
fi
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
# Times in ms from the run's first submission. Rows: workers in id order, GPUs labelled.
awk -F';' -v run="$run" -v dir="$data" '
  $1 == "task" && $2 == run {
    n++; worker[n] = $3; unit[$3] = $4; level[n] = $6; start[n] = $11; end_[n] = $12; op[n] = $5
    if (t0 == "" || $10 < t0) t0 = $10
  }
  $1 == "lp" && $2 == run { m++; lpop[m] = $5; lplevel[m] = $6; lpt[m] = $10; lpr[m] = $14 }
  END {
    for (i = 1; i <= n; i++)
      printf "%.4f %d %.4f %d\n", (start[i] + end_[i]) / 2000 - t0 / 1000, worker[i],
        (end_[i] - start[i]) / 2000, level[i] > dir "/tasks.dat"
    for (w in unit) printf "%d %s%s\n", w, unit[w], w > dir "/workers.dat"
    # Only the (operation, level) kinds the run had tasks of.
    for (i = 1; i <= n; i++) kind[op[i] "-l" level[i]] = 1
    for (i = 1; i <= m; i++)
      if ((lpop[i] "-l" lplevel[i]) in kind)
        printf "%.4f %s\n", lpt[i] / 1000 - t0 / 1000, lpr[i] > dir "/lp-" lpop[i] "-l" lplevel[i] ".dat"
    for (i = 1; i <= n; i++) { if (end_[i] > tmax) tmax = end_[i] }
    printf "%.4f\n", tmax / 1000 - t0 / 1000 > dir "/span.dat"
  }' "$trace"
[ -s "$data/tasks.dat" ] || { echo "$0: run $run has no task in $trace" >&2; exit 2; }
ytics=$(sort -n "$data/workers.dat" | awk '{ printf "%s\"%s\" %d", (NR > 1 ? ", " : ""), $2, $1 }')
workers=$(wc -l < "$data/workers.dat")
lp_plots=""
for f in "$data"/lp-*.dat; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .dat); name=${name#lp-}
  lp_plots+="${lp_plots:+, }'$f' using 1:2 with steps lw 2 title '$name'"
done
{
  echo "set terminal pngcairo noenhanced size 1600,$((500 + 22 * workers)) font ',10'"
  echo "set output '$out'"
  echo "set multiplot layout 2,1 title 'grain trace: $trace, run $run'"
  echo "set lmargin 12; set rmargin 22"
  echo "set xrange [0:$(cat "$data/span.dat")]"
  echo "set ytics ($ytics)"
  echo "set yrange [-1:$workers]"
  echo "set xlabel 'ms from the first submission'"
  echo "set key outside right top title 'level'"
  echo "set size 1,0.65; set origin 0,0.35"
  # One plot per level, so that each has its colour and its key entry.
  levels=$(awk '{ print $4 }' "$data/tasks.dat" | sort -un | tr '\n' ' ')
  plots=""
  for l in $levels; do
    plots+="${plots:+, }'$data/tasks.dat' using (\$4 == $l ? \$1 : 1/0):2:3:(0.4) with boxxyerror fs solid 0.9 noborder lt $((l + 1)) title '$l'"
  done
  echo "plot $plots"
  echo "unset ytics; set ytics auto; set yrange [-0.05:1.05]"
  echo "set key outside right top title 'operation-level'"
  echo "set ylabel 'LP split ratio'"
  echo "set size 1,0.35; set origin 0,0"
  if [ -n "$lp_plots" ]; then echo "plot $lp_plots"; else echo "set label 'no LP solve in this run' at graph 0.4,0.5; plot 2 notitle"; fi
  echo "unset multiplot"
} > "$data/plot.gp"
gnuplot "$data/plot.gp"
echo "wrote $out"
