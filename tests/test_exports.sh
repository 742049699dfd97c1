#!/bin/sh
# The public surface: `nm -D --defined-only libomp_ext.so` lists exactly the
# functions declared OMP_EXT_API in include/omp_ext/*.h plus the runtime
# entry points the in-code header documents ("interposed:" lines); none of
# the tools' helpers (omp_ext/tools/misc.h: statistics, the version line,
# lib/private/util.h's text helpers, lib/private/median.h's median) nor of
# the tools interface (lib/private/tools.h) is among them; and the tools
# (the archives given after libomp_ext.a and libomp_ext_misc.a) call no
# hidden function of libomp_ext but the tools interface's.  And
# omp_ext/DESIGN.md (MISC_H's ../DESIGN.md) names every public header, and
# in its file map every private one (omp_ext/lib/private/*.h,
# omp_ext/tools/*.h, omp_ext/tools/sweep/*.h, omp_ext/htplaces/*.h).
# Usage: sh test_exports.sh LIBOMP_EXT_SO INCLUDE_DIR MISC_H
#          [LIBOMP_EXT_A LIBOMP_EXT_MISC_A TOOL_ARCHIVE...]
set -eu
lib=$1 inc=$2 misc=$3
shift 3
src=$(dirname "$(dirname "$misc")") # omp_ext/
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWiV]$/ {print $3}' | sed 's/@.*//' | sort -u >"$tmp/exported"
{
  sed -n 's/^OMP_EXT_API [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' "$inc"/omp_ext/*.h
  sed -n 's/^ \* interposed: //p' "$inc"/omp_ext/*.h | tr ' ' '\n'
} | grep . | sort -u >"$tmp/documented"
n=$(wc -l <"$tmp/documented")
[ "$n" -gt 50 ] || { echo "FAIL: only $n documented symbols found in $inc/omp_ext"; exit 1; }
if ! diff -u "$tmp/documented" "$tmp/exported"; then
  echo "FAIL: exported symbols (+) differ from the documented ones (-)"
  exit 1
fi

# The tools' helpers: declared in misc.h (and the library's private util.h,
# median.h it includes), not exported.
sed -n 's/^[a-z][a-z _]*[ *]\(omp_ext_[a-z0-9_]*\)(.*/\1/p' "$misc" "$src/lib/private/util.h" \
  "$src/lib/private/median.h" |
  sort -u >"$tmp/helpers"
[ "$(wc -l <"$tmp/helpers")" -ge 10 ] || { echo "FAIL: only $(wc -l <"$tmp/helpers") helpers in $misc"; exit 1; }
if comm -12 "$tmp/helpers" "$tmp/exported" | grep .; then
  echo "FAIL: the tools' helpers above are exported by $lib"
  exit 1
fi

# The design notes name every public header (omp_ext/DESIGN.md's table).
design=$src/DESIGN.md
for h in "$inc"/omp_ext/*.h "$inc"/omp_ext/*.h.in; do
  [ -e "$h" ] || continue
  name=$(basename "$h" .in)
  grep -q "\`$name\`" "$design" || { echo "FAIL: $design does not name include/omp_ext/$name"; exit 1; }
done
# ... and its file map every private header of the library and the command.
for h in "$src"/lib/private/*.h "$src"/tools/*.h "$src"/tools/sweep/*.h "$src"/htplaces/*.h; do
  name=$(basename "$h")
  grep -qE "(^|[^a-z_])$name([^a-z_]|\$)" "$design" ||
    { echo "FAIL: $design's file map does not name ${h#"$(dirname "$src")"/}"; exit 1; }
done

if [ $# -ge 3 ]; then
  static=$1 miscar=$2
  shift 2
  defined() { nm --defined-only "$@" 2>/dev/null | awk '$2 ~ /^[TWi]$/ {print $3}' | sort -u; }
  defined "$static" >"$tmp/library"
  defined "$miscar" "$@" >"$tmp/own"
  nm -u "$@" | awk 'NF == 2 {print $2}' | sort -u >"$tmp/called"
  # The tools interface (lib/private/tools.h and the tools_*.h it includes):
  # the library's hidden functions the tools may call, none exported.
  sed -n 's/^[a-z][a-z _]*[ *]\(omp_ext_[a-z0-9_]*\)(.*/\1/p' "$src"/lib/private/tools*.h |
    sort -u >"$tmp/tools_api"
  [ "$(wc -l <"$tmp/tools_api")" -ge 10 ] || { echo "FAIL: only $(wc -l <"$tmp/tools_api") functions in tools.h"; exit 1; }
  if comm -12 "$tmp/tools_api" "$tmp/exported" | grep .; then
    echo "FAIL: the tools interface's functions above are exported by $lib"
    exit 1
  fi
  # Called, defined by the library, neither the tools' own, nor the tools
  # interface, nor exported.
  comm -12 "$tmp/called" "$tmp/library" | comm -23 - "$tmp/own" | comm -23 - "$tmp/tools_api" |
    comm -23 - "$tmp/exported" >"$tmp/private"
  if [ -s "$tmp/private" ]; then
    cat "$tmp/private"
    echo "FAIL: the tools call the library's hidden functions above (declare them in omp_ext/lib/private/tools.h or export them)"
    exit 1
  fi
  [ "$(comm -12 "$tmp/called" "$tmp/exported" | wc -l)" -gt 20 ] ||
    { echo "FAIL: the tools call almost nothing of $lib: wrong archives?"; exit 1; }
fi
echo "test_exports: $(wc -l <"$tmp/exported") exported symbols, all documented; $(wc -l <"$tmp/helpers") tools' helpers not exported"
