# Median grain/vendor GFlop/s ratio per (op, n, nb), from grain_testing --vendor CSV output:
#   grain_testing ... --vendor --niter 5 | awk -F";" -f scripts/vendor-ratio.awk
function median(s,   a, n, i, j, t) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }; return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{ key = $col["op"] " n=" $col["n"] " nb=" $col["nb"]; r[key] = r[key] " " $col["gflops"] / $col["vendor_gflops"]; g[key] = g[key] " " $col["gflops"]; v[key] = v[key] " " $col["vendor_gflops"] }
END { for (k in r) printf "%s: median ratio %.3f  grain %.1f  vendor %.1f GFlop/s\n", k, median(r[k]), median(g[k]), median(v[k]) }
