#!/usr/bin/env bash
# The GPU issue's work on a lent GPU machine, in one call of the device tool (9 minutes at
# most, start-up included), each result written under $OUT as soon as it exists, so that
# a run cut short still brings back what it did. In order, most needed first:
#   1. machine: nvidia-smi, lscpu, the StarPU that runs;
#   2. calibrate: grain's codelets on this GPU and its cores for every tile size from 4096
#      down to 256 (random splits on that ladder reach every level), and the bus; then
#      sampling.tar.gz, StarPU's .starpu/sampling, named for host $MODEL_HOST. Where sim/
#      already holds that host's models (sim/models/$MODEL_HOST.tar.gz), they are
#      installed instead and this phase only tops them up;
#   3. table: grain against the vendor (cuBLAS dgemm, cuSOLVER dpotrf, dgetrf_nopiv) at the
#      sizes of $SIZES, lp ladder, --vendor, medians over $NITER runs (bench-gpu.sh);
#   4. larger: a potrf larger than the GPU memory limit (bench-gpu.sh).
# Each phase runs under its own time limit ($LIMITS), so the later ones still get theirs.
# Usage (from the repository root):
#   bash scripts/device-run.sh [PHASE...]        PHASE: machine calibrate table larger
# with build-device/grain-gpu.tar.xz carried (scripts/pack-gpu-run.sh packs it). Rehearsal
# without a GPU: REHEARSE=1 OUT=/tmp/out bash scripts/device-run.sh --build build, which
# runs every phase on the CPU build at tiny sizes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=
if [ "${1:-}" = --build ]; then build=$(cd "$2" && pwd); shift 2; fi
phases=${*:-machine calibrate table larger}
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
  limits=${LIMITS:-"machine=20 calibrate=120 table=120 larger=60"}
  larger_n=1024
else
  gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
  case $gpu_name in
    *H200*) default_host=grain-h200 ;;
    *H100*) default_host=grain-h100 ;;
    *) default_host=grain-gpu ;;
  esac
  export MODEL_HOST=${MODEL_HOST:-$default_host}
  scales=${SCALES:-4096,2048,1024,512,256}
  sizes=${SIZES:-16384,32768}
  limits=${LIMITS:-"machine=20 calibrate=180 table=200 larger=60"}
  larger_n=24576
fi
export STARPU_HOSTNAME=$MODEL_HOST STARPU_SILENT=1
export STARPU_HOME=${STARPU_HOME:-/tmp/grain-starpu-home}
mkdir -p "$STARPU_HOME"
limit() { for kv in $limits; do [ "${kv%%=*}" = "$1" ] && { echo "${kv#*=}"; return; }; done; echo 60; }
top=${scales%%,*}

for phase in $phases; do
  seconds=$(limit "$phase")
  say "phase $phase (at most ${seconds}s), models of host $MODEL_HOST"
  case $phase in
    machine)
      { nvidia-smi || echo "no nvidia-smi"; } > "$out/nvidia-smi.txt" 2>&1
      { lscpu; free -g; } > "$out/machine.txt" 2>&1 || true
      "$driver" -o potrf -n "$top" -b "$((top / 2))" -H > "$out/first-run.txt" 2>&1 || say "first run failed (see first-run.txt)" ;;
    calibrate)
      models=$root/sim/models/$MODEL_HOST.tar.gz
      if [ -f "$models" ]; then
        tar xzf "$models" -C "$STARPU_HOME"
        say "installed $models"
      fi
      # Random splits on the whole ladder reach every level; each operation calibrates the
      # kernels it uses (potrf: potrf, trsm, syrk, gemm; getrf_nopiv: getrf, trsm, gemm).
      # The phase's limit covers the three operations together.
      deadline=$((SECONDS + seconds))
      for op in gemm potrf getrf_nopiv; do
        left=$((deadline - SECONDS))
        [ "$left" -gt 5 ] || { say "calibrate: no time left for $op"; break; }
        STARPU_CALIBRATE=1 timeout "$left" "$driver" -o $op -n "$((2 * top))" --scales "$scales" \
          --split random:0.5 --niter 3 >> "$out/calibrate.csv" 2>> "$log" || say "calibrate $op stopped (rc $?)"
        # Saved after each operation: a cut run keeps what was measured.
        tar czf "$out/sampling.tar.gz" -C "$STARPU_HOME" .starpu/sampling
      done
      say "saved $out/sampling.tar.gz ($(du -h "$out/sampling.tar.gz" | cut -f1))" ;;
    table)
      SCALES=$scales SIZES=$sizes GEMM_SIZES=$sizes CHECK_MAX=${CHECK_MAX:-16384} NITER=${NITER:-3} \
        RESULTS=$out/table.csv timeout "$seconds" bash "$root/scripts/bench-gpu.sh" "$build" table \
        > "$out/table.txt" 2>> "$log" || say "table stopped (rc $?)" ;;
    larger)
      SCALES=$scales LARGER_N=${LARGER_N:-$larger_n} RESULTS=$out/larger.csv timeout "$seconds" bash "$root/scripts/bench-gpu.sh" "$build" larger \
        > "$out/larger.txt" 2>> "$log" || say "larger stopped (rc $?)" ;;
    *) echo "$0: unknown phase $phase" >&2; exit 2 ;;
  esac
done
say "done: $(ls "$out" | tr '\n' ' ')"
