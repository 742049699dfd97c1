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
  # checks.sh'"'"'s last line: "# cpuset: 86 passed, 0 failed, 1 skipped"
  name != "" && /^# [a-z0-9]+: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ {
    c[name] = ", " $3 " checks ok" ($5 > 0 ? ", " $5 " not ok" : "") ($7 > 0 ? ", " $7 " skipped" : "") }
  # (ctest writes "Test Passed." for a test that exited with its skip code.)
  name != "" && /^Test (Passed|Failed)\./ {
    res[name] = (name in reason) ? "SKIPPED" : ($2 == "Passed.") ? "passed" : "FAILED"; name = "" }
  # "(331.97s, 86 checks ok)": the test time and checks.sh'"'"'s count.
  function detail(k) { return (t[k] != "" || c[k] != "") ? "(" (t[k] != "" ? t[k] "s" : "-") c[k] ")" : "" }
  END {
    n = 0
    m = split("smt2x2 smt4 numa2 offline cpuset", order, " ")
    for (i = 1; i <= m; i++) { k = "smtvm_" order[i]; if (k in res) { n++; line = line " " order[i] "=" res[k] detail(k); delete res[k] } }
    for (k in res) if (k != "smtvm_setup") { n++; line = line " " substr(k, 7) "=" res[k] detail(k) }
    for (k in reason) { why = reason[k]; break }
    if (n == 0) print "smtvm: SMT guest tests: no result in the ctest log"
    else print "smtvm: SMT guest tests (QEMU):" line
    if (why != "") print why
  }' "$log"
