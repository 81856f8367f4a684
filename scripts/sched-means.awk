# Schedulers against a baseline: per case, each scheduler's mean GFlop/s [min-max] over
# its runs and the ratio of its mean to the first scheduler's; then, per scheduler, the
# geometric mean of those ratios and the lowest. Input lines: sched|run|case|gflops
# ("failed" for a run that gave none), as bench-hybrid.sh and bench-gpu.sh's hybrid
# phase write them:
#   awk -F'|' -v scheds="dmdar darts" -f scripts/sched-means.awk RUNS
$4 == "failed" { failed++; next }
{ k = $3 SUBSEP $1; sum[k] += $4; n[k]++
  if (!(k in lo) || $4 < lo[k]) lo[k] = $4
  if (!(k in hi) || $4 > hi[k]) hi[k] = $4
  if (!($3 in seen)) { seen[$3] = 1; order[++cases] = $3 } }
END {
  ns = split(scheds, s, " ")
  for (i = 1; i <= cases; i++) {
    c = order[i]; line = c; b = s[1]
    for (j = 1; j <= ns; j++) {
      k = c SUBSEP s[j]
      if (!n[k]) { line = line "; " s[j] " -"; continue }
      m = sum[k] / n[k]; line = line sprintf("; %s %.0f [%.0f-%.0f]", s[j], m, lo[k], hi[k])
      if (j > 1 && n[c SUBSEP b]) {
        r = m / (sum[c SUBSEP b] / n[c SUBSEP b]); line = line sprintf(" (%.3f)", r)
        logs[j] += log(r); cnt[j]++; if (!(j in worst) || r < worst[j]) worst[j] = r
      }
    }
    print line
  }
  for (j = 2; j <= ns; j++)
    if (cnt[j]) printf "%s / %s: geometric mean of the ratios of means %.3f, lowest %.3f, over %d cases\n", s[j], s[1], exp(logs[j] / cnt[j]), worst[j], cnt[j]
  if (failed) printf "%d runs failed (see the runs above)\n", failed
}
