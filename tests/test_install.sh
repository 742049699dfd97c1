#!/bin/sh
# Install the build into a temporary prefix, then build and run a consumer
# with find_package(omp_ext) and another with pkg-config; check the files
# and that man finds the installed pages.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1 src=$2
prefix=$(mktemp -d) work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib*/ | head -n 1)
for f in "$prefix/bin/htplaces" "$prefix/include/omp_ext.h" "$prefix/include/omp_ext/config.h" "$prefix/share/man/man1/htplaces.1" "$prefix/share/man/man7/omp_ext-install.7" \
         "$libdir/libomp_ext.a" "$libdir/pkgconfig/omp_ext.pc" "$libdir/cmake/omp_ext/omp_extConfig.cmake"; do
  [ -e "$f" ] || { echo "missing after install: $f"; exit 1; }
done
ls "$libdir"/libomp_ext.so* >/dev/null
# Every man page of the tree is installed, and `man htplaces` finds and
# renders the installed one (also a subcommand's page, a .so link and a page
# generated from a header comment, BUILD_DIR/man/man3).
man="$prefix/share/man"
for p in $(cd "$src" && find man -name '*.[1-8]' -type f) \
         $(cd "$build" && find man/man3 -name '*.3' -type f); do
  s=${p##*.}
  [ -f "$man/man$s/$(basename "$p")" ] || { echo "man page not installed: $p"; exit 1; }
done
for page in htplaces htplaces-check htbench omp_set_ht_policy omp_ext_order omp_get_ht_pu; do
  out=$(MANPATH= MANWIDTH=80 man -M "$man" "$page" 2>"$work/man.err") ||
    { echo "man -M $man $page failed: $(cat "$work/man.err")"; exit 1; }
  echo "$out" | grep -q '^NAME' || { echo "man $page rendered no NAME section"; exit 1; }
done
echo "$out" | grep -q 'omp_set_ht_policy' || { echo "man omp_get_ht_pu does not show omp_set_ht_policy.3"; exit 1; }
# htbench finds its in-code worker next to itself once installed too
"$prefix/bin/htbench" --quick --path both --kernels barrier --policies spn --threads 1 \
  --no-plot --out "$work/hb" >/dev/null 2>&1 || { echo "installed htbench --path both failed"; exit 1; }
[ "$(grep -c ',spn@incode,incode,1,' "$work/hb/results.csv")" = 1 ] ||
  { echo "installed htbench: no in-code row"; exit 1; }
want='{0},{8},{1},{9}'
cmake -S "$src/tests/install" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
got=$(LD_LIBRARY_PATH="$libdir" "$work/cmake/consumer")
[ "$got" = "$want" ] || { echo "find_package consumer printed '$got', want '$want'"; exit 1; }
PKG_CONFIG_PATH="$libdir/pkgconfig" cc -o "$work/pc" "$src/tests/install/consumer.c" \
  $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs omp_ext)
got=$(LD_LIBRARY_PATH="$libdir" "$work/pc")
[ "$got" = "$want" ] || { echo "pkg-config consumer printed '$got', want '$want'"; exit 1; }
got=$(LD_LIBRARY_PATH="$libdir" "$prefix/bin/htplaces" -i "pack:2 core:4 pu:2(indexes=core:pack)" spn 4)
[ "$got" = "$want" ] || { echo "installed htplaces printed '$got'"; exit 1; }
echo "install: 1 passed, 0 failed"
