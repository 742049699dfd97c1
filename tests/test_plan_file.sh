#!/bin/sh
# Plan files and environment values that must not break or stall a process
# (issue 30), under this build's runtime, with libomp_ext preloaded:
#  1. OMP_EXT_PLAN naming a FIFO: `timeout 3 true` (no OpenMP) returns at
#     once (under 1 s: the plan is read only at a first parallel region),
#     says nothing; an OpenMP program says one line at once and runs;
#  2. a FIFO, a folder, /dev/zero, a file over 1 MiB, a malformed plan:
#     the library says one line naming the file (and line and field) and
#     runs the program; htplaces exec --plan refuses each with exit 2 and
#     one line, the program not run;
#  3. an invalid OMP_EXT_HT_POLICY (auto:X, 3000 bytes with an escape
#     sequence): nothing from a process without OpenMP; one line, escaped
#     and shortened, from an OpenMP one; the policy left unset
#     (omp_get_ht_policy() is os, 0);
#  4. OMP_EXT_PLAN=/nonexistent and an invalid OMP_EXT_HT_POLICY flagged by
#     htplaces doctor.
# Usage: sh test_plan_file.sh REGION_PROBE HTPLACES LIBOMP_EXT_SO
set -eu
probe=$1 htp=$2 lib=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY OMP_EXT_PLAN OMP_EXT_TIMING \
  OMP_EXT_LEARN KMP_AFFINITY GOMP_CPU_AFFINITY 2>/dev/null || true
fail() { echo "FAIL: $*"; exit 1; }
now() { date +%s%N; }

# 1. a FIFO: nothing blocks
mkfifo "$tmp/fifo"
t0=$(now)
OMP_EXT_PLAN=$tmp/fifo LD_PRELOAD=$lib timeout 3 true 2>"$tmp/e1" || fail "timeout 3 true under a FIFO plan failed"
t1=$(now)
[ $(( (t1 - t0) / 1000000 )) -lt 1000 ] || fail "timeout 3 true under a FIFO plan took $(( (t1 - t0) / 1000000 )) ms"
[ ! -s "$tmp/e1" ] || fail "a process without OpenMP spoke of the plan: $(cat "$tmp/e1")"

