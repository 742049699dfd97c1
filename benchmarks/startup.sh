#!/bin/sh
# startup.sh BUILD [ROUNDS]: what per-region control adds to a trivial
# OpenMP program's start (issue 30: exec auto and exec --plan within 5 ms of
# exec POLICY).  BUILD's tests/region_probe with one instance of each of its
# two regions, ROUNDS alternating rounds (default 30, rounds.sh), the
# whole-process wall time of:
#
#   plain   the program alone
#   spn     htplaces exec spn N          (N: every allowed PU)
#   auto    htplaces exec auto
#   learn   htplaces exec auto --learn D (D holds the state of a first run)
#   plan    htplaces exec --plan FILE    (that state, as a plan)
#   planx   the same plan with one more region line of another
#           configuration (for a code address no region has): a plan of
#           more than one configuration, always run with libomp_ext
#           preloaded (learn and plan, when what was learnt is one
#           configuration, run as exec POLICY N does: htplaces-exec(1))
#
# Prints every round and the medians, auto, learn, plan and planx - spn
# in ms (goal <= 5), and the load average before and after.
set -eu
build=$(cd "$1" && pwd) rounds=${2:-30}
htp=$build/bin/htplaces prog=$build/tests/region_probe
[ -x "$htp" ] && [ -x "$prog" ] || { echo "startup.sh: no bin/htplaces and tests/region_probe in $build" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/rounds.sh"
npus=$(rounds_npus "$htp")
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY OMP_EXT_PLAN OMP_EXT_TIMING OMP_EXT_LEARN 2>/dev/null || true
"$htp" exec auto --learn "$tmp/learn" -- "$prog" 1 >/dev/null
state=$tmp/learn/${prog##*/}.plan
[ -f "$state" ] || { echo "startup.sh: exec auto --learn wrote no $state" >&2; exit 1; }
cp "$state" "$tmp/planx"
echo "region ${prog##*/} 0x1 1 $("$htp" spn 1) spn:1" >>"$tmp/planx"
run_variant() { # VARIANT -> "WALL_S"
  t0=$(date +%s%N)
  case $1 in
    plain) "$prog" 1 ;;
    spn) "$htp" exec spn "$npus" -- "$prog" 1 ;;
    auto) "$htp" exec auto -- "$prog" 1 ;;
    learn) "$htp" exec auto --learn "$tmp/learn" -- "$prog" 1 ;;
    plan) "$htp" exec --plan "$state" -- "$prog" 1 ;;
    planx) "$htp" exec --plan "$tmp/planx" -- "$prog" 1 ;;
  esac >/dev/null
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f\n", (b - a) / 1e9}'
}
echo "# startup.sh: $(uname -n), $(nproc) PUs, $(basename "$build"), $rounds rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
rounds "$rounds" "$tmp/runs" plain spn auto learn plan planx
echo "# load after $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp/runs" <<'PY'
import statistics, sys
runs = [l.split() for l in open(sys.argv[1])]
med = {v: statistics.median(float(r[1]) for r in runs if r[0] == v)
       for v in ("plain", "spn", "auto", "learn", "plan", "planx")}
print("# variant  median_ms")
for v, m in med.items():
    print(f"  {v:6s} {m * 1e3:8.2f}")
for v in ("auto", "learn", "plan", "planx"):
    d = (med[v] - med["spn"]) * 1e3
    print(f"# {v} - spn: {d:+.2f} ms (goal <= 5){'' if d <= 5 else '  OVER'}")
PY
