#!/bin/sh
# The two sets of cmake/install-deps.sh: the default (run-time) set has
# hwloc, an OpenMP runtime and the build tools and none of the test tools;
# --dev has the test tools too; the quick start asks for the run-time set,
# tests/run.sh for --dev.
# Usage: test_deps.sh SOURCE_DIR
set -eu
src=$1
fail() { echo "test_deps: $*"; exit 1; }
run=$(sh "$src/cmake/install-deps.sh" --list | tr '\n' ' ')
dev=$(sh "$src/cmake/install-deps.sh" --dev --list | tr '\n' ' ')
for p in hwloc libhwloc-dev libgomp1 gcc cmake make pkg-config binutils; do
  case " $run " in *" $p "*) ;; *) fail "run-time set lacks $p: $run" ;; esac
done
for p in clang libcunit1-dev openmpi-bin libopenmpi-dev gfortran valgrind gnuplot-nox lmod \
         bash-completion dpkg-dev man-db; do
  case " $run " in *" $p "*) fail "run-time set has the test tool $p" ;; esac
  case " $dev " in *" $p "*) ;; *) fail "--dev set lacks $p: $dev" ;; esac
done
for p in $run; do
  case " $dev " in *" $p "*) ;; *) fail "--dev set lacks the run-time $p" ;; esac
done
grep -q '^sh cmake/install-deps.sh$' "$src/cmake/quickstart.sh" || fail "quickstart.sh does not ask for the run-time set"
grep -q '^sh cmake/install-deps.sh --dev$' "$src/tests/run.sh" || fail "tests/run.sh does not ask for --dev"
sh "$src/cmake/install-deps.sh" --bogus 2>/dev/null && fail "an unknown option was accepted"
echo "deps: 1 passed, 0 failed"
