#!/bin/sh
# Quick start: install what is missing (apt-get), build omp_ext in build/,
# and run the main job on this machine: htplaces show spn, htplaces spn.
# Usage: sh cmake/quickstart.sh    (from anywhere in the clone)
set -eu
cd "$(dirname "$0")/.."
sh cmake/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "\$ build/bin/htplaces show spn"
build/bin/htplaces show spn
echo "\$ build/bin/htplaces spn"
build/bin/htplaces spn
