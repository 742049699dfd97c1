#!/bin/sh
# summary.sh BUILD: one line (or two) for the end of tests/run.sh: whether
# BUILD's SMT guest tests (ctest label smtvm) ran, passed, failed or were
# skipped, and why they were skipped (from ctest's LastTest.log).
set -u
log=$1/Testing/Temporary/LastTest.log
if [ ! -f "$log" ] || ! grep -q 'smtvm_' "$log"; then
  echo "smtvm: SMT guest tests NOT RUN in $1 (not registered: OMP_EXT_SMTVM=OFF or a sanitizer build)"
  exit 0
fi
# Each test's result block: "NN/MM Testing: NAME" ... "Test Passed." / "Test Failed." / skip.
awk '
  /^[0-9]+\/[0-9]+ Testing: smtvm_/ { name = $3; next }
  name != "" && /^smtvm: SKIPPED:/ { reason[name] = $0 }
  name != "" && /^Test time =/ { t[name] = $4 }
  name != "" && /^Test (Passed|Failed)\./ { res[name] = ($2 == "Passed.") ? "passed" : "FAILED"; name = "" }
  name != "" && /^Test Skipped|Skipped/ { res[name] = "SKIPPED" }
  END {
    n = 0
    for (k in res) if (k != "smtvm_setup") { n++; line = line " " substr(k, 7) "=" res[k] (t[k] != "" ? "(" t[k] "s)" : "") }
    for (k in reason) { why = reason[k]; break }
    if (n == 0) print "smtvm: SMT guest tests: no result in the ctest log"
    else print "smtvm: SMT guest tests (QEMU):" line
    if (why != "") print why
  }' "$log"
