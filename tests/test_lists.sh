#!/bin/sh
# Every list from its table: what htplaces list prints (the names the bash
# completion, the help texts and the defaults use) is checked against the
# sources' own tables, read here independently of the program -- the rows
# of OMP_EXT_POLICIES (include/omp_ext/policy.h), main.c's command table,
# each command's getopt_long table, the man pages -- and no source outside
# the tables carries a hand-written list of policy names.
# Usage: test_lists.sh SOURCE_DIR HTPLACES_BINARY
set -eu
src=$1 htplaces=$2
fail=0 n=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
same() { # same WHAT GOT WANT: two word lists equal, in order
  n=$((n + 1))
  [ "$(echo $2)" = "$(echo $3)" ] || bad "$1: htplaces gives '$(echo $2)', the table '$(echo $3)'"
}

# Policies: the rows of OMP_EXT_POLICIES, in order; the candidates
# (ENERGY_CANDIDATE 1) then none are tune's default --policies.
rows=$(sed -n 's/^ *X(\([a-z_]*\), *\([^,]*\), *\([^,]*\), *\([^,]*\),.*/\1 \3 \4/p' \
  "$src/include/omp_ext/policy.h")
[ "$(echo "$rows" | wc -l)" -ge 5 ] || bad "cannot read the rows of OMP_EXT_POLICIES: '$rows'"
same "list policies" "$("$htplaces" list | awk '{print $1}')" "$(echo "$rows" | awk '{print $1}')"
same "list (default: policies)" "$("$htplaces" list policies)" "$("$htplaces" list)"
base=$(echo "$rows" | awk '$2 == 1 {print $1}' | paste -sd, - | sed 's/,/, /g')
cands=$(echo "$rows" | awk '$3 == 1 {printf "%s,", $1} END {print "none"}')
help=$("$htplaces" tune --help | tr '\n' ' ' | tr -s ' ')
n=$((n + 1))
case $help in
  *"--policies LIST none, $base (default $cands)"*) ;;
  *) bad "tune --help's --policies line does not say 'none, $base (default $cands)': $help" ;;
esac
plan=$("$htplaces" -i "pack:1 core:2 pu:2" tune --dry-run --threads 1 -- true 2>/dev/null |
  sed -n 's/^  \([a-z/]*\)  *1 .*/\1/p')
same "tune's default plan" "$(echo "$plan" | tr / ' ')" "$(echo "$cands" | tr , ' ')"
for p in $(echo "$rows" | awk '$2 == 1 {print $1}'); do
  n=$((n + 1))
  "$htplaces" -i "pack:1 core:2 pu:2" "$p" 1 >/dev/null 2>&1 || bad "htplaces $p 1 fails"
done

# Commands: main.c's rows, each with its page, and no page without a row.
rows=$(sed -n 's/^  {"\([a-z]*\)", "\1[ "].*/\1/p' "$src/omp_ext/htplaces/main.c")
same "list commands" "$("$htplaces" list commands)" "$rows"
for c in $rows; do
  n=$((n + 1))
  [ -f "$src/man/man1/htplaces-$c.1" ] || bad "command $c has no man/man1/htplaces-$c.1"
done
for page in "$src"/man/man1/htplaces-*.1; do
  c=${page##*/htplaces-}
  c=${c%.1}
  n=$((n + 1))
  echo " $rows " | tr '\n' ' ' | grep -q " $c " || bad "$page names no command of main.c's table"
done

# Each command's options: its getopt_long table (htp_COMMAND_longopts in
# one of its files), the common ones (HTP_COMMON_LONGOPTS) with it.
common=$(sed -n '/^#define HTP_COMMON_LONGOPTS/,/^$/p' "$src/omp_ext/htplaces/htplaces.h" |
  grep -o '{"[a-z-]*"' | tr -d '{"')
for c in $rows; do
  file=$(grep -l "^const struct option htp_${c}_longopts\[\]" "$src"/omp_ext/htplaces/*.c | head -n 1)
  want=""
  if [ -n "$file" ]; then # (list has none: -h and --help only)
    want=$(sed -n "/^const struct option htp_${c}_longopts\[\]/,/{0}};/p" "$file" |
      grep -o '{"[a-z][a-z-]*", *\(no\|required\|optional\)_argument' | sed 's/{"\([^"]*\)".*/\1/')
    sed -n "/^const struct option htp_${c}_longopts\[\]/,/{0}};/p" "$file" |
      grep -q 'HTP_COMMON_LONGOPTS' && want="$common $want"
  fi
  got=$("$htplaces" list options "$c" | sed -n 's/^--\([a-z]\)/\1/p')
  same "list options $c" "$(echo $got | tr ' ' '\n' | sort -u)" \
    "$(echo $want help | tr ' ' '\n' | sort -u)"
  # ... and every one of them is accepted (not an unknown option).
  for o in $("$htplaces" list options "$c"); do
    [ "$o" = -- ] && continue
    n=$((n + 1))
    err=$("$htplaces" "$c" "$o" 2>&1 >/dev/null </dev/null) || true
    case $err in *"unknown option"*) bad "htplaces $c $o: $err" ;; esac
  done
done

# Runtimes: the names check --runtime takes (its error lists them), each in
# htplaces-check(1).
rt=$("$htplaces" list runtimes)
err=$("$htplaces" check --runtime nosuch 0 2>&1 >/dev/null) || true
for r in $rt; do
  n=$((n + 1))
  case $err in *"$r"*) ;; *) bad "check --runtime's error does not name $r: $err" ;; esac
  grep -q "$r" "$src/man/man1/htplaces-check.1" || bad "htplaces-check.1 does not name runtime $r"
done
[ "$(echo $rt | wc -w)" -ge 2 ] || bad "list runtimes: '$rt'"

# No hand-written list of policy names outside the tables: three policy
# names as neighbouring items ("os", "spn", "spread" / speedup,spn,spread /
# a|b|c) on a code line (comments aside) of a source file of the library,
# the command, the plugin or the benchmarks.
names=$("$htplaces" list | awk '{print $1}' | paste -sd'|' -)
q="\"($names)\", *"
s="($names)[,|]"
pat="$q$q\"($names)\"|[\"|,]$s$s($names)[,|\"]"
hits=$(cd "$src" && find omp_ext include benchmarks -name '*.[ch]' -print |
  xargs grep -nE "$pat" | grep -v '^include/omp_ext/policy.h:' |
  grep -vE '^[^:]*:[0-9]*: *(/?\*|//)' || true)
n=$((n + 1))
[ -z "$hits" ] || bad "hand-written policy lists (take them from OMP_EXT_POLICIES):
$hits"
# ... nor in the bash completion's code (its comments aside).
hits=$(grep -v '^ *#' "$src/packaging/htplaces.bash-completion" |
  grep -nE "(^|[^a-z:_-])($(echo "$names" | sed 's/|auto//;s/auto|//'))([^a-z:_-]|$)" || true)
n=$((n + 1))
[ -z "$hits" ] || bad "policy names written in packaging/htplaces.bash-completion: $hits"

echo "lists: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
