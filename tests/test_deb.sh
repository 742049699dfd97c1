#!/bin/sh
# The Debian package: build it with CPack from this build folder, install it
# with apt-get into this machine, use it as a user would (htplaces spn,
# man htplaces, a program built with pkg-config omp_ext), check its Depends
# come from dpkg-shlibdeps, then remove it and check its files are gone.
# Installs system-wide: root and apt/dpkg only (CI), else skipped.
# An omp-ext left installed by an earlier run is removed first.
# Usage: test_deb.sh BUILD_DIR SOURCE_DIR VERSION     (exit 77: skipped)
set -eu
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) version=$3
skip() { echo "test_deb: skipped: $*"; exit 77; }
fail() { echo "test_deb: $*"; exit 1; }
[ "$(id -u)" = 0 ] || skip "installs a package system-wide: run as root"
command -v apt-get >/dev/null && command -v dpkg >/dev/null || skip "no apt-get/dpkg (not Debian)"
command -v dpkg-shlibdeps >/dev/null || skip "no dpkg-shlibdeps (apt-get install dpkg-dev)"
command -v man >/dev/null || skip "no man (apt-get install man-db)"
export DEBIAN_FRONTEND=noninteractive
apt="apt-get -o DPkg::Lock::Timeout=600 -y -q"
installed() { dpkg-query -W -f='${Status}' omp-ext 2>/dev/null | grep -q "install ok installed"; }
work=$(mktemp -d)
trap 'installed && $apt purge omp-ext >/dev/null 2>&1; rm -rf "$work"' EXIT
if installed; then
  $apt remove omp-ext >/dev/null || fail "cannot remove the omp-ext of an earlier run"
fi

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack -G DEB failed"; }
deb=$(ls "$work"/omp-ext_"$version"_*.deb 2>/dev/null) || fail "no omp-ext_${version}_*.deb in $(ls "$work")"
[ "$(dpkg-deb -f "$deb" Package)" = omp-ext ] || fail "Package: $(dpkg-deb -f "$deb" Package)"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version: $(dpkg-deb -f "$deb" Version)"
dpkg-deb -f "$deb" Maintainer | grep -q '<.*@.*>' || fail "no Maintainer address"
depends=$(dpkg-deb -f "$deb" Depends)
for want in 'libhwloc15 (>= ' 'libc6 (>= '; do
  case $depends in *"$want"*) ;; *) fail "Depends lacks $want: $depends" ;; esac
done
case $depends in *libgomp1*|*libomp5*) ;; *) fail "Depends lacks an OpenMP runtime: $depends" ;; esac
# Versions are dpkg-shlibdeps' (from the symbols files), not typed: the
# source sets no CPACK_DEBIAN_PACKAGE_DEPENDS.
! grep -q 'CPACK_DEBIAN_PACKAGE_DEPENDS' "$src"/cmake/*.cmake || fail "Depends typed by hand"
grep -q 'Generating dependency list' "$work/cpack.log" || fail "CPack did not run dpkg-shlibdeps"

(cd "$work" && $apt install "./$(basename "$deb")") >"$work/apt.log" 2>&1 ||
  { cat "$work/apt.log"; fail "apt-get install ./$(basename "$deb") failed"; }
installed || fail "omp-ext not installed after apt-get install"
dpkg -L omp-ext >"$work/files"
for f in /usr/bin/htplaces /usr/bin/htbench /usr/bin/htbench-incode /usr/include/omp_ext.h \
         /usr/share/man/man1/htplaces.1 /usr/share/modulefiles/omp_ext/"$version" \
         /usr/share/bash-completion/completions/htplaces /usr/share/bash-completion/completions/htbench; do
  grep -qx "$f" "$work/files" || fail "not in the package: $f"
done
for f in libomp_ext.so.0 libomp_ext.a pkgconfig/omp_ext.pc cmake/omp_ext/omp_extConfig.cmake; do
  grep -q "^/usr/lib.*/$f\$" "$work/files" || fail "not in the package: lib*/$f"
done
if command -v gfortran >/dev/null; then
  grep -q '/omp_ext\.mod$' "$work/files" || fail "no Fortran module in the package"
fi

cd "$work"
# (a /usr/local/bin/htplaces from the quick start must not hide it)
PATH=/usr/bin:/bin:$PATH
# htplaces by name, from /usr/bin
[ "$(command -v htplaces)" = /usr/bin/htplaces ] || fail "htplaces is $(command -v htplaces)"
got=$(htplaces spn) || fail "htplaces spn failed"
want=$("$build/bin/htplaces" spn)
[ "$got" = "$want" ] || fail "installed htplaces spn printed '$got', the build's '$want'"
htplaces --version | grep -q "^htplaces $version (hwloc " || fail "htplaces --version: $(htplaces --version)"
htbench --version | grep -q "^htbench (omp_ext) $version (hwloc " || fail "htbench --version: $(htbench --version)"
[ "$(man -w htplaces)" = /usr/share/man/man1/htplaces.1 ] || fail "man -w htplaces: $(man -w htplaces 2>&1)"
MANWIDTH=80 man htplaces 2>/dev/null | head -n 5 | grep -q htplaces || fail "man htplaces shows no page"
# a user program through pkg-config, run without LD_LIBRARY_PATH
# shellcheck disable=SC2046
cc -o consumer "$src/tests/install/consumer.c" $(pkg-config --cflags --libs omp_ext) ||
  fail "cannot build a program with pkg-config --cflags --libs omp_ext"
got=$(./consumer)
[ "$got" = '{0},{8},{1},{9}' ] || fail "pkg-config consumer printed '$got'"

$apt remove omp-ext >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get remove failed"; }
installed && fail "omp-ext still installed after apt-get remove"
left=""
while read -r f; do
  [ -f "$f" ] || [ -L "$f" ] && left="$left $f"
done <"$work/files"
[ -z "$left" ] || fail "left after apt-get remove:$left"
[ ! -e /usr/bin/htplaces ] || fail "/usr/bin/htplaces still there"
# The package's postrm (ldconfig) keeps it known to dpkg until purged.
$apt purge omp-ext >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get purge failed"; }
dpkg-query -W -f='${Status}' omp-ext 2>/dev/null | grep -q "not-installed" ||
  ! dpkg-query -W omp-ext >/dev/null 2>&1 || fail "dpkg still knows omp-ext after purge"
size=$(stat -c %s "$deb")
echo "deb: $(basename "$deb"), $size bytes; Depends: $depends"
echo "deb: 1 passed, 0 failed"