# 2. files the library and exec refuse at once, each with one line
head -c 1100000 /dev/zero | tr '\0' '#' >"$tmp/huge"
printf 'omp_ext_plan 2\ndefault 1 {0}\nregion probe 0x10 1 {0},{99999}\n' >"$tmp/places"
printf 'omp_ext_plan 2\nregion probe 0x10 1 {0} bogus:1\n' >"$tmp/label"
printf 'omp_ext_plan 2\nregion probe 0x10 100000 -\n' >"$tmp/threads"
printf 'omp_ext_plan 2\nregion probe 0x10 1 {0}\nregion probe 0x10 1 {0}\n' >"$tmp/dup"
want=$(OMP_EXT_TIMING= "$probe" 2 | sort)
for f in "$tmp/fifo:a FIFO" "$tmp:a folder" "/dev/zero:a device" "$tmp/huge:more than a plan's limit" \
  "$tmp/places:line 3: PLACES '{0},{99999}'" "$tmp/label:line 2: LABEL 'bogus:1'" \
  "$tmp/threads:line 2: THREADS '100000'" "$tmp/dup:line 3: region 'probe' 0x10 with THREADS 1 given twice"; do
  path=${f%%:*} why=${f#*:}
  t0=$(now)
  got=$(OMP_EXT_PLAN=$path LD_PRELOAD=$lib timeout 10 "$probe" 2 2>"$tmp/e2" | sort) ||
    fail "OMP_EXT_PLAN=$path: the program failed"
  t1=$(now)
  [ $(( (t1 - t0) / 1000000 )) -lt 3000 ] || fail "OMP_EXT_PLAN=$path: $(( (t1 - t0) / 1000000 )) ms"
  [ "$(wc -l <"$tmp/e2")" = 1 ] && grep -q "^omp_ext: OMP_EXT_PLAN: '$path'.*$why.*: per-region control is off$" "$tmp/e2" ||
    fail "OMP_EXT_PLAN=$path: stderr '$(cat "$tmp/e2")', wanted one line with '$why'"
  [ "$(echo "$got" | wc -l)" = "$(echo "$want" | wc -l)" ] || fail "OMP_EXT_PLAN=$path: the program's output changed"
  rc=0
  timeout 10 "$htp" exec --plan "$path" -- sh -c 'echo ran' >"$tmp/o2" 2>"$tmp/e2" || rc=$?
  [ $rc = 2 ] && [ ! -s "$tmp/o2" ] && [ "$(wc -l <"$tmp/e2")" = 1 ] && grep -q '^htplaces: --plan ' "$tmp/e2" ||
    fail "exec --plan $path: exit $rc, stdout '$(cat "$tmp/o2")', stderr '$(cat "$tmp/e2")'"
done

# 3. an invalid OMP_EXT_HT_POLICY: said once, escaped, only by an OpenMP process
bad="auto:$(printf '\033[31m')$(head -c 3000 /dev/zero | tr '\0' x)"
OMP_EXT_HT_POLICY=$bad LD_PRELOAD=$lib timeout 3 true 2>"$tmp/e3" || fail "true under an invalid policy failed"
[ ! -s "$tmp/e3" ] || fail "a process without OpenMP spoke of the policy: $(head -c 200 "$tmp/e3")"
out=$(OMP_EXT_HT_POLICY=$bad REGION_PROBE_POLICY=1 LD_PRELOAD=$lib "$probe" 2 2>"$tmp/e3" | head -n 1)
[ "$out" = "policy 0" ] || fail "an invalid OMP_EXT_HT_POLICY left the policy set: '$out'"
[ "$(wc -l <"$tmp/e3")" = 1 ] && [ "$(wc -c <"$tmp/e3")" -lt 400 ] &&
  grep -q "^omp_ext: ignoring OMP_EXT_HT_POLICY='auto:\\\\x1b\[31mxxx.*\.\.\. (3010 bytes)': expected auto, auto:time, auto:energy, each optionally followed by :threads (per region)$" "$tmp/e3" ||
  fail "an invalid OMP_EXT_HT_POLICY: stderr '$(head -c 600 "$tmp/e3")'"
! grep -q "$(printf '\033')" "$tmp/e3" || fail "the escape sequence reached the terminal"
out=$(OMP_EXT_HT_POLICY=auto:threads REGION_PROBE_POLICY=1 LD_PRELOAD=$lib "$probe" 2 2>"$tmp/e3" | head -n 1)
[ "$out" = "policy 256" ] && [ ! -s "$tmp/e3" ] || fail "auto:threads: '$out', stderr '$(cat "$tmp/e3")'"

# 4. doctor flags both
OMP_EXT_PLAN=/nonexistent OMP_EXT_HT_POLICY=auto:x "$htp" doctor --no-saturation >"$tmp/o4" 2>&1 || true
grep -q "conflict: OMP_EXT_PLAN='/nonexistent': No such file or directory: libomp_ext turns per-region control off" "$tmp/o4" &&
  grep -q "conflict: OMP_EXT_HT_POLICY='auto:x' is invalid" "$tmp/o4" || fail "doctor: $(grep OMP_EXT "$tmp/o4")"
# 5. a plan of one configuration for every region runs as exec POLICY N:
#    its places, close, its N, nothing preloaded; any difference (a region
#    of another configuration, the user's own N, timing files asked for)
#    keeps per-region control
pu=$("$htp" spn 1 | tr -d '{}')
npus=$("$htp" speedup | tr ',' '\n' | grep -c .)
printf 'omp_ext_plan 2\ndefault 1 {%s} spn:1\nregion probe 0x10 1 {%s} spn:1\n' "$pu" "$pu" >"$tmp/one"
printf 'omp_ext_plan 2\ndefault 1 {%s} spn:1\nregion probe 0x10 1 - none:1\n' "$pu" >"$tmp/two"
env_of() { "$htp" exec --plan "$1" -- env | grep -E '^(OMP_|LD_PRELOAD)' | grep -v '^OMP_EXT_TOPO_' | sort | tr '\n' ' '; }
got=$(env_of "$tmp/one")
[ "$got" = "OMP_NUM_THREADS=1 OMP_PLACES={$pu} OMP_PROC_BIND=close " ] ||
  fail "a plan of one configuration: the program's environment '$got'"
# lines of another team (2 threads) do not apply to a run at this one:
# still one configuration; a run at that team is preloaded
if [ "$npus" -gt 1 ]; then
  printf 'omp_ext_plan 2\ndefault 1 {%s} spn:1\nregion probe 0x10 1 {%s} spn:1\nregion probe 0x10 2 - none:2\n' "$pu" "$pu" >"$tmp/teams"
  got=$(env_of "$tmp/teams")
  [ "$got" = "OMP_NUM_THREADS=1 OMP_PLACES={$pu} OMP_PROC_BIND=close " ] ||
    fail "a plan of one configuration beside another team's line: the program's environment '$got'"
  case $(OMP_NUM_THREADS=2 env_of "$tmp/teams") in
    *LD_PRELOAD=*libomp_ext*) ;;
    *) fail "a plan run at the team of its other line was run without per-region control" ;;
  esac
