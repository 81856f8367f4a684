# One grain_testing -v run as a line of scripts/splits-summary.awk's input:
# KEY|gflops|MB to GPUs|MB from GPUs ("failed" for the GFlop/s when the run printed none),
# KEY being "op n sched|tiles|run". Used by scripts/bench-splits.sh and device-run.sh:
#   grain_testing ... -v | awk -F';' -v key="potrf 32768 darts|-b 2048 --split none|1" -f scripts/splits-line.awk
$1 == "op" { for (i = 1; i <= NF; i++) col[$i] = i; next }
/^# gpu transfers:/ { split($0, f, " "); to = f[4]; from = f[8] }
!/^#/ && col["gflops"] { g = $col["gflops"] }
END { print key "|" (g == "" ? "failed" : g) "|" to "|" from }
