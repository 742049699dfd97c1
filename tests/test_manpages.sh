#!/bin/sh
# Every man page of the source renders with groff -ww -man without a warning
# (the project's rule); they are the pages cmake --install installs.
# Usage: test_manpages.sh SOURCE_DIR     (exit 77: skipped)
set -eu
src=$1
command -v groff >/dev/null || { echo "test_manpages: skipped: no groff (apt-get install groff-base)"; exit 77; }
n=0 bad=0
for page in $(find "$src/omp_ext" "$src/benchmarks" "$src/packaging" -name '*.[1-8]' -type f | sort); do
  n=$((n + 1))
  out=$(groff -ww -man -Tutf8 -z "$page" 2>&1)
  if [ -n "$out" ]; then
    echo "FAIL: $page: $out"
    bad=$((bad + 1))
  fi
done
[ "$n" -gt 0 ] || { echo "no man pages found under $src"; exit 1; }
echo "manpages: $((n - bad)) passed, $bad failed"
[ "$bad" = 0 ]