fi
for how in two nthreads timing; do
  case $how in
    two) got=$(env_of "$tmp/two") ;;
    nthreads) got=$(OMP_NUM_THREADS=2 env_of "$tmp/one") ;;
    timing) got=$(OMP_EXT_TIMING=$tmp/t.json env_of "$tmp/one") ;;
  esac
  case $got in
    *LD_PRELOAD=*libomp_ext*) ;;
    *) fail "a plan ($how) was run without per-region control: '$got'" ;;
  esac
done

# 6. exec auto --learn: a learnt state that amounts to one configuration
#    (every region settled, the best of their choices for all of them
#    costing at most 2 % of the run's time -- its "run" line, else its
#    regions' time -- more than per-region control) runs as exec POLICY N -- nothing
#    preloaded, OMP_NUM_THREADS left as it is -- but every 8th run, which
#    is preloaded to learn on; a state where per-region control wins more
#    keeps it, and so does a state of another build.  The program is env:
#    its state is DIR/env.plan.
pl=$("$htp" spn "$npus")
mkdir "$tmp/learn1" "$tmp/learn2"
exe=$(realpath "$(command -v env)")
id=$(readelf -n "$exe" | awk '/Build ID/ { print "gnu:" $3; exit }')
[ -n "$id" ] || id=stat:$(stat -c '%s:%Y' "$exe")
state() { # DIR SECOND-REGION'S-NONE-TIME [SECOND-REGION'S-CHOICE: none]
  printf 'omp_ext_plan 2\nlearnt auto\nbuild %s %s\n' "${exe##*/}" "$id" >"$1/env.plan"
  for r in 0x10:0.0012 0x20:$2; do
    if [ "${3:-}" = none ] && [ "${r%%:*}" = 0x20 ]; then set -- "$1" "$2" none "- none:$npus"; else set -- "$1" "$2" "${3:-}" "$pl spn:$npus"; fi
    printf 'region env %s %s %s team=keep:%s phase=settled n=10 step=2 block=1 nsamp=1 ref=0.001 drift=0 reexplores=0 c=spn:%s/0.001 c=none:%s/%s\n' \
      "${r%%:*}" "$npus" "$4" "$npus" "$npus" "$npus" "${r#*:}" >>"$1/env.plan"
  done
}
state "$tmp/learn1" 0.0011
state "$tmp/learn2" 0.0001 none # (none wins the second region by far: no one configuration)
grep -q '^region env 0x20 [0-9]* - none:' "$tmp/learn2/env.plan" || fail "the hand-made state: $(cat "$tmp/learn2/env.plan")"
"$htp" exec --plan "$tmp/learn2/env.plan" -- true || fail "the hand-made state does not check: $(cat "$tmp/learn2/env.plan")"
envs=""
for k in 1 2 3 4 5 6 7 8 9; do
  envs="$envs|$("$htp" exec auto --learn "$tmp/learn1" -- env | grep -E '^(OMP_|LD_PRELOAD)' | grep -v '^OMP_EXT_TOPO_' | sort | tr '\n' ' ')"
done
one="OMP_PLACES=$pl OMP_PROC_BIND=close "
pre="LD_PRELOAD=*libomp_ext* OMP_EXT_HT_POLICY=auto OMP_EXT_LEARN=$tmp/learn1 "
case $envs in
  "|$one|$one|$one|$one|$one|$one|$one|"$pre"|$one") ;;
  *) fail "exec auto --learn on a state of one configuration: the runs' environments '$envs'" ;;
