#!/bin/sh
# test_slurm.sh SRC BUILD [--smt]: the Slurm plugin (omp_ext_spank.so) on a
# real one-node Slurm (tests/slurm/cluster.sh: munged, slurmctld, slurmd,
# no cgroups).  Every task of every step checked against independent
# oracles: the step's PUs are those Slurm itself binds a --cpu-bind=none
# step of the same request to (the allocation), each task's PUs and
# OMP_PLACES are what `htplaces -r STEP --ranks-per-node K --local-rank R
# POLICY` prints, every OpenMP thread of tests/affinity_probe runs on its
# place, no PU outside the step.  Then Slurm's own binding refused with one
# line and nothing run, an error of omp_ext (more tasks than cores) leaving
# the tasks unplaced with one line (failed under --ht-strict), bad option
# values, auto, the site's default from plugstack.conf, and htplaces doctor
# inside a step.  --smt (inside tests/smtvm's SMT guest): only the sibling
# checks, against sysfs: spn's first two places are siblings, speedup's
# on two cores, --ht-smt=1 one PU per core.
# Prints "ok - " / "not ok - " lines; exit 0, 1 on a failure, 77 (skip)
# when not root, Slurm or munge absent, or the build has no plugin.
set -u
src=$1 build=$2 mode=${3:-}
plugin=$build/omp_ext/slurm/omp_ext_spank.so
H=$build/bin/htplaces
probe=$build/tests/affinity_probe
if [ ! -f "$plugin" ]; then
  echo "no Slurm plugin in $build (a sanitizer build, or slurm/spank.h absent: libslurm-dev)"
  exit 77
fi
. "$src/tests/slurm/cluster.sh"
fails=0 passes=0
ok() { passes=$((passes + 1)); echo "ok - $*"; }
bad() { fails=$((fails + 1)); echo "not ok - $*"; }
check() { # check DESC WANT GOT
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: want '$2', got '$3'"; fi
}
# list "0-2,5" -> "0,1,2,5"
expand() {
  echo "$1" | tr ',' '\n' | awk -F- 'NF { b = $1; e = (NF > 1) ? $2 : $1; for (i = b; i <= e; i++) print i }' |
    sort -nu | paste -sd, -
}
# subset A B: every PU of A is in B (comma lists).
subset() {
  echo "$2" | tr ',' '\n' >"$dir/b"
  [ -z "$(echo "$1" | tr ',' '\n' | grep -vxF -f "$dir/b")" ]
}

dir=$(mktemp -d /tmp/omp_ext_slurm.XXXXXX) && chmod 755 "$dir" || exit 1
trap 'slurm_cluster_stop "$dir/c1"; slurm_cluster_stop "$dir/c2"; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
export OMP_EXT_SPANK=$plugin
mkdir "$dir/c1"
slurm_cluster_start "$dir/c1" || exit $?
unset OMP_EXT_SPANK
node=$SLURM_CLUSTER_NODE
export OMP_WAIT_POLICY=passive KMP_BLOCKTIME=0
unset OMP_PLACES OMP_PROC_BIND OMP_NUM_THREADS KMP_AFFINITY GOMP_CPU_AFFINITY OMP_EXT_HT_POLICY \
  SLURM_CPU_BIND OMP_EXT_PLAN 2>/dev/null

