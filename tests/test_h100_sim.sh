#!/usr/bin/env bash
# The simulated H100 machines (sim-testing.sh --machine h100): their files in sim/ are what
# sim/gen_sim_files.cpp makes from the models kept from the real H100
# (sim/models/grain-h100.tar.gz), and every kernel of potrf, getrf_nopiv and gemm has a
# model at every tile of the ladder 4096..256 on both units (StarPU aborts a simulated run
# on a task without one): random splits on 2 GPUs and 8 cores reach them all.
# Usage: tests/test_h100_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
tar xzf "$root/sim/models/grain-h100.tar.gz" -C "$dir"
# The generator reads the cores' models of the hybrid machines (the .grain-cpu files) from
# its output folder: start from sim/'s files, then every file must come out unchanged.
mkdir -p "$dir/out"
cp -r "$root/sim/bus" "$root/sim/codelets" "$dir/out/"
"$build/testing_drivers/grain_sim_gen" "$dir/out" "$dir/.starpu/sampling" > "$dir/gen.txt"
diff -r "$root/sim/bus" "$dir/out/bus" >&2 && diff -r "$root/sim/codelets" "$dir/out/codelets" >&2 ||
  { echo "FAILED: sim/ is not what gen_sim_files makes from the kept models"; exit 1; }
echo "sim/ holds what gen_sim_files makes: $(ls "$dir"/out/codelets/45/*.grain-h100-* | wc -l) H100 models"
for op in potrf getrf_nopiv gemm; do
  out=$(STARPU_SILENT=1 bash "$root/scripts/sim-testing.sh" --build "$build" --machine h100 --gpus 2 --cpus 8 -o $op \
    -n 8192 --scales 4096,2048,1024,512,256 --split random:0.5:7 2>&1) || { echo "$out" | tail; echo "FAILED: $op"; exit 1; }
  row=$(echo "$out" | grep "^$op;") || { echo "$out" | tail; echo "FAILED: no $op row"; exit 1; }
  echo "$row"
  [ "${row##*;}" = 0 ] || { echo "FAILED: $op info ${row##*;}"; exit 1; }
done
echo "PASSED"
