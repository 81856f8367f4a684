#!/usr/bin/env bash
# grain_testing on a simulated machine of CPU cores, alone or with 1 to 8 GPUs: StarPU
# (built with SimGrid) runs no kernel but times each one from the models in sim/ (cores:
# measured on the 2-core development machine, per tile size; the GPU: a synthetic
# V100-like model; sim/README.md), on as many simulated cores as asked. What it shows
# is the schedule (split decisions, parallelism, critical path) on a machine this one
# is not, without runtime overheads or memory contention.
# The models hold the square tiles the calibration ran (256 to 2048): n must be a
# multiple of the tile size (-b) or of the ladder's largest scale (--scales), else an
# edge tile has no model and StarPU aborts ("grain_dgemm ... not calibrated").
# Usage: scripts/sim-testing.sh [--build DIR] [--program PATH] [--machine hybrid|h100|h200] [--gpus 0|1|2|4|8]
#          [--predict starpu|link] [--nodes N] --cpus N GRAIN_TESTING_ARGS...
#   DIR: a -DGRAIN_SIMULATION=ON build (default build-sim, made by scripts/test.sh; with
#     --nodes, build-sim-mpi, against the StarPU of scripts/build-starpu.sh --simgrid-mpi)
#   --nodes N: N such machines, one process each, under SimGrid's MPI (smpirun), linked by
#     a network of $NET_BW [25GBps] and $NET_LAT [2us] per node (one 200 Gb/s InfiniBand
#     port), each with $STARPU_LIMIT_CPU_MEM [1048576] MiB of memory: a GPU node's, not
#     this machine's, which grain would give StarPU-MPI otherwise (doc/distributed.md).
#     StarPU's starpu_smpirun does the same with platforms of SimGrid's older
#     <AS> form; sim/'s are <zone>s, so this script writes the platform itself: each
#     process's machine is a zone StarPU-MPI<rank> whose hosts carry that prefix, as
#     StarPU looks them up.
#   PATH: another program of such a build to run instead of grain_testing (a test)
#   --machine h100: the GPUs and cores of a real H100 machine, in double precision, with
#     1, 2, 4 or 8 GPUs on their own measured PCIe 5 links (hosts grain-h100-Ngpu, made by
#     sim/gen_sim_files.cpp from sim/models/grain-h100.tar.gz; tiles 256 to 4096);
#   --machine h200: the same from a real H200 machine (sim/models/grain-h200.tar.gz); the
#     default, hybrid, is the V100-like GPUs and the development machine's cores
#   --predict link: StarPU 1.3 predicts a transfer as 2 x (number of GPUs) times its time on
#     the bus matrix (starpu_transfer_predict assumes one host bus shared by all GPUs);
#     'link' divides that back out, so that StarPU's dm* policies predict each GPU's own
#     link as the platform simulates it. The default, starpu, is what StarPU does on a real
#     machine. grain's placements read the link's bandwidth directly: leave them at starpu
#   e.g. scripts/sim-testing.sh --cpus 16 -o potrf -n 4096 --scales 2048,1024,512,256 --split lp
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-sim
driver=
cpus=
gpus=0
machine=hybrid
predict=starpu
nodes=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --program) driver=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --gpus) gpus=$2; shift 2 ;;
    --machine) machine=$2; shift 2 ;;
    --predict) predict=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    *) break ;;
  esac
done
case $cpus in
  '' | *[!0-9]*) echo "usage: $0 [--build DIR] [--program PATH] [--machine hybrid|h100|h200] [--gpus 0|1|2|4|8] --cpus N GRAIN_TESTING_ARGS..." >&2; exit 2 ;;
esac
case $machine:$gpus in
  hybrid:0) host=grain-cpu ;;
  hybrid:1 | hybrid:2 | hybrid:4) host=grain-hybrid-${gpus}gpu ;;
  h100:1 | h100:2 | h100:4 | h100:8 | h200:1 | h200:2 | h200:4 | h200:8) host=grain-$machine-${gpus}gpu ;;
  hybrid:*) echo "$0: --gpus $gpus: the simulated hybrid machines have 0, 1, 2 or 4 GPUs (sim/README.md)" >&2; exit 2 ;;
  h100:* | h200:*) echo "$0: --gpus $gpus: the simulated $machine machines have 1, 2, 4 or 8 GPUs (sim/README.md; 8 needs a StarPU
     built by scripts/build-starpu.sh --simgrid)" >&2; exit 2 ;;
  *) echo "$0: --machine $machine: hybrid, h100 or h200" >&2; exit 2 ;;
