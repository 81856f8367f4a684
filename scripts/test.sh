#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks the layers' includes, builds,
# runs ctest; then again under AddressSanitizer + UndefinedBehaviorSanitizer; then the
# CUDA variant (StarPU from scripts/build-starpu.sh --cuda), and the simulated-GPU
# scheduler test (SimGrid StarPU); then installs grain into a temporary prefix and builds
# and runs the example application against it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"

# ctest in build folder $1, the tests in parallel. One StarPU start alone first: on a
# fresh machine it calibrates the bus into ~/.starpu, and tests started at once would read
# those files while another writes them. If it fails, the parallel run reports it.
parallel_ctest() {
  (cd "$1" && { ctest -R '^Info$' >/dev/null || true; } && ctest --output-on-failure -j "$(nproc)")
}
# The environment fuzzer's budget in the variants, which run the Release build's paths
# again (its own default, 40 s, in the Release build).
variant_fuzz_seconds=15

echo "== layers: no file includes from a layer above its own"
bash "$root/scripts/check-layers.sh" "$root"
# ... and the check can fail: a copy with one forbidden include (the data layer asking
# the recursion) must be refused.
layers=$(mktemp -d)
cp -r "$root"/{include,src,recursion,algorithms,lp,scripts} "$layers"
echo '#include "recursion/recursion.hpp"' >>"$layers/src/starpu/tile_storage.cpp"
if bash "$layers/scripts/check-layers.sh" "$layers" 2>/dev/null; then
  echo "check-layers.sh accepted a forbidden include" >&2
  exit 1
fi
rm -rf "$layers"

# install-deps.sh brings LAPACK's test programs: the LapackApi test must run, not skip.
export GRAIN_REQUIRE_LAPACK_TESTS=1

echo "== build and test (Release)"
bash "$root/scripts/build.sh" "$root/build"
parallel_ctest "$root/build"
# Debian's StarPU has OpenCL and install-deps.sh brings pocl's CPU device: the test of a
# second memory node with real data must run here, not be skipped.
grep -q 'OpenclNode \.* *Passed' <<<"$(cd "$root/build" && ctest -R '^OpenclNode$')" ||
  { echo "OpenclNode did not pass: no OpenCL device (pocl-opencl-icd), or a StarPU without OpenCL?" >&2; exit 1; }

echo "== build and test under ASan + UBSan"
bash "$root/scripts/build.sh" "$root/build-sanitize" -DGRAIN_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
GRAIN_ENV_FUZZ_SECONDS=$variant_fuzz_seconds parallel_ctest "$root/build-sanitize"

echo "== CUDA variant: StarPU built with CUDA (cached), grain's CUDA kernels and tests"
# Compiled and linked on every CI run so that CUDA code cannot rot; the GPU tests run
# where a GPU is visible and are reported as skipped elsewhere.
cuda_home=${CUDA_HOME:-/usr/local/cuda}
starpu_cuda=$(bash "$root/scripts/build-starpu.sh" --cuda | tail -1)
bash "$root/scripts/build.sh" "$root/build-cuda" -DGRAIN_USE_CUDA=ON -DCMAKE_PREFIX_PATH="$starpu_cuda" \
  -DCUDAToolkit_ROOT="$cuda_home" -DGRAIN_TEST_SEEDS=1
# Without a visible GPU its cores run the Release build's code paths: the split matrix,
# LAPACK's own tests and the placements on cores, run there already, are left out (they
# run where a GPU is visible).
cuda_skip='^$'
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 ||
  cuda_skip='^(Recursive_.*|LapackApi|Placements|Mpi[0-9]+|MpiDriver|MpiScalapack)$'
(cd "$root/build-cuda" && { ctest -R '^Info$' >/dev/null || true; } &&
  GRAIN_ENV_FUZZ_SECONDS=$variant_fuzz_seconds ctest --output-on-failure -j "$(nproc)" -E "$cuda_skip")

