#!/bin/sh
# The weights omp_ext_capacity_weights() gives on fixture topologies (issue
# 15): spn with an odd N, speedup past the cores, the Raptor Lake hybrid,
# SMT4 and sigma 0 / 1.  Output: benchmarks/results/share-weights.txt,
# which ctest (test_share_weights_file) regenerates and compares.
#
#   sh benchmarks/share-weights.sh SHARE_WEIGHTS_BIN [SOURCE_DIR]
set -eu
bin=$1
cd "${2:-.}"
t=tests/topologies
for args in \
  "$t/intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml spn 3" \
  "$t/intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml spn 7" \
  "$t/intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml speedup 10" \
  "$t/intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml speedup 10 0" \
  "$t/intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml speedup 10 1" \
  "$t/intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml speedup 8" \
  "$t/intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml spn 13" \
  "$t/intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml speedup 20" \
  "$t/intel-xeonphi-7250-knl-68c-smt4-far68-flat.xml spn 6"; do
  # shellcheck disable=SC2086
  "$bin" $args
  echo
done
