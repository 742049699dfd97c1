#!/bin/sh
# test_cunit_main.sh SELFTEST: cunit_main.h's exit status and skip lines
# (see tests/cunit_selftest.c for the crafted programs).
set -u
bin=$1 pass=0 fail=0
# expect MODE STATUS [STDERR-TEXT]
expect() {
  err=$(CUNIT_SELFTEST=$1 "$bin" 2>&1 >/dev/null); st=$?
  if [ "$st" != "$2" ]; then
    echo "FAIL: $1: exit $st, want $2"; fail=$((fail + 1)); return
  fi
  case $err in *"${3:-}"*) pass=$((pass + 1)) ;;
    *) echo "FAIL: $1: stderr lacks '$3':"; echo "$err"; fail=$((fail + 1)) ;; esac
}
expect pass 0
expect fail 1
expect setup 1 "1 suite(s) failed their setup (their tests did not run) or cleanup"
expect cleanup 1 "1 suite(s) failed their setup (their tests did not run) or cleanup"
expect none 77 "cunit_selftest: skipped: no test ran"
expect allskip 77 "cunit_selftest: skipped: all 2 tests: skips: crafted reason; skips twice: first part"
expect partskip 0 "omp_ext-skipped: cunit_selftest: 1 of 2 skipped: skips: crafted reason"
# the part-skip line is the only line of a passing program's own on stderr
n=$(CUNIT_SELFTEST=partskip "$bin" 2>&1 >/dev/null | grep -c '^omp_ext-skipped: ')
[ "$n" = 1 ] && pass=$((pass + 1)) || { echo "FAIL: partskip: $n omp_ext-skipped lines, want 1"; fail=$((fail + 1)); }
echo "cunit_main: $pass passed, $fail failed"
[ $fail = 0 ]
