#!/usr/bin/env bash
# A GPU loan's work on a lent GPU machine, in calls of the device tool of at most 6
# minutes each (start-up aside), each result written under $OUT as soon as it exists, so
# that a run cut short still brings back what it did, and at most 8 files (the tool's
# limit). In order, most needed first:
#   1. machine: nvidia-smi, lscpu, OpenBLAS's core choice and one core's dgemm rate with
#      it and with OPENBLAS_CORETYPE=SkylakeX, a first run, the huge-page setting and
#      grain_pin_bench (pinning and copy rates): machine.txt; the CUDA tests
#      (grain_tests --gtest_filter=Cuda*) and, in an MPI build, 2 processes sharing the
#      GPU (grain_mpi_tests --gtest_filter=MpiGpu.*, the archive's mpirun): cuda-tests.txt;
#   2. calibrate: installs sim/models/$MODEL_HOST.tar.gz (the models kept from earlier
#      loans) where it exists, then tops up grain's codelets on this GPU and its cores for
#      every tile size from 4096 down to 256 (random splits on that ladder reach every
#      level; the cores take tiles up to RuntimeOptions::cpu_tile_limit only) and the bus;
#      saves sampling.tar.gz (StarPU's .starpu/sampling, named for host $MODEL_HOST)
#      after each operation;
#   pinning: potrf and gemm at n = $PIN_N [16384], 3 runs each, with the caller's matrix
#      pinned by tile column in pin tasks (GRAIN_PIN_COLUMNS=1), whole (=0), before
#      grain's clock (--pinned), and by column without the NaN check (nonan),
#      $PIN_ROUNDS [2] rounds alternating them: pinning.csv (the mode, then the driver's row);
#   3. trace: potrf on the lp ladder with --trace (trace.csv; draw it here with
#      scripts/plot-trace.sh);
#   4. table: grain against the vendor (cuBLAS dgemm, cuSOLVER dpotrf, dgetrf_nopiv, dgetrf, cuBLAS
#      zgemm to n = 16384) on the lp ladder, --vendor, $NITER runs each alternating grain
#      and the vendor, sizes $SIZES; --check where it costs O(n^2) (n >= 32768): table.csv (its medians:
#      awk -F';' -f scripts/vendor-ratio.awk table.csv);
#   5. larger: a potrf on twice the GPU memory it may use (n = 32768, 4 GiB), then in all
#      of it, 2 runs each (--pinned, --check): larger.csv;
#   loading: what loading every CUDA module at the start (CUDA_MODULE_LOADING=EAGER,
#      grain's default) costs the Runtime's start and saves the first runs, against LAZY,
#      one process each, alternated, no warm-up: loading.txt;
#   like: grain against the vendor like for like at $LIKE [potrf:16384 getrf_nopiv:16384
#      getrf:16384 gemm:16384; 32768 does not fit a call]: --pinned and pageable arrays, 1 and 2 StarPU workers
#      (streams) per GPU, each configuration --checked with a warm-up and $NITER runs; each
#      row holds the vendor's three times (pinned, pageable, resident), and -v's lines the
#      submission's cost per task on this machine's cores (the simulator's
#      GRAIN_SIM_SUBMIT_US): like.csv (its medians: awk -F';' -f scripts/vendor-ratio.awk
#      like.csv);
#   mixed (not in the default): grain's gesv in double against gesv_mixed factoring with
#      the GPUs' products in fp32 and in tf32 (--gpu-math), each against cuSOLVER's IRS
#      gesv in the same precisions (--vendor), at n = $MIXED_N [32768], --check (backward
#      error, steps), $MIXED_ROUNDS [3] rounds alternating them: mixed.csv;
#   suite (not in the default): every test program of the build once, whole,
#      with the GPU visible: suite.txt (per program its exit code and gtest's summary);
#   6. splits (not in the default): --split lp against the fixed tiles, potrf and
#      getrf_nopiv at n = $SPLIT_N under darts and dmdar, each configuration once per
#      round, $SPLIT_ROUNDS rounds alternating them: splits.txt (the runs, then their
#      summary by scripts/splits-summary.awk, as scripts/bench-splits.sh prints the
#      simulated ones).
# Phases 3-6 and pinning run under $SCHED [darts] (6: darts and dmdar), each process's
# timed runs after one untimed one (--warmup: CUDA loads a library's kernel when it first
# runs; doc/results/2026-11-28-h200-loan.md); calibration under StarPU's
# prio, which sends every kernel size to every worker that can run it. $OPS replaces the
# table's operations (e.g. OPS=getrf for getrf at n = 32768).
# Each phase runs under its own time limit ($LIMITS), each table case under CASE_LIMIT, so
# the later ones still get theirs. One call of at most 9 minutes does the GPU issue's
# measurements (a loan has 15 minutes in all):
#   bash scripts/device-run.sh                       machine loading like larger
# and, where a loan has time for a second call, the models and the lp table:
#   bash scripts/device-run.sh calibrate trace table
# (at most 8 files come back from a call), with build-device/grain-gpu.tar.xz carried
# (scripts/pack-gpu-run.sh packs it). Rehearsal without a GPU: REHEARSE=1 OUT=/tmp/out bash scripts/device-run.sh
# --build build PHASES..., which runs the phases on the CPU build at tiny sizes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=
if [ "${1:-}" = --build ]; then build=$(cd "$2" && pwd); shift 2; fi
phases=${*:-machine loading like larger}
out=${OUT:?set OUT to the folder the results go to}
mkdir -p "$out"
log=$out/device-run.log
say() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$log"; }

