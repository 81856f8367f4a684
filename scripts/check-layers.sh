#!/usr/bin/env bash
# Fails when a file includes from a layer above its own (doc/design.md, "Layers").
# Layers, bottom first; a file may include its own layer and those below:
#   1 include/grain   public API
#   2 src/base        vocabulary: kernel table, scalar traits, settings, constants
#   3 src/kernels     device kernels
#   4 src/starpu      tiles, handles, codelets, kernel tasks, models
#   5 src/sched       scheduling policies
#   6 recursion, algorithms   recursive tile tasks and the loop nests they refine into
#   7 lp              the granularity LP and its split policy
#   8 src/api         routines and Runtime, which wire the layers together
# Everything else (tests, drivers, examples, sim) is above them all.
# Usage: scripts/check-layers.sh [ROOT]
set -euo pipefail
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
cd "$root"

rank() {
  case $1 in
    include/grain/*) echo 1 ;;
    src/base/*) echo 2 ;;
    src/kernels/*) echo 3 ;;
    src/starpu/*) echo 4 ;;
    src/sched/*) echo 5 ;;
    recursion/* | algorithms/*) echo 6 ;;
    lp/*) echo 7 ;;
    src/api/*) echo 8 ;;
    src/*) echo "check-layers.sh: $1 is in no layer: add its folder to this script" >&2; echo 99 ;;
    *) echo 100 ;;
  esac
}

# Where `#include "name"` in `file` resolves: beside the file, else from the
# repository root, else from include/ (as the build's include paths say).
resolve() {
  local dir name=$2
  dir=$(dirname "$1")
  for candidate in "$dir/$name" "$name" "include/$name"; do
    if [ -f "$candidate" ]; then realpath --relative-to="$root" "$candidate"; return; fi
  done
}

violations=0
files=0
while IFS= read -r file; do
  files=$((files + 1))
  own=$(rank "$file")
  [ "$own" -ne 99 ] || { violations=$((violations + 1)); continue; }
  while IFS= read -r name; do
    target=$(resolve "$file" "$name")
    [ -n "$target" ] || continue  # a system header named with quotes
    theirs=$(rank "$target")
    if [ "$theirs" -gt "$own" ]; then
      echo "check-layers.sh: $file (layer $own) includes $target (layer $theirs)" >&2
      violations=$((violations + 1))
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(find include src recursion algorithms lp -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.h' \) | sort)

if [ "$violations" -gt 0 ]; then
  echo "check-layers.sh: $violations forbidden includes (layers: doc/design.md)" >&2
  exit 1
fi
echo "check-layers.sh: $files files, no include from a layer above"
