#!/usr/bin/env bash
# libgrain_lapack under LD_PRELOAD, judged by LAPACK's own tests (Debian's liblapack-test and
# libblas-test, LAPACK 3.11), in the four precisions, with every call through grain
# (GRAIN_LAPACK_MIN_N=0) on small tiles, so that the test matrices span several tiles:
# - the reference BLAS tests (xblat3*) of the level-3 routines, with their error exits;
#   every level-3 routine goes through grain (gemm, trsm, trmm, symm, hemm, syrk, herk,
#   syr2k, her2k) and must pass;
# - the linear-equation tests (xlintst*) of the GE, PO and TR paths (getrf, getrs, gesv,
#   getri, potrf, potrs, posv, potri, trtri, and the system routines built on them: gerfs,
#   gesvx, trtrs, ...; and lange, lansy or lanhe, and lantr, which their residuals call), with
#   their error exits, singular and badly scaled matrices; and the least-squares tests
#   (the LS path): gels through grain, its error exits, scaled and rank-deficient matrices;
# - the mixed-precision tests (xlintstds, xlintstzc) of dsgesv, dsposv, zcgesv, zcposv;
# - GRAIN_LAPACK_TRACE's counts: each interposed routine ran through grain, and grain's
#   kernels reached the system's LAPACK (nested calls), never grain again;
# - with the default GRAIN_LAPACK_MIN_N the small calls of the BLAS test go to the system
#   and the runtime never starts.
# Usage: tests/test_lapack_api.sh path/to/libgrain_lapack.so   (exit 77: skipped; a failure
# instead with GRAIN_REQUIRE_LAPACK_TESTS set). GRAIN_LAPACK_TEST_PRECISIONS: the
# precisions to test (default "s d c z"; d is always tested).
set -euo pipefail
lib=$(realpath "${1:?usage: $0 path/to/libgrain_lapack.so}")
lapack=/usr/lib/x86_64-linux-gnu/lapack blas=/usr/lib/x86_64-linux-gnu/blas
if [ ! -x $lapack/xlintstd ] || [ ! -x $blas/xblat3d ]; then
  echo "skipped: LAPACK's test programs are not installed (apt-get install liblapack-test libblas-test)"
  [ -z "${GRAIN_REQUIRE_LAPACK_TESTS:-}" ] || exit 1  # scripts/test.sh installs them
  exit 77
fi
# A sanitized build (-DGRAIN_SANITIZE=ON): ASan's runtime must be loaded first, before the
# (uninstrumented) test programs.
preload=$lib
asan=$(ldd "$lib" | awk '/libasan/ { print $3 }')
[ -z "$asan" ] || preload="$asan $lib"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAILED: $*"; exit 1; }
through_grain() {  # LOG SYMBOL -> the calls of SYMBOL through grain, in LOG's trace
  sed -n "s/^grain_lapack: $2: \([0-9]*\) through grain.*/\1/p" "$1"
}
nested() { sed -n "s/^grain_lapack: $2: .* \([0-9]*\) nested$/\1/p" "$1"; }
upper() { echo "$1" | tr a-z A-Z; }

# The BLAS tests' input (the reference dblat3.in's format; n up to 20: 4 tiles of 5).
blas_input() {  # p
  local p=$1 P alphas betas routines
  P=$(upper "$1")
  if [ "$p" = s ] || [ "$p" = d ]; then
    alphas="0.0 1.0 0.7" betas="0.0 1.0 1.3" routines="GEMM SYMM TRMM TRSM SYRK SYR2K"
  else
    alphas="(0.0,0.0) (1.0,0.0) (0.7,-0.9)" betas="(0.0,0.0) (1.0,0.0) (1.3,-1.1)"
    routines="GEMM HEMM SYMM TRMM TRSM HERK SYRK HER2K SYR2K"
  fi
  printf "'%sblat3.out' NAME OF SUMMARY OUTPUT FILE\n6 UNIT NUMBER OF SUMMARY FILE\n" "$p"
  printf "'%sBLAT3.SNAP' NAME OF SNAPSHOT OUTPUT FILE\n-1 UNIT NUMBER OF SNAPSHOT FILE\n" "$P"
  printf "F REWIND SNAPSHOT\nF STOP ON FAILURES\nT TEST ERROR EXITS\n16.0 THRESHOLD\n"
  printf "7 NUMBER OF VALUES OF N\n0 1 2 3 5 9 20 VALUES OF N\n"
  printf "3 NUMBER OF VALUES OF ALPHA\n%s VALUES OF ALPHA\n3 NUMBER OF VALUES OF BETA\n%s VALUES OF BETA\n" \
    "$alphas" "$betas"
  for r in $routines; do printf '%-7sT\n' "$P$r"; done
}

# The linear-equation tests' input: LAPACK's own, but for its block sizes: 1 and 3 (LAPACK's
# unblocked and blocked code around the calls; grain's tiles are GRAIN_NB's whatever
# LAPACK's NB), not its five, which repeat grain's calls.
lin_header() {  # p
  head -7 $lapack/${1}test.in
  printf '2                      Number of values of NB\n1 3                    Values of NB\n1 0                    Values of NX\n'
  sed -n 11,16p $lapack/${1}test.in
}