if [ -z "$build" ]; then  # the packed CUDA build, unpacked outside the work tree
  archive=$root/build-device/grain-gpu.tar.xz
  [ -f "$archive" ] || { echo "$0: no $archive: run scripts/pack-gpu-run.sh and carry build-device" >&2; exit 2; }
  tar xJf "$archive" -C /tmp
  # shellcheck disable=SC1091
  source /tmp/grain-gpu/env.sh
  build=/tmp/grain-gpu/build
fi
driver=$build/testing_drivers/grain_testing

# StarPU names its model files after the host: one name for every machine of a kind, so
# that the models saved here are the ones sim/ keeps and a later run installs.
if [ -n "${REHEARSE:-}" ]; then
  export MODEL_HOST=${MODEL_HOST:-grain-rehearsal}
  scales=${SCALES:-256,128,64}
  sizes=${SIZES:-512,1024}
  limits=${LIMITS:-"machine=20 calibrate=60 trace=20 table=60 larger=30 splits=60 pinning=30 suite=600 loading=30 like=120 mixed=60"}
  like=${LIKE:-potrf:1024 getrf_nopiv:1024 getrf:512 gemm:512} loading_n=512
  case_limit=${CASE_LIMIT:-20}
  larger_n=1024 larger_mem=4 trace_n=1024 core_n=256 split_n=1024 split_scales=256,128,64 pin_n=512
  cut_n=1024 cut_scales=256,128 mixed_n=1024
else
  gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
  case $gpu_name in
    *H200*) default_host=grain-h200 ;;
    *H100*) default_host=grain-h100 ;;
    *) default_host=grain-gpu ;;
  esac
  export MODEL_HOST=${MODEL_HOST:-$default_host}
  scales=${SCALES:-4096,2048,1024,512,256}
  sizes=${SIZES:-16384}
  limits=${LIMITS:-"machine=40 calibrate=100 trace=40 table=150 splits=300 pinning=120 suite=300 loading=40 like=240 larger=150 mixed=300"}
  like=${LIKE:-potrf:16384 getrf_nopiv:16384 getrf:16384 gemm:16384} loading_n=8192
  case_limit=${CASE_LIMIT:-60}
  larger_n=32768 larger_mem=4096 trace_n=16384 core_n=2048 split_n=32768 pin_n=16384
  split_scales=4096,2048,1024,512  # the ladder scripts/bench-splits.sh simulates the H100 with
  cut_n=8192 cut_scales=4096,2048 mixed_n=32768
