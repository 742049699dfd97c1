#!/bin/sh
# Instructions per region of bench_hooks' variants (a benchmark, never a
# test): each variant runs N1 and N2 empty 2-thread regions under valgrind
# (callgrind, every thread), and (Ir(N2) - Ir(N1)) / (N2 - N1) is what one
# region costs in instructions, start-up removed.  Threads wait passively
# (OMP_WAIT_POLICY=passive, GOMP_SPINCOUNT=0, KMP_BLOCKTIME=0) so that no
# spin loop counts: the figure is the work of fork, join and the hooks, and
# does not depend on the load of the machine (time does: bench_hooks).
#
# Both counts above 1024 regions: past that the timing layer keeps a fixed
# sample per region (and sorts it once at exit), so N1 below it would add
# that one-time sort to the per-region figure of linked+timing.
#
# libomp still spins a little before it sleeps, so its counts vary by a few
# hundred instructions from run to run: each figure is the median of REPS
# runs (default 3), the spread printed next to it.
#
#   sh bench_hooks_count.sh BUILD_DIR [N1 N2 [REPS]]
#   VARIANTS="linked linked+timing" sh bench_hooks_count.sh ...   (only those)
set -eu
b=$1/benchmarks n1=${2:-2000} n2=${3:-7000} reps=${4:-3}
command -v valgrind >/dev/null || { echo "bench_hooks_count: valgrind not found" >&2; exit 1; }
places=$("$1/bin/htplaces" spn 2)
ir() { # VARIANT-ENV... BIN N
  n=$1; shift
  env OMP_WAIT_POLICY=passive GOMP_SPINCOUNT=0 KMP_BLOCKTIME=0 BENCH_HOOKS_N="$n" "$@" \
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --child 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf "# instructions per empty 2-thread region (valgrind, passive wait), N=%s..%s, median of %s (min..max)\n" "$n1" "$n2" "$reps"
for v in ${VARIANTS:-plain plain+places linked linked+policy linked+os capable capable+notool linked+timing}; do
  bin=$b/bench_hooks set --
  case $v in
  plain) bin=$b/bench_hooks_plain ;;
  plain+places) bin=$b/bench_hooks_plain; set -- OMP_PLACES="$places" OMP_PROC_BIND=close ;;
  linked) bin=$b/bench_hooks_linked ;;
  linked+policy) set -- BENCH_HOOKS_POLICY=spn ;;
  linked+os) set -- BENCH_HOOKS_POLICY=os ;;
  capable) ;;
  capable+notool) set -- OMP_TOOL=disabled ;;
  linked+timing) bin=$b/bench_hooks_linked; set -- OMP_EXT_TIMING=/dev/null ;;
  esac
  r=0 all=
  while [ "$r" -lt "$reps" ]; do
    a=$(ir "$n1" "$@"); z=$(ir "$n2" "$@")
    all="$all $(echo "$a $z $n1 $n2" | awk '{ printf "%.0f", ($2 - $1) / ($4 - $3) }')"
    r=$((r + 1))
  done
  echo "$v$all" | awk '{ n = NF - 1; for (i = 2; i <= NF; i++) v[i - 1] = $i
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    printf "  %-14s %8d   (%d..%d)\n", $1, (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, v[1], v[n] }'
done