esac
# ... not for another objective (auto:energy on auto's state): preloaded, the
# library refuses the state
got=$("$htp" exec auto:energy --learn "$tmp/learn1" -- env 2>/dev/null | grep -E '^(LD_PRELOAD)' | tr '\n' ' ')
case $got in *libomp_ext*) ;; *) fail "exec auto:energy --learn on auto's state of one configuration: '$got'" ;; esac
got=$("$htp" exec auto --learn "$tmp/learn2" -- env | grep -E '^(OMP_|LD_PRELOAD)' | grep -v '^OMP_EXT_TOPO_' | sort | tr '\n' ' ')
case $got in
  *LD_PRELOAD=*libomp_ext*OMP_EXT_HT_POLICY=auto*) ;;
  *) fail "exec auto --learn where per-region control wins: '$got'" ;;
esac
# the same state with the run's time ("run S", written at exit): per-region
# control's win (2 ms a run) is within 2 % of a 1 s run: one configuration
# (none, the cheaper for all); of a 0.05 s run, not
for run in 1.0 0.05; do
  rm -rf "$tmp/learn3" && mkdir "$tmp/learn3"
  sed "s/^learnt auto\$/learnt auto\nrun $run/" "$tmp/learn2/env.plan" >"$tmp/learn3/env.plan"
  got=$("$htp" exec auto --learn "$tmp/learn3" -- env | grep -E '^(OMP_|LD_PRELOAD)' | sort | tr '\n' ' ')
  case $run:$got in
    1.0:*LD_PRELOAD=*|1.0:*OMP_PLACES=*) fail "exec auto --learn, a win of 2 ms in a 1 s run: '$got'" ;;
    1.0:*|0.05:*LD_PRELOAD=*libomp_ext*OMP_EXT_HT_POLICY=auto*) ;;
    *) fail "exec auto --learn, a win of 2 ms in a 0.05 s run: '$got'" ;;
  esac
  [ $run = 0.05 ] || [ "$(cat "$tmp/learn3/.env.global")" = 1 ] || fail "run $run: not counted as one configuration"
  [ $run = 1.0 ] || [ ! -e "$tmp/learn3/.env.global" ] || fail "run $run: counted as one configuration"
  # the same state applied by exec --plan: the same rule (omp_ext_plan_one),
  # though its lines name two configurations
  got=$("$htp" exec --plan "$tmp/learn3/env.plan" -- env | grep -E '^(OMP_PLACES|LD_PRELOAD)=' | sort | tr '\n' ' ')
  case $run:$got in
    1.0:) ;;
    0.05:*LD_PRELOAD=*libomp_ext*) ;;
    *) fail "exec --plan on the learnt state of a $run s run: '$got'" ;;
  esac
  # ... but not another program's state (sh's, not env's): preloaded, the
  # library says its regions did not run
  got=$("$htp" exec --plan "$tmp/learn3/env.plan" -- sh -c env | grep -E '^LD_PRELOAD=')
  case $got in *libomp_ext*) ;; *) fail "exec --plan on env's state ran sh as one configuration" ;; esac
done
# the run's time is per team ("run TEAM S"): another team's 1 s run is not
# this team's yardstick (preloaded), this team's is (one configuration)
if [ "$npus" -gt 1 ]; then
  for runs in "1 1.0" "$npus 1.0|1 0.05"; do
    rm -rf "$tmp/learn3" && mkdir "$tmp/learn3"
    lines=$(echo "$runs" | tr '|' '\n' | sed 's/^/run /')
    awk -v r="$lines" '{ print } /^learnt auto$/ { print r }' "$tmp/learn2/env.plan" >"$tmp/learn3/env.plan"
    [ "$(grep -c '^run [0-9]* [0-9.]*$' "$tmp/learn3/env.plan")" = "$(echo "$runs" | tr '|' '\n' | wc -l)" ] ||
      fail "the hand-made state with run lines: $(cat "$tmp/learn3/env.plan")"
    got=$("$htp" exec auto --learn "$tmp/learn3" -- env | grep -E '^(OMP_|LD_PRELOAD)' | sort | tr '\n' ' ')
    case $runs:$got in
      "1 1.0:"*LD_PRELOAD=*libomp_ext*) ;;
      "$npus 1.0|"*) case $got in *LD_PRELOAD=*|*OMP_PLACES=*) fail "run lines '$runs': '$got'" ;; esac ;;
      *) fail "run lines '$runs' (another team's 1 s run): '$got'" ;;
    esac
  done
