#!/bin/sh
# Every man page in the tree renders with groff -ww (all warnings) without a
# warning; every htplaces subcommand has its page; every long option of
# htplaces and htbench, and every environment variable the library and the
# command read, is documented in a page; every function libomp_ext.so
# exports has a section-3 page (hand-written or generated from its header).
# Usage: test_man.sh SOURCE_DIR HTPLACES_BINARY LIBOMP_EXT_SO GENERATED_MAN3_DIR
set -eu
src=$1 htplaces=$2 lib=$3 gen=$4
fail=0 n=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

command -v groff >/dev/null 2>&1 || { echo "groff is missing (apt-get install groff-base)"; exit 1; }

pages=$(find "$src/man" "$gen" -name '*.[1-8]' -type f | sort)
[ -n "$pages" ] || { echo "FAIL: no man page found"; exit 1; }

# 1. Each page renders without a warning; a .so link names an existing page.
for p in $pages; do
  n=$((n + 1))
  if head -n 1 "$p" | grep -q '^\.so '; then
    [ "$(wc -l <"$p")" -eq 1 ] || bad "$p: a .so link must be one line"
    target=$(sed -n 's/^\.so man[1-8]\///p' "$p")
    echo "$pages" | grep -q "/$target\$" || bad "$p: .so target '$target' is not in the tree"
    continue
  fi
  if ! LC_ALL=C.UTF-8 groff -ww -man -Tutf8 -z "$p" >"$work/err" 2>&1 || [ -s "$work/err" ]; then
    bad "$p: groff -ww -man:"; cat "$work/err"
  fi
  # The page's .TH name is its file name (man finds it by that name).
  name=$(basename "$p"); section=${name##*.}; name=${name%.*}
  th=$(sed -n 's/^\.TH \([^ ]*\) \([0-9]\).*/\1 \2/p' "$p" | sed 's/\\-/-/g')
  upper=$(echo "$name" | tr 'a-z' 'A-Z')
  [ "$th" = "$upper $section" ] || bad "$p: .TH says '$th', want '$upper $section'"
done

all="$work/all"
cat $pages >"$all"
hp="$work/htplaces-pages"
cat "$src"/man/man1/htplaces*.1 "$src"/man/man3/*.3 >"$hp"

# 2. Every subcommand in htplaces --help has htplaces-NAME.1, named in htplaces.1.
cmds=$("$htplaces" --help | sed -n '/^Commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
[ -n "$cmds" ] || bad "htplaces --help lists no command"
for c in $cmds; do
  n=$((n + 1))
  [ -f "$src/man/man1/htplaces-$c.1" ] || bad "no man page man/man1/htplaces-$c.1"
  grep -q "^\.BR htplaces\\\\-$c (1)" "$src/man/man1/htplaces.1" ||
    bad "htplaces.1 does not refer to htplaces-$c(1)"
done

# 3. Every long option of the command and of htbench appears as \-\-NAME.
longopts() { grep -ho '{"[a-z][a-z-]*", *\(no\|required\|optional\)_argument' "$@" |
             sed 's/{"\([^"]*\)".*/\1/' | sort -u; }
for o in $(longopts "$src"/omp_ext/htplaces/*.c "$src"/omp_ext/htplaces/htplaces.h); do
  n=$((n + 1))
  grep -qF -- "\\-\\-$(echo "$o" | sed 's/-/\\-/g')" "$src"/man/man1/htplaces*.1 ||
    bad "htplaces option --$o is in no htplaces page"
done
for o in $(longopts "$src/benchmarks/htbench.c"); do
  n=$((n + 1))
  grep -qF -- "\\-\\-$(echo "$o" | sed 's/-/\\-/g')" "$src/man/man1/htbench.1" ||
    bad "htbench option --$o is not in htbench.1"
done

# 4. Every environment variable of omp_ext's own or a launcher's that the
#    library or the command reads is named in a page.
vars=$(grep -ho '"\(OMP_EXT\|HTPLACES\|OMPI_COMM\|MPI_LOCAL\|PMIX_LOCAL\|SLURM\|OMP_TOOL\)[A-Z_]*"' \
         "$src"/omp_ext/lib/*.c "$src"/omp_ext/tools/*.c "$src"/omp_ext/htplaces/*.c | tr -d '"' | sort -u)
for v in $vars; do
  n=$((n + 1))
  grep -q "$v" "$hp" || bad "environment variable $v is in no htplaces or omp_ext page"
done

# 5. Every function of the in-code timing API (include/omp_ext/timing.h) has
#    a section-3 page of its name (the page or a .so link to it).
for f in $(sed -n 's/^OMP_EXT_API [a-z_ ]*[ *]\(omp_ext_[a-z_]*\)(.*/\1/p' \
             "$src/include/omp_ext/timing.h"); do
  n=$((n + 1))
  [ -f "$src/man/man3/$f.3" ] || bad "$f (omp_ext/timing.h) has no man page man/man3/$f.3"
done

# 6. Every name in a section-3 page's NAME section opens with man NAME: a
#    page of its name or a .so link to it (omp_ext_steal_next, say, opens
#    omp_ext_share(3)).
for p in "$src"/man/man3/*.3; do
  head -n 1 "$p" | grep -q '^\.so ' && continue
  for f in $(awk '/^\.SH NAME/ { on = 1; next } on && /\\-/ { sub(/\\-.*/, ""); print; exit }
                  on { print }' "$p" | tr ',' ' '); do
    n=$((n + 1))
    [ -f "$src/man/man3/$f.3" ] || bad "$f (NAME of $(basename "$p")) has no page or .so link man/man3/$f.3"
  done
