#!/bin/sh
# htplaces under valgrind memcheck: no invalid access, no leak.
# Usage: sh tests/valgrind.sh VALGRIND HTPLACES TESTS_DIR [OMP_PROGRAM [TUNE_REGIONS_PROG]]
# Each command's own exit status is checked too, so valgrind's error status
# (1) is only expected where htplaces itself exits 0.
set -u
vg=$1 htplaces=$2 dir=$3 prog=${4:-} regions=${5:-}
c6100="pack:2 core:4 pu:2(indexes=core:pack)"
fails=0
run() { # EXPECTED-STATUS ARGS...
  want=$1
  shift
  "$vg" -q --error-exitcode=99 --suppressions="$dir/valgrind.supp" --leak-check=full --show-leak-kinds=definite,indirect \
    --errors-for-leak-kinds=definite,indirect "$htplaces" "$@" >/dev/null 2>"$tmp"
  got=$?
  if [ "$got" != "$want" ] || grep -q "==[0-9]*==" "$tmp"; then
    echo "FAIL (status $got, expected $want): htplaces $*" >&2
    cat "$tmp" >&2
    fails=$((fails + 1))
  else
    echo "ok: htplaces $*"
  fi
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
run 0 -i "$c6100" check --expand "{0:2:8}:4"
run 0 -i "$c6100" check "{0},{1},{2},{3}"
run 1 -i "$c6100" check "{0:4,!2},{70},{0},!{9}"
run 2 -i "$c6100" check "{0,1"
run 1 -i "$dir/topologies/intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml" check "{0,12},{1}"
run 0 -i "$dir/topologies/amd-epyc-7742-rome-2s-64c-smt2-far128-nps4.xml" check --expand ll_caches
run 1 -i "$c6100" check --as gomp "010 0x3 4-9:2"
run 0 -i "$c6100" check --as kmp --expand "explicit,proclist=[0,{1,9},7-4:-1]"
run 0 -i "$c6100" spn 8
run 2 doctor --no-saturation -i "$c6100" --sysfs /nonexistent --cgroup /nonexistent
run 0 doctor --no-saturation -i "$c6100" --sysfs "$dir/topologies" --cgroup "$dir/topologies"
run 2 doctor --duration 0
if [ -n "$prog" ] && [ "$(nproc)" -ge 2 ]; then
  run 0 verify os 2 -- "$prog"
  run 0 tune --reps 3 --threads 1,2 --policies spn,none -- "$prog"
fi
if [ -n "$regions" ]; then # 200 regions on one line; an inline helper's 16 regions
  run 0 tune --reps 3 --threads 1 --policies spn,none -- "$regions" many
  run 0 tune --reps 3 --threads 1 --policies spn,none -- "$regions" inline
fi
exit $fails
