#!/bin/sh
# Build omp_ext with gcc (libgomp) and with clang (libomp), -Wall -Wextra
# -Werror, and run every test with ctest in both builds.
# Usage: sh tests/run.sh       (from the repository root)
set -eu
cd "$(dirname "$0")/.."
sh cmake/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
for cc in gcc clang; do
  echo "=== $cc"
  CC=$cc cmake -S . -B "build-$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "build-$cc" -j "$jobs"
  (cd "build-$cc" && ctest --output-on-failure -j "$jobs")
done
