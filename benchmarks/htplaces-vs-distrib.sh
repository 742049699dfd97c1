#!/bin/sh
# htplaces versus hwloc-distrib (both load the topology and print N PUs),
# alternating in one run, with hwloc-calc and /bin/true for scale.
# Usage: sh benchmarks/htplaces-vs-distrib.sh [BUILD_DIR] [REPS]
set -eu
build=${1:-build-gcc} reps=${2:-300}
n=$(nproc)
"$build/benchmarks/cmdbench" "$reps" \
  -- "$build/bin/htplaces" spn "$n" \
  -- hwloc-distrib --single "$n" \
  -- "$build/bin/htplaces" -i "pack:2 core:4 pu:2(indexes=core:pack)" spn 8 \
  -- hwloc-calc --physical-output --intersect pu all \
  -- /bin/true
