#!/bin/sh
# Run every libFuzzer target of a build for a bounded time from the seed
# corpus.  Usage: sh tests/fuzz/run_fuzz.sh BUILD_DIR [SECONDS_IN_ALL]
# The committed corpus is not modified (new inputs go to a scratch folder).
# A crash stops the run: its input is kept as BUILD_DIR/fuzz-crash-*; fix the
# bug, then add the input to tests/fuzz/regress/<target>/ as a regression test.
set -eu
build=$1
total=${2:-50}
here=$(cd "$(dirname "$0")" && pwd)
targets=""
for t in "$build"/tests/fuzz/fuzz_*; do
  case $t in *_regress) continue ;; esac
  [ -x "$t" ] && targets="$targets $t"
done
[ -n "$targets" ] || { echo "run_fuzz: no fuzz targets in $build (configure with -DOMP_EXT_FUZZ=ON)" >&2; exit 1; }
n=$(echo $targets | wc -w)
each=$((total / n))
[ "$each" -ge 1 ] || each=1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for t in $targets; do
  name=$(basename "$t")
  mkdir -p "$scratch/$name"
  echo "=== $name: ${each}s"
  "$t" -max_total_time="$each" -max_len=512 -rss_limit_mb=2048 -timeout=10 \
    -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$build/fuzz-crash-$name-" \
    "$scratch/$name" "$here/corpus/$name" 2>&1 | grep -E "^(stat::number_of_executed_units|stat::new_units_added|==[0-9]+==|SUMMARY|.*Test unit written)" || true
  # libFuzzer exits non-zero on a crash; the pipe hides it, so look for artifacts.
  if ls "$build"/fuzz-crash-"$name"-* >/dev/null 2>&1; then
    echo "run_fuzz: $name crashed; input(s): $(ls "$build"/fuzz-crash-"$name"-*)" >&2
    exit 1
  fi
done
