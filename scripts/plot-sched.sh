#!/usr/bin/env bash
# Plots grain_sched_bench output like the DARTS paper's figures: for each scenario,
# throughput (GFlop/s) against the working set (MB), one line per scheduler, as
# OUTDIR/<scenario>-<gpus>gpu.png. Needs gnuplot (Debian: gnuplot-nox, installed if missing).
# Usage: scripts/plot-sched.sh RESULTS.csv OUTDIR
set -euo pipefail
csv=${1:?usage: $0 RESULTS.csv OUTDIR}
out=${2:?usage: $0 RESULTS.csv OUTDIR}
if ! command -v gnuplot >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq gnuplot-nox >/dev/null
fi
mkdir -p "$out"
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
# One file per (scenario, gpus, scheduler): working_set_mb gflops, in size order.
awk -F';' -v dir="$data" '
  /^#/ { next }
  $1 == "scenario" { for (i = 1; i <= NF; i++) col[$i] = i; next }
  {
    key = $col["scenario"] "-" $col["gpus"] "gpu"
    file = dir "/" key "." $col["sched"]
    print $col["working_set_mb"], $col["gflops"] >> file
    plots[key] = 1
  }
  END { for (k in plots) print k > (dir "/plots") }' "$csv"
[ -f "$data/plots" ] || { echo "plot-sched.sh: no result rows in $csv" >&2; exit 1; }
while read -r plot; do
  lines=""
  for f in "$data/$plot".*; do
    sort -g -o "$f" "$f"
    sched=${f##*.}
    lines="${lines:+$lines, }'$f' using 1:2 with linespoints title '$sched'"
  done
  gnuplot <<GP
set terminal pngcairo size 800,500
set output '$out/$plot.png'
set title '$plot'
set xlabel 'working set (MB)'
set ylabel 'GFlop/s'
set key bottom left
set grid
plot $lines
GP
  echo "$out/$plot.png"
done < "$data/plots"
