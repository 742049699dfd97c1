#!/bin/sh
# The issue-15 figures: 3 threads on 2 PUs (OMP_PLACES={0},{1},
# OMP_PROC_BIND=close, OMP_NUM_THREADS=3), static vs dynamic vs the
# capacity-weighted split, all variants in rotation in one run, with the
# sharebench of a gcc build (libgomp) and of a clang build (libomp).
# Needs PUs 0 and 1 allowed.
#
#   sh benchmarks/share-2core.sh GCC_BUILD CLANG_BUILD [OUT]
#
# Two loop shapes: "fine" (1,000,000 iterations of 100 dependent additions,
# where a dynamic schedule's per-chunk cost shows) and "coarse" (4096
# iterations of 20,000).  Two scheduling settings, because the 2 CPUs of a
# shared machine also run other jobs: "cfs", the default scheduler, the run
# in its own session with that session's autogroup at nice -20 where root
# may set it (other sessions' load still takes a share of each CPU); and
# "rr", SCHED_RR priority 1 (chrt -r 1, root), which keeps other jobs off
# the two CPUs while it runs; the team's threads then time-share PU 0 in
# round-robin slices (100 ms) instead of CFS's.
# Writes OUT (default benchmarks/results/share-2core.txt) and shows it.
set -eu
gcc_build=$1 clang_build=$2
out=${3:-benchmarks/results/share-2core.txt}
run() { # SCHED BUILD OPTIONS...
  sched=$1 b=$2
  shift 2
  echo
  echo "## $sched: $b/benchmarks/sharebench $* (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
  if [ "$sched" = rr ]; then
    OMP_PLACES='{0},{1}' OMP_PROC_BIND=close OMP_NUM_THREADS=3 chrt -r 1 "$b/benchmarks/sharebench" "$@"
  else
    OMP_PLACES='{0},{1}' OMP_PROC_BIND=close OMP_NUM_THREADS=3 setsid sh -c \
      'echo -20 > /proc/$$/autogroup 2>/dev/null || true; exec "$@"' sh "$b/benchmarks/sharebench" "$@"
  fi
}
{
  echo "# share-2core: $(date -u +%Y-%m-%dT%H:%MZ), $(uname -sr), $(nproc) CPUs allowed"
  grep -m1 'model name' /proc/cpuinfo || true
  for sched in cfs rr; do
    for b in "$gcc_build" "$clang_build"; do
      run $sched "$b" --iterations 1000000 --length 100 --chunk 16
      run $sched "$b" --iterations 4096 --length 20000 --chunk 16
    done
  done
} > "$out"
cat "$out"