precisions=${GRAIN_LAPACK_TEST_PRECISIONS:-s d c z}
case " $precisions " in *" d "*) ;; *) precisions="d $precisions" ;; esac
for p in $precisions; do
  P=$(upper $p)
  blas_input $p > ${p}blat3.in
  LD_PRELOAD="$preload" GRAIN_LAPACK_MIN_N=0 GRAIN_LAPACK_TRACE=1 GRAIN_NB=5 STARPU_SILENT=1 \
    $blas/xblat3$p < ${p}blat3.in > ${p}blas.log 2>&1 || { tail -20 ${p}blas.log; fail "xblat3$p exited $?"; }
  routines=$(grep -c '^[A-Z0-9]* *T$' ${p}blat3.in)
  passed=$(grep -c 'PASSED THE COMPUTATIONAL TESTS' ${p}blat3.out || true)
  exits=$(grep -c 'PASSED THE TESTS OF ERROR-EXITS' ${p}blat3.out || true)
  echo "xblat3$p: $passed of $routines routines passed, $exits passed the error exits"
  problems=$(grep -v 'PASSED THE TESTS OF ERROR-EXITS' ${p}blat3.out | grep -i 'fail\|suspect\|error' || true)
  if [ -n "$problems" ] || [ "$passed" != "$routines" ] || [ "$exits" != "$routines" ]; then
    echo "$problems" | head -20
    fail "xblat3$p"
  fi
  symbols="${p}gemm_ ${p}trsm_ ${p}trmm_ ${p}symm_ ${p}syrk_ ${p}syr2k_"
  case $p in c | z) symbols="$symbols ${p}hemm_ ${p}herk_ ${p}her2k_" ;; esac
  for s in $symbols; do
    calls=$(through_grain ${p}blas.log $s)
    [ "${calls:-0}" -gt 0 ] || fail "xblat3$p: no $s call went through grain"
  done
  grep '^grain_lapack' ${p}blas.log

  lin_header $p > ${p}lin.in
  printf '%sGE   11\n%sPO    9\n%sTR   18\n' $P $P $P >> ${p}lin.in
  LD_PRELOAD="$preload" GRAIN_LAPACK_MIN_N=0 GRAIN_LAPACK_TRACE=1 GRAIN_NB=16 STARPU_SILENT=1 \
    $lapack/xlintst$p < ${p}lin.in > ${p}lin.out 2> ${p}lin.log || { tail -20 ${p}lin.out ${p}lin.log; fail "xlintst$p"; }
  grep -i 'pass\|fail' ${p}lin.out
  # The system's LAPACK alone, on the TR path: LAPACK 3.11's single-precision latrs3 fails
  # some of its own tests there (test 10, near overflow); grain must fail no other.
  { lin_header $p; printf '%sTR   18\n' $P; } > ${p}tr.in
  $lapack/xlintst$p < ${p}tr.in > ${p}tr-system.out 2>&1 || fail "xlintst$p, TR path, without grain"
  tr_known=$(grep 'LATRS3(' ${p}tr-system.out || true)
  for path in GE PO TR; do
    for what in "routines passed the tests of the error exits" "drivers passed the tests of the error exits" \
                "All tests for $P$path routines passed the threshold" "All tests for $P$path drivers  passed the threshold"; do
      case $path:$what in TR:*drivers*) continue ;; esac  # the TR path has no driver
      case $path:$what in TR:All*) [ -z "$tr_known" ] || continue ;; esac
      case $what in All*) line=$what ;; *) line="$P$path $what" ;; esac
      grep -q "$line" ${p}lin.out || fail "xlintst$p: no line '$line'"
    done
  done
  [ "$(grep 'LATRS3(' ${p}lin.out || true)" = "$tr_known" ] || fail "xlintst$p: latrs3's failures differ from the system's"
  ! grep -i 'failed' ${p}lin.out | grep -v "^ ${P}TR: *$(echo "$tr_known" | grep -c .) out of" | grep -qi 'failed' ||
    fail "xlintst$p: failures"
  # The LS path (gels, and the system's gelsy, gelss, gelsd, getsls on grain's BLAS) with
  # one block size: LAPACK's blocking is not grain's, and each size more is a minute more.
  { head -7 $lapack/${p}test.in; printf '1 NNB\n3 NB\n0 NX\n'; sed -n 11,16p $lapack/${p}test.in
    printf '%sLS    6\n' $P; } > ${p}ls.in
  LD_PRELOAD="$preload" GRAIN_LAPACK_MIN_N=0 GRAIN_LAPACK_TRACE=1 GRAIN_NB=16 STARPU_SILENT=1 \
    $lapack/xlintst$p < ${p}ls.in > ${p}ls.out 2> ${p}ls.log || { tail -20 ${p}ls.out ${p}ls.log; fail "xlintst$p, LS path"; }
  grep -i 'pass\|fail' ${p}ls.out
  grep -q "All tests for ${P}LS drivers  passed the threshold" ${p}ls.out || fail "xlintst$p: the LS path did not pass"
  grep -q "${P}LS routines passed the tests of the error exits" ${p}ls.out || fail "xlintst$p: LS error exits"
  ! grep -qi 'failed' ${p}ls.out || fail "xlintst$p: LS failures"
  calls=$(through_grain ${p}ls.log ${p}gels_)
  [ "${calls:-0}" -gt 0 ] || fail "xlintst$p: no ${p}gels_ call went through grain"
  grep "^grain_lapack: ${p}gels_" ${p}ls.log
  # The mixed-precision drivers of the working precisions (dsgesv and dsposv; zcgesv and
  # zcposv): LAPACK's own test and input (orders up to 132, singular and ill-conditioned
  # matrices, error exits), every call through grain.
  case $p in d) mixed=ds ;; z) mixed=zc ;; *) mixed= ;; esac
  if [ -n "$mixed" ]; then
    LD_PRELOAD="$preload" GRAIN_LAPACK_MIN_N=0 GRAIN_LAPACK_TRACE=1 GRAIN_NB=32 STARPU_SILENT=1 \
      $lapack/xlintst$mixed < $lapack/${mixed}test.in > $mixed.out 2> $mixed.log ||
      { tail -20 $mixed.out $mixed.log; fail "xlintst$mixed exited $?"; }
    grep -i 'pass\|fail' $mixed.out
    M=$(upper $mixed)
    for r in gesv posv; do
      R=$(upper $r)
      grep -q "All tests for $M$R routines passed the threshold" $mixed.out || fail "xlintst$mixed: $M$R"
      grep -q "$M$R drivers passed the tests of the error exits" $mixed.out || fail "xlintst$mixed: $M$R error exits"
      calls=$(through_grain $mixed.log $mixed${r}_)
      [ "${calls:-0}" -gt 0 ] || fail "xlintst$mixed: no $mixed${r}_ call went through grain"
    done
    ! grep -qi 'failed' $mixed.out || fail "xlintst$mixed: failures"
    grep -E "^grain_lapack: $mixed(gesv|posv)_" $mixed.log
  fi
  case $p in [sd]) symmetric_norm=lansy_ ;; *) symmetric_norm=lanhe_ ;; esac  # dpot01's, zpot01's
  for s in getrf_ getrs_ gesv_ getri_ potrf_ potrs_ posv_ potri_ trtri_ lange_ lantr_ $symmetric_norm; do
    calls=$(through_grain ${p}lin.log $p$s)
    [ "${calls:-0}" -gt 0 ] || fail "xlintst$p: no $p$s call went through grain"
  done
  # grain's kernels call LAPACKE, whose calls come back to these symbols from StarPU
  # workers: they must have gone to the system's LAPACK.
  for s in getrf_ potrf_; do
    calls=$(nested ${p}lin.log $p$s)
    [ "${calls:-0}" -gt 0 ] || fail "xlintst$p: grain's $p$s kernels did not reach the system's LAPACK"
  done
  grep '^grain_lapack' ${p}lin.log
