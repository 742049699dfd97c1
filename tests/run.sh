#!/bin/sh
# Build omp_ext with gcc (libgomp) and with clang (libomp), -Wall -Wextra
# -Werror, and run every test with ctest in both builds.
# Usage: sh tests/run.sh       (from the repository root)
set -eu
cd "$(dirname "$0")/.."
sh cmake/install-deps.sh --dev
jobs=$(nproc 2>/dev/null || echo 2)
log=$(mktemp)
trap 'rm -f "$log" "$log.one"' EXIT
# ctest in build folder $1; its output is kept to count the tests.
run_ctest() {
  status=0
  (cd "$1" && ctest --output-on-failure -j "$jobs") >"$log.one" 2>&1 || status=$?
  cat "$log.one" | tee -a "$log"
  return $status
}
# gcc builds Release (-O3, as the quick start does), clang RelWithDebInfo
# (-O2 -g): the warnings of both optimisation levels are errors.
for cc in gcc clang; do
  echo "=== $cc"
  type=RelWithDebInfo
  [ "$cc" = gcc ] && type=Release
  # The SMT guest tests (tests/smtvm) run once, in the clang build, and check
  # the gcc build's binaries (libgomp) as well as its own (libomp).
  smtvm="-DOMP_EXT_SMTVM=OFF"
  [ "$cc" = clang ] && smtvm="-DOMP_EXT_SMTVM=ON -DOMP_EXT_SMTVM_WITH=$PWD/build-gcc"
  # shellcheck disable=SC2086
  CC=$cc cmake -S . -B "build-$cc" -DCMAKE_BUILD_TYPE=$type $smtvm >/dev/null
  cmake --build "build-$cc" -j "$jobs"
  run_ctest "build-$cc"
done
# The whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer
# (clang), then each libFuzzer target for a bounded time (about 50 s in all)
# from the committed seed corpus (tests/fuzz/corpus).
echo "=== clang ASan+UBSan, libFuzzer"
CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOMP_EXT_SANITIZE=ON \
  -DOMP_EXT_FUZZ=ON >/dev/null
cmake --build build-asan -j "$jobs"
LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" run_ctest build-asan
sh tests/fuzz/run_fuzz.sh build-asan "${OMP_EXT_FUZZ_SECONDS:-50}"
total=$(sed -n 's/.*tests failed out of \([0-9]*\)/\1/p' "$log" | awk '{n += $1} END {print n + 0}')
skipped=$(grep -c '(Skipped)$' "$log" || true)
echo "omp_ext: $((total - skipped)) passed, $skipped skipped, 0 failed"
sh tests/smtvm/summary.sh build-clang