done

# 7. Every function libomp_ext.so exports (nm -D) has a section-3 page: a
#    hand-written man/man3/NAME.3 (or .so link), or GENERATED_MAN3_DIR/NAME.3
#    made at build time from its header comment (cmake/gen-man3.awk), never
#    both.  The runtime entry points it interposes (GOMP_*, ompt_start_tool:
#    the "interposed:" lines of the headers) are the runtime's functions:
#    a hand-written page names each instead (or a family: GOMP_parallel_loop_*).
interposed=$(sed -n 's/^ \* interposed: //p' "$src"/include/omp_ext/*.h | tr ' ' '\n' | grep .)
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWiV]$/ {print $3}' | sed 's/@.*//' | sort -u)
[ "$(echo "$exported" | wc -l)" -gt 50 ] || bad "nm -D $lib lists only $(echo "$exported" | wc -l) functions"
for f in $exported; do
  n=$((n + 1))
  if echo "$interposed" | grep -qx "$f"; then
    named=0 p=$f
    grep -q "$f" "$src"/man/man3/*.3 && named=1
    while [ "$named" = 0 ] && [ "${p%_*}" != "$p" ]; do
      p=${p%_*}
      grep -qF "${p}_*" "$src"/man/man3/*.3 && named=1
    done
    [ "$named" = 1 ] || bad "interposed $f is named in no man/man3/*.3 page"
  elif [ -f "$src/man/man3/$f.3" ]; then
    [ ! -f "$gen/$f.3" ] || bad "$f has a hand-written page and a generated one"
  elif [ -f "$gen/$f.3" ]; then
    grep -q "^\.SH RETURN VALUE" "$gen/$f.3" || grep -q '^void\|^\.B "void ' "$gen/$f.3" ||
      bad "generated $f.3 has no RETURN VALUE (no \\return in its header comment)"
  else
    bad "exported $f has no man page (man/man3/$f.3 or generated $gen/$f.3)"
  fi
done

# 8. The Slurm plugin (omp_ext/slurm): omp_ext\-slurm(8) names every srun
#    option of its option table, every plugstack.conf argument it parses and
#    every environment variable it reads or sets.
sp="$src/man/man8/omp_ext-slurm.8"
[ -f "$sp" ] || bad "no man page man/man8/omp_ext-slurm.8"
for o in $(sed -n 's/^  {"\([a-z][a-z-]*\)",.*/\1/p' "$src/omp_ext/slurm/omp_ext_spank.c"); do
  n=$((n + 1))
  grep -qF -- "\\-\\-$(echo "$o" | sed 's/-/\\-/g')" "$sp" || bad "plugin option --$o is not in $sp"
done
for a in $(grep -ho 'strn\{0,1\}cmp(arg, "[a-z]*=\{0,1\}"' "$src/omp_ext/slurm/spank_settings.c" |
           sed 's/.*"\([a-z]*\)=\{0,1\}"/\1/' | sort -u); do
  n=$((n + 1))
  grep -qE "^\.BI? $a(=| |\$)" "$sp" || bad "plugstack.conf argument $a is not described in $sp"
done
for v in $(grep -ho '"\(OMP\|SLURM\|KMP\|GOMP\|LD\)[A-Z_]*"' "$src"/omp_ext/slurm/*.c | tr -d '"' | sort -u); do
  n=$((n + 1))
  grep -q "$v" "$sp" || bad "variable $v (omp_ext/slurm) is not in $sp"
done

echo "man: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
