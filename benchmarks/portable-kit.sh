#!/bin/sh
# Pack what the benchmark sweep needs into DIR, to run on another x86-64
# Linux machine that has none of omp_ext's dependencies installed (glibc and
# libudev only): htbench-portable, htbench and htbench-incode (for --path
# both; their shared libraries come along), htplaces, bench_api (gcc/libgomp
# and clang/libomp builds), cmdbench, hwloc's lstopo-no-graphics and
# hwloc-distrib, their shared libraries, and DIR/run.sh, which runs
# everything and writes OUT/results.tgz.
# Usage: sh benchmarks/portable-kit.sh DIR     (after sh tests/run.sh)
#        then, there: OUT=folder sh DIR/run.sh [HTBENCH_BUDGET_SECONDS]
set -eu
cd "$(dirname "$0")/.."
kit=$1
rm -rf "$kit"
mkdir -p "$kit/bin" "$kit/lib"
cp build-gcc/benchmarks/htbench-portable build-gcc/benchmarks/htbench \
   build-gcc/benchmarks/htbench-incode build-gcc/bin/htplaces build-gcc/benchmarks/cmdbench \
   "$kit/bin/"
cp build-gcc/benchmarks/bench_api "$kit/bin/bench_api-gomp"
cp build-clang/benchmarks/bench_api "$kit/bin/bench_api-omp"
cp "$(command -v lstopo-no-graphics)" "$(command -v hwloc-distrib)" "$kit/bin/"
for lib in $(ldd "$kit"/bin/* | awk '$3 ~ /^\// {print $3}' | sort -u); do
  case $(basename "$lib") in libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|ld-linux*) ;;
    *) cp -L "$lib" "$kit/lib/" ;;
  esac
done
cp benchmarks/portable-run.sh "$kit/run.sh"
du -sh "$kit"
