#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs a checked Cholesky
# factorization through grain_testing, next to threaded OpenBLAS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
bash "$root/scripts/build.sh" "$root/build"
"$root/build/testing_drivers/grain_testing" -o potrf -n 4096 -b 384 --check --vendor -H