# What each task prints: "task RANK LOCAL cpus=LIST places=P n=N x=OMP_EXT_SLURM
# pre=LD_PRELOAD pol=OMP_EXT_HT_POLICY", then the probe's threads as
# "thread RANK T LIST" when places were set.
report='r=$SLURM_PROCID; c=$(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status)
echo "task $r $SLURM_LOCALID cpus=$c places=${OMP_PLACES-} n=${OMP_NUM_THREADS-} x=${OMP_EXT_SLURM-} pre=${LD_PRELOAD-} pol=${OMP_EXT_HT_POLICY-}"
if [ -n "${OMP_PLACES-}" ] || [ -n "${OMP_EXT_HT_POLICY-}" ]; then "$0" | sed "s/^/thread $r /"; fi'
# step OUT SRUN-ARGS...: srun with the report; stdout in OUT, stderr in OUT.err.
step() {
  out=$1
  shift
  timeout 60 srun "$@" sh -c "$report" "$probe" >"$out" 2>"$out.err"
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
# The step's PUs as Slurm allocates them: the union of the tasks' bindings
# of the same request with --cpu-bind=none (Slurm binds each task to the
# step's CPUs when the node is not whole, leaves it unbound when it is).
step_pus() {
  step "$dir/o" --cpu-bind=none "$@" || { echo "?"; return; }
  expand "$(field cpus <"$dir/o" | paste -sd, -)"
}

# check_step DESC POLICY K "SRUN-ARGS": every task against htplaces and the probe.
check_step() {
  desc=$1 pol=$2 k=$3
  shift 3
  want_step=$(step_pus "$@")
  step "$dir/s" --ht-policy="$pol" "$@"
  st=$?
  check "$desc: srun exits 0" "0" "$st$(head -c 300 "$dir/s.err")"
  ntask=$(grep -c '^task ' "$dir/s")
  check "$desc: $k tasks ran" "$k" "$ntask"
  r=0
  while [ $r -lt "$k" ]; do
    line=$(grep "^task $r " "$dir/s")
    cpus=$(expand "$(echo "$line" | field cpus)")
    places=$(echo "$line" | field places)
    lr=$(echo "$line" | cut -d' ' -f3)
    dom=$(expand "$($H -r "$want_step" --ranks-per-node "$k" --local-rank "$lr" -f list os 2>&1)")
    # shellcheck disable=SC2046
    wp=$($H -r "$want_step" --ranks-per-node "$k" --local-rank "$lr" $(echo "$pol" | tr : ' ') 2>&1)
    check "$desc: task $r is bound to its domain of the step's PUs $want_step" "$dom" "$cpus"
    if subset "$cpus" "$want_step"; then ok "$desc: task $r has no PU outside the step"; else
      bad "$desc: task $r on $cpus, outside the step's $want_step"; fi
    check "$desc: task $r's OMP_PLACES is htplaces -r $want_step --ranks-per-node $k --local-rank $lr $(echo "$pol" | tr : ' ')" \
      "$wp" "$places"
    got=$(grep "^thread $r " "$dir/s" | cut -d' ' -f3,4 | sort -n | awk '{ printf "{%s}%s", $2, "," }' | sed 's/,$//')
    nt=$(echo "$line" | field n)
    want_threads=$(echo "$wp" | tr ',' '\n' | head -n "${nt:-999}" | paste -sd, -)
    check "$desc: task $r's OpenMP threads each on its place" "$want_threads" "$got"
    echo "$line" | grep -q " x=policy=$pol smt=" && ok "$desc: task $r's OMP_EXT_SLURM names $pol" ||
      bad "$desc: task $r's OMP_EXT_SLURM: $(echo "$line" | field x)"
    r=$((r + 1))
  done
}

if [ "$mode" != --smt ]; then
  srun --help 2>&1 | grep -q -- '--ht-policy=POLICY\[:N\]' && srun --help 2>&1 | grep -q -- '--ht-smt=K' &&
    ok "srun --help lists --ht-policy and --ht-smt" || bad "srun --help lacks the --ht-* options"
  for pol in spn speedup spread os energy; do
    check_step "-n 2 $pol" "$pol" 2 -n 2
    check_step "-n 1 -c 2 $pol" "$pol" 1 -n 1 -c 2
  done
  check_step "-n 1 spn" spn 1 -n 1
  check_step "-n 1 -w $node spn" spn 1 -n 1 -w "$node"
  check_step "-n 2 --cpu-bind=none spn" spn 2 -n 2 --cpu-bind=none
  check_step "-n 1 -c 2 spn:1" spn:1 1 -n 1 -c 2
  # A restricted allocation: another job holds a core, the step gets the rest.
  timeout 60 srun -n 1 -J holder sleep 30 >/dev/null 2>&1 &
  holder=$!
  i=0
  while [ $i -lt 100 ] && [ "$(squeue -h -n holder -t R -o %i | wc -l)" = 0 ]; do sleep 0.1; i=$((i + 1)); done
  ncpu=$(expand "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)" | tr ',' '\n' | wc -l)
  if [ "$ncpu" -ge 2 ]; then
    held=$(scontrol show job -d "$(squeue -h -n holder -o %i)" | sed -n 's/.*CPU_IDs=\([^ ]*\).*/\1/p')
    check_step "-n 1 beside a job on Slurm CPU $held, spn" spn 1 -n 1
    cpus=$(expand "$(grep '^task 0 ' "$dir/s" | field cpus)")
    [ "$cpus" != "$(expand "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)")" ] &&
      ok "the step beside another job does not get the whole node ($cpus)" ||
      bad "the step beside another job got the whole node ($cpus)"
  fi
  scancel -n holder 2>/dev/null
  wait $holder 2>/dev/null

  # Slurm's own binding: one line, nothing run.
  rm -f "$dir/ran"
  timeout 60 srun -n 2 --cpu-bind=cores --ht-policy=spn touch "$dir/ran" >/dev/null 2>"$dir/e"
  st=$?
  [ $st != 0 ] && [ ! -e "$dir/ran" ] && ok "--cpu-bind=cores with --ht-policy: refused, nothing ran (exit $st)" ||
    bad "--cpu-bind=cores with --ht-policy: exit $st, ran: $([ -e "$dir/ran" ] && echo yes || echo no)"
  check "--cpu-bind=cores: one omp_ext-slurm line naming --cpu-bind=none" "1 1" \
    "$(grep -c '^omp_ext-slurm: ' "$dir/e") $(grep '^omp_ext-slurm: ' "$dir/e" | grep -c -- '--cpu-bind=none')"
  KMP_AFFINITY=compact timeout 60 srun -n 1 --ht-policy=spn touch "$dir/ran" >/dev/null 2>"$dir/e"
  st=$?
  [ $st != 0 ] && [ ! -e "$dir/ran" ] && grep -q '^omp_ext-slurm: .*KMP_AFFINITY' "$dir/e" &&
    ok "KMP_AFFINITY set with --ht-policy: refused with one line, nothing ran" ||
    bad "KMP_AFFINITY set with --ht-policy: exit $st; $(cat "$dir/e")"
  timeout 60 srun -n 2 --cpu-bind=cores touch "$dir/ran" >/dev/null 2>"$dir/e"
  check "--cpu-bind=cores without --ht-*: Slurm's binding, not refused" "0 0" \
    "$? $(grep -c omp_ext-slurm "$dir/e")"
  rm -f "$dir/ran"

  # Bad option values: one line of ours (srun adds its own), nothing run.
  for bad_opt in --ht-policy=bogus --ht-policy=spn:0 --ht-smt=0; do
    timeout 60 srun -n 1 "$bad_opt" touch "$dir/ran" >/dev/null 2>"$dir/e"
    st=$?
    [ $st != 0 ] && [ ! -e "$dir/ran" ] && [ "$(grep -c '^omp_ext-slurm: ' "$dir/e")" = 1 ] &&
      ok "$bad_opt: refused with one omp_ext-slurm line: $(grep '^omp_ext-slurm: ' "$dir/e" | cut -c1-90)" ||
      bad "$bad_opt: exit $st; $(cat "$dir/e")"
  done

  # omp_ext cannot place (3 tasks, fewer cores): one line, tasks run unplaced.
  step "$dir/s" -n 3 --overcommit --ht-policy=spn
  st=$?
  check "3 tasks on fewer cores: srun exits 0, 3 tasks ran, all unplaced" "0 3 3" \
    "$st $(grep -c '^task ' "$dir/s") $(grep -c ' x=unplaced ' "$dir/s")"
  check "3 tasks on fewer cores: one omp_ext-slurm line, no OMP_PLACES" "1 0" \
    "$(grep -c '^omp_ext-slurm: ' "$dir/s.err") $(grep -c 'places=[^ ]' "$dir/s")"
  rm -f "$dir/ran"
  timeout 60 srun -n 3 --overcommit --ht-policy=spn --ht-strict touch "$dir/ran" >/dev/null 2>"$dir/e"
  st=$?
  [ $st != 0 ] && [ ! -e "$dir/ran" ] && ok "--ht-strict: the unplaceable tasks fail (exit $st), none ran" ||
    bad "--ht-strict: exit $st, ran: $([ -e "$dir/ran" ] && echo yes || echo no)"

  # auto: libomp_ext preloaded with OMP_EXT_HT_POLICY, each task in its domain.
  want_step=$(step_pus -n 2)
  step "$dir/s" -n 2 --ht-policy=auto
  for r in 0 1; do
    line=$(grep "^task $r " "$dir/s")
    lr=$(echo "$line" | cut -d' ' -f3)
    dom=$(expand "$($H -r "$want_step" --ranks-per-node 2 --local-rank "$lr" -f list os)")
    check "auto: task $r bound to its domain, OMP_EXT_HT_POLICY=auto, no OMP_PLACES" \
      "$dom auto " "$(expand "$(echo "$line" | field cpus)") $(echo "$line" | field pol) $(echo "$line" | field places)"
    pre=$(echo "$line" | field pre)
    [ -f "$pre" ] && case $pre in */libomp_ext.so.*) true ;; *) false ;; esac &&
      ok "auto: task $r preloads $pre" || bad "auto: task $r's LD_PRELOAD '$pre'"
    outside=$(grep "^thread $r " "$dir/s" | while read -r _ _ _ l; do subset "$(expand "$l")" "$dom" || echo "$l"; done)
    check "auto: task $r's threads stay in its domain" "" "$outside"
  done

  # htplaces doctor inside a step: the step, the plugin's settings, conflicts.
  timeout 60 srun -n 2 --ht-policy=spn "$H" doctor --no-saturation >"$dir/d" 2>&1
  grep -q '^Slurm step: ' "$dir/d" && grep -q '^Slurm plugin: policy=spn' "$dir/d" &&
    ok "doctor in a step reports the step and the plugin's settings" ||
    bad "doctor in a step: $(grep -i slurm "$dir/d" | head -n 4 | tr '\n' '|')"
  timeout 60 srun -n 1 --ht-policy=spn sh -c 'OMP_PLACES=cores "$0" doctor --no-saturation' "$H" \
    >"$dir/d" 2>&1
  grep -q "^  conflict: OMP_PLACES='cores' is not what omp_ext's Slurm plugin set for --ht-policy=spn" "$dir/d" &&
    ok "doctor in a step: OMP_PLACES changed after the plugin set it is a conflict" ||
    bad "doctor: no conflict for a changed OMP_PLACES: $(grep -iE 'slurm|conflict' "$dir/d" | tr '\n' '|')"
  if [ "$(nproc)" -ge 2 ]; then
    timeout 60 srun -n 1 -c 2 --ht-policy=spn taskset -c 1 "$H" doctor --no-saturation >"$dir/d" 2>&1
    grep -q "^  conflict: this process runs on PUs 1, not on 0-1 where omp_ext's Slurm plugin bound" "$dir/d" &&
      ok "doctor in a step: a task rebound after the plugin is a conflict" ||
      bad "doctor: no conflict for a rebound task: $(grep -iE 'slurm|conflict' "$dir/d" | tr '\n' '|')"
  fi
  timeout 60 srun -n 3 --overcommit --ht-policy=spn "$H" doctor --no-saturation >"$dir/d" 2>&1
  check "doctor in an unplaced step: each of the 3 tasks reports slurm_unplaced" "3" \
    "$(grep -c "^  conflict: omp_ext's Slurm plugin was asked to place this task and did not" "$dir/d")"
  timeout 60 srun -n 1 "$H" -f json doctor --no-saturation >"$dir/d" 2>&1
  grep -q '"slurm": {"job": "[0-9]*", "step": "0", ' "$dir/d" && grep -q '"plugin": null' "$dir/d" &&
    ok "doctor -f json in a step without the plugin: the step, plugin null" ||
    bad "doctor -f json: $(grep slurm "$dir/d")"

  # sbatch --ht-policy: the option reaches the job's steps (not its batch
  # script, one process); --ht-policy=off in a step turns it off there.
  timeout 120 sbatch --wait -n 2 --ht-policy=spn -o "$dir/batch.out" -D "$dir" --wrap \
    "echo script \${OMP_EXT_SLURM-none}; srun -n 2 sh -c 'echo step \$SLURM_PROCID \$OMP_EXT_SLURM';
     srun -n 2 --ht-policy=off sh -c 'echo off \$SLURM_PROCID \${OMP_EXT_SLURM-none}'" >/dev/null 2>&1
  check "sbatch --ht-policy=spn: its script unplaced, its step's 2 tasks spn, none with --ht-policy=off" \
    "1 2 2" "$(grep -c '^script none$' "$dir/batch.out") $(grep -c '^step [01] policy=spn ' "$dir/batch.out") $(grep -c '^off [01] none$' "$dir/batch.out")"

  # The site's default (plugstack.conf default=spn): applied without an
  # option, stepping aside for the user's own binding, off with --ht-policy=off.
  slurm_cluster_stop "$dir/c1"
  mkdir "$dir/c2"
  OMP_EXT_SPANK=$plugin OMP_EXT_SPANK_ARGS="default=spn" slurm_cluster_start "$dir/c2" ||
    { bad "second cluster"; exit 1; }
  step "$dir/s" -n 2
  check "site default spn: both tasks placed without an option" "2" "$(grep -c ' x=policy=spn ' "$dir/s")"
  step "$dir/s" -n 2 --cpu-bind=cores
  check "site default spn with --cpu-bind=cores: Slurm's binding, no refusal, no line" "0 0 0" \
    "$? $(grep -c 'x=policy' "$dir/s") $(grep -c omp_ext-slurm "$dir/s.err")"
  step "$dir/s" -n 2 --ht-policy=off
  check "site default spn, --ht-policy=off: nothing placed" "0 0" "$? $(grep -c 'places=[^ ]' "$dir/s")"
