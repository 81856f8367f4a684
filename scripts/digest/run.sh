#!/usr/bin/env bash
# Digests of every routine's outputs (routine_digest.cpp) under a few ladders and split
# policies, for the grain in build folder $1 (its headers from the source tree $2, the
# repository by default). Two builds computing the same bits print the same file.
# Usage: scripts/digest/run.sh BUILD_DIR [SOURCE_DIR] > digests.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
src=$(cd "${2:-$here/../..}" && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
g++ -std=c++17 -O1 -I"$src/include" "$here/routine_digest.cpp" -o "$bin/digest" -L"$build" -lgrain \
  -Wl,-rpath,"$build"
export STARPU_SILENT=1 STARPU_NCPU=2
for config in "none|256" "none|100" "random:0.5:7|256,128,64" "all|200,100" "random:0.3:11|128,64"; do
  split=${config%%|*} scales=${config#*|}
  echo "== split $split, GRAIN_SCALES $scales"
  GRAIN_SCALES=$scales "$bin/digest" "$split"
done
