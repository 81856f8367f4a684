# scripts/bench-placements.sh's summary: lines "op n gpus mem|sched|window|gflops|MB to|MB from"
# in, per point and policy the median GFlop/s and GB moved over the windows out, with the
# GFlop/s over darts's and over the point's best (a run that failed prints "failed").
function median(list,    v, k, i, j, t) {
    k = split(list, v, " ")
    for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
{
    key = $1 "|" $2
    if (!(key in seen)) { seen[key] = 1; order[++count] = key }
    if (!($1 in points)) { points[$1] = 1; point_order[++npoints] = $1 }
    if ($4 == "failed") { failed[key] = 1; next }
    gf[key] = gf[key] " " $4
    gb[key] = gb[key] " " ($5 + $6) / 1000
}
END {
    for (p = 1; p <= npoints; p++) {
        point = point_order[p]; best = 0; darts = 0
        for (i = 1; i <= count; i++) {
            split(order[i], k, "|")
            if (k[1] != point || (order[i] in failed) || gf[order[i]] == "") continue
            m[order[i]] = median(gf[order[i]])
            if (m[order[i]] > best) best = m[order[i]]
            if (k[2] == "darts") darts = m[order[i]]
        }
        for (i = 1; i <= count; i++) {
            split(order[i], k, "|")
            if (k[1] != point) continue
            if ((order[i] in failed) || gf[order[i]] == "") { printf "%-24s %-15s failed\n", point, k[2]; continue }
            printf "%-24s %-15s %10.0f GFlop/s %9.1f GB  x%.3f darts  x%.3f best\n", point, k[2], m[order[i]],
                   median(gb[order[i]]), darts ? m[order[i]] / darts : 0, m[order[i]] / best
        }
    }
}
