#!/bin/sh
# htplaces tune --launcher (issue 31) and verify under mpirun:
#  1. --dry-run on synthetic machines (-i): the plan of ranks x threads per
#     rank x policy, each rank's places, the launcher line and the splits
#     that do not fit with their reasons, against tests/golden/
#     tune-hybrid-dry-run.txt and .json byte for byte;
#  2. bad values: no {R}, --ranks 0, non-numbers, shell syntax, the
#     launcher's own binding, a split that fits nothing on this machine,
#     --ranks without --launcher, auto, {PLACES}: each one line on stderr,
#     nothing on stdout, exit 2, nothing run;
#  3. Open MPI: tune --launcher 'mpirun --oversubscribe -np {R}' --ranks 1,2
#     --threads 1,2 runs every split that fits this machine's allowed PUs
#     (computed from htplaces --ranks-per-node R --local-rank r, never
#     assumed), lists the others, reports every split with its statistics
#     and per-region times from every rank, recommends one with the command,
#     and that command runs as printed;
#  4. verify under mpirun: every rank's report names the rank; a rank whose
#     threads move (hybrid_prog --misplace-rank 1) fails, named.
# Usage: sh test_tune_hybrid.sh HTPLACES HYBRID_PROG|- MPIEXEC|- GOLDEN_DIR SANITIZED
# (HYBRID_PROG and MPIEXEC "-": no MPI in this build: parts 3 and 4 are
# skipped, said on an omp_ext-skipped: line.  SANITIZED 1: the sanitizer
# build, whose libomp_ext cannot be preloaded into mpirun (it needs the
# sanitizer runtime): tune runs with --no-regions and the per-region
# checks are skipped, said so.)
set -u
htp=$1 prog=$2 mpiexec=$3 golden=$4 sanitized=${5:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY OMP_EXT_PLAN OMP_EXT_TIMING \
  KMP_AFFINITY GOMP_CPU_AFFINITY OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_LOCAL_SIZE \
  SLURM_LOCALID SLURM_STEP_ID SLURM_STEP_TASKS_PER_NODE SLURM_HINT 2>/dev/null || true
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 # (root in CI)
# (ASan build: the preloaded libomp_ext comes before ASan's runtime)
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
pass=0 fails=0 skips=0 why=
noregions=
[ "$sanitized" = 1 ] && noregions=--no-regions
ok() { pass=$((pass + 1)); }
skip() { skips=$((skips + 1)) why="${why:+$why; }$*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { if eval "$2"; then ok; else fail "$1"; fi; }

# ---- 1. --dry-run goldens
{
  "$htp" -i "pack:2 core:3 pu:2" tune --dry-run --reps 3 \
    --launcher 'mpirun --oversubscribe -np {R}' --ranks 1,2,3,4,7 --threads 1,2,4 \
    --policies spn,speedup,none -- /bin/true
  "$htp" -i "pack:2 core:3 pu:2" tune --dry-run --reps 3 --launcher 'srun -n {R}' \
    --ranks 1-4 --threads 2,3 --policies spn,none -- /bin/true
} >"$tmp/dry.txt" 2>"$tmp/dry.err"
check "--dry-run differs from tests/golden/tune-hybrid-dry-run.txt: $(diff "$golden/tune-hybrid-dry-run.txt" "$tmp/dry.txt")" \
  'cmp -s "$golden/tune-hybrid-dry-run.txt" "$tmp/dry.txt" && [ ! -s "$tmp/dry.err" ]'
"$htp" -f json -i "pack:1 core:2 pu:2" tune --dry-run --reps 3 --launcher 'srun -n {R}' \
  --ranks 1,2,3 --threads 1,4 --policies spn -- /bin/true >"$tmp/dry.json"
check "-f json --dry-run differs: $(diff "$golden/tune-hybrid-dry-run.json" "$tmp/dry.json")" \
  'cmp -s "$golden/tune-hybrid-dry-run.json" "$tmp/dry.json"'
check "-f json --dry-run is not JSON" 'python3 -m json.tool "$tmp/dry.json" >/dev/null'

# ---- 2. bad values: one line, exit 2, nothing on stdout
cores=$("$htp" topo | sed -n 's/^cores: *//p')
bad() { # WHAT-ON-STDERR TUNE-ARGS...
  want=$1
  shift
  "$htp" tune "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
  st=$?
  check "tune $*: exit $st (want 2), stdout '$(cat "$tmp/bad.out")', stderr '$(cat "$tmp/bad.err")'" \
    '[ $st = 2 ] && [ ! -s "$tmp/bad.out" ] && [ "$(wc -l <"$tmp/bad.err")" = 1 ] &&
     grep -q -F -- "$want" "$tmp/bad.err"'
}
p=${prog#-}
[ -n "$p" ] || p=/bin/true
bad "no {R}" --launcher 'mpirun -np 2' -- "$p"
bad "invalid --ranks item '0'" --launcher 'mpirun -np {R}' --ranks 0 -- "$p"
bad "invalid --ranks item 'two'" --launcher 'mpirun -np {R}' --ranks 1,two -- "$p"
bad "invalid --ranks item '2-1'" --launcher 'mpirun -np {R}' --ranks 2-1 -- "$p"
bad "invalid --threads item 'x'" --launcher 'mpirun -np {R}' --ranks 1 --threads x -- "$p"
bad "invalid --threads item '0'" --launcher 'mpirun -np {R}' --ranks 1 --threads 0 -- "$p"
bad "an unquoted '\$'" --launcher 'mpirun -np {R} $X' -- "$p"
bad "binds the ranks itself (--bind-to core)" --launcher 'mpirun --bind-to core -np {R}' -- "$p"
bad "binds the ranks itself (--cpu-bind=cores)" --launcher 'srun --cpu-bind=cores -n {R}' -- "$p"
bad "no ranks x threads split fits" --launcher 'mpirun -np {R}' --ranks $((cores + 1)) -- "$p"
bad "--ranks needs --launcher" --ranks 2 -- "$p"
bad "--policies auto is not measured with --launcher" --launcher 'mpirun -np {R}' \
  --policies spn,auto -- "$p"
bad "{PLACES} in the program's arguments" --launcher 'mpirun -np {R}' -- "$p" '{PLACES}'
bad "do not apply with --launcher" --ranks-per-node 1 --launcher 'mpirun -np {R}' -- "$p"

if [ "$prog" = - ] || [ "$mpiexec" = - ]; then
  skips=2 why="Open MPI runs: no MPI in this build (apt-get install openmpi-bin libopenmpi-dev)"
else
  # ---- 3. tune through mpirun
  # What fits here: R <= cores, T <= the PUs of the smallest of R domains.
  . "$(dirname "$0")/hybrid_fits.sh"
  hybrid_fits "$htp" 0
  nfits=$(echo $fits | wc -w)
  "$htp" tune --reps 3 --seed 7 --launcher "$mpiexec --oversubscribe -np {R}" --ranks 1,2 \
    --threads 1,2 --policies spn,none $noregions --out "$tmp/out" -- "$prog" --work 4000000 \
    >"$tmp/tune.out" 2>"$tmp/tune.err"
  st=$?
  check "tune exit $st: $(tail -n 5 "$tmp/tune.err")" '[ $st = 0 ]'
  for s in $fits; do
    for pol in spn none; do
      check "no row '$pol $s' with 3 ok runs" \
        'grep -E -q "^$pol $s +[0-9]+ +3 .* ok$" "$tmp/tune.out"'
    done
  done
  for s in $nofit; do
    r=${s%x*}
    check "split $s not listed as not run" \
      'grep -q -E "^htplaces tune: not run: ($s|$r ranks): " "$tmp/tune.err"'
    check "split $s has a row" '! grep -q -E "^(spn|none) $s " "$tmp/tune.out"'
  done
  check "not $((2 * nfits * 3)) runs and a warm-up" \
    'grep -q "\[$((2 * nfits * 3))/$((2 * nfits * 3))\]" "$tmp/tune.err" &&
     grep -q "\[warm-up\]" "$tmp/tune.err"'
  check "no statistics in the table" 'grep -q "95% CI of mean" "$tmp/tune.out"'
  if [ "$sanitized" = 1 ]; then
    skip "per-region times of the ranks: the sanitizer build's libomp_ext cannot be preloaded into mpirun"
  else
    check "no per-region time from the ranks" \
      'grep -E -q "^  hybrid_prog.c:[0-9]+ .* (spn|none) [12]x[12] " "$tmp/tune.out"'
  fi
  # the recommendation and its command, run as printed
  pick=$(sed -n 's/^  time: \(spn\|none\) \([12]\)x\([12]\) (median .*/\1 \2 \3/p' "$tmp/tune.out")
  cmd=$(sed -n '/^Recommendation:/{n;n;p}' "$tmp/tune.out" | sed 's/^  //')
  check "no recommendation: $(sed -n '/^Recommendation:/,+2p' "$tmp/tune.out")" \
    '[ -n "$pick" ] && [ -n "$cmd" ]'
  pr=$(echo "$pick" | cut -d' ' -f2) pt=$(echo "$pick" | cut -d' ' -f3)
  check "the command of $pick is not a launcher line: $cmd" \
    'case "$cmd" in *"$mpiexec --bind-to none --oversubscribe -np $pr "*) true;; *) false;; esac'
  sh -c "$cmd" >"$tmp/cmd.out" 2>"$tmp/cmd.err"
  st=$?
  check "the recommended command ($cmd) did not run as printed: exit $st, $(cat "$tmp/cmd.out" "$tmp/cmd.err")" \
    '[ $st = 0 ] && grep -q "^hybrid_prog: ranks $pr threads $pt sum [0-9]* ok$" "$tmp/cmd.out"'
  check "results.json has no ranks" \
    'grep -q "\"ranks\": 1, \"threads_per_rank\": 1" "$tmp/out/results.json" &&
     python3 -m json.tool "$tmp/out/results.json" >/dev/null'
  check "results.csv has no ranks column" 'head -n 1 "$tmp/out/results.csv" | grep -q ",ranks$"'

  # ---- 4. verify under mpirun: each rank named, a moved thread fails its rank
  if [ "$cores" -ge 2 ]; then
    "$mpiexec" --oversubscribe --bind-to none -np 2 "$htp" verify spn -- "$prog" --work 100000 \
      >"$tmp/v.out" 2>"$tmp/v.err"
    st=$?
    for r in 0 1; do
      check "verify: rank $r not ok: $(cat "$tmp/v.out")" \
        '[ $st = 0 ] && grep -q "^rank $r (local $r of 2 on [^)]*): verify: every thread is where intended$" "$tmp/v.out"'
    done
    "$mpiexec" --oversubscribe --bind-to none -np 2 "$htp" verify spn -- "$prog" --work 100000 \
      --misplace-rank 1 >"$tmp/v.out" 2>"$tmp/v.err"
    st=$?
    check "verify --misplace-rank 1: exit $st, $(cat "$tmp/v.out")" \
      '[ $st != 0 ] && grep -q "^rank 1 (local 1 of 2 on [^)]*): verify: MISMATCH$" "$tmp/v.out" &&
       grep -q "^rank 1 (local 1 of 2 on [^)]*): *0 .*MISMATCH" "$tmp/v.out" &&
       ! grep -q "^rank 0 .*MISMATCH" "$tmp/v.out"'
  else
    skip "verify of 2 ranks: this machine allows 1 core"
  fi
fi
[ "$skips" = 0 ] || echo "omp_ext-skipped: test_tune_hybrid: $skips of $((pass + fails + skips)) skipped: $why"
echo "test_tune_hybrid: $pass passed, $fails failed"
[ "$fails" = 0 ]
