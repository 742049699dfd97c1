#!/bin/sh
# htplaces tune --launcher 'srun ... -n {R}' and verify under srun, on a real
# one-node Slurm cluster (tests/slurm/cluster.sh: munged, slurmctld, slurmd
# under a temporary folder, stopped whatever happens):
#  1. tune runs every ranks x threads split that fits this machine's allowed
#     PUs (computed from htplaces --ranks-per-node R --local-rank r) through
#     srun, each rank placed by htplaces exec in its domain (srun gets
#     --cpu-bind=none and --cpus-per-task=PUs/R from tune), lists the others,
#     recommends one, and that command runs as printed;
#  2. verify under srun: every rank's report names the rank; a rank whose
#     threads move (hybrid_prog --misplace-rank 1) fails, named.
# Debian's Open MPI starts under srun through Slurm's PMIx plugin
# (srun --mpi=pmix); without it the test is skipped.  Skipped (exit 77,
# with the reason) when not root or Slurm is absent.
# Usage: sh test_tune_srun.sh HTPLACES HYBRID_PROG SOURCE_DIR SANITIZED
# (SANITIZED 1: the sanitizer build, whose libomp_ext cannot be preloaded
# into srun: tune runs with --no-regions, the per-region check skipped.)
set -u
htp=$1 prog=$2 src=$3 sanitized=${4:-0}
. "$src/tests/slurm/cluster.sh"
. "$src/tests/hybrid_fits.sh"
dir=$(mktemp -d /tmp/omp_ext_slurm.XXXXXX)
chmod 755 "$dir"
trap 'slurm_cluster_stop "$dir"; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY OMP_EXT_PLAN OMP_EXT_TIMING \
  KMP_AFFINITY GOMP_CPU_AFFINITY OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_LOCAL_SIZE \
  SLURM_LOCALID SLURM_STEP_ID SLURM_STEP_TASKS_PER_NODE SLURM_HINT SLURM_CPU_BIND \
  SLURM_JOB_ID OMP_EXT_SPANK 2>/dev/null || true
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
slurm_cluster_start "$dir" || exit $?
if ! srun --mpi=list 2>&1 | grep -q pmix; then
  echo "skipped: Slurm has no PMIx plugin (srun --mpi=pmix), which Debian's Open MPI needs under srun"
  exit 77
fi
pass=0 fails=0 skips=0 why=
noregions=
[ "$sanitized" = 1 ] && noregions=--no-regions
ok() { pass=$((pass + 1)); }
skip() { skips=$((skips + $1)) why="${why:+$why; }$2"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { if eval "$2"; then ok; else fail "$1"; fi; }

# ---- 1. tune through srun
hybrid_fits "$htp" 1
nfits=$(echo $fits | wc -w)
timeout 500 "$htp" tune --reps 3 --seed 3 --timeout 60 --launcher 'srun --mpi=pmix -n {R}' \
  --ranks 1,2 --threads 1,2 --policies spn,none $noregions -- "$prog" --work 4000000 \
  >"$dir/tune.out" 2>"$dir/tune.err"
st=$?
check "tune exit $st: $(tail -n 5 "$dir/tune.err")" '[ $st = 0 ]'
for s in $fits; do
  for pol in spn none; do
    check "no row '$pol $s' with 3 ok runs: $(cat "$dir/tune.out")" \
      'grep -E -q "^$pol $s +[0-9]+ +3 .* ok$" "$dir/tune.out"'
  done
done
for s in $nofit; do
  r=${s%x*}
  check "split $s not listed as not run" \
    'grep -q -E "^htplaces tune: not run: ($s|$r ranks): " "$dir/tune.err"'
done
check "not $((2 * nfits * 3)) runs" 'grep -q "\[$((2 * nfits * 3))/$((2 * nfits * 3))\]" "$dir/tune.err"'
if [ "$sanitized" = 1 ]; then
  skip 1 "per-region times of the ranks: the sanitizer build's libomp_ext cannot be preloaded into srun"
else
  check "no per-region time from the ranks" \
    'grep -E -q "^  hybrid_prog.c:[0-9]+ .* (spn|none) [12]x[12] " "$dir/tune.out"'
fi
pick=$(sed -n 's/^  time: \(spn\|none\) \([12]\)x\([12]\) (median .*/\1 \2 \3/p' "$dir/tune.out")
cmd=$(sed -n '/^Recommendation:/{n;n;p}' "$dir/tune.out" | sed 's/^  //')
pr=$(echo "$pick" | cut -d' ' -f2) pt=$(echo "$pick" | cut -d' ' -f3)
check "no srun command recommended: $(sed -n '/^Recommendation:/,+2p' "$dir/tune.out")" \
  'case "$cmd" in *"srun --cpu-bind=none --cpus-per-task=$((pus / ${pr:-1})) --mpi=pmix -n $pr "*) true;; *) false;; esac'
timeout 120 sh -c "$cmd" >"$dir/cmd.out" 2>"$dir/cmd.err"
st=$?
check "the recommended command ($cmd) did not run as printed: exit $st, $(cat "$dir/cmd.out" "$dir/cmd.err")" \
  '[ $st = 0 ] && grep -q "^hybrid_prog: ranks $pr threads $pt sum [0-9]* ok$" "$dir/cmd.out"'

# ---- 2. verify under srun
if [ "$cores" -ge 2 ] && [ $((pus % 2)) = 0 ]; then
  c=$((pus / 2))
  timeout 120 srun --mpi=pmix --cpu-bind=none -c "$c" -n 2 "$htp" verify spn -- "$prog" \
    --work 100000 >"$dir/v.out" 2>"$dir/v.err"
  st=$?
  for r in 0 1; do
    check "verify under srun: rank $r not ok: $(cat "$dir/v.out" "$dir/v.err")" \
      '[ $st = 0 ] && grep -q "^rank $r (local $r of 2 on [^)]*): verify: every thread is where intended$" "$dir/v.out"'
  done
  timeout 120 srun --mpi=pmix --cpu-bind=none -c "$c" -n 2 "$htp" verify spn -- "$prog" \
    --work 100000 --misplace-rank 1 >"$dir/v.out" 2>"$dir/v.err"
  st=$?
  check "verify under srun --misplace-rank 1: exit $st, $(cat "$dir/v.out")" \
    '[ $st != 0 ] && grep -q "^rank 1 (local 1 of 2 on [^)]*): verify: MISMATCH$" "$dir/v.out" &&
     ! grep -q "^rank 0 .*MISMATCH" "$dir/v.out"'
else
  skip 3 "verify of 2 ranks under srun: this machine allows 1 core"
fi
[ "$skips" = 0 ] || echo "omp_ext-skipped: test_tune_srun: $skips of $((pass + fails + skips)) skipped: $why"
echo "test_tune_srun: $pass passed, $fails failed"
[ "$fails" = 0 ]
