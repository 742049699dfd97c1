#!/bin/sh
# mutate.sh SOURCE [CC]: the suite's teeth.  Each mutant below is a
# deliberate bug in one library file; this script copies SOURCE (the
# repository, without build folders) to a scratch folder, configures it
# once with CC (default cc), and for each mutant applies it, builds only
# the test programs named, runs them with ctest, and restores the file.
# A mutant is killed when some named test fails.
# Exit 1 when a mutant's pattern is not found exactly once in its file (the
# source moved on: adjust the entry) or when a mutant survives (the tests
# cannot see that bug: give it a test); exit 0 when every mutant was killed.
# An entry marked "known" (a last field) is only applied (its text must
# still be there) unless OMP_EXT_MUTATE_KNOWN=1: then it is run too, may
# survive without failing the script, and is an error once it is killed
# (drop the mark).
# Registered in ctest as test_mutate (gcc build); see tests/README.md.
set -u
src=$(cd "${1:?usage: mutate.sh SOURCE [CC]}" && pwd) cc=${2:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/omp_ext-mutate.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
log=$work/log
jobs=$(nproc 2>/dev/null || echo 2)

# One mutant per line, fields separated by a backtick (never in the C
# source): NAME`FILE`TESTS (ctest names, ;-list)`FROM`TO`KNOWN
# FROM and TO are literal text, \n a newline; FROM must occur exactly once
# in FILE.
mutants() {
  cat <<'EOF'
stats: sd divides by n, not n - 1`omp_ext/tools/stats.c`test_stats`sqrt(ss / (n - 1))`sqrt(ss / n)`
stats: t table off by one degree of freedom`omp_ext/tools/stats.c`test_stats`return t975[df - 1];`return t975[df > 1 ? df - 2 : 0];`
stats: outliers beyond 2 sd, not 3`omp_ext/tools/stats.c`test_stats`> 3 * st->sd)`> 2 * st->sd)`
share: one iteration left undone (exact cover)`omp_ext/lib/share.c`test_share`for (t = 0; given < len; t = (t + 1) % n, given++)`for (t = 0; given + 1 < len; t = (t + 1) % n, given++)`
share: every leftover iteration to one thread`omp_ext/lib/share.c`test_share`    bounds[rem[t].t + 1]++;`    bounds[rem[0].t + 1]++;`
order: CPU kinds in reverse`omp_ext/lib/order.c`test_order`    return x->kind < y->kind ? -1 : 1;`    return x->kind > y->kind ? -1 : 1;`
order: spread does not interleave packages`omp_ext/lib/order.c`test_order`i < n; i++)\n      keys[i].major = pos[i];`i < n; i++)\n      keys[i].major = 0;`
bind: thread t bound to thread t+1's PU`omp_ext/lib/bind.c`test_bind`hwloc_bitmap_only(set, orders[policy][index % npus]);`hwloc_bitmap_only(set, orders[policy][(index + 1) % npus]);`
bind: policy os binds to the first allowed PU only`omp_ext/lib/bind.c`test_bind`    hwloc_bitmap_copy(set, omp_ext_topo_allowed(topo));`    hwloc_bitmap_only(set, (unsigned)hwloc_bitmap_first(omp_ext_topo_allowed(topo)));`
EOF
  # --- htplaces tune's sigma pairing (omp_ext/htplaces/tune_analysis.c,
  # is_sigma_pair): 2C threads two per core, but not on the C threads' cores.
  cat <<'EOF'
tune: sigma pairs runs on different cores`omp_ext/htplaces/tune_analysis.c`test_tune`b[2 * k] != a[k] || b[2 * k + 1] != a[k])`b[2 * k] != b[2 * k + 1])`
EOF
}

# apply FILE FROM TO: replace the one occurrence of FROM; 3 if not exactly one.
apply() {
  perl -e 'my ($file, $from, $to) = @ARGV; s/\\n/\n/g for $from, $to;
    local $/; open(my $f, "<", $file) or exit 2;
    my $s = <$f>; close $f; my $n = () = $s =~ /\Q$from\E/g; exit 3 if $n != 1;
    $s =~ s/\Q$from\E/$to/; open($f, ">", $file) or exit 2; print $f $s; close $f; exit 0' "$@"
}

mkdir "$work/src"
tar -C "$src" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$work/src" -xf - || exit 1
echo "mutate: configuring a scratch copy of $src in $work (CC=$cc)"
if ! CC=$cc cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Debug -DOMP_EXT_SMTVM=OFF \
    >"$log" 2>&1; then
  tail -n 20 "$log"; echo "mutate: FAILED: the scratch copy does not configure"; exit 1
fi
tab=$(printf '\t')
mutants | while IFS='`' read -r name file tests from to mark; do
  f=$work/src/$file
  cp "$f" "$work/orig"
  apply "$f" "$from" "$to"
  st=$?
  if [ $st != 0 ]; then
    echo "MISSING  $name: the text to mutate is not found exactly once in $file (adjust the entry)"
    echo missing >>"$work/results"; continue
  fi
  if [ -n "$mark" ] && [ "${OMP_EXT_MUTATE_KNOWN:-0}" != 1 ]; then
    cp "$work/orig" "$f"
    echo "applied  $name -- known survivor, not run ($mark; OMP_EXT_MUTATE_KNOWN=1 runs it)"
    echo known >>"$work/results"; continue
  fi
  targets=$(echo "$tests" | tr ';' ' ')
  regex="^($(echo "$tests" | tr ';' '|'))\$"
  # shellcheck disable=SC2086
  if ! cmake --build "$work/build" -j "$jobs" --target $targets >"$log" 2>&1; then
    result=killed how="the build fails"
  elif (cd "$work/build" && ctest -R "$regex" --timeout 600 >"$log" 2>&1); then
    result=survived how="$tests pass"
  else
    result=killed how="$(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (\(.*\))$/\1 \2/p' "$log" | tr '\n' ',' | sed 's/,$//; s/,/, /g')"
  fi
  cp "$work/orig" "$f"
  touch "$f"
  case $result$tab$mark in
    "killed$tab") echo "killed   $name ($how)"; echo killed >>"$work/results" ;;
    "survived$tab") echo "SURVIVED $name ($how): give it a test"; echo survived >>"$work/results" ;;
    killed"$tab"*) echo "KILLED   $name ($how), marked '$mark': drop the mark"; echo known_killed >>"$work/results" ;;
    *) echo "survived $name ($how) -- known, $mark"; echo known >>"$work/results" ;;
  esac
done
count() { grep -c "^$1\$" "$work/results" 2>/dev/null || true; }
killed=$(count killed) survived=$(count survived) missing=$(count missing)
known=$(count known) known_killed=$(count known_killed)
echo "mutate: $killed killed, $survived survived, $missing not applied, $known known survivor(s), $known_killed killed though marked known"
[ "$survived" = 0 ] && [ "$missing" = 0 ] && [ "$known_killed" = 0 ]
