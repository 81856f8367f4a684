#!/usr/bin/env bash
# --vendor under mpirun times ScaLAPACK's p?gemm, p?potrf and p?getrf on the run's grid (an error of
# ScaLAPACK's, a descriptor it refuses, fails the run): every checked row has a vendor rate.
# Usage: tests/test_mpi_scalapack.sh MPIRUN path/to/grain_testing
set -euo pipefail
mpirun=$1 driver=$2
for op in gemm potrf getrf; do
  out=$("$mpirun" -np 2 "$driver" -o $op -n 200,300 -b 64 -p d,z -P 1 -Q 2 --check --vendor)
  echo "$out"
  echo "$out" | awk -F';' '
    /^op;/ { for (i = 1; i <= NF; ++i) if ($i == "vendor_gflops") column = i; next }
    /;SUCCESS;/ { rows++; if (!($column + 0 > 0)) bad++ }
    END { exit !(column > 0 && rows == 4 && bad == 0) }' || { echo "FAILED: $op has no ScaLAPACK rate in every row"; exit 1; }
done
echo PASSED