fi
sched=${SCHED:-darts}
export STARPU_HOSTNAME=$MODEL_HOST STARPU_SILENT=1
export STARPU_HOME=${STARPU_HOME:-/tmp/grain-starpu-home}
mkdir -p "$STARPU_HOME"
models=$root/sim/models/$MODEL_HOST.tar.gz
if [ -f "$models" ] && [ ! -d "$STARPU_HOME/.starpu/sampling/codelets" ]; then
  tar xzf "$models" -C "$STARPU_HOME"
  say "installed $models"
fi
limit() { for kv in $limits; do [ "${kv%%=*}" = "$1" ] && { echo "${kv#*=}"; return; }; done; echo 60; }
top=${scales%%,*}
save_models() { tar czf "$out/sampling.tar.gz" -C "$STARPU_HOME" .starpu/sampling; }
# Runs the driver under `timeout` with what is left of the phase (at most $2 seconds).
run_until() {
  local deadline=$1 cap=$2 left; shift 2
  left=$((deadline - SECONDS)); [ "$left" -lt "$cap" ] || left=$cap
  [ "$left" -gt 5 ] || { say "no time left for: $*"; return 0; }
  timeout "$left" "$driver" "$@" || say "stopped (rc $?): $*"
}

# Tiles cut and gathered on the GPU by StarPU's patch 07's CUDA copies: every task split,
# 4096 tiles into 2048 ones the cores do not take, the results checked, at each call's
# start (seconds). If a run fails, this call's phases go on with the
# patch off, so that it cannot spoil the loan.
for op in potrf getrf_nopiv; do
  if ! timeout 60 "$driver" -o $op -n "$cut_n" --scales "$cut_scales" --split all --check -v >> "$log" 2>&1; then
    export STARPU_PARTITION_ON_DEVICE=0
    say "$op with tiles cut on the GPU failed (output above in this log): STARPU_PARTITION_ON_DEVICE=0 from here"
    break
  fi
  say "$op with tiles cut on the GPU: checked"
done

