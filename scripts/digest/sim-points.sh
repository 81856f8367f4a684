#!/usr/bin/env bash
# Simulated points (deterministic), one line each: the driver's row. Two builds that make the
# same decisions print the same lines but for the LP's wall-clock columns (lp_median_ms,
# lp_max_ms). Usage: scripts/digest/sim-points.sh BUILD_SIM > points.txt
b=$1  # a build folder configured with -DGRAIN_SIMULATION=ON
run() { bash "$(dirname "$0")/../sim-testing.sh" --build "$b" "$@" 2>/dev/null | grep -v '^#' | grep -v '^op;' | tr '\n' ' '; echo; }
run --cpus 2 -o getrf -n 4096 -b 512
run --cpus 2 -o getrf -n 4096 --scales 512,256,128 --split lp
run --cpus 16 -o potrf -n 4096 --scales 2048,1024,512,256 --split lp
run --cpus 2 -o getrf_nopiv -n 4096 --scales 1024,512,256 --split lp
run --gpus 1 --cpus 15 -o potrf -n 16384 --sched dmdar --window 480 --scales 2048,1024,512,256 --split lp
run --machine h200 --gpus 1 --cpus 15 -o potrf -n 16384 --sched darts --scales 4096,2048,1024,512 --split lp
run --machine h200 --gpus 1 --cpus 15 -o getrf_nopiv -n 32768 -b 4096 --sched darts
run --machine h200 --gpus 2 --cpus 15 -o potrf -n 32768 -b 4096 --sched darts
run --gpus 1 --cpus 4 -o posv -n 4096 --nrhs 2048 --scales 1024,512 --split lp
run --machine h200 --gpus 1 --cpus 15 -o gemm -n 16384 --sched darts --scales 4096,2048 --split lp
GRAIN_SIM_PIN_MBPS=25000 GRAIN_SIM_UNPIN_MBPS=60000 run --machine h200 --gpus 1 --cpus 15 -o potrf -n 32768 -b 4096 --sched darts
GRAIN_SIM_PIN_MBPS=25000 GRAIN_SIM_UNPIN_MBPS=60000 GRAIN_PIN_COLUMNS=0 run --machine h200 --gpus 1 --cpus 15 -o gemm -n 16384 -b 4096 --sched darts
