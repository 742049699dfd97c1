#!/bin/sh
# The public surface: `nm -D --defined-only libomp_ext.so` lists exactly the
# functions declared OMP_EXT_API in include/omp_ext/*.h plus the runtime
# entry points the in-code header documents ("interposed:" lines).
# Usage: sh test_exports.sh LIBOMP_EXT_SO INCLUDE_DIR
set -eu
lib=$1 inc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWiV]$/ {print $3}' | sed 's/@.*//' | sort -u >"$tmp/exported"
{
  sed -n 's/^OMP_EXT_API [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' "$inc"/omp_ext/*.h
  sed -n 's/^ \* interposed: //p' "$inc"/omp_ext/*.h | tr ' ' '\n'
} | grep . | sort -u >"$tmp/documented"
n=$(wc -l <"$tmp/documented")
[ "$n" -gt 50 ] || { echo "FAIL: only $n documented symbols found in $inc/omp_ext"; exit 1; }
if ! diff -u "$tmp/documented" "$tmp/exported"; then
  echo "FAIL: exported symbols (+) differ from the documented ones (-)"
  exit 1
fi
echo "test_exports: $(wc -l <"$tmp/exported") exported symbols, all documented"
