#!/bin/sh
# htplaces verify runs the program as tune runs it (issue 33): in its own
# process group, signals forwarded, the group killed after the grace
# period, and what left the group (a daemon: setsid) killed too.  The
# program is issue 33's script: `sleep 300 &`, a daemon, an OpenMP program,
# then `sleep 300`.
#  1. SIGINT, SIGTERM, SIGHUP to verify once the OpenMP program has run:
#     verify ends by that signal (128 + N), one line saying so, and ps
#     finds no process of the script (its sleeps carry a marker);
#  2. the same script without the last sleep: verify reports as usual
#     (exit 0) at once after the script ends -- not after its background
#     children (which hold its output open) -- and none of them is left;
#  3. the program not found: 127 and one line, as before.
# Usage: sh test_verify_group.sh HTPLACES OMP_PROG
set -u
htp=$1 prog=$2
tmp=$(mktemp -d)
marker=31$$
pids=""
cleanup() {
  for p in $pids; do kill -KILL "$p" 2>/dev/null; done
  ps -eo pid=,args= | awk -v m="sleep $marker" 'index($0, m) { print $1 }' | xargs -r kill -KILL 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY KMP_AFFINITY GOMP_CPU_AFFINITY \
  2>/dev/null || true
for need in setsid ps; do
  command -v $need >/dev/null 2>&1 || { echo "omp_ext-skipped: test_verify_group: no $need"; exit 77; }
done
env --default-signal=INT true 2>/dev/null ||
  { echo "omp_ext-skipped: test_verify_group: env has no --default-signal (coreutils < 8.31)"; exit 77; }
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

# The processes of the script still there (by the marker on their sleeps).
left() { ps -eo pid=,args= | awk -v m="sleep $marker" 'index($0, m)' | grep -v awk; }

# script NAME LAST: issue 33's script; LAST: its last command.  (The
# program's output stays: libomp prints its affinity lines on stdout.)
script() {
  cat >"$tmp/$1" <<EOF
#!/bin/sh
sleep $marker.1 &
setsid sleep $marker.2 &
"$prog"
echo ran >"$tmp/$1.ran"
$2
EOF
  chmod +x "$tmp/$1"
}

# Wait until FILE exists while pid $2 runs, at most 60 s (a guard against
# a hang).
wait_for() {
  i=0
  while [ ! -e "$1" ] && kill -0 "$2" 2>/dev/null && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  [ -e "$1" ]
}

# Wait for pid $1 at most $2 seconds; its exit status, or 255 after a kill.
wait_pid() {
  i=0
  while kill -0 "$1" 2>/dev/null && [ $i -lt $(($2 * 10)) ]; do sleep 0.1; i=$((i + 1)); done
  if kill -0 "$1" 2>/dev/null; then
    kill -KILL "$1"
    wait "$1" 2>/dev/null
    return 255
  fi
  wait "$1"
}

# 1. signals
for sig in INT TERM HUP; do
  script "slow-$sig" "sleep $marker.3"
  # (env: a command started with & has SIGINT ignored, which verify keeps)
  env --default-signal=INT,TERM,HUP "$htp" verify os 1 -- "$tmp/slow-$sig" >"$tmp/out-$sig" \
    2>"$tmp/err-$sig" &
  v=$!
  pids="$pids $v"
  if ! wait_for "$tmp/slow-$sig.ran" "$v"; then
    bad "SIG$sig: the OpenMP program did not run: $(cat "$tmp/err-$sig")"
    continue
  fi
  sleep 0.3
  [ -n "$(left)" ] || bad "SIG$sig: the script's sleeps were not found before the signal"
  kill -"$sig" "$v"
  wait_pid "$v" 30
  rc=$?
  case $sig in INT) want=130 ;; TERM) want=143 ;; *) want=129 ;; esac
  [ "$rc" = "$want" ] && ok || bad "SIG$sig: verify exited $rc, want $want"
  sleep 0.2
  still=$(left)
  [ -z "$still" ] && ok || bad "SIG$sig: left running: $still"
  n=$(wc -l <"$tmp/err-$sig")
  grep -q "^htplaces: verify: interrupted by SIG$sig: forwarded to the program" "$tmp/err-$sig" &&
    [ "$n" = 1 ] && ok || bad "SIG$sig: stderr: $(cat "$tmp/err-$sig")"
  cleanup_now=$(left | awk '{ print $1 }')
  [ -z "$cleanup_now" ] || kill -KILL $cleanup_now 2>/dev/null
done

# 2. the script ends, its background children and daemon do not
script quick "exit 0"
start=$(date +%s)
# (two threads where there are two PUs: the runtimes print a line for each;
# libgomp prints none for one, and verify then reads the script's affinity)
n=1
[ "$(nproc)" -ge 2 ] && n=2
"$htp" verify os $n -- "$tmp/quick" >"$tmp/out-quick" 2>"$tmp/err-quick" &
v=$!
pids="$pids $v"
wait_pid "$v" 60
rc=$?
took=$(($(date +%s) - start))
[ "$rc" = 0 ] && ok || bad "quick: verify exited $rc, want 0: $(cat "$tmp/out-quick" "$tmp/err-quick")"
grep -q "^verify: every thread is where intended$" "$tmp/out-quick" && ok ||
  bad "quick: no verdict: $(cat "$tmp/out-quick")"
[ "$took" -lt 30 ] && ok || bad "quick: verify took $took s: it waited for the background children"
still=$(left)
[ -z "$still" ] && ok || bad "quick: left running: $still"

# 3. not found
"$htp" verify os 1 -- "$tmp/nonexistent" >"$tmp/out-nf" 2>"$tmp/err-nf"
rc=$?
[ "$rc" = 127 ] && [ ! -s "$tmp/out-nf" ] && [ "$(wc -l <"$tmp/err-nf")" = 1 ] &&
  grep -q "cannot run '$tmp/nonexistent': No such file or directory" "$tmp/err-nf" && ok ||
  bad "not found: exit $rc: $(cat "$tmp/out-nf" "$tmp/err-nf")"

echo "verify process group: $passed passed, $failed failed"
[ "$failed" = 0 ]