for phase in $phases; do
  seconds=$(limit "$phase")
  deadline=$((SECONDS + seconds))
  say "phase $phase (at most ${seconds}s), models of host $MODEL_HOST"
  case $phase in
    machine)
      {
        nvidia-smi || echo "no nvidia-smi"
        lscpu; free -g
        # OpenBLAS names the core kernels it chose; a VM that hides the CPU model may get
        # generic ones. One core's dgemm with that choice, then with SkylakeX's.
        for coretype in "" SkylakeX; do
          env ${coretype:+OPENBLAS_CORETYPE=$coretype} OPENBLAS_VERBOSE=2 "$driver" -o gemm -n "$core_n" -b "$core_n" -t 1 -g 0 --niter 2 2>&1 |
            grep -i 'core\|^gemm'
        done
        "$driver" -o potrf -n "$top" -b "$((top / 2))" -H
        # What pinning and copies cost here (grain's time includes pinning the caller's
        # matrix); the kernel's huge pages first.
        echo "transparent_hugepage: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
        [ -n "${REHEARSE:-}" ] || timeout 60 "$build/testing_drivers/grain_pin_bench" 8
      } > "$out/machine.txt" 2>&1 || say "machine: a command failed (see machine.txt)"
      # The CUDA kernels against the CPU ones, on this GPU (seconds; no CPU-only build
      # can run them).
      rc=0; timeout 60 "$build/tests/grain_tests" --gtest_filter='Cuda*' > "$out/cuda-tests.txt" 2>&1 || rc=$?
      case $rc in  # 77: some skipped (tests/skip_status.hpp), as where no GPU is visible
        0) say "machine: the CUDA tests passed" ;;
        77) say "machine: CUDA tests skipped (see cuda-tests.txt)" ;;
        *) say "machine: the CUDA tests failed, rc $rc (see cuda-tests.txt)" ;;
      esac
      # Two processes sharing the GPU, under the archive's mpirun (ctest MpiGpu2's setting).
      if [ -x "$build/tests/grain_mpi_tests" ] && command -v mpirun >/dev/null; then
        rc=0
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
          OMPI_MCA_btl_vader_single_copy_mechanism=none STARPU_LIMIT_CUDA_MEM=8192 GRAIN_TEST_RANKS=2 \
          timeout 120 mpirun -np 2 "$build/tests/grain_mpi_tests" --gtest_filter='MpiGpu.*' >> "$out/cuda-tests.txt" 2>&1 || rc=$?
        say "machine: 2 processes on the GPU under mpirun: rc $rc (0 passed, 77 skipped; cuda-tests.txt)"
      fi ;;
    calibrate)
      # Each operation calibrates the kernels it uses (potrf: potrf, trsm, syrk, gemm;
      # getrf_nopiv: getrf, trsm, gemm); the phase's limit covers the three together. One
      # GPU kernel at a time (STARPU_CUDA_PIPELINE=0): with kernels queued on the stream, a
      # kernel's measured time may include waiting for the one before it
      # (doc/results/2026-11-26-h100-calibration-lost.md).
      for op in potrf getrf_nopiv gemm; do
        STARPU_CUDA_PIPELINE=0 STARPU_CALIBRATE=1 run_until "$deadline" "$seconds" -o $op -n "$((2 * top))" --scales "$scales" \
          --split random:0.5 --niter 3 >> "$out/calibrate.csv" 2>> "$log"
        save_models  # after each operation: a cut run keeps what was measured
      done
      say "saved $out/sampling.tar.gz ($(du -h "$out/sampling.tar.gz" | cut -f1))" ;;
    trace)
      STARPU_CALIBRATE=1 run_until "$deadline" "$seconds" -o potrf -n "$trace_n" --scales "$scales" --split lp \
        --sched "$sched" --warmup --trace "$out/trace.csv" -v >> "$out/table.csv" 2>> "$log"
      save_models ;;
    table)
      for n in ${sizes//,/ }; do
        check=; [ "$n" -ge 32768 ] && check=--check  # the O(n^2) checks (doc/usage.md)
        # getrf (partial pivoting) last, and only to n = 16384: its panels run
        # on the cores (about n^2 nb / 2 flops: 2 TFlop at n = 32768 on the 3840 ladder),
        # and the operations before it come first. Then zgemm against cuBLAS's. An entry
        # is OP or OP:PRECISION (d by default).
        ops="potrf getrf_nopiv gemm"; [ "$n" -le 16384 ] && ops="$ops getrf gemm:z"
        for entry in ${OPS:-$ops}; do
          op=${entry%%:*} p=d; [ "$entry" != "$op" ] && p=${entry#*:}
          echo "# grain_testing -o $op -p $p -n $n --scales $scales --split lp --sched $sched --vendor --warmup --niter ${NITER:-3} $check -v" >> "$out/table.csv"
          STARPU_CALIBRATE=1 run_until "$deadline" "$case_limit" -o "$op" -p "$p" -n "$n" --scales "$scales" --split lp \
            --sched "$sched" --vendor --warmup --niter "${NITER:-3}" $check -v >> "$out/table.csv" 2>> "$log"
        done
      done
      save_models ;;
    loading)
      # One process per mode, alternated: the Runtime's start (the driver's '# GPU 0' line)
      # and the first runs with no warm-up, which pay for the modules LAZY loads late.
      for mode in EAGER LAZY EAGER LAZY; do
        for op in potrf gemm; do
          echo "# CUDA_MODULE_LOADING=$mode -o $op -n $loading_n --niter 3, no warm-up" >> "$out/loading.txt"
          t0=$(date +%s.%N)
          CUDA_MODULE_LOADING=$mode run_until "$deadline" "$case_limit" -o $op -n "$loading_n" --scales "$scales" \
            --split lp --sched "$sched" --niter 3 >> "$out/loading.txt" 2>> "$log"
          echo "# process: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s" >> "$out/loading.txt"
        done
      done ;;
    like)
      # Per operation, configurations alternated in one round: pinned and pageable arrays,
      # 1 and 2 workers per GPU. The rows' gpu_workers and pinned columns tell them apart.
      for entry in $like; do
        op=${entry%%:*} n=${entry#*:}
        for workers in 1 2; do
          for pin in --pinned ""; do
            if [ -n "$pin" ] && [ -n "${REHEARSE:-}" ]; then say "rehearsal: --pinned needs a GPU, skipped"; continue; fi
            echo "# grain_testing -o $op -n $n --scales $scales --split lp --sched $sched --gpu-workers $workers $pin --vendor --check --warmup --niter ${NITER:-2} -v" >> "$out/like.csv"
            # shellcheck disable=SC2086
            STARPU_CALIBRATE=1 run_until "$deadline" "$case_limit" -o "$op" -n "$n" --scales "$scales" --split lp \
              --sched "$sched" --gpu-workers "$workers" $pin --vendor --check --warmup --niter "${NITER:-2}" -v \
              >> "$out/like.csv" 2>> "$log"
          done
        done
      done
      save_models ;;
    larger)
      # The matrix is twice the GPU memory grain may use (cuSOLVER cannot run: nan), then
      # the same in all of the GPU's memory, the rate to compare with; alternated.
      pinned_option=(--pinned); [ -z "${REHEARSE:-}" ] || pinned_option=()
      for memory in "${LARGER_MEM:-$larger_mem}" all; do
        limit_option=(); [ "$memory" = all ] || limit_option=(--gpu-mem "$memory")
        echo "# potrf -n ${LARGER_N:-$larger_n} GPU memory: $memory MiB" >> "$out/larger.csv"
        STARPU_CALIBRATE=1 run_until "$deadline" "$((seconds / 2))" -o potrf -n "${LARGER_N:-$larger_n}" \
          --scales "$scales" --split lp --sched "$sched" "${limit_option[@]}" "${pinned_option[@]}" --check \
          --niter 2 -v >> "$out/larger.csv" 2>> "$log"
      done ;;
    pinning)
      # A user's matrix pinned tile column by tile column in pin tasks (mode 1,
      # GRAIN_PIN_COLUMNS=1, the default), all of it first (0), or by
      # the caller before grain's clock starts, as the vendor's arrays are (pinned:
      # --pinned; what grain's time would be without pinning); and mode 1 without the NaN
      # check (nonan: GRAIN_NANCHECK=0; the scan of the inputs, which the simulation does
      # not charge). grain alone, rounds alternating them (pinning.csv: the mode, then the
      # driver's row).
      for round in $(seq "${PIN_ROUNDS:-2}"); do
        for op in ${PIN_OPS:-potrf gemm}; do
          for mode in 1 0 pinned nonan; do
            extra=() columns=1 nancheck=1
            case $mode in
              0) columns=0 ;;
              pinned)
                [ -z "${REHEARSE:-}" ] || { say "rehearsal: --pinned needs a GPU, skipped"; continue; }
                extra=(--pinned) ;;
              nonan) nancheck=0 ;;
            esac
            GRAIN_PIN_COLUMNS=$columns GRAIN_NANCHECK=$nancheck run_until "$deadline" "$case_limit" -o "$op" \
              -n "${PIN_N:-$pin_n}" --scales "$scales" --split lp --sched "$sched" --warmup --niter 3 "${extra[@]}" \
              2>> "$log" | awk -v mode="$mode" -v op="$op" '$1 ~ "^" op ";" { print mode ";" $0 }' >> "$out/pinning.csv"
          done
        done
      done ;;
    mixed)
      # One round: double's gesv, then the mixed solve under each GPU math, alternated;
      # the vendor's IRS factors in the same math (its rows' vendor columns). gesv's own
      # vendor would be LAPACKE's on the cores (cuSOLVER's is timed for getrf): none.
      n=${MIXED_N:-$mixed_n}
      for round in $(seq "${MIXED_ROUNDS:-3}"); do
        for config in "gesv" "gesv_mixed --gpu-math fp32 --vendor" "gesv_mixed --gpu-math tf32 --vendor"; do
          echo "# round $round: grain_testing -o $config -n $n --scales $scales --split lp --sched $sched --check --warmup -v" >> "$out/mixed.csv"
          # shellcheck disable=SC2086
          STARPU_CALIBRATE=1 run_until "$deadline" "$case_limit" -o $config -n "$n" --scales "$scales" --split lp \
            --sched "$sched" --check --warmup -v >> "$out/mixed.csv" 2>> "$log"
        done
      done ;;
    suite)
      # The whole suite with the GPU visible: each test program of the build
      # once, all of its tests, its summary in suite.txt. The driver's tests find the
      # moved driver through GRAIN_TESTING_BINARY; the environment fuzzer gets 5 s.
      export GRAIN_TESTING_BINARY=$driver GRAIN_ENV_FUZZ_SECONDS=5
      for program in "$build"/tests/grain_*tests; do
        # MPI's tests run under mpirun (ctest Mpi1-4), not alone.
        [ -x "$program" ] && [ "${program##*/}" != grain_mpi_tests ] || continue
        left=$((deadline - SECONDS)); [ "$left" -gt 5 ] || { say "suite: no time left for $program"; break; }
        rc=0; timeout "$left" "$program" > "$out/suite-run.txt" 2>&1 || rc=$?
        { echo "== $(basename "$program"): rc $rc"; grep -E '^\[ *(PASSED|FAILED|SKIPPED) *\]|tests? from .* ran' "$out/suite-run.txt"; } >> "$out/suite.txt"
      done
      rm -f "$out/suite-run.txt"
      say "suite: $(grep -c 'rc 0$' "$out/suite.txt") of $(grep -c '^== ' "$out/suite.txt") programs exited 0, $(grep -c 'rc 77$' "$out/suite.txt") with tests skipped" ;;
    splits)
      # On the real GPU: the lp ladder against its scales but the smallest as
      # fixed tiles, each scheduler against its own best. Rounds alternate the
      # configurations (the machine's drift spreads over all); an operation's rounds all
      # come before the next operation's, so a cut phase leaves whole comparisons.
      ladder=${SPLIT_SCALES:-$split_scales} n=${SPLIT_N:-$split_n}
      configs=()
      IFS=, read -ra tiles <<< "${ladder%,*}"
      for b in "${tiles[@]}"; do configs+=("-b $b --split none"); done
      configs+=("--scales $ladder --split lp")
      runs=$out/splits.txt
      for op in ${SPLIT_OPS:-potrf getrf_nopiv}; do
        for round in $(seq "${SPLIT_ROUNDS:-3}"); do
          for s in darts dmdar; do
            for config in "${configs[@]}"; do
              [ $((deadline - SECONDS)) -gt 5 ] || { say "splits: no time left (op $op, round $round)"; break 4; }
              # shellcheck disable=SC2086
              run_until "$deadline" "$case_limit" -o "$op" -n "$n" $config --sched "$s" --warmup -v 2>> "$log" |
                awk -F';' -v key="$op $n $s|$config|$round" -f "$root/scripts/splits-line.awk" >> "$runs"
            done
          done
        done
      done
      # The summary follows the runs as '#' lines, which the summary's awk skips.
      summary=$(awk -F'|' -f "$root/scripts/splits-summary.awk" "$runs")
      { echo "# lp against the fixed tiles: mean GFlop/s over the rounds [lowest-highest], mean MB to / from the GPU"
        sed 's/^/# /' <<< "$summary"; } >> "$runs" ;;
    *) echo "$0: unknown phase $phase" >&2; exit 2 ;;
  esac
done
say "done: $(ls "$out" | tr '\n' ' ')"
