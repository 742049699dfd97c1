#!/bin/sh
# htbench's PARALLEL overhead next to EPCC syncbench's, alternating in one
# run (a benchmark, never a test).  syncbench is not part of omp_ext: build
# it from EPCC's sources (github.com/EPCCed/epcc-openmp-microbenchmarks,
# openmpbench_C_v40: `cc -O3 -fopenmp syncbench.c common.c -lm`) with the
# same compiler as htbench, outside this tree.
#
#   sh htbench-vs-syncbench.sh SYNCBENCH HTBENCH [ROUNDS]
#
# Both run 2 threads on the PUs `htplaces exec spn 2` gives (htbench: policy
# spn, N=2; syncbench: the same OMP_PLACES, OMP_PROC_BIND=close), 20 outer
# repetitions of about 1 ms each, EPCC's delay of 0.1 us in the region;
# overhead = (test - reference) / inner repetitions, median over the outer
# repetitions, in microseconds.  The order alternates every round.
set -eu
sync=$1 htb=$2 rounds=${3:-9}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
htplaces=$(dirname "$htb")/../bin/htplaces
places=$("$htplaces" spn 2)

run_htbench() {
  rm -rf "$tmp/h"
  "$htb" --kernels parallel --policies spn --threads 2 --reps 20 --no-plot --out "$tmp/h" \
    >/dev/null 2>&1
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "median_s") c = i; next }
           { printf "%.4f\n", $c * 1e6 }' "$tmp/h/results.csv"
}
run_syncbench() {
  OMP_NUM_THREADS=2 OMP_PLACES="$places" OMP_PROC_BIND=close \
    "$sync" --measureonly PARALLEL --outer-repetitions 20 2>/dev/null |
    awk '/PARALLEL median_ovrhd/ { printf "%.4f\n", $4 }'
}

echo "# PARALLEL overhead, 2 threads, OMP_PLACES=$places (us, median of 20 outer reps)"
echo "# round    htbench  syncbench"
: >"$tmp/all"
r=1
while [ "$r" -le "$rounds" ]; do
  if [ $((r % 2)) -eq 1 ]; then
    h=$(run_htbench); s=$(run_syncbench)
  else
    s=$(run_syncbench); h=$(run_htbench)
  fi
  printf "  %5d %10s %10s\n" "$r" "$h" "$s"
  echo "$h $s" >>"$tmp/all"
  r=$((r + 1))
done
med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mh=$(cut -d' ' -f1 "$tmp/all" | med)
ms=$(cut -d' ' -f2 "$tmp/all" | med)
printf "# median     %10.4f %10.4f   htbench / syncbench = %.3f (target <= 1.05)\n" "$mh" "$ms" \
  "$(echo "$mh $ms" | awk '{ print $1 / $2 }')"
