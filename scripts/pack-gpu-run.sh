#!/usr/bin/env bash
# Packs a CUDA build of grain to run on a machine that has an NVIDIA driver and CUDA's
# libraries but none of grain's other dependencies (StarPU, OpenBLAS, LAPACKE, GLPK, hwloc,
# ...): the build's libraries, drivers and test programs, the shared libraries they load
# except glibc's and CUDA's, and env.sh, which points the loader at them; all in one
# archive, OUT_DIR/grain-gpu.tar.xz (about 12 MB; 65 MB unpacked, mostly OpenBLAS). A build
# with StarPU-MPI also carries Open MPI: mpirun from env.sh's PATH.
# Usage: scripts/pack-gpu-run.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR: a build against the --cuda StarPU (default build-cuda; e.g.
#     scripts/build.sh build-cuda -DCMAKE_PREFIX_PATH=<scripts/build-starpu.sh --cuda prefix>)
#   OUT_DIR: created afresh (default build-device, which git ignores).
# On the other machine, from a copy of this repository holding OUT_DIR:
#   tar xJf build-device/grain-gpu.tar.xz -C /tmp && source /tmp/grain-gpu/env.sh &&
#   scripts/bench-gpu.sh /tmp/grain-gpu/build calibrate hybrid
# env.sh adds /usr/local/cuda/lib64 (override with GRAIN_CUDA_LIBS) and sets STARPU_HOME to
# a fresh folder when unset, so the performance models start empty there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-cuda}
out=${2:-$root/build-device}
[ -f "$build/CMakeCache.txt" ] || { echo "$0: $build is not a CMake build folder" >&2; exit 2; }
[ -x "$build/testing_drivers/grain_testing" ] || { echo "$0: no $build/testing_drivers/grain_testing: build it first" >&2; exit 2; }
lib=$(ls "$build"/libgrain.so.*.*.* 2>/dev/null | head -1)
[ -n "$lib" ] || { echo "$0: no libgrain.so in $build" >&2; exit 2; }
# ldd's whole output first: under pipefail, `ldd | grep -q` fails when grep stops reading
# before ldd has written everything (SIGPIPE; seen in CI on a CUDA build).
grep -q 'libcudart\.so' <<<"$(ldd "$lib")" || { echo "$0: $lib does not load CUDA's runtime: not a CUDA build" >&2; exit 2; }

rm -rf "$out"
stage=$out/grain-gpu
mkdir -p "$stage/build/testing_drivers" "$stage/build/tests" "$stage/lib"
cp -a "$build"/libgrain.so* "$stage/build/"
binaries=()
for f in "$build"/testing_drivers/grain_* "$build"/tests/grain_*; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  dest=$stage/build/${f#"$build"/}
  cp "$f" "$dest"
  binaries+=("$dest")
done

# An MPI build carries Open MPI (the lent machines have none): mpirun, Open MPI's plugins,
# help texts and settings, and PMIx's, which env.sh relocates through the OPAL_* and PMIX_*
# variables that both read in place of their configured folders.
plugins=()
if [ -x "$build/tests/grain_mpi_tests" ]; then
  command -v ompi_info >/dev/null || { echo "$0: an MPI build, but no Open MPI (ompi_info) to pack" >&2; exit 1; }
  ompi_path() { ompi_info --parsable --path "$1" | cut -d: -f3; }
  mpi=$stage/openmpi
  mkdir -p "$mpi/bin" "$mpi/lib" "$mpi/share" "$stage/pmix/lib" "$stage/pmix/share"
  cp -L "$(ompi_path bindir)/orterun" "$(ompi_path bindir)/orted" "$mpi/bin/"
  ln -s orterun "$mpi/bin/mpirun"
  cp -r "$(ompi_path pkglibdir)" "$mpi/lib/openmpi"
  cp -r "$(ompi_path pkgdatadir)" "$mpi/share/openmpi"
  cp -r "$(ompi_path sysconfdir)" "$mpi/etc"
  pmix=$(ldd "$mpi/lib/openmpi/mca_pmix_ext3x.so" | awk '$1 ~ /^libpmix/ { print $3 }')
  pmix=$(dirname "$(dirname "$(readlink -f "$pmix")")")
  cp -r "$pmix/lib/pmix" "$stage/pmix/lib/"
  cp -r "$pmix/share/pmix" "$stage/pmix/share/"
  # A plugin whose libraries this machine lacks cannot load there either.
  for f in "$mpi"/lib/openmpi/*.so "$stage"/pmix/lib/pmix/*.so; do
    if grep -q 'not found' <<<"$(ldd "$f")"; then rm "$f"; else plugins+=("$f"); fi
  done
  plugins+=("$mpi/bin/orterun" "$mpi/bin/orted")
fi

# Every library the loader resolves for them, but the C library's own and CUDA's (the
# other machine's driver needs its own CUDA libraries).
ldd "$lib" "${binaries[@]}" "${plugins[@]}" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u | while read -r path; do
  case $path in /usr/local/cuda* | "$build"/*) continue ;; esac
  case $(basename "$path") in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | ld-linux* | \
    libcuda.so.* | libcudart.so.* | libcublas*.so.* | libcusolver*.so.* | libcusparse.so.* | libnvJitLink.so.*) continue ;;
  esac
  cp -L "$path" "$stage/lib/"
done
missing=$(ldd "$lib" "${binaries[@]}" | grep 'not found' | sort -u || true)
[ -z "$missing" ] || { echo "$0: unresolved libraries here already:" >&2; echo "$missing" >&2; exit 1; }

cat > "$stage/env.sh" <<'EOF'
# Source me: the loader finds grain's build and the libraries packed beside it.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LD_LIBRARY_PATH=$here/build:$here/lib:${GRAIN_CUDA_LIBS:-/usr/local/cuda/lib64}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -z "${STARPU_HOME:-}" ]; then
  export STARPU_HOME=$(mktemp -d)
fi
if [ -d "$here/openmpi" ]; then
  export PATH=$here/openmpi/bin:$PATH
  export OPAL_PREFIX=$here/openmpi OPAL_EXEC_PREFIX=$here/openmpi OPAL_BINDIR=$here/openmpi/bin \
    OPAL_LIBDIR=$here/lib OPAL_PKGLIBDIR=$here/openmpi/lib/openmpi OPAL_DATAROOTDIR=$here/openmpi/share \
    OPAL_DATADIR=$here/openmpi/share OPAL_PKGDATADIR=$here/openmpi/share/openmpi OPAL_SYSCONFDIR=$here/openmpi/etc
  export PMIX_PREFIX=$here/pmix PMIX_EXEC_PREFIX=$here/pmix PMIX_LIBDIR=$here/pmix/lib \
    PMIX_PKGLIBDIR=$here/pmix/lib/pmix PMIX_DATADIR=$here/pmix/share PMIX_PKGDATADIR=$here/pmix/share/pmix
fi
EOF
tar cJf "$out/grain-gpu.tar.xz" -C "$out" grain-gpu
rm -rf "$stage"
echo "packed $build into $out/grain-gpu.tar.xz ($(du -h "$out/grain-gpu.tar.xz" | cut -f1))"