else
  # In an SMT guest: the siblings each policy asks for, by sysfs.
  sys=/sys/devices/system/cpu
  core_of() { echo "$(cat $sys/cpu$1/topology/physical_package_id):$(cat $sys/cpu$1/topology/core_id)"; }
  first_two() { echo "$1" | tr -d '{}' | cut -d, -f1,2; }
  # Two tasks of two cores each (-c 4: a package of smt2x2 each).
  step "$dir/s" -n 2 -c 4 --ht-policy=spn
  for r in 0 1; do
    p=$(first_two "$(grep "^task $r " "$dir/s" | field places)")
    check "smt: spn task $r: places 0 and 1 ($p) are siblings of one core" \
      "$(core_of "${p%,*}")" "$(core_of "${p#*,}")"
  done
  step "$dir/s" -n 2 -c 4 --ht-policy=speedup
  for r in 0 1; do
    p=$(first_two "$(grep "^task $r " "$dir/s" | field places)")
    [ -n "$p" ] && [ "$(core_of "${p%,*}")" != "$(core_of "${p#*,}")" ] &&
      ok "smt: speedup task $r: places 0 and 1 ($p) on two cores" ||
      bad "smt: speedup task $r: places 0 and 1 ($p) on one core"
  done
  step "$dir/s" -n 2 -c 4 --ht-policy=spn --ht-smt=1
  for r in 0 1; do
    cpus=$(expand "$(grep "^task $r " "$dir/s" | field cpus)")
    cores=$(for c in $(echo "$cpus" | tr ',' ' '); do core_of "$c"; done | sort -u | wc -l)
    n=$(echo "$cpus" | tr ',' '\n' | wc -l)
    check "smt: --ht-smt=1 task $r: one PU per core, 2 cores ($cpus)" "2 2" "$cores $n"
  done
  # Two tasks on one core (-n 2 alone: Slurm gives both one core's two
  # PUs): not whole cores, unplaced with one line; a core each with
  # --ntasks-per-core=1.
  step "$dir/s" -n 2 --ht-policy=spn
  check "smt: -n 2 on one core: unplaced, one line" "2 1" \
    "$(grep -c ' x=unplaced ' "$dir/s") $(grep -c '^omp_ext-slurm: ' "$dir/s.err")"
  check_step "smt: -n 2 --ntasks-per-core=1 spn" spn 2 -n 2 --ntasks-per-core=1
  check_step "smt: -n 2 -c 4 spn" spn 2 -n 2 -c 4
  check_step "smt: -n 1 -c 4 speedup" speedup 1 -n 1 -c 4
  check_step "smt: -n 2 -c 4 spread" spread 2 -n 2 -c 4
fi
echo "# test_slurm: $passes passed, $fails failed"
[ $fails = 0 ]
