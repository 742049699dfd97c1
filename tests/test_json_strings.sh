#!/bin/sh
# One JSON string writer (issue 32): a name with a quote, a backslash, a
# control character, a tab, a byte that is not UTF-8 and a non-ASCII
# character comes out the same -- a\"b\\c\u0001d\te\ufffdfÉg, valid JSON --
# in htplaces model -f json (the topology file's path), htplaces tune -f json
# (the program's path in "program") and the library's timing file (the
# program's path, OMP_EXT_TIMING): all three through omp_ext_json_string()
# (util.c).  Before, model.c and timing.c had escapers of their own that
# passed the invalid byte through as is.
# Usage: sh test_json_strings.sh HTPLACES TIMING_PROBE TUNE_PROG TOPOLOGY_XML
set -u
htp=$1 probe=$2 prog=$3 xml=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# (Sanitizer build: tune preloads the ASan-built libomp_ext; harmless elsewhere.)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
fails=0
fail() { printf "FAIL: %s\n" "$*"; fails=$((fails + 1)); }

name=$(printf 'a"b\\c\001d\te\377f\303\211g')
want="$tmp/"'a\"b\\c\u0001d\te\ufffdf'"$(printf '\303\211')"'g/'
dir="$tmp/$name"
mkdir "$dir" && cp "$xml" "$dir/topo.xml" && cp "$probe" "$dir/timing_probe" &&
  cp "$prog" "$dir/tune_prog" || { echo "FAIL: cannot make $tmp/NAME"; exit 1; }

"$htp" model -i "$dir/topo.xml" -f json >"$tmp/model.json" 2>"$tmp/model.err" ||
  fail "htplaces model -f json: $(cat "$tmp/model.err")"
OMP_EXT_TIMING="$tmp/timing.json" "$dir/timing_probe" >/dev/null 2>"$tmp/timing.err" ||
  fail "timing_probe: $(cat "$tmp/timing.err")"
"$htp" tune -f json --reps 3 --threads 1 --policies none -- "$dir/tune_prog" 20000 \
  >"$tmp/tune.json" 2>"$tmp/tune.err" || fail "htplaces tune -f json: $(tail -1 "$tmp/tune.err")"

# The same escaped bytes in each output, after its key.
for out in 'model:"topology":"' 'tune:"program": ["' 'timing:"program": "'; do
  key=${out#*:} out=${out%%:*}
  f="$tmp/$out.json"
  [ -s "$f" ] || { fail "$out: no output"; continue; }
  grep -q -F -- "$key$want" "$f" ||
    fail "$out: the name is not written as $key$want: $(grep -a -o -F -- "$key$tmp/a" "$f" | head -1)"
  python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$f" 2>"$tmp/py.err" ||
    fail "$out: not JSON (RFC 8259, UTF-8): $(tail -1 "$tmp/py.err")"
done
[ "$fails" = 0 ] || exit 1
echo "ok: the name escaped alike in model -f json, tune -f json and the timing file"
