#!/usr/bin/env bash
# The simulated H100 and H200 machines (sim-testing.sh --machine h100|h200): their files in
# sim/ are what sim/gen_sim_files.cpp makes from the models kept from the real GPUs
# (sim/models/grain-h100.tar.gz, grain-h200.tar.gz), and every kernel of potrf, getrf_nopiv
# and gemm has a model at every tile of the ladder 4096..256 on both units (StarPU aborts a
# simulated run on a task without one): random splits on 2 GPUs and 8 cores reach them all.
# Usage: tests/test_h100_sim.sh path/to/simulation/build
set -euo pipefail
build=${1:?usage: $0 path/to/simulation/build}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
machines=(h100 h200)
for m in "${machines[@]}"; do mkdir -p "$dir/$m" && tar xzf "$root/sim/models/grain-$m.tar.gz" -C "$dir/$m"; done
# The generator reads the cores' models of the hybrid machines (the .grain-cpu files) from
# its output folder: start from sim/'s files, then every file must come out unchanged.
mkdir -p "$dir/out"
cp -r "$root/sim/bus" "$root/sim/codelets" "$dir/out/"
"$build/testing_drivers/grain_sim_gen" "$dir/out" $(for m in "${machines[@]}"; do echo "$dir/$m/.starpu/sampling"; done) > "$dir/gen.txt"
diff -r "$root/sim/bus" "$dir/out/bus" >&2 && diff -r "$root/sim/codelets" "$dir/out/codelets" >&2 ||
  { echo "FAILED: sim/ is not what gen_sim_files makes from the kept models"; exit 1; }
for m in "${machines[@]}"; do
  echo "sim/ holds what gen_sim_files makes: $(ls "$dir"/out/codelets/45/*.grain-$m-* | wc -l) $m models"
  for op in potrf getrf_nopiv gemm; do
    out=$(STARPU_SILENT=1 bash "$root/scripts/sim-testing.sh" --build "$build" --machine $m --gpus 2 --cpus 8 -o $op \
      -n 8192 --scales 4096,2048,1024,512,256 --split random:0.5:7 2>&1) || { echo "$out" | tail; echo "FAILED: $m $op"; exit 1; }
    row=$(echo "$out" | grep "^$op;") || { echo "$out" | tail; echo "FAILED: $m: no $op row"; exit 1; }
    echo "$row"
    [ "${row##*;}" = 0 ] || { echo "FAILED: $m $op info ${row##*;}"; exit 1; }
  done
done
echo "PASSED"
