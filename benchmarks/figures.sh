#!/bin/sh
# benchmarks/RESULTS.md's performance figures on 2 threads, gcc/libgomp and
# clang/libomp builds alternating, ROUNDS rounds (default 3): word count on
# the 100 MB corpus (Zipf s=1, 50,000 pseudo-words, seed 42), triad on
# 80 M-element arrays, EPCC overheads.  Prints one line per kernel and
# build: median of the rounds' medians, best minimum, lowest cpu_util.
# Usage: sh benchmarks/figures.sh [ROUNDS]   (after sh tests/run.sh)
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bins=""
for cc in gcc clang; do # copies: a rebuild during the run cannot swap them
  cp "build-$cc/benchmarks/htbench" "$tmp/htbench-$cc"
  bins="$bins $cc"
done
r=1
while [ "$r" -le "$rounds" ]; do
  for cc in $bins; do
    b="$tmp/htbench-$cc"
    "$b" --out "$tmp/wc-$cc-$r" --kernels wordcount --policies speedup --threads 2 --corpus-mb 100 --no-plot >/dev/null 2>&1 || true
    "$b" --out "$tmp/tr-$cc-$r" --kernels triad --policies speedup --threads 2 --triad-n 80000000 --no-plot >/dev/null 2>&1 || true
    "$b" --out "$tmp/ov-$cc-$r" --kernels parallel,for,barrier,reduction --policies speedup --threads 2 --no-plot >/dev/null 2>&1 || true
  done
  r=$((r + 1))
done
for cc in $bins; do
  cat "$tmp"/*-"$cc"-*/results.csv | awk -F, -v cc="$cc" '
    # the fields used here are never quoted: read columns by header name
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 == "kernel" { next }
    { k = $col["kernel"]; n[k]++; med[k, n[k]] = $col["median_s"]
      if (!(k in mn) || $col["min_s"] < mn[k]) mn[k] = $col["min_s"]
      if (!(k in cu) || $col["cpu_util"] < cu[k]) cu[k] = $col["cpu_util"]
      if ($col["status"] != "ok") bad[k]++
      work[k] = $col["work"] }
    END { for (k in n) {
        m = n[k]; for (i = 1; i <= m; i++) v[i] = med[k, i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        md = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
        rate = work[k] > 0 ? sprintf("%9.1f MB/s (best %9.1f)", work[k] / md, work[k] / mn[k]) : ""
        printf "%-6s %-10s median %11.4g s  min %11.4g s  %s  cpu_util>=%.2f  runs %d%s\n",
               cc, k, md, mn[k], rate, cu[k], m, bad[k] ? "  INVALID " bad[k] : ""
      } }' | sort
done