fi
# a state with lines of another team (a run at OMP_NUM_THREADS=1, still
# exploring): one configuration for the program's team all the same; at
# OMP_NUM_THREADS=1, preloaded
if [ "$npus" -gt 1 ]; then
  rm -rf "$tmp/learn4" && mkdir "$tmp/learn4"
  cp "$tmp/learn1/env.plan" "$tmp/learn4/env.plan"
  echo 'region env 0x30 1 {0} spn:1 team=keep:1 phase=explore n=1 step=0 block=1 nsamp=1 drift=0 reexplores=0 runs=1 c=spn:1/- c=none:1/-' >>"$tmp/learn4/env.plan"
  got=$("$htp" exec auto --learn "$tmp/learn4" -- env | grep -E '^(OMP_|LD_PRELOAD)' | sort | tr '\n' ' ')
  [ "$got" = "$one" ] || fail "exec auto --learn, a state with another team's lines: '$got'"
  got=$(OMP_NUM_THREADS=1 "$htp" exec auto --learn "$tmp/learn4" -- env | grep -E '^(LD_PRELOAD)' | sort | tr '\n' ' ')
  case $got in *libomp_ext*) ;; *) fail "exec auto --learn at the other team: '$got'" ;; esac
fi
# a program that links libomp never takes the shortcut (libomp 14 crashes
# in a fork() child under an OMP_PLACES list): preloaded, no OMP_PLACES; the
# same program's state otherwise of one configuration (a copy of learn1's,
# its build line this program's)
if command -v clang >/dev/null 2>&1 && printf 'int main(void) { return 0; }\n' >"$tmp/lo.c" &&
  clang -fopenmp -Wl,--no-as-needed -o "$tmp/lomp" "$tmp/lo.c" 2>/dev/null &&
  readelf -d "$tmp/lomp" | grep -q 'NEEDED.*libomp'; then
  mkdir "$tmp/learnomp"
  lid=$(readelf -n "$tmp/lomp" | awk '/Build ID/ { print "gnu:" $3; exit }')
  [ -n "$lid" ] || lid=stat:$(stat -c '%s:%Y' "$tmp/lomp")
  sed -e "s|^build .*|build lomp $lid|" -e 's|^region env |region lomp |' "$tmp/learn1/env.plan" >"$tmp/learnomp/lomp.plan"
  touch "$tmp/learnomp/lomp.plan"
  ldp=$(LD_DEBUG=libs "$htp" exec auto --learn "$tmp/learnomp" -- "$tmp/lomp" 2>&1 | grep -c 'calling init: .*libomp_ext' || :)
  [ "$ldp" -ge 1 ] || fail "exec auto --learn, a libomp program's state of one configuration: not preloaded"
  ldp=$(LD_DEBUG=libs "$htp" exec --plan "$tmp/learnomp/lomp.plan" -- "$tmp/lomp" 2>&1 | grep -c 'calling init: .*libomp_ext' || :)
  [ "$ldp" -ge 1 ] || fail "exec --plan, a libomp program's state of one configuration: not preloaded"
else
  echo "omp_ext-skipped: test_plan_file: no clang -fopenmp linking libomp here: the libomp program's no-shortcut check"
fi
# every region settled on its bound choice, but the team unbound (none, a
# candidate of every region) measured cheaper in each: one configuration,
# unbound (no OMP_PLACES, nothing preloaded); measured the same: the bound
# choice (a tie keeps it)
for none in 0.0009 0.001; do
  rm -rf "$tmp/learn5" && mkdir "$tmp/learn5"
  sed "s|c=none:\([0-9]*\)/[0-9.]*|c=none:\1/$none|" "$tmp/learn1/env.plan" >"$tmp/learn5/env.plan"
  [ "$(grep -c "c=none:$npus/$none\$" "$tmp/learn5/env.plan")" = 2 ] || fail "the hand-made state: $(cat "$tmp/learn5/env.plan")"
  got=$("$htp" exec auto --learn "$tmp/learn5" -- env | grep -E '^(OMP_|LD_PRELOAD)' | sort | tr '\n' ' ')
  case $none:$got in
    0.0009:) ;;
    "0.001:$one") ;;
    *) fail "exec auto --learn, none measured at $none s against the bound choice's 0.001 s: '$got'" ;;
  esac
