#!/bin/sh
# The issue-15 figures: 3 threads on 2 PUs (places {0},{1} -- spn N=2 on
# this 2-core machine -- OMP_PROC_BIND=close, 3 threads: htbench
# --oversubscribe 1), static vs dynamic vs the capacity-weighted split
# (alone, with a dynamic tail, with work stealing),
# with htbench's split-* kernels, under libgomp (a gcc build's htbench) and
# libomp (a clang build's), ROUNDS times over (the machine is shared: the
# spread between rounds is part of the figure).
#
#   sh benchmarks/share-2core.sh GCC_BUILD CLANG_BUILD [OUT] [ROUNDS]
#
# Each round runs, for each runtime, the "fine" loop (1,000,000 iterations
# of 100 dependent additions, where a dynamic schedule's per-chunk cost
# shows) and the "coarse" one (4096 iterations of 20,000), with the
# runtime's default wait policy and with OMP_WAIT_POLICY=passive (applied
# to every schedule alike: it is the environment of the whole run), under
# two schedulers: "cfs", the default one, the run in its own session with
# its autogroup at nice -20 where root may set it (other sessions' load
# still takes a share of each CPU, a share the capacity model cannot see:
# the idle column shows who waited); and "rr", SCHED_RR priority 1
# (chrt -r 1, root), which keeps other jobs off the two CPUs while it runs.
# Every kernel's /balanced is paired (htbench --split-pair 250): each
# repetition's time over the serial loop's run next to it, after 250 ms of
# rest (libomp's idle threads spin 200 ms), divided by the capacity.  This
# VM's CPUs change speed by up to 1.4x over seconds (benchmarks/RESULTS.md),
# which a serial time taken minutes apart cannot follow.
# SHARE_SCHEDS, SHARE_WAITS and SHARE_LOOPS narrow the cases (defaults
# "cfs rr", "default passive", "fine coarse").
# Writes OUT (default benchmarks/results/share-2core.txt): every htbench
# split table, then a summary of /balanced (the paired ratios' median)
# per case and kernel: the median over rounds, min and max.
set -eu
gcc_build=$1 clang_build=$2
out=${3:-benchmarks/results/share-2core.txt}
rounds=${4:-3}
kernels=split-static,split-dynamic,split-share,split-weights,split-tail,split-steal,split-serial
scheds=${SHARE_SCHEDS:-cfs rr}
waits=${SHARE_WAITS:-default passive}
loops=${SHARE_LOOPS:-fine coarse}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # LABEL SCHED BUILD WAIT OPTIONS...
  label=$1 sched=$2 b=$3 wait=$4
  shift 4
  echo
  echo "## $label: $b/benchmarks/htbench $* (OMP_WAIT_POLICY=$wait; load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
  if [ "$wait" = default ]; then w=; else w="OMP_WAIT_POLICY=$wait"; fi
  # shellcheck disable=SC2086
  if [ "$sched" = rr ]; then pre="chrt -r 1"; else pre=; fi
  # shellcheck disable=SC2086
  env $w setsid $pre sh -c 'echo -20 > /proc/$$/autogroup 2>/dev/null || true; exec "$@"' sh \
    "$b/benchmarks/htbench" --kernels $kernels --policies spn --threads 2 --oversubscribe 1 \
    --reps 20 --split-pair 250 --no-plot --out "$tmp/out" "$@" 2>/dev/null | sed -n '/^Capacity-weighted/,/^$/p;/^warning/p'
}
{
  echo "# share-2core: $(date -u +%Y-%m-%dT%H:%MZ), $(uname -sr), $(nproc) CPUs allowed, $rounds rounds"
  grep -m1 'model name' /proc/cpuinfo || true
  r=1
  while [ "$r" -le "$rounds" ]; do
    for sched in $scheds; do
      for wait in $waits; do
        for b in "$gcc_build" "$clang_build"; do
          rt=libgomp
          [ "$b" = "$clang_build" ] && rt=libomp
          for loop in $loops; do
            case $loop in
            fine) size="--split-n 1000000 --split-length 100" ;;
            coarse) size="--split-n 4096 --split-length 20000" ;;
            *) echo "share-2core.sh: SHARE_LOOPS: fine or coarse, not '$loop'" >&2; exit 2 ;;
            esac
            # shellcheck disable=SC2086
            run "round $r $sched $rt $loop $wait" $sched "$b" "$wait" $size --split-chunk 16
          done
        done
      done
    done
    r=$((r + 1))
  done
} > "$tmp/runs"
{
  cat "$tmp/runs"
  echo
  echo "# summary: /balanced per case (scheduler, runtime, loop, wait policy) and kernel over $rounds rounds:"
  echo "# median [min, max]"
  awk '/^## round/ { case = $4 " " $5 " " $6 " " $7; sub(":", "", case) }
       /^  split-/ { for (f = 2; f <= NF; f++) if ($f ~ /^[0-9.]+x$/) { v = $f; sub("x", "", v);
         k = case "|" $1; if (!(k in n)) order[++nk] = k; vals[k, ++n[k]] = v } }
       END { for (i = 1; i <= nk; i++) { k = order[i]; m = n[k];
               for (a = 1; a <= m; a++) x[a] = vals[k, a];
               for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (x[b] < x[a]) { t = x[a]; x[a] = x[b]; x[b] = t }
               med = m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2;
               split(k, p, "|"); printf "%-28s %-14s %6.3f [%5.3f, %5.3f]\n", p[1], p[2], med, x[1], x[m] } }' "$tmp/runs"
} > "$out"
cat "$out"
