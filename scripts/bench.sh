#!/usr/bin/env bash
# The foundation's benchmark: grain against threaded OpenBLAS in the same process,
# each grain run followed by the vendor run (alternated), medians over the runs.
# Usage: scripts/bench.sh [BUILD_DIR]   (build first: scripts/build.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
driver=${1:-$root/build}/testing_drivers/grain_testing
run() { echo "# grain_testing $*" >&2; "$driver" "$@" --vendor 2>/dev/null | awk -F';' -f "$root/scripts/vendor-ratio.awk" | sort -t= -k2n -k3n; }
run -o potrf -n 4096 -b 256,320,384,448,512 --niter 5
run -o potrf -n 8192 -b 384,512,640,768 --niter 3
run -o gemm -n 4096 -b 512,768,1024 --niter 3
run -o gemm -n 8192 -b 1024,2048 --niter 3
