#!/bin/sh
# The sources' shape (the project's style rules, issue 32): no source file
# of omp_ext/, include/ or benchmarks/ over 800 lines; no C function outside
# tests/ over 120 lines (pmccabe's count, from the line of its name to its
# closing brace); no cycle among the sources' #include "..." edges (the
# whole tree, tests too; an include resolved in the including file's folder,
# then include/, then the folder nearest the including file that has it;
# the loop found by tsort).  Files are git's (tracked and untracked, not
# ignored), so build folders are never read.
# Usage: test_source_shape.sh SOURCE_DIR      (exit 77: skipped, no git or pmccabe)
set -u
cd "$1" || exit 1
command -v pmccabe >/dev/null 2>&1 ||
  { echo "test_source_shape: skipped: pmccabe not installed (sh cmake/install-deps.sh --dev)"; exit 77; }
git rev-parse --git-dir >/dev/null 2>&1 ||
  { echo "test_source_shape: skipped: $1 is not a git work tree"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git ls-files -co --exclude-standard | while read -r f; do [ -f "$f" ] && echo "$f"; done \
  >"$work/all"
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# Source files (code, scripts, build files; not data, figures or prose).
grep -E '^(omp_ext|include|benchmarks)/' "$work/all" |
  grep -E '(\.(c|h|cpp|cc|f90|sh|in|awk|gp|cmake|map)|/CMakeLists\.txt)$' >"$work/src"
[ "$(wc -l <"$work/src")" -ge 50 ] || bad "only $(wc -l <"$work/src") source files found"
while read -r f; do
  n=$(wc -l <"$f")
  [ "$n" -le 800 ] || bad "$f has $n lines (at most 800: split it by concern)"
done <"$work/src"

# C functions outside tests/: pmccabe's 5th column is the function's lines.
grep -E '\.(c|h)$' "$work/all" | grep -v '^tests/' >"$work/c"
# shellcheck disable=SC2046
pmccabe $(cat "$work/c") 2>/dev/null >"$work/fn"
[ "$(wc -l <"$work/fn")" -ge 500 ] || bad "pmccabe found only $(wc -l <"$work/fn") functions"
awk -F'\t' '$5 > 120 {print $6 " has " $5 " lines (at most 120)"}' "$work/fn" >"$work/long"
while read -r line; do bad "$line"; done <"$work/long"

# Include edges "FILE INCLUDED" among the tree's C/C++/Fortran sources.
grep -E '\.(c|h|cpp|cc|hpp)$' "$work/all" >"$work/inc_files"
while read -r f; do
  dir=$(dirname "$f")
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
    while read -r inc; do
      to=""
      if grep -qxF "$dir/$inc" "$work/inc_files"; then to="$dir/$inc"
      elif grep -qxF "include/$inc" "$work/inc_files"; then to="include/$inc"
      else # the folder nearest $f (longest common prefix) that has it
        to=$(grep -E "(^|/)$(echo "$inc" | sed 's/[.[\*^$]/\\&/g')\$" "$work/inc_files" |
          awk -v f="$f" '{ n = 0; while (n < length($0) && substr($0, 1, n + 1) == substr(f, 1, n + 1)) n++;
                           if (n > best) { best = n; pick = $0 } } END { print pick }')
      fi
      [ -n "$to" ] && [ "$to" != "$f" ] && echo "$f $to"
    done
done <"$work/inc_files" >"$work/edges"
[ "$(wc -l <"$work/edges")" -ge 200 ] || bad "only $(wc -l <"$work/edges") include edges found"
if ! tsort "$work/edges" >/dev/null 2>"$work/loop"; then
  bad "an include cycle: $(tr '\n' ' ' <"$work/loop")"
fi

echo "source shape: $(wc -l <"$work/src") files, $(wc -l <"$work/fn") functions," \
  "$(wc -l <"$work/edges") include edges; $fail failed"
[ "$fail" -eq 0 ]
