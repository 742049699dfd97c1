#!/bin/sh
# A real third-party OpenMP program: NumPy with Debian's OpenBLAS built for
# OpenMP (libgomp), libomp_ext injected with LD_PRELOAD and OMP_EXT_TIMING
# set.  It must not abort (a python3 that dlopen()s libgomp privately, as
# NumPy's extension modules do, hides the runtime from a global lookup), and
# the timing file must list OpenBLAS's region: 3 matrix products, 3
# instances, team of 2.
# Usage: test_numpy.sh LIBOMP_EXT_SO      (exit 77: skipped, with the reason)
set -u
lib=$1
py=/usr/bin/python3
blas=/usr/lib/x86_64-linux-gnu/openblas-openmp
[ -x "$py" ] && "$py" -c 'import numpy' 2>/dev/null ||
  { echo "skipped: no NumPy for $py (apt-get install python3-numpy)"; exit 77; }
[ -e "$blas/libblas.so.3" ] ||
  { echo "skipped: no OpenBLAS for OpenMP (apt-get install libopenblas0-openmp)"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
LD_LIBRARY_PATH=$blas LD_PRELOAD=$lib OMP_EXT_TIMING=$out/t.json OMP_NUM_THREADS=2 \
  OPENBLAS_NUM_THREADS= "$py" -c '
import numpy
a = numpy.ones((1200, 1200))
for _ in range(3):
    b = a @ a
assert b[0, 0] == 1200.0
print("numpy ok")' >"$out/stdout" 2>"$out/stderr"
status=$?
cat "$out/stdout" "$out/stderr"
[ "$status" = 0 ] || { echo "FAIL: python3 + NumPy under LD_PRELOAD=libomp_ext exited $status"; exit 1; }
[ -s "$out/t.json" ] || { echo "FAIL: no timing file"; exit 1; }
cat "$out/t.json"
grep -q '"omp_ext_timing": 1' "$out/t.json" || { echo "FAIL: not omp_ext's timing file"; exit 1; }
grep -q '"instances": 3, "team_sizes": \[2\]' "$out/t.json" ||
  { echo "FAIL: OpenBLAS's region not timed (3 instances, team of 2)"; exit 1; }
echo "numpy: 1 passed, 0 failed"
