#!/bin/sh
# scale.sh [BUILD] [PUS...]: htplaces at large synthetic topologies -- wall
# time and peak memory of `topo`, `spn`, `spread` and `model`, beside
# hwloc-calc loading the same topology (hwloc's own share), and with
# CALLGRIND=1 omp_ext's own instructions (all but hwloc_topology_load) up
# to 8192 PUs.  Shape: 2 PUs per core, 128 cores per package, as many
# packages as the PUs need (pu:2 under core:128: a 2-socket-like layout
# scaled up).  Default PUS: 1024 4096 16384 65536 (the largest topology
# omp_ext loads, OMP_EXT_TOPO_MAX_PUS).  Figures: benchmarks/RESULTS.md,
# "Scale".
set -eu
build=${1:-build-gcc}
[ $# -gt 0 ] && shift
htp=$build/bin/htplaces
[ -x "$htp" ] || { echo "scale.sh: no $htp" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "scale.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
[ $# -gt 0 ] || set -- 1024 4096 16384 65536
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-7s %-26s %-12s %9s %9s %14s\n' PUs shape command wall_s rss_MB own_instr
for pus in "$@"; do
  packs=$((pus / 256))
  [ "$packs" -ge 1 ] || packs=1
  shape="pack:$packs core:128 pu:2"
  [ "$pus" -lt 256 ] && shape="pack:1 core:$((pus / 2)) pu:2"
  for cmd in hwloc-calc topo spn spread model; do
    if [ "$cmd" = hwloc-calc ]; then
      set -- hwloc-calc -i "$shape" --number-of pu machine:0
    else
      set -- "$htp" -i "$shape" "$cmd"
    fi
    line=$(/usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -n 1)
    own=-
    if [ -n "${CALLGRIND-}" ] && [ "$cmd" != hwloc-calc ] && [ "$pus" -le 8192 ]; then
      out=$(mktemp)
      valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
      own=$(callgrind_annotate --inclusive=yes "$out" | awk '
        /PROGRAM TOTALS/ { gsub(",", "", $1); t = $1 }
        /hwloc_topology_load/ && !h { gsub(",", "", $1); h = $1 }
        END { print t - h }')
      rm -f "$out"
    fi
    printf '%-7s %-26s %-12s %9s %9s %14s\n' "$pus" "$shape" "$cmd" "${line% *}" \
      "$(( ${line#* } / 1024 ))" "$own"
  done
done
