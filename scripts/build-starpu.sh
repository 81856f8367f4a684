#!/usr/bin/env bash
# Builds StarPU 1.3.10 from Debian bookworm's source package, with CUDA (from
# /usr/local/cuda, or $CUDA_HOME), with SimGrid (Debian's libsimgrid-dev), or with OpenCL
# (for tests of the patches with real data on a second memory node: pocl's CPU device),
# after the project's patches in scripts/starpu-patches/. Installs into a cache outside the clone,
# keyed by version + patches + configure options, so a second run is instant.
# The CUDA build has StarPU-MPI (Open MPI): a node's GPUs under mpirun. The SimGrid-MPI
# build simulates several nodes (SMPI): StarPU's manual asks for a static library then, and
# programs compiled with smpicxx and run by its starpu_smpirun.
# Usage: scripts/build-starpu.sh --cuda | --simgrid | --simgrid-mpi | --opencl [--prefix DIR] [--jobs N]
# Prints the install prefix on its last line (use it as GRAIN_STARPU_PREFIX or in
# PKG_CONFIG_PATH=PREFIX/lib/pkgconfig).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=1.3.10
variant="" prefix="" jobs=$(nproc)
usage() { echo "usage: $0 --cuda | --simgrid | --simgrid-mpi | --opencl [--prefix DIR] [--jobs N]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --cuda) variant=cuda ;;
    --simgrid) variant=simgrid ;;
    --simgrid-mpi) variant=simgrid-mpi ;;
    --opencl) variant=opencl ;;
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift ;;
    --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift ;;
    *) usage ;;
  esac
  shift
done
[ -n "$variant" ] || usage

cuda_home=${CUDA_HOME:-/usr/local/cuda}
options=(--enable-maxcpus=256 --disable-static --disable-build-doc --disable-build-examples
         --disable-build-tests --disable-fortran --disable-socl --disable-mpi
         --disable-starpufft --disable-openmp)
# 8 simulated GPUs (sim/'s largest machines): StarPU 1.3 holds 4 CUDA devices by default.
simgrid=(--disable-opencl --enable-simgrid --disable-cuda --enable-maxcudadev=8)
# configure takes an option's last value: the variants turn MPI and static linking back on.
case $variant in
  cuda)
    [ -x "$cuda_home/bin/nvcc" ] || { echo "build-starpu.sh: no CUDA toolkit at $cuda_home (set CUDA_HOME)" >&2; exit 1; }
    options+=(--disable-opencl --enable-cuda --with-cuda-dir="$cuda_home" --enable-mpi) ;;
  simgrid) options+=("${simgrid[@]}") ;;
  simgrid-mpi) options+=("${simgrid[@]}" --enable-mpi --enable-static --disable-shared) ;;
  opencl) options+=(--enable-opencl --disable-cuda) ;;
esac

# The cache key: anything that changes the installed library changes the folder.
patches=("$root"/scripts/starpu-patches/*.patch)
key=$( { echo "$version $variant ${options[*]}"; cat "${patches[@]}"; } | sha256sum | cut -c1-12)
cache=${GRAIN_STARPU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/grain}
prefix=${prefix:-$cache/starpu-$version-$variant-$key}
stamp=$prefix/.grain-starpu-key
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
  echo "StarPU $version ($variant) already built in $prefix" >&2
  echo "$prefix"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
# apt-get source needs a deb-src entry for the suite the binary packages come from.
if ! grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "adding a deb-src entry for Debian bookworm (main)" >&2
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
    $sudo tee /etc/apt/sources.list.d/grain-deb-src.sources >/dev/null
  $sudo apt-get update -qq
fi
packages=(dpkg-dev build-essential pkg-config libhwloc-dev libltdl-dev)
case $variant in
  cuda) packages+=(libopenmpi-dev openmpi-bin) ;;
  simgrid) packages+=(libsimgrid-dev libboost-dev) ;;
  # starpu_smpirun builds the nodes' platform with xsltproc.
  simgrid-mpi) packages+=(libsimgrid-dev libboost-dev xsltproc) ;;
  opencl) packages+=(ocl-icd-opencl-dev opencl-headers) ;;
esac
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/grain-starpu.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get source -qq "starpu=$version+dfsg-2" >/dev/null 2>&1 || apt-get source -qq starpu >/dev/null
src=$(find . -maxdepth 1 -type d -name "starpu-$version*" | head -1)
[ -n "$src" ] || { echo "build-starpu.sh: apt-get source gave no starpu-$version folder" >&2; exit 1; }
cd "$src"
for p in "${patches[@]}"; do
  echo "applying $(basename "$p")" >&2
  patch -p1 --quiet < "$p"
done
mkdir build && cd build
echo "configuring StarPU $version ($variant): ${options[*]}" >&2
../configure --prefix="$prefix" "${options[@]}" > configure.log 2>&1 ||
  { tail -30 configure.log >&2; echo "build-starpu.sh: configure failed (log above)" >&2; exit 1; }
# What each variant is for must be in the configured StarPU, not only asked for.
require() {
  grep -q "^#define $1 1" include/starpu_config.h ||
    { grep -i "$2" configure.log | tail -20 >&2; echo "build-starpu.sh: configure did not enable $2" >&2; exit 1; }
}
case $variant in
  cuda) require STARPU_USE_CUDA cuda; require STARPU_USE_MPI_MPI mpi ;;
  opencl) require STARPU_USE_OPENCL opencl ;;
  simgrid) require STARPU_SIMGRID simgrid ;;
  simgrid-mpi) require STARPU_SIMGRID simgrid; require STARPU_USE_MPI mpi ;;
esac
echo "building with $jobs jobs" >&2
make -j"$jobs" > make.log 2>&1 || { tail -40 make.log >&2; echo "build-starpu.sh: make failed" >&2; exit 1; }
rm -rf "$prefix"
make install > install.log 2>&1 || { tail -20 install.log >&2; exit 1; }
echo "$key" > "$stamp"
echo "StarPU $version ($variant) installed in $prefix" >&2
echo "$prefix"
