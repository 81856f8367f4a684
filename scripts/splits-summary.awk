# --split lp against the best fixed tile of the same case: per case ("op n sched"), each
# tile configuration's mean GFlop/s over its runs [lowest-highest] and mean MB moved to /
# from the GPUs, and the lp row's ratios to the fixed tile with the best mean. Input
# lines: case|tiles|run (a window or a round)|gflops|MB to GPUs|MB from GPUs, "failed"
# for the GFlop/s of a run that printed none. Used by scripts/bench-splits.sh (simulated)
# and scripts/device-run.sh's splits phase (a real GPU):
#   awk -F'|' -f scripts/splits-summary.awk RUNS
# Lines that start with # are skipped.
/^#/ { next }
$4 == "failed" { failed++; next }
{ k = $1 SUBSEP $2; sum[k] += $4; n[k]++; to[k] += $5; from[k] += $6
  if (!(k in lo) || $4 < lo[k]) lo[k] = $4
  if (!(k in hi) || $4 > hi[k]) hi[k] = $4
  if (!($1 in seen)) { seen[$1] = 1; order[++cases] = $1 }
  if (!(k in known)) { known[k] = 1; tiles[$1] = tiles[$1] "|" $2 } }
END {
  for (i = 1; i <= cases; i++) {
    c = order[i]; print c
    m = split(substr(tiles[c], 2), t, "|"); best = 0
    for (j = 1; j <= m; j++) {
      k = c SUBSEP t[j]
      if (t[j] !~ /lp/ && sum[k] / n[k] > best) { best = sum[k] / n[k]; bytes = (to[k] + from[k]) / n[k]; bt = t[j] }
    }
    for (j = 1; j <= m; j++) {
      k = c SUBSEP t[j]; mean = sum[k] / n[k]
      line = sprintf("  %-40s %8.0f [%.0f-%.0f]  MB %6.0f / %6.0f", t[j], mean, lo[k], hi[k], to[k] / n[k], from[k] / n[k])
      if (t[j] ~ /lp/ && best > 0)
        line = line sprintf("  lp / best (%s): %.3f, bytes %s", bt, mean / best,
                            bytes > 0 ? sprintf("%.2f", (to[k] + from[k]) / n[k] / bytes) : "-")
      print line
    }
  }
  if (failed) printf "%d runs failed (%s)\n", failed, FILENAME
}
