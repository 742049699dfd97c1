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
libdir=$(sed -n 's/^libdir=//p' build/omp_ext.pc | sed "s|\${prefix}|$prefix|; s|\${pcfiledir}/../..|$prefix|")
[ -d "$libdir" ] || libdir=$prefix/lib
echo "omp_ext: installed into $prefix (htplaces, htbench, library, headers)"
echo "omp_ext: man pages in $prefix/share/man: man htplaces"
# Programs linked with -lomp_ext find libomp_ext.so.0: in a folder the
# run-time linker searches, refresh its cache (root); elsewhere, say what to add.
in_ld_path=0
if [ "$(id -u)" = 0 ] && ldconfig -v -N 2>/dev/null | grep -q "^$libdir:"; then
  ldconfig && in_ld_path=1
fi
# pkg-config finds omp_ext.pc (the README's link line) only in its own
# folders: elsewhere, say what to add.
pcdir=$libdir/pkgconfig
pcvar=
case ":$(pkg-config --variable pc_path pkg-config 2>/dev/null):${PKG_CONFIG_PATH:-}:" in
  *":$pcdir:"*) ;;
  *) pcvar=" PKG_CONFIG_PATH=\"$pcdir\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\"" ;;
esac
case ":$PATH:" in
  *":$prefix/bin:"*)
    [ "$in_ld_path" = 1 ] || echo "omp_ext: programs linked with -lomp_ext need LD_LIBRARY_PATH=$libdir"
    [ -z "$pcvar" ] || echo "omp_ext: pkg-config needs$pcvar" ;;
  *)
    echo "omp_ext: $prefix/bin is not on PATH; add this line to ~/.profile:"
    if [ "$in_ld_path" = 1 ]; then
      echo "  export PATH=\"$prefix/bin:\$PATH\" MANPATH=\"$prefix/share/man:\${MANPATH:-}\"$pcvar"
    else
      echo "  export PATH=\"$prefix/bin:\$PATH\" MANPATH=\"$prefix/share/man:\${MANPATH:-}\" LD_LIBRARY_PATH=\"$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\"$pcvar"
    fi
    PATH="$prefix/bin:$PATH"
    export PATH
    ;;
esac
echo "\$ htplaces show spn"
htplaces show spn
echo "\$ htplaces spn"
htplaces spn