done
# the user's OMP_PLACES: preloaded (the library checks and uses them), in
# learn and plan alike
for how in learn plan; do
  if [ $how = learn ]; then
    got=$(OMP_PLACES='{0' "$htp" exec auto --learn "$tmp/learn1" -- env 2>&1 | grep -E '^(OMP_|LD_PRELOAD|htplaces)' | sort | tr '\n' ' ')
  else
    got=$(OMP_PLACES='{0' "$htp" exec --plan "$tmp/one" -- env 2>&1 | grep -E '^(OMP_|LD_PRELOAD|htplaces)' | sort | tr '\n' ' ')
  fi
  case $got in
    "htplaces: OMP_PLACES {0: expected"*) ;;
    *) fail "$how with the user's OMP_PLACES '{0': '$got'" ;;
  esac
done
# the count file a FIFO, or a link: never blocks, never written through
rm -f "$tmp/learn1/.env.global"
mkfifo "$tmp/learn1/.env.global"
timeout 10 "$htp" exec auto --learn "$tmp/learn1" -- env >/dev/null || fail "exec auto --learn with a FIFO as its count: exit $?"
rm -f "$tmp/learn1/.env.global"
echo precious >"$tmp/precious"
ln -s "$tmp/precious" "$tmp/learn1/.env.global"
"$htp" exec auto --learn "$tmp/learn1" -- env >/dev/null || fail "exec auto --learn with a link as its count"
[ "$(cat "$tmp/precious")" = precious ] || fail "exec auto --learn wrote through a link: $(cat "$tmp/precious")"
# a state of another build of the program: preloaded (the library refuses it with one line)
sed -i 's/^build \([^ ]*\) .*/build \1 gnu:00/' "$tmp/learn1/env.plan"
got=$("$htp" exec auto --learn "$tmp/learn1" -- env | grep -E '^(OMP_|LD_PRELOAD)' | grep -v '^OMP_EXT_TOPO_' | sort | tr '\n' ' ')
case $got in
  *LD_PRELOAD=*libomp_ext*OMP_EXT_HT_POLICY=auto*) ;;
  *) fail "exec auto --learn on a state of another build: '$got'" ;;
esac

# binary junk as --plan: one line, escaped (no byte outside printable
# ASCII); no POLICY: the line names auto and --plan; --learn twice refused
printf 'x\033[31m\001\377\376junk\n' >"$tmp/junk.bin"
rc=0; "$htp" exec --plan "$tmp/junk.bin" -- true 2>"$tmp/e" || rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/e")" = 1 ] && ! LC_ALL=C grep -q '[^[:print:]]' "$tmp/e" && grep -q 'near x\\x1b\[31m' "$tmp/e" ||
  fail "exec --plan on binary junk: exit $rc, stderr '$(cat -v "$tmp/e")'"
rc=0; "$htp" exec -- true 2>"$tmp/e" || rc=$?
[ $rc = 2 ] && grep -qx "htplaces: missing POLICY; allowed: .*, auto\[:time|:energy\]\[:threads\] (or exec --plan DIR|FILE)" "$tmp/e" ||
  fail "exec without POLICY: exit $rc, '$(cat "$tmp/e")'"
rc=0; "$htp" exec auto --learn "$tmp/la" --learn "$tmp/lb" -- true 2>"$tmp/e" || rc=$?
[ $rc = 2 ] && grep -qx "htplaces: --learn given twice ('$tmp/la', '$tmp/lb'): give one" "$tmp/e" && [ ! -e "$tmp/la" ] && [ ! -e "$tmp/lb" ] ||
  fail "exec --learn twice: exit $rc, '$(cat "$tmp/e")'"

echo "test_plan_file: FIFO, folder, device, huge and malformed plans refused at once (library and exec), env values said once, escaped, by OpenMP processes only; a plan of one configuration run as exec POLICY N, a learnt state of one configuration too (but every 8th run)"
