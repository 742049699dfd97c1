#!/bin/sh
# Every htplaces command that prints, with its standard output on /dev/full
# (a full disk) or closed: exit 1 and one line on stderr saying it cannot
# write -- never a silent success (issue 33: `tune --dry-run >/dev/full`
# exited 0).  Commands that run a program run `true`.
# Usage: sh test_output_full.sh HTPLACES
set -u
htp=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY KMP_AFFINITY GOMP_CPU_AFFINITY \
  2>/dev/null || true
topo="pack:1 core:2 pu:2"
passed=0 failed=0
# One command per line (words split at blanks; @ stands for the topology).
cat >"$tmp/commands" <<'EOF'
list
--version
help tune
topo -i @
show -i @ spn 2
model -i @
-i @ spn 2
-i @ -e spn 2
-i @ -f json spn 2
check -i @ {0},{1}
check -f json -i @ {0},{1}
check --runtime libgomp -i @ {0},{1}
doctor
doctor -f json
tune --dry-run -- true
-f json tune --dry-run -- true
verify os 1 -- true
EOF
while IFS= read -r line; do
  set -f
  # shellcheck disable=SC2086
  set -- $line
  set +f
  args=""
  for w in "$@"; do [ "$w" = @ ] && w=$topo; args="$args$(printf '%s' "$w" | sed "s/'/'\\\\''/g; s/^/'/; s/\$/'/") "; done
  for how in full closed; do
    if [ $how = full ]; then
      eval "\"$htp\" $args >/dev/full 2>\"$tmp/err\""
    else
      eval "\"$htp\" $args >&- 2>\"$tmp/err\""
    fi
    rc=$?
    n=$(wc -l <"$tmp/err")
    if [ "$rc" = 1 ] && [ "$n" = 1 ] && grep -q "^htplaces: cannot write" "$tmp/err"; then
      passed=$((passed + 1))
    else
      echo "FAIL: htplaces $line, stdout $how: exit $rc, $n stderr lines: $(cat "$tmp/err")"
      failed=$((failed + 1))
    fi
  done
done <"$tmp/commands"
echo "output write errors: $passed passed, $failed failed"
[ "$failed" = 0 ]