done

# The default threshold: the BLAS test's calls (n <= 20) all go to the system, and the
# runtime never starts.
LD_PRELOAD="$preload" GRAIN_LAPACK_TRACE=1 $blas/xblat3d < dblat3.in > default.log 2>&1 || fail "xblat3d, default threshold"
grep -q 'PASSED THE COMPUTATIONAL TESTS' dblat3.out || fail "xblat3d, default threshold: no pass"
grep -q '^grain_lapack: runtime never started' default.log || fail "the runtime started for calls under the threshold"
[ "$(through_grain default.log dgemm_)" = 0 ] || fail "a dgemm_ under the threshold went through grain"
echo "default threshold: $(grep '^grain_lapack: dgemm_' default.log)"
# A runtime that cannot start (StarPU could not write its home; it would abort the
# program): LAPACK's GE tests pass on the system's LAPACK, and stderr says so once.
{ head -16 $lapack/dtest.in; echo "DGE   11"; } > dge.in
env -u XDG_CACHE_HOME -u STARPU_PERF_MODEL_DIR STARPU_HOME=/proc/grain-none LD_PRELOAD="$preload" \
  GRAIN_LAPACK_MIN_N=0 GRAIN_LAPACK_TRACE=1 STARPU_SILENT=1 $lapack/xlintstd < dge.in > dge.out 2> dge.log ||
  { tail -20 dge.out dge.log; fail "xlintstd with an unusable STARPU_HOME exited $?"; }
grep -q 'All tests for DGE routines passed' dge.out || fail "xlintstd with an unusable STARPU_HOME: no pass"
[ "$(grep -c "calls go to the system's LAPACK" dge.log)" = 1 ] || { cat dge.log; fail "not one line saying so"; }
[ "$(through_grain dge.log dgetrf_)" = 0 ] || fail "a dgetrf_ went through grain without a runtime"
echo "unusable STARPU_HOME: $(grep "calls go to the system's LAPACK" dge.log)"
echo "PASSED"
