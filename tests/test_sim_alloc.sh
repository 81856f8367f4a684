#!/usr/bin/env bash
# Runs grain_sim_alloc_tests (tests/test_sim_alloc.cpp) on one simulated GPU of 64 MiB:
# the platform is read from a temporary copy of sim/ before the program's main starts.
# Usage: tests/test_sim_alloc.sh path/to/grain_sim_alloc_tests
set -euo pipefail
program=${1:?usage: $0 path/to/grain_sim_alloc_tests}
root=$(cd "$(dirname "$0")/.." && pwd)
models=$(mktemp -d)
trap 'rm -rf "$models"' EXIT
cp -r "$root/sim/bus" "$root/sim/codelets" "$models/"
STARPU_HOSTNAME=grain-v100-1gpu STARPU_PERF_MODEL_DIR=$models STARPU_HOME=$models STARPU_SILENT=1 \
  STARPU_NCPU=1 STARPU_LIMIT_CUDA_MEM=64 "$program"
