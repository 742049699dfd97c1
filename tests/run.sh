#!/bin/sh
# Build omp_ext with gcc (libgomp) and with clang (libomp), -Wall -Wextra
# -Werror, and run every test with ctest in both builds, then under ASan.
# Usage: sh tests/run.sh       (from the repository root)
# The closing line "omp_ext: P passed, S skipped, F failed" counts ctest's
# tests of every build; a build that fails goes on to the next one.  Above
# it, each skip with its reason: whole tests (ctest's skip code 77) and the
# parts of passing tests that skipped ("omp_ext-skipped:" lines of
# tests/cunit_main.h and tests/smtvm/checks.sh); see tests/README.md, "Skips".
set -eu
cd "$(dirname "$0")/.."
sh cmake/install-deps.sh --dev
jobs=$(nproc 2>/dev/null || echo 2)
log=$(mktemp)
skips=$(mktemp)
trap 'rm -f "$log" "$log.one" "$skips"' EXIT
failed_builds=""
# ctest in build folder $1; its output is kept to count the tests, and the
# skips (with their reasons, from ctest's LastTest.log) go to $skips.
run_ctest() {
  status=0
  (cd "$1" && ctest --output-on-failure -j "$jobs") >"$log.one" 2>&1 || status=$?
  cat "$log.one" | tee -a "$log"
  sh tests/skips.sh "$1" "$log.one" >>"$skips"
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
  if cmake --build "build-$cc" -j "$jobs"; then
    run_ctest "build-$cc" || failed_builds="$failed_builds $cc"
  else
    echo "build-$cc: the build FAILED: its tests did not run" | tee -a "$skips"
    failed_builds="$failed_builds $cc(build)"
  fi
done
# The whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer
# (clang), then each libFuzzer target for a bounded time (about 50 s in all)
# from the committed seed corpus (tests/fuzz/corpus).
echo "=== clang ASan+UBSan, libFuzzer"
CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOMP_EXT_SANITIZE=ON \
  -DOMP_EXT_FUZZ=ON >/dev/null
if cmake --build build-asan -j "$jobs"; then
  # Leak checking is on.  One option works around a bug of compiler-rt before
  # LLVM 17 (fixed by https://reviews.llvm.org/D147459; google/sanitizers
  # #1322): its __tls_get_addr interceptor takes a dynamic TLS block that
  # malloc placed 16 bytes into a page for glibc 2.19's block header, reads
  # a bogus range from the 16 bytes before it, and LeakSanitizer's tracer
  # dies scanning it at exit ("Tracer caught signal 11", addr=0x128).  Such
  # a block is that of libstdc++, which libomp dlopens with libarcher.so
  # when no OMPT tool starts (omp_ext's does not when its __kmpc_fork_call
  # wrapper is live): ht_probe share crashed in 24 of 40 runs without the
  # option, 0 of 40 with it.  intercept_tls_get_addr=0 only stops the
  # scanning of dlopen'ed libraries' dynamic TLS blocks (libomp_ext's own
  # TLS is initial-exec, scanned as static TLS).
  asan_options=detect_leaks=1
  clang_major=$(clang -dumpversion | cut -d. -f1)
  [ "${clang_major:-0}" -lt 17 ] && asan_options="$asan_options:intercept_tls_get_addr=0"
  ASAN_OPTIONS=$asan_options LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" run_ctest build-asan ||
    failed_builds="$failed_builds asan"
  sh tests/fuzz/run_fuzz.sh build-asan "${OMP_EXT_FUZZ_SECONDS:-50}" ||
    failed_builds="$failed_builds fuzz"
else
  echo "build-asan: the build FAILED: its tests did not run" | tee -a "$skips"
  failed_builds="$failed_builds asan(build)"
fi
sh tests/smtvm/summary.sh build-clang
# ctest's summary: "NN% tests passed, F tests failed out of T"; skipped
# tests are among the T and not among the F.
total=$(sed -n 's/.*tests failed out of \([0-9]*\)$/\1/p' "$log" | awk '{n += $1} END {print n + 0}')
failed=$(sed -n 's/.* \([0-9]*\) tests failed out of [0-9]*$/\1/p' "$log" | awk '{n += $1} END {print n + 0}')
skipped=$(grep -c '(Skipped)$' "$log" || true)
parts=$(grep -c '^part skipped' "$skips" || true)
cat "$skips"
echo "omp_ext: $((total - skipped - failed)) passed ($parts with skipped parts), $skipped skipped, $failed failed${failed_builds:+ (failed:$failed_builds)}"
[ -z "$failed_builds" ]
