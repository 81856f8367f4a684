# Median grain/vendor GFlop/s ratio [lowest-highest] per (op, precision, n, nb, and the ladder's
# depth and split policy where it splits), from grain_testing
# --vendor CSV output, with the median fractions of the GPU's FP64 peak where the rows
# have them (GPU runs); several runs' outputs may follow one another (a header line
# each; '#' lines are skipped):
#   grain_testing ... --vendor --niter 5 | awk -F";" -f scripts/vendor-ratio.awk
# GPU runs also give grain over the vendor three ways, each a median [range]: from pinned
# arrays, from pageable ones, and on the GPU alone. Like for like is the first for rows of
# runs with --pinned (key "pinned"), the second for the others ("pageable").
function median(s,   a, n, i, j, t) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }; return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function lowest(s,   a, n, i, m) { n = split(s, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 < m + 0) m = a[i]; return m }
function highest(s,   a, n, i, m) { n = split(s, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 > m + 0) m = a[i]; return m }
function spread(s) { return sprintf("%.3f [%.3f-%.3f]", median(s), lowest(s), highest(s)) }
/^#/ { next }
$1 == "op" { split("", col); for (i = 1; i <= NF; i++) col[$i] = i; next }
!("vendor_gflops" in col) { next }
{ key = $col["op"] (("prec" in col) ? " " $col["prec"] : "") " n=" $col["n"] " nb=" $col["nb"] (("split" in col) && $col["split"] != "none" ? " levels=" $col["levels"] " split=" $col["split"] : "") (("gpu_workers" in col) ? " workers=" $col["gpu_workers"] : "") (("pinned" in col) ? ($col["pinned"] == 1 ? " pinned" : " pageable") : ""); ratio = $col["gflops"] / $col["vendor_gflops"]
  if (!(key in r)) order[++keys] = key
  r[key] = r[key] " " ratio; g[key] = g[key] " " $col["gflops"]; v[key] = v[key] " " $col["vendor_gflops"]
  if ("peak" in col) p[key] = p[key] " " $col["peak"]
  if ("vendor_peak" in col) vp[key] = vp[key] " " $col["vendor_peak"]
  if ("vendor_pageable_gflops" in col) {
    pg[key] = pg[key] " " $col["gflops"] / $col["vendor_pageable_gflops"]
    rs[key] = rs[key] " " $col["gflops"] / $col["vendor_resident_gflops"] } }
END { for (i = 1; i <= keys; i++) { k = order[i]
        printf "%s: median ratio %.3f [%.3f-%.3f] over %d runs  grain %.1f  vendor %.1f GFlop/s", k, median(r[k]), lowest(r[k]), highest(r[k]), split(r[k], t, " "), median(g[k]), median(v[k])
        if (k in p) printf "  peak %.3f", median(p[k])
        if (k in vp) printf "  vendor peak %.3f", median(vp[k])
        if (k in pg) printf "  over the vendor: pinned %s  pageable %s  resident %s", spread(r[k]), spread(pg[k]), spread(rs[k])
        printf "\n" } }
