#!/bin/sh
# Quick start: install the run-time dependencies that are missing (apt-get;
# not the test tools), build omp_ext in build/ (Release, no tests), install
# it, and run the main job on this machine: htplaces show spn, htplaces spn.
#
# Installs into PREFIX: $OMP_EXT_PREFIX if set, else /usr/local as root and
# $HOME/.local otherwise; prints the line to add to ~/.profile when PREFIX/bin
# is not on PATH.  Running it again rebuilds and reinstalls (idempotent).
# Usage: sh cmake/quickstart.sh    (from anywhere in the clone)
set -eu
cd "$(dirname "$0")/.."
sh cmake/install-deps.sh
if [ -n "${OMP_EXT_PREFIX:-}" ]; then
  prefix=$OMP_EXT_PREFIX
elif [ "$(id -u)" = 0 ]; then
  prefix=/usr/local
else
  prefix=$HOME/.local
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
cmake --install build --prefix "$prefix" >/dev/null
echo "omp_ext: installed into $prefix (htplaces, htbench, library, headers)"
echo "omp_ext: man pages in $prefix/share/man: man htplaces"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *)
    echo "omp_ext: $prefix/bin is not on PATH; add this line to ~/.profile:"
    echo "  export PATH=\"$prefix/bin:\$PATH\" MANPATH=\"$prefix/share/man:\${MANPATH:-}\""
    PATH="$prefix/bin:$PATH"
    export PATH
    ;;
esac
echo "\$ htplaces show spn"
htplaces show spn
echo "\$ htplaces spn"
htplaces spn
