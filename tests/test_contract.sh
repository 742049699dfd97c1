#!/bin/sh
# OpenMP's team-size contract under per-region control (issue 30): programs
# that rely on their team size -- a count read in a first region striding
# later loops, per-thread storage sized by it, a primary thread waiting for
# the whole team, omp_set_num_threads(), OMP_NUM_THREADS=1, Fortran -- give
# the output of their plain run, do not crash and do not hang, under
#   htplaces exec auto, exec auto --learn DIR (twice: the second run starts
#   from the learnt state), exec --plan PLAN, LD_PRELOAD with
#   OMP_EXT_HT_POLICY=auto and with OMP_EXT_PLAN=PLAN.
# PLAN gives every region of the program a one-thread line (a plan made
# where team sizes may change): the library must not apply it to a kept
# team.  Each run under timeout (a team smaller than the program's hangs
# contract_wait).  OMP_NUM_THREADS is unset, then 1, then 1 given to
# exec --plan too (the user's value honoured).
# Usage: sh test_contract.sh HTPLACES LIBOMP_EXT_SO PROGRAM...
set -eu
htp=$1 lib=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY OMP_EXT_PLAN OMP_EXT_TIMING \
  OMP_EXT_LEARN OMP_DYNAMIC KMP_AFFINITY GOMP_CPU_AFFINITY OMP_WAIT_POLICY 2>/dev/null || true
fail() { echo "FAIL: $*"; exit 1; }
npus=$("$htp" speedup | tr ',' '\n' | grep -c .)
if [ "$npus" -lt 2 ]; then
  echo "omp_ext-skipped: test_contract: one allowed PU: every team is one thread"
  exit 77
fi
one=$("$htp" spn 1)
runs=0
for prog in "$@"; do
  name=${prog##*/}
  # The plan: a one-thread line for every region the program runs.
  OMP_EXT_TIMING=$tmp/$name.json LD_PRELOAD=$lib "$prog" 5 >/dev/null ||
    fail "$name: the timing run failed"
  python3 - "$tmp/$name.json" "$one" "$npus" "$("$htp" speedup)" >"$tmp/$name.plan" <<'PY' ||
import json, sys
regions = [r for r in json.load(open(sys.argv[1]))["regions"] if r["kind"] == "parallel"]
assert regions, "no region timed"
print("omp_ext_plan 2\ndefault %s %s speedup:%s" % (sys.argv[3], sys.argv[4], sys.argv[3]))
for r in regions:
    print("region %s %s 1 %s spn:1" % (r["module"].rsplit("/", 1)[-1], r["offset"], sys.argv[2]))
PY
    fail "$name: cannot make its plan"
  for nt in unset 1; do
    if [ $nt = unset ]; then unset OMP_NUM_THREADS; else export OMP_NUM_THREADS=$nt; fi
    want=$(timeout 60 "$prog") || fail "$name (OMP_NUM_THREADS $nt): the plain run failed"
    rm -rf "$tmp/learn"
    for how in auto learn learn plan preload-auto preload-plan; do
      rc=0
      case $how in
        auto) got=$(timeout 60 "$htp" exec auto -- "$prog" 2>"$tmp/err") || rc=$? ;;
        learn) got=$(timeout 60 "$htp" exec auto --learn "$tmp/learn" -- "$prog" 2>"$tmp/err") || rc=$? ;;
        plan) got=$(timeout 60 "$htp" exec --plan "$tmp/$name.plan" -- "$prog" 2>"$tmp/err") || rc=$? ;;
        preload-auto) got=$(OMP_EXT_HT_POLICY=auto LD_PRELOAD=$lib timeout 60 "$prog" 2>"$tmp/err") || rc=$? ;;
        preload-plan) got=$(OMP_EXT_PLAN=$tmp/$name.plan LD_PRELOAD=$lib timeout 60 "$prog" 2>"$tmp/err") || rc=$? ;;
      esac
      [ $rc = 0 ] || fail "$name under $how (OMP_NUM_THREADS $nt): exit $rc$([ $rc = 124 ] && echo ' (hung)'): $(head -c 300 "$tmp/err")"
      [ "$got" = "$want" ] ||
        fail "$name under $how (OMP_NUM_THREADS $nt): printed '$(echo $got)', the plain run '$(echo $want)'"
      [ ! -s "$tmp/err" ] || fail "$name under $how: stderr '$(head -c 300 "$tmp/err")'"
      runs=$((runs + 1))
    done
  done
done
echo "test_contract: $# programs, $runs runs under per-region control, each as its plain run"
