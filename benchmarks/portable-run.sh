#!/bin/sh
# The benchmark sweep from a kit made by benchmarks/portable-kit.sh, for one
# unattended run: machine facts and topology, htplaces on this machine,
# htplaces vs hwloc-distrib, the in-code API's costs under libgomp and
# libomp, and the full htbench sweep; everything into OUT/results.tgz.
# Usage: OUT=folder sh run.sh [HTBENCH_BUDGET_SECONDS]
set -u
kit=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/omp_ext-out}
budget=${1:-300}
export LD_LIBRARY_PATH="$kit/lib" PATH="$kit/bin:$PATH"
r=$out/results
mkdir -p "$r"
n=$(nproc)
{ echo "nproc $n"; uname -a; lscpu 2>/dev/null || grep -m1 'model name' /proc/cpuinfo; } >"$r/machine.txt" 2>&1
lstopo-no-graphics --of xml "$r/topology.xml" 2>"$r/lstopo.err"
{ htplaces topo; for p in speedup spn spread os energy; do htplaces show "$p"; htplaces "$p"; done; } \
  >"$r/htplaces.txt" 2>&1
cmdbench 300 -- htplaces spn "$n" -- hwloc-distrib --single "$n" -- /bin/true \
  >"$r/htplaces-vs-distrib.txt" 2>&1
for round in 1 2 3; do # alternating runtimes, 2 threads (the issue's figure)
  bench_api-gomp 201 >>"$r/bench_api-gomp.txt" 2>&1
  bench_api-omp 201 >>"$r/bench_api-omp.txt" 2>&1
  OMP_TOOL=disabled bench_api-omp 201 >>"$r/bench_api-omp-notool.txt" 2>&1
done
start=$(date +%s)
htbench-portable --out "$r/htbench" --budget "$budget" --no-plot >"$r/htbench-stdout.txt" 2>&1
echo "htbench exit $? after $(( $(date +%s) - start )) s" >>"$r/htbench-stdout.txt"
tar czf "$out/results.tgz" -C "$out" results
ls -la "$out"
