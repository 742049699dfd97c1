#!/bin/sh
# Per-subcommand help: `htplaces COMMAND --help`, `htplaces COMMAND -h` and
# `htplaces help COMMAND` print that command's usage (from main.c's command
# table), exit 0, nothing on stderr; every long option of the command's own
# getopt table (htp_COMMAND_longopts, in the command's files) is in it; a bad
# `help` argument is a one-line usage error.
# Usage: test_help.sh SOURCE_DIR HTPLACES_BINARY
set -eu
src=$1 htplaces=$2
fail=0 n=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$htplaces" --help >"$work/global" 2>"$work/err" || bad "htplaces --help failed"
grep -q '^       htplaces help \[COMMAND\]' "$work/global" || bad "htplaces --help does not show 'htplaces help [COMMAND]'"
cmds=$(sed -n '/^Commands:/,/^$/p' "$work/global" | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
[ "$(echo "$cmds" | wc -w)" -ge 10 ] || bad "htplaces --help lists only: $cmds"
for c in $cmds; do
  n=$((n + 1))
  status=0
  "$htplaces" "$c" --help >"$work/$c" 2>"$work/err" || status=$?
  [ "$status" = 0 ] || bad "htplaces $c --help: exit $status"
  [ ! -s "$work/err" ] || bad "htplaces $c --help wrote to stderr: $(cat "$work/err")"
  head -n 1 "$work/$c" | grep -q "^Usage: htplaces $c\\b" ||
    bad "htplaces $c --help starts with '$(head -n 1 "$work/$c")', not its own usage"
  grep -q '^Options:' "$work/$c" || bad "htplaces $c --help has no Options"
  grep -q "htplaces-$c\\b" "$work/$c" || bad "htplaces $c --help does not name htplaces-$c(1)"
  cmp -s "$work/$c" "$work/global" && bad "htplaces $c --help prints the global usage"
  for form in "-h" "help"; do
    if [ "$form" = help ]; then "$htplaces" help "$c" >"$work/other" 2>&1 || true
    else "$htplaces" "$c" -h >"$work/other" 2>&1 || true; fi
    cmp -s "$work/$c" "$work/other" || bad "htplaces $([ "$form" = help ] && echo "help $c" || echo "$c -h") differs from htplaces $c --help"
  done
  # Each long option of the command's own table is in its help.
  file=$(grep -l "^const struct option htp_${c}_longopts\[\]" "$src"/omp_ext/htplaces/*.c | head -n 1)
  [ -n "$file" ] || continue # (no getopt table, as list: -h and --help only)
  for o in $(grep -ho '{"[a-z][a-z-]*", *\(no\|required\|optional\)_argument' "$file" |
             sed 's/{"\([^"]*\)".*/\1/' | sort -u); do
    n=$((n + 1))
    grep -q -- "--$o\\b" "$work/$c" ||
      bad "htplaces $c option --$o ($(basename "$file")) is not in htplaces $c --help (add a line to its options in omp_ext/htplaces/main.c's command table)"
  done
done
# The options after the command, as the command parses them: -h among them.
n=$((n + 1))
"$htplaces" -i "pack:1 core:2 pu:2" show spn 2 --help >"$work/late" 2>&1 || bad "show spn 2 --help failed"
cmp -s "$work/late" "$work/show" || bad "htplaces show spn 2 --help is not show's help"

# Usage errors: exit 2, one line on stderr naming the allowed commands, nothing on stdout.
for args in "help nosuch" "help show topo"; do
  n=$((n + 1))
  status=0
  # shellcheck disable=SC2086
  "$htplaces" $args >"$work/out" 2>"$work/err" || status=$?
  [ "$status" = 2 ] || bad "htplaces $args: exit $status, want 2"
  [ ! -s "$work/out" ] || bad "htplaces $args wrote to stdout"
  [ "$(wc -l <"$work/err")" = 1 ] && grep -q "commands: show, topo" "$work/err" ||
    bad "htplaces $args: stderr is not one line naming the commands: $(cat "$work/err")"
done
n=$((n + 1))
"$htplaces" help >"$work/helpglobal" 2>&1 && cmp -s "$work/helpglobal" "$work/global" ||
  bad "htplaces help is not htplaces --help"

echo "help: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
