#!/usr/bin/env bash
# GPU benchmark: grain (--split lp on a ladder of tile scales, every CPU core and GPU)
# against cuBLAS dgemm and cuSOLVER dpotrf / dgetrf_nopiv / dgetrf alone on GPU 0 (--vendor,
# host arrays pinned, upload + call timed), then a factorization larger than the GPU
# memory limit, and the bytes moved between host and GPU with and without recursion.
# Usage: scripts/bench-gpu.sh [BUILD_DIR] [PHASE...]   PHASE: calibrate table larger bytes
#   hybrid (default: the first four, in that order). Raw rows go to $RESULTS (default
#   bench-gpu.csv). hybrid: schedulers against each other (HYBRID_SCHEDS, the first is the
#   baseline [dmdar darts]) on every core and GPU, on the cases of HYBRID_CASES (one
#   grain_testing argument line each): one run per scheduler first (a first run still
#   calibrates the model entries it lacks), then REPS [3] rounds alternating the schedulers,
#   NITER runs each in one process, of which the first is left out (it pins and touches
#   the matrix); prints each scheduler's mean GFlop/s [range] and its ratio to the
#   baseline's (scripts/sched-means.awk).
# Environment: SCALES [3840,1920,960,480], SIZES [16384,32768,49152] (potrf, getrf_nopiv),
#   GEMM_SIZES [16384,32768,40960] (gemm keeps 7 n x n arrays in host memory),
#   CHECK_MAX [16384]: --check up to this n, SCHED [dmdas], NITER [2]; larger: LARGER_N
#   [24576] against a limit of LARGER_MEM MiB [2048].
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
if [ $# -gt 0 ] && [ -d "$1" ]; then build=$1; shift; fi
driver=$build/testing_drivers/grain_testing
phases=${*:-calibrate table larger bytes}
scales=${SCALES:-3840,1920,960,480}
sizes=${SIZES:-16384,32768,49152}
gemm_sizes=${GEMM_SIZES:-16384,32768,40960}
check_max=${CHECK_MAX:-16384}
sched=${SCHED:-dmdas}
niter=${NITER:-2}
results=${RESULTS:-bench-gpu.csv}
top=${scales%%,*}
hybrid_scheds=${HYBRID_SCHEDS:-dmdar darts}
hybrid_cases=${HYBRID_CASES:-"-o getrf_nopiv -n 16384 -b 1024 --split none
-o potrf -n 16384 -b 1024 --split none
-o potrf -n 16384 --scales $scales --split lp
-o getrf_nopiv -n 32768 --scales $scales --split lp"}

grain() { echo "# grain_testing $*" | tee -a "$results"; "$driver" --sched "$sched" "$@" | tee -a "$results"; }

for phase in $phases; do
  case $phase in
    calibrate)
      # The lp policy and dmdas read StarPU's history models: fill them for every level
      # on every unit (random splits reach all levels) before timing anything.
      for op in gemm potrf getrf_nopiv; do
        STARPU_CALIBRATE=1 grain -o $op -n $((2 * top)) --scales "$scales" --split random:0.5 --niter 4 >/dev/null
      done ;;
    table)
      for op in gemm potrf getrf_nopiv getrf; do
        list=$sizes; [ $op = gemm ] && list=$gemm_sizes
        for n in ${list//,/ }; do
          check=; [ "$n" -le "$check_max" ] && check=--check
          grain -o $op -n "$n" --scales "$scales" --split lp --vendor --niter "$niter" $check -v
        done
      done ;;
    larger)
      # 4.8 GB of matrix against a 2 GiB limit: cuSOLVER cannot run (nan), grain must.
      grain -o potrf -n "${LARGER_N:-24576}" --scales "$scales" --split lp --gpu-mem "${LARGER_MEM:-2048}" --vendor --check -v ;;
    bytes)
      n=${sizes%%,*}
      grain -o potrf -n "$n" -b "$top" --split none -v
      grain -o potrf -n "$n" --scales "$scales" --split lp -v ;;
    hybrid)
      runs=$(mktemp)
      while IFS= read -r c; do
        [ -n "$c" ] || continue
        # shellcheck disable=SC2086
        for s in $hybrid_scheds; do "$driver" $c --sched "$s" >/dev/null; done
        for rep in $(seq "${REPS:-3}"); do for s in $hybrid_scheds; do
          echo "# $rep grain_testing $c --sched $s --niter $niter" >> "$results"
          # shellcheck disable=SC2086
          "$driver" $c --sched "$s" --niter "$niter" | tee -a "$results" |
            awk -F';' -v s="$s" -v c="$c" '$1 == "op" { for (i = 1; i <= NF; i++) col[$i] = i; next }
              $col["iter"] > 0 { print s "|" $col["iter"] "|" c "|" $col["gflops"] }' >> "$runs"
        done; done
      done <<< "$hybrid_cases"
      awk -F'|' -v scheds="$hybrid_scheds" -f "$root/scripts/sched-means.awk" "$runs"
      rm -f "$runs" ;;
    *) echo "bench-gpu.sh: unknown phase $phase" >&2; exit 2 ;;
  esac
done
# grain/vendor ratio per (op, n): the rows of every run above.
grep -v '^#' "$results" | awk -F';' '$1 == "op" { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; next }
  ("vendor_gflops" in c) { v = $c["vendor_gflops"]
    printf "%-12s n=%-6s grain %8.1f GFlop/s  vendor %8s  ratio %s  %s\n", $c["op"], $c["n"], $c["gflops"], v,
      (v + 0 > 0) ? sprintf("%.3f", $c["gflops"] / v) : "-", ("status" in c) ? $c["status"] : "" }'
