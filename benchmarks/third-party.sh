#!/bin/sh
# third-party.sh BUILD ROUNDS LIST | BUILD ROUNDS -- PROGRAM [ARGS]
#
# Issue 23's comparison on real OpenMP programs not written here (NPB,
# LULESH, ...: built outside the tree, fetched by you, never by this script),
# each run unmodified.  Per program, first `htplaces tune --out DIR` (its
# per-region answer, TUNE_REPS rounds, default 5 as tune's), then ROUNDS alternating
# rounds in one run (rounds.sh, shared with mixed-regions.sh), the order of
# the variants rotated by one each round:
#
#   spnK    htplaces exec spn K          (every K from 1 to the allowed PUs:
#                                         the global settings; "best global"
#                                         is the one with the least median)
#   plain   the program as it is (the runtime's default: unbound)
#   auto    htplaces exec auto           (no learnt state: every run is a
#                                         first run)
#   learn   htplaces exec auto --learn D (D primed by 3 learning runs before
#                                         the rounds, and updated by each)
#   plan    htplaces exec --plan DIR     (tune's per-region answer)
#
# Issue 30's goals: auto <= 1.05 x the best global setting (spnK or plain),
# learn and plan <= 1.00 x, on the whole-process time.
#
# LIST: one program a line, "NAME COMMAND [ARGS]" (blank lines and lines
# starting with # skipped; ARGS split at blanks, no quoting); with
# -- PROGRAM [ARGS] the name is PROGRAM's file name.  Use BUILD's runtime:
# gcc-built programs with a gcc build of omp_ext, clang-built ones with a
# clang build (libomp), as mixed-regions.sh does.
#
# Measured per run: the wall time of the whole process (GNU date +%s%N
# around it: what auto's exploration costs counts, wherever it happens)
# and, when the program prints it, its own time (the last field of the last
# line matching THIRD_TIME, default 'Time in seconds|^time_s': NPB's timed
# part).  The check: the output lines matching THIRD_CHECK (default
# '[Vv]erification|VERIFICATION|^checksum'), blanks removed, joined by '|';
# "none" when no line matches, "exit=N" when the program failed.  It must be
# equal in every run of a program.
#
# Prints every run and, per program, the median wall (and own) time of each
# variant, auto/best-global (goal <= 1.05) and plan/best-global, the same
# paired by round (geometric mean of the per-round ratios and its 95 %
# interval: one that holds 1 is a tie within the noise), the checks, and
# the load average before and after.  Exits 1 when a program's checks
# differ between runs or tune fails, 2 on a usage error.  KEEP_TMP=1 keeps
# the temporary folder (tune's DIRs, every run's output).
set -eu
usage() {
  echo "usage: third-party.sh BUILD ROUNDS LIST | BUILD ROUNDS -- PROGRAM [ARGS]" >&2
  exit 2
}
[ $# -ge 3 ] || usage
build=$(cd "$1" && pwd) rounds=$2
shift 2
case $rounds in '' | *[!0-9]*) echo "third-party.sh: ROUNDS '$rounds' is not a count (>= 1)" >&2; exit 2 ;; esac
[ "$rounds" -ge 1 ] || { echo "third-party.sh: ROUNDS must be >= 1" >&2; exit 2; }
htp=$build/bin/htplaces lib=$build/omp_ext/libomp_ext.so
if [ ! -x "$htp" ] || [ ! -f "$lib" ]; then
  echo "third-party.sh: no bin/htplaces and omp_ext/libomp_ext.so in $build" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT
if [ "$1" = -- ]; then
  shift
  [ $# -ge 1 ] || usage
  echo "$(basename "$1") $*" >"$tmp/list"
else
  [ -f "$1" ] || { echo "third-party.sh: LIST '$1' is not a file" >&2; exit 2; }
  grep -v '^[[:space:]]*#' "$1" | grep . >"$tmp/list" || { echo "third-party.sh: LIST '$1' names no program" >&2; exit 2; }
fi
stdin=/dev/null
check_re=${THIRD_CHECK-'[Vv]erification|VERIFICATION|^checksum'}
time_re=${THIRD_TIME-'Time in seconds|^time_s'}
. "$(dirname "$0")/rounds.sh"
npus=$(rounds_npus "$htp")
variants=""
k=1
while [ "$k" -le "$npus" ]; do variants="$variants spn$k"; k=$((k + 1)); done
variants="plain$variants auto learn plan"
echo "# third-party.sh: $(uname -n), $(nproc) PUs, $(basename "$build"), $rounds rounds, tune reps ${TUNE_REPS:-5}"

# run_variant VARIANT (rounds.sh) -> "WALL CHECK OWN" for the program in
# $prog / $args, tune's answer in $plan.
run_variant() {
  n=$(($(cat "$tmp/n") + 1))
  echo "$n" >"$tmp/n"
  out=$tmp/$name.out.$n
  t0=$(date +%s%N)
  rc=0
  case $1 in
    spn*) "$htp" exec spn "${1#spn}" -- "$prog" $args <"$stdin" >"$out" 2>&1 || rc=$? ;;
    plain) "$prog" $args <"$stdin" >"$out" 2>&1 || rc=$? ;;
    auto) "$htp" exec auto -- "$prog" $args <"$stdin" >"$out" 2>&1 || rc=$? ;;
    learn) "$htp" exec auto --learn "$tmp/$name.learn" -- "$prog" $args <"$stdin" >"$out" 2>&1 || rc=$? ;;
    plan) "$htp" exec --plan "$plan" -- "$prog" $args <"$stdin" >"$out" 2>&1 || rc=$? ;;
  esac
  t1=$(date +%s%N)
  if [ "$rc" -ne 0 ]; then
    check="exit=$rc"
  else
    check=$(grep -E "$check_re" "$out" | tr -d ' \t' | paste -sd'|' -)
  fi
  own=$(grep -E "$time_re" "$out" | tail -n 1 | awk '{print $NF}')
  awk -v a="$t0" -v b="$t1" -v c="${check:-none}" -v o="${own:--}" \
    'BEGIN {printf "%.4f %s %s\n", (b - a) / 1e9, c, o}'
}

