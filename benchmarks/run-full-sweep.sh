#!/bin/sh
# The full htbench sweep on this machine, prepared for one unattended run:
# results, tables, plots (if gnuplot is there) and the hwloc topology go to
# benchmarks/results/HOST-NPU/.  Extra arguments go to htbench (e.g.
# --budget 300).  Runtime: about 2-4 minutes on 16 PUs, capped by htbench's
# default --budget of 330 s (configurations left are listed as skipped).
# Usage: sh benchmarks/run-full-sweep.sh [HTBENCH-OPTIONS]
#        HTBENCH=path/to/htbench sh benchmarks/run-full-sweep.sh
set -eu
cd "$(dirname "$0")/.."
# htbench-portable (hwloc and libgomp inside) when built: the machine may have neither
bin=${HTBENCH:-}
for b in build-gcc/benchmarks/htbench-portable build/benchmarks/htbench-portable \
         build-gcc/benchmarks/htbench build/benchmarks/htbench; do
  [ -z "$bin" ] && [ -x "$b" ] && bin=$b
done
[ -n "$bin" ] || { echo "htbench: not built (sh tests/run.sh, or set HTBENCH)" >&2; exit 1; }
out=benchmarks/results/$(hostname -s 2>/dev/null || echo host)-$(nproc)pu
mkdir -p "$out"
echo "htbench: $bin -> $out" >&2
"$bin" --out "$out" "$@" | tee "$out/stdout.txt"