echo "== the CUDA build packed for a GPU machine without grain's dependencies, run from the archive"
# Every library it loads must come from the archive, but glibc's and CUDA's.
pack=$(mktemp -d)
bash "$root/scripts/pack-gpu-run.sh" "$root/build-cuda" "$pack/out"
tar xJf "$pack/out/grain-gpu.tar.xz" -C "$pack"
(
  export GRAIN_CUDA_LIBS="$cuda_home/lib64:$cuda_home/lib"
  source "$pack/grain-gpu/env.sh"
  outside=$(ldd "$pack/grain-gpu/build/testing_drivers/grain_testing" | awk '$2 == "=>" { print $3 }' |
    grep -v -e "^$pack/grain-gpu/" -e "^$cuda_home" -e '/lib\(c\|m\|dl\|pthread\|rt\)\.so\.' || true)
  [ -z "$outside" ] || { echo "libraries from outside the archive: $outside" >&2; exit 1; }
  STARPU_SILENT=1 "$pack/grain-gpu/build/testing_drivers/grain_testing" -o potrf -n 1500 -b 512 --check
  # The archive's Open MPI, with this machine's hidden where a mount namespace is allowed:
  # mpirun, its plugins and PMIx's all from the archive (the GPU test skips here).
  hide=(env)
  if unshare -m true 2>/dev/null; then
    hide=(unshare -m sh -c 'while [ "$1" != -- ]; do mount -t tmpfs none "$1"; shift; done; shift; exec env "$@"' sh
          /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 /usr/share/openmpi /etc/openmpi --)
  fi
  rc=0
  "${hide[@]}" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \
    OMPI_MCA_btl_vader_single_copy_mechanism=none STARPU_SILENT=1 GRAIN_TEST_RANKS=2 \
    "$pack/grain-gpu/openmpi/bin/mpirun" -np 2 "$pack/grain-gpu/build/tests/grain_mpi_tests" \
    --gtest_filter='Mpi.RunsUnderMpirun:MpiGpu.*' || rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || { echo "the archive's mpirun failed (rc $rc)" >&2; exit 1; }
)
rm -rf "$pack"

echo "== simulated GPUs: StarPU built with SimGrid (cached), grain_sched_bench, its test"
starpu_sim=$(bash "$root/scripts/build-starpu.sh" --simgrid | tail -1)
bash "$root/scripts/build.sh" "$root/build-sim" -DGRAIN_SIMULATION=ON -DCMAKE_PREFIX_PATH="$starpu_sim"
# Each simulation keeps a StarPU home of its own (scripts/sim-testing.sh): they run side by side.
(cd "$root/build-sim" && ctest --output-on-failure -j "$(nproc)")

echo "== StarPU with our patches and OpenCL: tiles cut and gathered on a device, with real data"
# pocl's CPU device is a second memory node: StarPU's patch 07 (scripts/starpu-patches) cuts
# and gathers tiles there, by copies on the device. The OpenclNode test checks the data
# against the patched StarPU, with the patch on and off (STARPU_PARTITION_ON_DEVICE=0); it
# must run, not be skipped.
starpu_opencl=$(bash "$root/scripts/build-starpu.sh" --opencl | tail -1)
cmake -S "$root" -B "$root/build-opencl" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$starpu_opencl" >/dev/null
cmake --build "$root/build-opencl" -j "$(nproc)" --target grain_opencl_tests
for setting in 1 0; do
  out=$(cd "$root/build-opencl" && STARPU_PARTITION_ON_DEVICE=$setting ctest -R '^OpenclNode$' --output-on-failure) || true
  grep -q 'OpenclNode \.* *Passed' <<<"$out" ||
    { echo "$out"; echo "OpenclNode did not pass against the patched StarPU (STARPU_PARTITION_ON_DEVICE=$setting)" >&2; exit 1; }
done

echo "== install, then build examples/app with find_package(grain) and pkg-config"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$root/build" --prefix "$prefix" >/dev/null
cmake -S "$root/examples/app" -B "$prefix/app-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/app-build" >/dev/null
STARPU_SILENT=1 "$prefix/app-build/app"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" g++ -o "$prefix/app-pc" "$root/examples/app/main.cpp" \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs grain) -Wl,-rpath,"$prefix/lib"
STARPU_SILENT=1 "$prefix/app-pc"
echo "example: both builds ran and returned info 0"
# The installed LAPACK interface finds its libgrain from where it is installed: LAPACK's
# own GE test program through it, every call through grain.
lin=$(mktemp)
{ head -16 /usr/lib/x86_64-linux-gnu/lapack/dtest.in; echo "DGE   11"; } > "$lin"
out=$(LD_PRELOAD="$prefix/lib/libgrain_lapack.so" GRAIN_LAPACK_MIN_N=0 GRAIN_LAPACK_TRACE=1 STARPU_SILENT=1 \
  /usr/lib/x86_64-linux-gnu/lapack/xlintstd < "$lin" 2>&1)
rm -f "$lin"
grep -q 'All tests for DGE routines passed' <<<"$out" && grep -q 'dgetrf_: [1-9][0-9]* through grain' <<<"$out" ||
  { echo "$out" | tail -20; echo "the installed libgrain_lapack did not pass LAPACK's DGE tests" >&2; exit 1; }
echo "installed libgrain_lapack: LAPACK's DGE tests passed through grain"
