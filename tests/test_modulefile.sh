#!/bin/sh
# The environment module file under Debian's Lmod: install the build into a
# temporary prefix; in a fresh `bash --norc` with Lmod's init sourced,
# `module use PREFIX/share/modulefiles; module load omp_ext` puts htplaces,
# its man page, pkg-config, CMake and the Fortran module folder in reach,
# and `module unload omp_ext` gives back the environment exactly (Lmod's own
# reference counts aside), with MANPATH and XDG_DATA_DIRS set or not; and
# from a moved prefix (relocation).  Bash completion is found once loaded.
# Usage: test_modulefile.sh BUILD_DIR VERSION      (exit 77: skipped)
set -eu
build=$1 version=$2
init=/usr/share/lmod/lmod/init/bash
[ -r "$init" ] || { echo "test_modulefile: skipped: Lmod not installed ($init; apt-get install lmod)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/p" >/dev/null
mf="$work/p/share/modulefiles/omp_ext/$version"
[ -f "$mf" ] || { echo "missing after install: $mf"; exit 1; }
head -n 1 "$mf" | grep -q '^#%Module' || { echo "$mf: not a Tcl modulefile"; exit 1; }

# $1: prefix to load from; $2: MANPATH before load ("unset" for none).
check() {
  env -i ${XDG_DATA_DIRS:+XDG_DATA_DIRS=$XDG_DATA_DIRS} HOME="$work" PATH=/usr/bin:/bin TERM=dumb P="$1" MP="$2" V="$version" \
    bash --norc --noprofile -c '
set -u
fail() { echo "test_modulefile: $*"; exit 1; }
[ "$MP" = unset ] || export MANPATH=$MP
. /usr/share/lmod/lmod/init/bash
module use "$P/share/modulefiles"
snap() { env | grep -v -e "^__LMOD_REF_COUNT_" -e "^_ModuleTable" | sort; }
snap > "$HOME/before"
module load omp_ext 2>"$HOME/err" || fail "module load failed: $(cat "$HOME/err")"
[ "$(command -v htplaces)" = "$P/bin/htplaces" ] || fail "htplaces is $(command -v htplaces)"
out=$(htplaces -i "pack:1 core:2 pu:2" spn) || fail "htplaces spn failed"
[ "$out" = "{0},{1},{2},{3}" ] || fail "htplaces spn printed $out"
htplaces spn >/dev/null || fail "htplaces spn on this machine failed"
[ "$(htplaces --version | cut -d" " -f1-2)" = "htplaces $V" ] || fail "htplaces --version: $(htplaces --version)"
[ "$(man -w htplaces)" = "$P/share/man/man1/htplaces.1" ] || fail "man -w htplaces: $(man -w htplaces 2>&1)"
man -w ls >/dev/null 2>&1 || [ ! -e /usr/share/man/man1/ls.1.gz ] || fail "the system man pages are hidden"
[ "$(pkg-config --modversion omp_ext)" = "$V" ] || fail "pkg-config omp_ext not found"
[ "${CMAKE_PREFIX_PATH%%:*}" = "$P" ] || fail "CMAKE_PREFIX_PATH=$CMAKE_PREFIX_PATH"
[ "${LD_LIBRARY_PATH%%:*}" = "$P/lib" ] || fail "LD_LIBRARY_PATH=${LD_LIBRARY_PATH-}"
[ "$OMP_EXT_ROOT" = "$P" ] || fail "OMP_EXT_ROOT=$OMP_EXT_ROOT"
[ "${FPATH%%:*}" = "$OMP_EXT_FMODDIR" ] || fail "FPATH=${FPATH-}"
if command -v gfortran >/dev/null && [ -e "$OMP_EXT_FMODDIR/omp_ext.mod" ]; then
  printf "program p\n  use omp_ext\nend program p\n" > "$HOME/p.f90"
  (cd "$HOME" && gfortran -c -I"$OMP_EXT_FMODDIR" p.f90) || fail "use omp_ext: no module in $OMP_EXT_FMODDIR"
fi
. /usr/share/bash-completion/bash_completion 2>/dev/null && {
  _completion_loader htplaces >/dev/null 2>&1
  [ "$(complete -p htplaces)" = "complete -F _htplaces htplaces" ] ||
    fail "no bash completion for htplaces: $(complete -p htplaces 2>&1); XDG_DATA_DIRS=${XDG_DATA_DIRS-}"
  complete -r htplaces; unset -f _htplaces _htbench
}
module unload omp_ext 2>"$HOME/err" || fail "module unload failed: $(cat "$HOME/err")"
snap > "$HOME/after"
diff "$HOME/before" "$HOME/after" >"$HOME/diff" || fail "unload did not restore the environment: $(cat "$HOME/diff")"
[ "$(command -v htplaces)" != "$P/bin/htplaces" ] || fail "htplaces still on PATH after unload"
exit 0'
}
check "$work/p" unset
check "$work/p" /usr/share/man
mv "$work/p" "$work/moved"
check "$work/moved" unset
XDG_DATA_DIRS=/usr/share
check "$work/moved" unset
echo "modulefile: 1 passed, 0 failed"
