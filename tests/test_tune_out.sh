#!/bin/sh
# htplaces tune --out DIR: complete or not at all (issue 33).
#  1. a 12 KB tmpfs (mount -t tmpfs, as root; skipped with the reason when
#     the mount is refused): into a new folder, exit 1, one line, nothing
#     left on the file system; into a folder holding earlier results, exit
#     1, one line, the folder byte for byte as it was;
#  2. SIGINT during the runs, into a folder of earlier results: exit 130,
#     the folder as it was, no staging folder left;
#  3. the program failing in every configuration: a folder of earlier
#     results as it was; a new folder gets the record (program-stdout.txt,
#     stderr-tails.txt with the failure's last lines), no results.json;
#  4. a tune into a folder of earlier results and a file of the user's: the
#     user's file kept, every file of tune's the new one's (a stale plot of
#     the earlier tune removed when no plot is made now), no staging folder;
#  5. gnuplot (a stand-in on PATH) leaving an empty plot, or a PNG cut short,
#     with exit 0: exit 1, one line, the folder as it was; gnuplot failing
#     on its own (exit 3): a warning, no plots, the other files in place;
#  6. --out naming a file: exit 1, one line, before any run.
# Usage: sh test_tune_out.sh HTPLACES
set -u
htp=$1
tmp=$(mktemp -d)
mnt=""
pids=""
cleanup() {
  for p in $pids; do kill -KILL "$p" 2>/dev/null; done
  [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY KMP_AFFINITY GOMP_CPU_AFFINITY \
  2>/dev/null || true
passed=0 failed=0 skipped=""
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
quick="--reps 3 --threads 1 --policies none --no-regions"

# A folder's files and their contents, for "as it was".
snapshot() { (cd "$1" && find . -type f | sort | while read -r f; do echo "== $f"; cat "$f"; done) 2>&1; }

# stderr holds exactly one error line (tune's own progress lines aside).
one_line() {
  [ "$(grep -c '^htplaces: ' "$1")" = 1 ] && [ "$(grep -vc '^htplaces tune: ' "$1")" = 1 ]
}

# Earlier results in $1 (a real tune).
earlier() {
  "$htp" tune $quick --out "$1" -- true >/dev/null 2>"$tmp/earlier.err" ||
    { bad "the earlier tune failed: $(cat "$tmp/earlier.err")"; return 1; }
}

# 1. a 12 KB tmpfs
mkdir "$tmp/mnt"
if mount -t tmpfs -o size=12k tmpfs "$tmp/mnt" 2>"$tmp/mount.err"; then
  mnt=$tmp/mnt
  "$htp" tune $quick --out "$mnt/new" -- true >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" = 1 ] && one_line "$tmp/err" && grep -q "No space left on device (nothing was made)" "$tmp/err" &&
    ok || bad "12 KB, new folder: exit $rc: $(cat "$tmp/err")"
  [ -z "$(ls -A "$mnt")" ] && ok || bad "12 KB, new folder: left $(ls -A "$mnt")"
  mkdir "$mnt/old" && echo '{"earlier": "results"}' >"$mnt/old/results.json" &&
    echo "earlier table" >"$mnt/old/table.txt"
  before=$(snapshot "$mnt/old")
  "$htp" tune $quick --out "$mnt/old" -- true >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" = 1 ] && one_line "$tmp/err" && grep -q "(the folder is left as it was)" "$tmp/err" && ok ||
    bad "12 KB, earlier results: exit $rc: $(cat "$tmp/err")"
  [ "$(snapshot "$mnt/old")" = "$before" ] && [ "$(ls -A "$mnt/old" | wc -l)" = 2 ] && ok ||
    bad "12 KB, earlier results changed: $(ls -A "$mnt/old")"
  umount "$mnt" && mnt=""
else
  skipped="a 12 KB tmpfs: mount refused ($(head -n 1 "$tmp/mount.err"))"
fi

# 2. SIGINT during the runs
earlier "$tmp/sig" && {
  before=$(snapshot "$tmp/sig")
  env --default-signal=INT "$htp" tune $quick --out "$tmp/sig" -- sh -c 'touch "$0"; sleep 2' \
    "$tmp/started" >/dev/null 2>"$tmp/err" &
  t=$!
  pids="$pids $t"
  i=0
  while [ ! -e "$tmp/started" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
  kill -INT "$t"
  wait "$t"
  rc=$?
  [ "$rc" = 130 ] && grep -q "^htplaces: interrupted by SIGINT: .*--out '$tmp/sig' left as it was" \
    "$tmp/err" && ok || bad "SIGINT: exit $rc: $(cat "$tmp/err")"
  [ "$(snapshot "$tmp/sig")" = "$before" ] && [ -z "$(ls -A "$tmp/sig" | grep htplaces-tune)" ] &&
    [ -z "$(ls -A "$tmp" | grep htplaces-tune)" ] && ok || bad "SIGINT: the folder changed: $(ls -A "$tmp/sig")"
}

# 3. the program failing in every configuration
fail_prog="echo 'Error: no input deck (--deck FILE)'; echo '---------------' >&2; exit 3"
earlier "$tmp/fail" && {
  before=$(snapshot "$tmp/fail")
  "$htp" tune $quick --out "$tmp/fail" -- sh -c "echo 'Error: no input deck' >&2; echo ------ >&2; exit 3" \
    >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" = 1 ] && one_line "$tmp/err" && grep -q "(--out '$tmp/fail' is left as it was)" "$tmp/err" &&
    ok || bad "all failed, earlier results: exit $rc: $(cat "$tmp/err")"
  [ "$(snapshot "$tmp/fail")" = "$before" ] && ok || bad "all failed: the earlier results changed"
}
"$htp" tune $quick --out "$tmp/fail-new" -- sh -c "$fail_prog" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] && one_line "$tmp/err" &&
  grep -q "exit 3): Error: no input deck (--deck FILE) (its output in --out '$tmp/fail-new')" "$tmp/err" &&
  ok || bad "all failed, new folder: exit $rc: $(cat "$tmp/err")"
[ "$(ls "$tmp/fail-new" 2>&1 | tr '\n' ' ')" = "program-stdout.txt stderr-tails.txt " ] &&
  grep -q "^==> htplaces tune: none 1, run 4: exit 3; its standard error, last lines <==$" \
    "$tmp/fail-new/stderr-tails.txt" && grep -q "^---------------$" "$tmp/fail-new/stderr-tails.txt" &&
  grep -q "^==> htplaces tune: none 1, run 4: its standard output, last lines <==$" \
    "$tmp/fail-new/stderr-tails.txt" &&
  ok || bad "all failed, new folder: $(ls "$tmp/fail-new" 2>&1); $(cat "$tmp/fail-new/stderr-tails.txt")"

# 4. into earlier results and a file of the user's
earlier "$tmp/again" && {
  echo "mine" >"$tmp/again/notes.txt"
  echo "stale" >"$tmp/again/tune-spn.svg"
  mkdir "$tmp/nognuplot"
  for t in sh true; do ln -s "/bin/$t" "$tmp/nognuplot/$t"; done
  PATH=$tmp/nognuplot "$htp" tune $quick --seed 42 --out "$tmp/again" -- true >/dev/null 2>"$tmp/err"
  rc=$?
  [ "$rc" = 0 ] && grep -q "gnuplot not found: no plots" "$tmp/err" && ok ||
    bad "again: exit $rc: $(cat "$tmp/err")"
  [ "$(cat "$tmp/again/notes.txt")" = mine ] && [ ! -e "$tmp/again/tune-spn.svg" ] &&
    [ ! -e "$tmp/again/tune-time.png" ] && grep -q '"seed": 42' "$tmp/again/results.json" &&
    [ -z "$(ls -A "$tmp/again" | grep htplaces-tune)" ] && ok || bad "again: $(ls -A "$tmp/again")"
}

# 5. gnuplot stand-ins
mkdir "$tmp/bin"
cat >"$tmp/bin/gnuplot" <<'EOF'
#!/bin/sh
png() { printf '\211PNG\r\n\032\n'; [ "$1" = cut ] || printf '\0\0\0\0IEND\256B`\202'; }
svg() { printf '<svg>\n</svg>\n'; }
case $GNUPLOT_MODE in
empty) png >tune-time.png; : >tune-time.svg; png >tune-spn.png; svg >tune-spn.svg; exit 0 ;;
cut) png cut >tune-time.png; svg >tune-time.svg; png >tune-spn.png; svg >tune-spn.svg; exit 0 ;;
fail) png >tune-time.png; echo "line 1: unknown or ambiguous terminal type" >&2; exit 3 ;;
esac
EOF
chmod +x "$tmp/bin/gnuplot"
earlier "$tmp/plots" && {
  before=$(snapshot "$tmp/plots")
  for mode in empty cut; do
    GNUPLOT_MODE=$mode PATH=$tmp/bin:$PATH "$htp" tune $quick --out "$tmp/plots" -- true >/dev/null \
      2>"$tmp/err"
    rc=$?
    [ "$rc" = 1 ] && one_line "$tmp/err" && grep -q "gnuplot exited 0 but left it" "$tmp/err" && ok ||
      bad "gnuplot $mode: exit $rc: $(cat "$tmp/err")"
    [ "$(snapshot "$tmp/plots")" = "$before" ] && ok || bad "gnuplot $mode: the folder changed"
  done
  GNUPLOT_MODE=fail PATH=$tmp/bin:$PATH "$htp" tune $quick --out "$tmp/plots" -- true >/dev/null \
    2>"$tmp/err"
  rc=$?
  [ "$rc" = 0 ] && grep -q "gnuplot failed (exit 3: line 1: unknown or ambiguous terminal type): no plots" \
    "$tmp/err" && ok || bad "gnuplot fail: exit $rc: $(cat "$tmp/err")"
  [ -z "$(ls "$tmp/plots" | grep -E 'png|svg')" ] && [ -s "$tmp/plots/results.json" ] &&
    [ -s "$tmp/plots/plots.gp" ] && ok || bad "gnuplot fail: $(ls "$tmp/plots")"
}

# 6. --out naming a file
echo file >"$tmp/afile"
"$htp" tune $quick --out "$tmp/afile" -- sh -c 'touch "$0"' "$tmp/ran" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "Not a directory" "$tmp/err" &&
  [ ! -e "$tmp/ran" ] && ok || bad "--out a file: exit $rc: $(cat "$tmp/err")"

[ -n "$skipped" ] && echo "omp_ext-skipped: test_tune_out: 1 of 6 skipped: $skipped" >&2
echo "tune --out: $passed passed, $failed failed"
[ "$failed" = 0 ]
