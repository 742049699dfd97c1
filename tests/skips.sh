#!/bin/sh
# skips.sh BUILD CTEST_OUTPUT: one line per skip of BUILD's last ctest run,
# with its reason, for tests/run.sh's list above its closing line:
#   "skipped: BUILD TEST: REASON"      a whole test (ctest's skip code 77;
#                                      REASON is its last line of output)
#   "part skipped: BUILD TEST: N of M skipped: REASONS"
#                                      a passing test, some of whose checks
#                                      skipped ("omp_ext-skipped:" lines of
#                                      tests/cunit_main.h, tests/smtvm/checks.sh)
# Both come from ctest's Testing/Temporary/LastTest.log; CTEST_OUTPUT (what
# ctest printed) names the tests ctest counted as skipped.
set -u
build=$1 out=$2
log=$build/Testing/Temporary/LastTest.log
[ -f "$log" ] || { echo "skipped: $build: no ctest log ($log)"; exit 0; }
names=$(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (Skipped)$/\1/p' "$out" | tr '\n' ' ')
awk -v build="$(basename "$build")" -v names=" $names " '
  /^[0-9]+\/[0-9]+ Testing: / { name = $3; inout = 0; last = ""; next }
  name != "" && /^Output:$/ { inout = 1; getline; next }
  name != "" && inout && /^<end of output>$/ {
    inout = 0
    if (index(names, " " name " ")) print "skipped: " build " " name ": " (last != "" ? last : "(no reason printed)")
    next }
  name != "" && inout && /omp_ext-skipped: / {
    line = $0; sub(/.*omp_ext-skipped: [^:]*: /, "", line)
    print "part skipped: " build " " name ": " line }
  name != "" && inout && NF { last = $0 }
' "$log"
