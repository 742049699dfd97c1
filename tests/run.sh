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
# The whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer
# (clang), then each libFuzzer target for a bounded time (about 50 s in all)
# from the committed seed corpus (tests/fuzz/corpus).
echo "=== clang ASan+UBSan, libFuzzer"
CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOMP_EXT_SANITIZE=ON \
  -DOMP_EXT_FUZZ=ON >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && ctest --output-on-failure -j "$jobs")
sh tests/fuzz/run_fuzz.sh build-asan "${OMP_EXT_FUZZ_SECONDS:-50}"