esac
if [ "$cpus" -lt 1 ] || [ "$cpus" -gt 64 ]; then
  echo "$0: --cpus $cpus: the simulated platform (sim/bus/grain-cpu.platform.v4.xml) has 1 to 64 cores" >&2
  exit 2
fi
case $nodes in '' | *[!0-9]*) echo "$0: --nodes $nodes: a number of processes" >&2; exit 2 ;; esac
[ "$nodes" -eq 0 ] || [ "$build" != "$root/build-sim" ] || build=$root/build-sim-mpi
driver=${driver:-$build/testing_drivers/grain_testing}
[ -x "$driver" ] || { echo "$0: no $driver: build with -DGRAIN_SIMULATION=ON against a SimGrid StarPU (scripts/test.sh makes build-sim)" >&2; exit 2; }
# StarPU writes into its model folder: give it a copy.
models=$(mktemp -d)
trap 'rm -rf "$models"' EXIT
cp -r "$root/sim/bus" "$root/sim/codelets" "$models/"
case $predict in
  starpu) ;;
  link)
    # The MB/s matrix times 2 x GPUs: StarPU's prediction then equals one link's time.
    matrix=$models/bus/$host.bandwidth
    awk -v k=$((2 * gpus)) 'NR == 1 || k == 0 { print; next }
      { for (i = 1; i <= NF; i++) if ($i != "nan") $i = sprintf("%e", $i * k); print }' OFS='\t' \
      "$matrix" > "$matrix.scaled" && mv "$matrix.scaled" "$matrix" ;;
  *) echo "$0: --predict $predict: starpu or link" >&2; exit 2 ;;
esac
run=()
if [ "$nodes" -gt 0 ]; then
  command -v smpirun >/dev/null || { echo "$0: --nodes needs SimGrid's smpirun (Debian: libsimgrid-dev)" >&2; exit 2; }
  machine_xml=$models/bus/$host.platform.v4.xml
  {
    sed -n '1,/<\/config>/p' "$machine_xml"
    echo ' <zone id="ASroot" routing="None">'
    echo "  <cluster id=\"network\" prefix=\"node\" suffix=\"\" radical=\"0-$((nodes - 1))\" speed=\"1Gf\"" \
         "bw=\"${NET_BW:-25GBps}\" lat=\"${NET_LAT:-2us}\"/>"
    for ((i = 0; i < nodes; ++i)); do
      sed -n '/<zone id="AS0"/,/<\/zone>/p' "$machine_xml" |
        sed -e "s/<zone id=\"AS0\"/<zone id=\"StarPU-MPI$i\"/" \
            -e "s/\(<host id=\"\|<link id=\"\|src=\"\|dst=\"\|<link_ctn id=\"\)/\1StarPU-MPI$i-/g"
    done
    echo ' </zone>'
    echo '</platform>'
  } > "$models/nodes.xml"
  for ((i = 0; i < nodes; ++i)); do echo "node$i"; done > "$models/hostfile"
  # StarPU's settings for SimGrid's MPI (starpu_smpirun's): each process's globals its own,
  # no computation timed but the kernels' models, the stack of a real thread. The tiles'
  # folded memory (doc/distributed.md) in blocks of 1 GiB: a mapping per MiB would pass
  # the kernel's limit of 65530 at 64 GiB.
  stack=$(ulimit -s); [ "$stack" != unlimited ] || stack=8192
  # The received copies live in this memory; with this machine's, a node's fills up at
  # n = 131072 and StarPU retries its allocations at each simulated event.
  export STARPU_LIMIT_CPU_MEM=${STARPU_LIMIT_CPU_MEM:-1048576}
  run=(smpirun -platform "$models/nodes.xml" -hostfile "$models/hostfile" -np "$nodes" "$driver"
       --cfg=smpi/privatization:yes --cfg=smpi/simulate-computation:no --cfg=contexts/stack-size:"$stack"
       --cfg=smpi/shared-malloc-blocksize:1073741824 --log=root.thres:warning)
else
  run=("$driver")
fi
STARPU_HOSTNAME=$host STARPU_PERF_MODEL_DIR=$models STARPU_NCPU=$cpus STARPU_NCUDA=$gpus "${run[@]}" "$@"
