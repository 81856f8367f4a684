#!/usr/bin/env bash
# Installs, with apt-get, what grain needs to build and test on Debian bookworm.
# Idempotent: installs only the packages that are missing. Run as root (or with sudo).
set -euo pipefail

# pocl-opencl-icd: an OpenCL device on the CPU, the second memory node of the OpenclNode
# test (Debian's StarPU has OpenCL). liblapack-test, libblas-test: LAPACK's and the
# reference BLAS's own test programs, run through libgrain_lapack (the LapackApi test);
# python3-scipy: scipy through it (the ScipyOnGrain test, examples/python).
# libopenmpi-dev, openmpi-bin: distributed matrices over StarPU-MPI (libstarpu-dev has it),
# tested under mpirun (the Mpi tests); libscalapack-openmpi-dev: the driver's distributed
# baseline (--vendor under mpirun).
packages=(cmake make g++ pkg-config libstarpu-dev libglpk-dev liblapacke-dev libopenblas-dev libgtest-dev gnuplot-nox
          pocl-opencl-icd liblapack-test libblas-test python3-scipy libopenmpi-dev openmpi-bin libscalapack-openmpi-dev)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
