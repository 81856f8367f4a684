#!/usr/bin/env bash
# Simulated nodes, run outside CI: StarPU with SimGrid and StarPU-MPI (scripts/build-starpu.sh
# --simgrid-mpi, static, cached), grain's simulated-nodes build (build-sim-mpi) and its test
# (ctest NodesSim: dpotrf on 2 and 4 simulated H200 machines). The extra StarPU build and
# grain's take about 15 minutes on 2 cores, which CI's run has no room for.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
starpu=$(bash "$root/scripts/build-starpu.sh" --simgrid-mpi | tail -1)
bash "$root/scripts/build.sh" "$root/build-sim-mpi" -DGRAIN_SIMULATION=ON -DCMAKE_PREFIX_PATH="$starpu"
(cd "$root/build-sim-mpi" && ctest --output-on-failure)