status=0
while read -r name prog args; do
  echo
  echo "## $name: $prog $args"
  plan=$tmp/$name.tune
  echo 0 >"$tmp/n"
  : >"$tmp/$name.runs"
  echo "# load before tune $(cut -d' ' -f1-3 /proc/loadavg)"
  if ! "$htp" tune --stdin "$stdin" --reps "${TUNE_REPS:-5}" --out "$plan" -- "$prog" $args >"$tmp/$name.tune.txt" 2>"$tmp/$name.tune.err"; then
    echo "# htplaces tune failed:"
    tail -n 5 "$tmp/$name.tune.err"
    status=1
    continue
  fi
  sed -n '/^recommend/,$p' "$plan/recommendation.txt" 2>/dev/null | head -n 3 | sed 's/^/# tune: /'
  python3 - "$plan/results.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cfg = d["configurations"]
name = lambda i: f'{cfg[i]["policy"]} {cfg[i]["threads"]}'
regs = d["summary"]["regions"]
print(f"# tune's plan: {len(regs)} regions, global best {name(d['recommendation']['best'])}; per region: "
      + ", ".join(f"{r['name']}={name(r['best'])}" for r in regs[:12]) + (" ..." if len(regs) > 12 else ""))
PY
  for i in 1 2 3; do run_variant learn >/dev/null; done # the learning runs
  echo "# learnt state: $(ls "$tmp/$name.learn" 2>/dev/null | tr '\n' ' ')"
  echo "# load before rounds $(cut -d' ' -f1-3 /proc/loadavg)"
  rounds "$rounds" "$tmp/$name.runs" $variants
  echo "# load after rounds $(cut -d' ' -f1-3 /proc/loadavg)"
  python3 - "$tmp/$name.runs" $variants <<'PY' || status=1
import statistics, sys
runs = [l.split() for l in open(sys.argv[1])]
variants = sys.argv[2:]
def med(v, col):
    xs = [float(r[col]) for r in runs if r[0] == v and r[col] != "-"]
    return statistics.median(xs) if xs else None
wall = {v: med(v, 1) for v in variants}
own = {v: med(v, 3) for v in variants}
checks = {r[2] for r in runs}
# Paired by round (the k-th run of each variant is round k's): the
# geometric mean of v/g over the rounds and its 95 % interval (Student t on
# the log ratios, as tune's test) -- the medians' ratio above picks the
# best global from the same runs, so it favours it (the least of several
# noisy medians); an interval that holds 1 is a tie within the noise.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086]
def paired(v, g):
    import math
    xs = [float(r[1]) for r in runs if r[0] == v]
    ys = [float(r[1]) for r in runs if r[0] == g]
    d = [math.log(x / y) for x, y in zip(xs, ys) if x > 0 and y > 0]
    if len(d) < 2:
        return f"{v} -"
    mean, sd = statistics.mean(d), statistics.stdev(d)
    half = T975[min(len(d) - 2, len(T975) - 1)] * sd / math.sqrt(len(d))
    return f"{v} {math.exp(mean):.3f} [{math.exp(mean - half):.3f}, {math.exp(mean + half):.3f}]"
print("# variant  median_wall_s  median_own_s")
for v in variants:
    print(f"  {v:8s} {wall[v]:.4f}" + (f"  {own[v]:.4f}" if own[v] is not None else "  -"))
for label, m in (("wall", wall), ("own", own)):
    if any(m[v] is None for v in variants):
        continue
    glob = min((v for v in variants if v.startswith("spn") or v == "plain"), key=lambda v: m[v])
    print(f"# {label}: best global {glob}: auto/best-global {m['auto'] / m[glob]:.3f} (goal <= 1.05), "
          f"learn/best-global {m['learn'] / m[glob]:.3f} (<= 1.00), "
          f"plan/best-global {m['plan'] / m[glob]:.3f} (<= 1.00)")
    if label == "wall":
        print(f"# wall, paired by round against {glob}: " + ", ".join(paired(v, glob) for v in ("auto", "learn", "plan")))
ok = len(checks) == 1 and not any(c == "none" or c.startswith("exit=") for c in checks)
print(f"# checks: {'equal: ' + checks.pop() if ok else 'DIFFER or missing: ' + ' '.join(sorted(checks))}")
sys.exit(0 if ok else 1)
PY
done <"$tmp/list"
exit "$status"
