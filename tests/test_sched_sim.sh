#!/usr/bin/env bash
# Simulated scheduler benchmark smoke test: a 2D product of 30 x 30 tasks on 2 simulated
# GPUs with 500 MiB each, as in the paper (the 885 MB working set does not fit), under
# eager, dmdar, DARTS with LUF, DARTS with LRU and darts-wb (which also writes outputs
# home as tasks end, asynchronous requests that must all complete). Checks that every
# submitted task ran exactly once, that the figures are sane, and that DARTS+LUF moves
# fewer bytes to the GPUs than DARTS+LRU. Then the paper's conditions, below.
# Usage: tests/test_sched_sim.sh path/to/grain_sched_bench
set -euo pipefail
bench=${1:?usage: $0 path/to/grain_sched_bench}
out=$("$bench" --scenario 2d --gpus 2 --gpu-mem 500 --sizes 30 --sched eager,dmdar,darts,darts-lru,darts-wb 2>/dev/null)
printf '%s\n' "$out"
printf '%s\n' "$out" | awk -F';' '
  /^#/ { next }
  $1 == "scenario" {
    # Find the columns by name, so that added columns do not break the test.
    for (i = 1; i <= NF; i++) col[$i] = i
    split("scenario sched working_set_mb gflops bytes_h2d loads evictions tasks executed", names, " ")
    for (i in names) if (!(names[i] in col)) { print "missing column " names[i]; bad = 1 }
    header = 1; next
  }
  {
    rows++
    what = $col["scenario"] "/" $col["sched"]
    tasks = $col["tasks"] + 0; ran = $col["executed"] + 0
    if (tasks != 900) { print what ": " tasks " tasks submitted, expected 900"; bad = 1 }
    if (ran != tasks) { print what ": " ran " tasks executed for " tasks " submitted"; bad = 1 }
    if (!($col["gflops"] > 0)) { print what ": gflops " $col["gflops"]; bad = 1 }
    if ($col["bytes_h2d"] + 0 < $col["working_set_mb"] * 1e6) { print what ": bytes_h2d " $col["bytes_h2d"] " below the working set"; bad = 1 }
    if ($col["loads"] + 0 < 60) { print what ": " $col["loads"] " loads for 60 input tiles"; bad = 1 }
    if (!($col["evictions"] > 0)) { print what ": no eviction with a working set larger than memory"; bad = 1 }
    h2d[$col["sched"]] = $col["bytes_h2d"] + 0
  }
  END {
    if (!header) { print "no header line"; bad = 1 }
    if (rows != 5) { print rows + 0 " result rows, expected 5"; bad = 1 }
    if (!(h2d["darts"] < h2d["darts-lru"])) {
      print "DARTS+LUF moved " h2d["darts"] " bytes to the GPUs, DARTS+LRU " h2d["darts-lru"] ": LUF should move fewer"; bad = 1
    }
    if (bad) exit 1
  }'

# The paper's conditions (bench-sched.sh GRAIN_BENCH_MODE=paper): tasks that only read
# (--outputs none), Cholesky tasks on 4 GPUs, the OPTI-3inputs variant among them. Every
# task runs once, nothing is written back, the working set still loads at least once;
# and a run with the same seeds (the bench's and GRAIN_DARTS_SEED) gives the same row.
paper() {
  GRAIN_DARTS_SEED=$1 "$bench" --scenario cholesky --gpus 4 --gpu-mem 100 --sizes 12 --outputs none \
    --seed "$1" --sched dmdar,darts-opti-3inputs 2>/dev/null | grep -v '^#'
}
first=$(paper 3)
printf '%s\n' "$first"
[ "$first" = "$(paper 3)" ] || { echo "the same seeds gave another result"; exit 1; }
printf '%s\n' "$first" | awk -F';' '
  $1 == "scenario" { for (i = 1; i <= NF; i++) col[$i] = i; next }
  {
    rows++
    what = "no outputs/" $col["sched"]
    if ($col["tasks"] != 364 || $col["executed"] != 364) { print what ": " $col["executed"] " of " $col["tasks"] " tasks ran, expected 364"; bad = 1 }
    if ($col["bytes_h2d"] + 0 < $col["working_set_mb"] * 1e6) { print what ": bytes_h2d below the working set"; bad = 1 }
    if ($col["bytes_h2d"] + 0 != $col["loads"] * 3686400) { print what ": " $col["loads"] " loads but " $col["bytes_h2d"] " bytes: only 960 x 960 inputs move"; bad = 1 }
  }
  END {
    if (rows != 2) { print rows + 0 " rows without outputs, expected 2"; bad = 1 }
    if (bad) exit 1
    print "test_sched_sim: OK"
  }'
