#!/bin/sh
# checks.sh BUILD [BUILD...]: the SMT checks run inside a guest (see
# README.md).  Each BUILD is a build folder of omp_ext (htplaces,
# tests/affinity_probe, tests/ht_probe); its OpenMP runtime (libgomp for a
# gcc build, libomp for a clang build) is checked with its own binaries.
# The oracle is the guest kernel itself: sysfs topology, the online list and
# this shell's allowed set (cgroup cpuset included), never htplaces.
# Prints "ok - ..." / "not ok - ..." / "# skip - ..." lines; exit 0 when
# every check passed.  Skipped blocks are counted: the last lines say how
# many and why ("omp_ext-skipped:", listed by tests/run.sh).
set -u
fails=0; passes=0; skips=0; skip_why=""
ok() { passes=$((passes + 1)); echo "ok - $*"; }
bad() { fails=$((fails + 1)); echo "not ok - $*"; }
skip() { skips=$((skips + 1)); skip_why="${skip_why:+$skip_why; }$*"; echo "# skip - $*"; }
check() { # check DESC WANT GOT
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: want '$2', got '$3'"; fi
}
topo=${SMTVM_TOPOLOGY:-unknown}
# Extra blocks (SMTVM_EXTRA, space list; the corpus block 3b always runs):
# htbench (a small sweep), mpi (2 ranks under mpirun), slurm (the Slurm
# plugin in a one-node Slurm); BLOCK runs it with
# every BUILD, BLOCK:I with the I-th BUILD only (1 = the first).
extra=" ${SMTVM_EXTRA:-} "
# wanted BLOCK I: 0 when BLOCK runs with the I-th build.
wanted() { case $extra in *" $1 "* | *" $1:$2 "*) return 0 ;; esac; return 1; }
# "# time: WHAT: N s" lines: where a guest's time goes.
t_last=$(date +%s)
stamp() { t_now=$(date +%s); echo "# time: $1: $((t_now - t_last)) s"; t_last=$t_now; }
# Idle OpenMP threads sleep instead of spinning: spinning vCPUs steal the
# few host cores of an emulated guest (placement is unchanged).
export OMP_WAIT_POLICY=passive KMP_BLOCKTIME=0
sys=/sys/devices/system/cpu
# list "0-2,5" -> "0 1 2 5"
expand() { echo "$1" | tr ',' '\n' | awk -F- 'NF { b = $1; e = (NF > 1) ? $2 : $1; for (i = b; i <= e; i++) printf "%d\n", i }' | tr '\n' ' ' | sed 's/ $//'; }
# Allowed: this shell's affinity (cgroup cpuset included) among the online
# CPUs (the guest has one more possible CPU than present, see run-in-guest).
online=" $(expand "$(cat $sys/online)") "
allowed=$(for c in $(expand "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)"); do
  case $online in *" $c "*) echo $c ;; esac; done | tr '\n' ' ' | sed 's/ $//')
allowed_list=$(echo $allowed | tr ' ' ',')
npu=$(echo $allowed | wc -w)
# The guest's own view: "cpu package core" of every allowed PU.
map=$(mktemp)
for c in $allowed; do
  echo "$c $(cat $sys/cpu$c/topology/physical_package_id) $(cat $sys/cpu$c/topology/core_id)"
done >"$map"
ncores=$(awk '{ print $2 ":" $3 }' "$map" | sort -u | wc -l)
npkg=$(awk '{ print $2 }' "$map" | sort -u | wc -l)
echo "# topology $topo: allowed $allowed_list ($npu PUs, $ncores cores, $npkg packages), online $(cat $sys/online), offline '$(cat $sys/offline)'"
for c in $allowed; do printf '# cpu%s siblings %s\n' $c "$(cat $sys/cpu$c/topology/thread_siblings_list)"; done

# Structural checks of an order (comma list) against sysfs.
# shape POLICY LIST -> "" when right, else the reason.
shape() {
  echo "$2" | tr ',' '\n' | awk -v pol="$1" -v npkg="$npkg" -v ncores="$ncores" '
    NR == FNR { pkg[$1] = $2; core[$1] = $2 ":" $3; next }
    { n++; pu[n] = $1 }
    END {
      for (i = 1; i <= n; i++) {
        if (!(pu[i] in core)) { print "PU " pu[i] " is not allowed"; exit }
        if (seen[pu[i]]++) { print "PU " pu[i] " twice"; exit }
      }
      if (pol == "os")
        for (i = 2; i <= n; i++) if (pu[i] + 0 < pu[i-1] + 0) { print "not ascending"; exit }
      if (pol == "spn")   # a core, once left, never comes back
        for (i = 2; i <= n; i++) {
          if (core[pu[i]] != core[pu[i-1]]) done[core[pu[i-1]]] = 1
          if (core[pu[i]] in done) { print "core " core[pu[i]] " split (PU " pu[i] ")"; exit }
        }
      if (pol == "speedup" || pol == "spread") {  # one PU per core first
        m = (n < ncores) ? n : ncores
        for (i = 1; i <= m; i++) if (used[core[pu[i]]]++) { print "sibling " pu[i] " before every core has one"; exit }
      }
      if (pol == "spread" && npkg > 1 && n >= 2 && pkg[pu[1]] == pkg[pu[2]])
        print "places 0 and 1 in the same package"
    }' "$map" -
}
policies="os speedup spn spread"
for b in "$@"; do
  [ -x "$b/bin/htplaces" ] && [ -x "$b/tests/affinity_probe" ] && [ -x "$b/tests/ht_probe" ] ||
    { echo "not ok - $b: no htplaces, tests/affinity_probe, tests/ht_probe"; exit 1; }
done
H0=$1/bin/htplaces

# 1. Orders agree with sysfs, for every policy and N; 2. every runtime,
# every policy, every N: OMP_PLACES=$(htplaces POLICY N) with
# OMP_PROC_BIND=close puts thread t exactly on place t.
xml=/tmp/smtvm-lstopo.xml
rm -f "$xml" # lstopo does not overwrite (the guest's /tmp is the host's, overlaid)
lstopo-no-graphics --of xml "$xml" 2>/dev/null || lstopo --of xml "$xml"
for b in "$@"; do
  H=$b/bin/htplaces; probe=$b/tests/affinity_probe; htp=$b/tests/ht_probe
  rt=libgomp; ldd "$probe" | grep -q 'libomp\.so' && rt=libomp
  : >/tmp/smtvm-seen
  for p in $policies; do
    full=$($H -f list $p)
    check "$rt: $p: all allowed PUs once" "$(echo $allowed | tr ' ' '\n' | sort -n | tr '\n' ' ')" \
      "$(echo "$full" | tr ',' '\n' | sort -n | tr '\n' ' ')"
    r=$(shape $p "$full"); [ -z "$r" ] && ok "$rt: $p: order $full agrees with sysfs" || bad "$rt: $p: order $full: $r"
    # An lstopo export made here describes the same machine.
    check "$rt: $p: htplaces -i lstopo-export gives the live order" "$full" \
      "$($H -i "$xml" -r "$allowed_list" -f list $p 2>&1)"
    # Per N: the places htplaces must print (prefix of the full order) and
    # the probe's expected lines "t PU" (joined by spaces).
    awk -v full="$full" -v npu="$npu" -v ns="${SMTVM_NS:-all}" -v nc="$ncores" 'BEGIN {
      k = split(full, pu, ",")
      for (n = 1; n <= npu; n++) {
        if (ns != "all" && n != 1 && n != 2 && n != nc && n != npu) continue
        pl = ""; w = ""
        for (i = 1; i <= n; i++) { pl = pl (i > 1 ? "," : "") "{" pu[i] "}"; w = w (i > 1 ? " " : "") (i - 1) " " pu[i] }
        print n "\t" pl "\t" w
      } }' >/tmp/smtvm-want
    order_bad=""; wrong=""; ns=""
    while IFS='	' read -r n wplaces want; do
      places=$($H $p $n)
      [ "$places" = "$wplaces" ] || order_bad="$order_bad N=$n:$places"
      out=$(OMP_PLACES=$places OMP_PROC_BIND=close OMP_NUM_THREADS=$n "$probe" 2>&1)
      echo "$out" >>/tmp/smtvm-seen
      [ "$(echo $out)" = "$want" ] || wrong="$wrong N=$n:[$(echo $out)]"
      ns="$ns $n"
    done </tmp/smtvm-want
    check "$rt: $p N=$ns: prefixes of the full order" "" "$order_bad"
    check "$rt: OMP_PLACES=\$(htplaces $p N) puts thread t on place t, N=$ns" "" "$wrong"
    # htplaces exec: same, through the command.
    out=$(env -u OMP_PLACES $H exec $p -- "$probe" 2>&1)
    echo "$out" >>/tmp/smtvm-seen
    want=$(echo "$full" | tr ',' '\n' | awk '{ print NR - 1, $1 }')
    check "$rt: htplaces exec $p puts thread t on place t" "$(echo $want)" "$(echo $out)"
    # omp_set_ht_policy: thread t of every region on PU t of the order
    # (os: every thread unbound, on the whole allowed set).
    out=$("$htp" $p 2>&1)
    echo "$out" >>/tmp/smtvm-seen
    want=$(for r in 0 1 2; do echo "$full" | tr ',' '\n' | awk -v r=$r -v p=$p -v a="$allowed_list" '{ print r, NR - 1, (p == "os") ? a : $1 }'; done)
    check "$rt: omp_set_ht_policy($p) binds thread t of each region to PU t" "$(echo $want)" "$(echo $out)"
  done
  # Team size: 2 threads on the first 2 PUs of spn.
  out=$("$htp" spn 2 2>&1)
  want=$(for r in 0 1 2; do $H -f list spn 2 | tr ',' '\n' | awk -v r=$r '{ print r, NR - 1, $1 }'; done)
  check "$rt: omp_set_ht_policy_num_threads(spn, 2)" "$(echo $want)" "$(echo $out)"
  # Nothing outside the allowed set, whatever the policy or runtime: every
  # affinity any probe reported above.
  outside=""
  for c in $(awk '{ print $NF }' /tmp/smtvm-seen | tr ',\n' '  '); do
    case " $allowed " in *" $c "*) ;; *) outside="$outside $c" ;; esac
  done
  check "$rt: no thread bound outside the allowed set $allowed_list ($(wc -l </tmp/smtvm-seen) threads seen)" "" "$outside"
done

# 3. The abstract names (OMP_PLACES=threads, cores, ...): what each real
# runtime builds here (tests/places_oracle) against htplaces check
# --runtime's prediction (omp_ext_places_predict), on a real SMT kernel.
for b in "$@"; do
  H=$b/bin/htplaces; o=$b/tests/places_oracle
  [ -x "$o" ] || continue
  rt=libgomp; ldd "$o" | grep -q 'libomp\.so' && rt=libomp
  for name in threads cores sockets numa_domains ll_caches 'threads(3)' 'cores(2)'; do
    real=$(OMP_PLACES=$name "$o" 2>/dev/null | sed 's/^[0-9]*://')
    pred=$($H check --runtime $rt -f json "$name" | sed -n 's/.*"places": "\([^"]*\)".*/\1/p')
    check "$rt: OMP_PLACES=$name: check --runtime $rt predicts what the runtime builds" "$real" "$pred"
  done
done

stamp "policies, probes, abstract names"

# 3b. The whole place-list corpus (tests/places-corpus.txt) through each real
# runtime and check --runtime's prediction for this machine and allowed set
# (tests/test_oracle of each build): any difference fails.
for b in "$@"; do
  o=$b/tests/test_oracle
  [ -x "$o" ] || { bad "$b: no tests/test_oracle"; continue; }
  out=$(OMP_EXT_ORACLE_JOBS=${OMP_EXT_ORACLE_JOBS:-3} "$o" 2>&1)
  st=$?
  # "oracle: libomp: 250/250 agree"
  sum=$(echo "$out" | sed -n 's/^oracle: \([a-z]*: [0-9]*\/[0-9]*\) agree$/\1/p')
  # The differences, one line each ("libomp omp='...': runtime ..., predicted ...").
  echo "$out" | grep -E "^(libgomp|libomp) (omp|gomp|kmp)=" | sed 's/^/# /'
  if [ $st = 0 ] && [ -n "$sum" ]; then
    ok "the place-list corpus through the real runtime and check --runtime: $sum agree"
  else
    bad "$b: the place-list corpus: ${sum:-no summary} agree (test_oracle exit $st)"
  fi
done
stamp "place-list corpus"

# 3c. htbench (SMTVM_EXTRA has htbench): one kernel (fadd, tiny), every
# policy, N = 1..PUs.  htbench checks each thread's binding
# inside the region and verifies the kernel's result; every row must say
# ok, verified and bound, with OMP_PLACES = $(htplaces POLICY N) and thread t
# on place t, inside the allowed set.
# csv FILE: the rows as "policy threads status verified binding_ok bindings
# places" (bindings "0:4;1:5", places "{4},{5}"; quoted fields may hold commas).
csv_rows() {
  awk '
    function split_csv(line,   i, c, q, f, n) {
      n = 0; f = ""; q = 0
      for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (c == "\"") { q = !q; continue }
        if (c == "," && !q) { fld[++n] = f; f = ""; continue }
        f = f c
      }
      fld[++n] = f
      return n
    }
    NR == 1 { n = split_csv($0); for (i = 1; i <= n; i++) col[fld[i]] = i; next }
    { split_csv($0)
      print fld[col["policy"]], fld[col["threads"]], fld[col["status"]], fld[col["verified"]],
            fld[col["binding_ok"]], fld[col["bindings"]], fld[col["places"]] }' "$1"
}
case $extra in *" htbench"*)
  hpol="os speedup spn spread energy"
  i=0
  for b in "$@"; do
    i=$((i + 1)); wanted htbench $i || continue
    hb=$b/benchmarks/htbench; H=$b/bin/htplaces
    [ -x "$hb" ] || { bad "$b: no benchmarks/htbench"; continue; }
    rt=libgomp; ldd "$hb" | grep -q 'libomp\.so' && rt=libomp
    d=$(mktemp -d)
    if ! "$hb" --quick -k fadd -p "$(echo $hpol | tr ' ' ',')" -t "1-$npu" -r 10 --target-ms 0.1 \
         --flops-iters 1000 --budget 0 --no-plot -o "$d" >"$d/log" 2>&1; then
      sed 's/^/# htbench: /' "$d/log" | tail -n 5
      bad "$rt: htbench sweep failed"; rm -rf "$d"; continue
    fi
    # What every row must say: "policy N ok 1 1 BINDINGS PLACES".
    for p in $hpol; do
      for n in $(seq 1 $npu); do
        pl=$($H $p $n)
        echo "$p $n ok 1 1 $(echo "$pl" | tr -d '{}' | tr ',' '\n' | awk '{ printf "%s%d:%s", (NR > 1 ? ";" : ""), NR - 1, $1 }') $pl"
      done
    done | sort >"$d/want"
    csv_rows "$d/results.csv" | sort >"$d/got"
    check "$rt: htbench fadd, every policy, N = 1..$npu: $(wc -l <"$d/want") rows ok, verified, bound as htplaces POLICY N" \
      "" "$(diff "$d/want" "$d/got" | sed -n 's/^[<>] //p' | head -n 4 | tr '\n' '|')"
    outside=""
    for c in $(cut -d' ' -f6 "$d/got" | tr ';' '\n' | cut -d: -f2); do
      case " $allowed " in *" $c "*) ;; *) outside="$outside $c" ;; esac
    done
    check "$rt: htbench: no thread bound outside the allowed set $allowed_list" "" "$outside"
    rm -rf "$d"
  done
  stamp "htbench sweep"
  ;;
esac

# 3d. MPI (SMTVM_EXTRA has mpi): mpirun --bind-to none -np 2 htplaces exec
# spn -- tests/mpi_probe.  The oracle is sysfs: the two ranks'
# domains are disjoint, cover the allowed set, are whole cores (every
# allowed sibling of a PU in the same domain) balanced to one core, and in
# spn order; thread t of rank r runs on PU t of rank r's domain.
case $extra in *" mpi"*)
  mpirun=$(command -v mpirun)
  i=0
  for b in "$@"; do
    i=$((i + 1)); wanted mpi $i || continue
    mp=$b/tests/mpi_probe; H=$b/bin/htplaces
    if [ -z "$mpirun" ] || [ ! -x "$mp" ]; then
      skip "mpi: no mpirun or no $mp (Open MPI not found when $b was configured)"
      continue
    fi
    rt=libgomp; ldd "$mp" | grep -q 'libomp\.so' && rt=libomp
    d0=$(env -u OMPI_COMM_WORLD_LOCAL_RANK $H --ranks-per-node 2 --local-rank 0 -f list spn)
    d1=$(env -u OMPI_COMM_WORLD_LOCAL_RANK $H --ranks-per-node 2 --local-rank 1 -f list spn)
    both=$(echo "$d0,$d1" | tr ',' '\n' | sort -n | tr '\n' ' ')
    check "$rt: mpi: the 2 ranks' domains ($d0 | $d1) are disjoint and cover the allowed set" \
      "$(echo $allowed | tr ' ' '\n' | sort -n | tr '\n' ' ')" "$both"
    split=""
    for r in 0 1; do
      eval "dom=\$d$r"
      for c in $(echo "$dom" | tr ',' ' '); do
        for s in $(expand "$(cat $sys/cpu$c/topology/thread_siblings_list)"); do
          case " $allowed " in *" $s "*) ;; *) continue ;; esac
          case ",$dom," in *",$s,"*) ;; *) split="$split rank$r:PU$c/sibling$s" ;; esac
        done
      done
      r_shape=$(shape spn "$dom"); [ -n "$r_shape" ] && split="$split rank$r:$r_shape"
    done
    check "$rt: mpi: each domain is whole cores (all allowed siblings), in spn order" "" "$split"
    c0=$(for c in $(echo "$d0" | tr ',' ' '); do grep "^$c " "$map" | cut -d' ' -f2-; done | sort -u | wc -l)
    c1=$(for c in $(echo "$d1" | tr ',' ' '); do grep "^$c " "$map" | cut -d' ' -f2-; done | sort -u | wc -l)
    check "$rt: mpi: cores per domain ($c0, $c1) balanced to one core, $ncores in all" \
      "1 $ncores" "$(( (c0 - c1) * (c0 - c1) <= 1 )) $((c0 + c1))"
    want=$(for r in 0 1; do eval "echo \$d$r" | tr ',' '\n' | awk -v r=$r '{ print r, r, NR - 1, $1 }'; done)
    got=$(env -u OMP_PLACES -u OMP_PROC_BIND -u OMP_NUM_THREADS "$mpirun" --allow-run-as-root \
      --oversubscribe --bind-to none -np 2 "$H" exec spn -- "$mp" 2>/tmp/smtvm-mpi.err)
    st=$?
    [ $st = 0 ] || sed 's/^/# mpirun: /' /tmp/smtvm-mpi.err | tail -n 5
    check "$rt: mpirun -np 2 htplaces exec spn: thread t of rank r on PU t of its domain" \
      "$(echo $want)" "$(echo $got)"
  done
  stamp "mpi"
  ;;
esac

# 3d'. Slurm (SMTVM_EXTRA has slurm): omp_ext's SPANK plugin in a one-node
# Slurm started inside the guest (tests/test_slurm.sh --smt; slurm-wlm and
# munge from the host's root): spn's first two places are siblings by sysfs,
# speedup's on two cores, --ht-smt=1 one PU per core; every task's places
# and threads as htplaces -r STEP --ranks-per-node K --local-rank L says.
# The guest first gets what Slurm's daemons need and it lacks: an IPv4
# address besides 127.0.0.1 (their getaddrinfo(AI_ADDRCONFIG) fails with
# only that), its host name in /etc/hosts, and cgroup v2's system.slice
# (slurmd 22.05 puts its stepd scope there when systemd is not running).
case $extra in *" slurm"*)
  i=0
  for b in "$@"; do
    i=$((i + 1)); wanted slurm $i || continue
    if [ ! -f "$b/omp_ext/slurm/omp_ext_spank.so" ]; then
      skip "slurm: no plugin in $b (slurm/spank.h not found when it was configured)"
      continue
    fi
    ip addr add 127.0.0.2/32 dev lo 2>/dev/null
    grep -qw "$(hostname)" /etc/hosts || echo "127.0.0.1 $(hostname)" >>/etc/hosts
    mkdir -p /sys/fs/cgroup/system.slice 2>/dev/null
    out=$(sh "$(dirname "$0")/../test_slurm.sh" "$(cd "$(dirname "$0")/../.." && pwd)" "$b" --smt 2>&1)
    st=$?
    echo "$out" | grep -v '^ok - ' | sed 's/^/# slurm: /'
    if [ $st = 77 ]; then
      skip "slurm: $(echo "$out" | tail -n 1)"
    else
      check "slurm: srun --ht-policy in the guest ($(echo "$out" | grep -c '^ok - ') checks of tests/test_slurm.sh --smt)" \
        "0" "$st"
    fi
  done
  stamp "slurm"
  ;;
esac

# 3e. htplaces verify (the runtime's own OMP_DISPLAY_AFFINITY report) agrees
# for spn and speedup on all allowed PUs; nested teams in code (nested_probe:
# spn, 2 threads each leading 2): level-1 threads and each nested team's
# thread 0 on the outer thread's PU; the other nested threads on the outer
# PU under libgomp, on the process's whole mask under libomp (README,
# omp_set_ht_policy(3)); never outside the allowed set.
for b in "$@"; do
  H=$b/bin/htplaces; probe=$b/tests/affinity_probe; np=$b/tests/nested_probe
  rt=libgomp; ldd "$probe" | grep -q 'libomp\.so' && rt=libomp
  for p in spn speedup; do
    out=$($H verify $p "$npu" -- "$probe" 2>&1); st=$?
    last=$(echo "$out" | tail -n 1)
    [ $st = 0 ] || echo "$out" | sed 's/^/# verify: /'
    check "$rt: htplaces verify $p $npu: exit 0, '$last'" "0 verify: every thread is where intended" \
      "$st $last"
  done
  [ -x "$np" ] || { skip "nested teams: $b has no tests/nested_probe"; continue; }
  out=$("$np" spn 2>&1); st=$?
  check "$rt: nested_probe spn exits 0" 0 "$st"
  pus=$($H -f list spn 2)
  bad_lines=$(echo "$out" | awk -v rt=$rt -v pus="$pus" -v allowed="$allowed_list" '
    NR == 1 { mask = $2; next }
    { split(pus, pu, ","); want = ($2 == 1 || $4 == 0 || rt == "libgomp") ? pu[$3 + 1] : mask
      n++; if ($5 != want) printf "[%s want %s] ", $0, want
      k = split($5, c, ","); for (i = 1; i <= k; i++) if (index("," allowed ",", "," c[i] ",") == 0)
        printf "[%s outside %s] ", $0, allowed }
    END { if (n != 12) printf "[%d lines, want 12]", n }')
  check "$rt: nested teams in code: outer PUs, $rt's rule for the other nested threads" "" \
    "$bad_lines"
done
stamp "verify, nested"

# 3f. Per-region control (issue 23), per runtime, on tests/region_probe (two
# regions A and B, no omp_ext in the program: libomp_ext preloaded).
# htplaces exec --plan --team-sizes (team sizes per region: the user's
# opt-in, issue 30) with a plan of this machine giving A "spn 2" (two
# siblings of the first core) and B "speedup CORES" (one PU on every core),
# default spread: every thread of each region's last instance on place t of
# ITS configuration with its team size, by the threads' own affinity and by
# the timing layer's binding records (OMP_EXT_TIMING); then
# OMP_EXT_HT_POLICY=auto, 1000 instances each (8 PUs: 8 candidates, tiny
# regions explore in blocks of 16: about 440 instances): every thread of
# each region on the places of the configuration auto settled on for it
# (the timing file's "control"); a region exploring again at exit (emulated
# timings drift out of its band) has all its threads on the places of one
# of the candidates its record lists; then exec auto --learn DIR twice: the
# second run restores each region's state and runs it there.
# (tests/smtvm/regions.py)
rpy=$(dirname "$0")/regions.py
for b in "$@"; do
  H=$b/bin/htplaces; rp=$b/tests/region_probe; lib=$b/omp_ext/libomp_ext.so
  if [ ! -x "$rp" ] || [ ! -f "$lib" ] || ! command -v python3 >/dev/null; then
    skip "per-region control: no $rp, $lib or python3"
    continue
  fi
  rt=libgomp; ldd "$rp" | grep -q 'libomp\.so' && rt=libomp
  d=$(mktemp -d)
  r=$(env -u OMP_NUM_THREADS OMP_EXT_TIMING=$d/t0.json LD_PRELOAD=$lib "$rp" 3 2>&1 >/dev/null &&
      python3 "$rpy" plan "$d" "$H" "$ncores" 2>&1)
  if [ $? != 0 ]; then
    bad "$rt: per-region plan: $(echo $r)"
  else
    OMP_EXT_TIMING=$d/t1.json $H exec --plan "$d" --team-sizes -- "$rp" 50 >"$d/r1" 2>"$d/e1" ||
      sed 's/^/# exec --plan: /' "$d/e1"
    r=$(python3 "$rpy" check "$d/r1" "$d/want.json" "$d/t1.json" 2>&1)
    st=$?
    echo "# $rt: exec --plan: $(echo "$r" | tail -n 1)"
    check "$rt: exec --plan, A on spn 2 and B on speedup $ncores: each region's threads on its own places (threads and timing bindings)" \
      "0" "$st$(echo "$r" | sed '$d' | head -n 4 | tr '\n' '|')"
    grep -q '"source": "plan"' "$d/t1.json" && ok "$rt: the timing file records the plan's control" ||
      bad "$rt: the timing file lacks the plan's control record"
  fi
  env -u OMP_NUM_THREADS OMP_EXT_TIMING=$d/t4.json OMP_EXT_HT_POLICY=auto LD_PRELOAD=$lib \
    "$rp" 1000 >"$d/r4" 2>"$d/e4" || sed 's/^/# auto: /' "$d/e4"
  r=$(python3 "$rpy" auto "$d" "$H" "$npu" "$allowed_list" 2>&1 &&
      python3 "$rpy" check "$d/r4" "$d/want4.json" 2>&1)
  st=$?
  echo "# $rt: auto: $(echo "$r" | tail -n 1)"
  check "$rt: OMP_EXT_HT_POLICY=auto: each region's threads on the places of the configuration it recorded" \
    "0" "$st$(echo "$r" | sed '$d' | head -n 4 | tr '\n' '|')"
  # A learnt state reused (issue 30): two runs of exec auto --learn DIR; the
  # second starts every region from the first's state ("learnt":
  # "restored") and its threads run on the places of the configuration
  # recorded for it.
  for run in 1 2; do
    env -u OMP_NUM_THREADS OMP_EXT_TIMING=$d/t5.json $H exec auto --learn "$d/learn" -- \
      "$rp" 1000 >"$d/r5" 2>"$d/e5" || sed 's/^/# auto --learn: /' "$d/e5"
  done
  r=$(python3 "$rpy" learn "$d" "$H" "$npu" "$allowed_list" 2>&1 &&
      python3 "$rpy" check "$d/r5" "$d/want5.json" 2>&1)
  st=$?
  echo "# $rt: auto --learn, second run: $(echo "$r" | tail -n 1)"
  check "$rt: exec auto --learn: the second run restores every region's learnt state, its threads on that configuration's places" \
    "0" "$st$(echo "$r" | sed '$d' | head -n 4 | tr '\n' '|')"
  rm -rf "$d"
done
stamp "per-region control"

# 4. doctor reports SMT, the offline CPU, the cpuset.
doc=$($H0 doctor --no-saturation 2>&1)
echo "$doc" | sed 's/^/# doctor: /'
if echo "$doc" | grep -q '^SMT:.*active=1'; then ok "doctor reports SMT active"; else bad "doctor does not report SMT active"; fi
# Offline: present but not online (the extra possible CPU is not present).
off=$(for c in $(expand "$(cat $sys/present)"); do case $online in *" $c "*) ;; *) echo $c ;; esac; done | tr '\n' ',' | sed 's/,$//')
if [ -n "$off" ]; then
  if echo "$doc" | grep -q "offline.*$off"; then ok "doctor reports offline CPU $off"; else bad "doctor does not report offline CPU $off"; fi
fi
cg=$(sed -n 's/^0::\(.*\)/\1/p' /proc/self/cgroup)
if [ -n "$cg" ] && [ "$cg" != / ] && [ -f "/sys/fs/cgroup$cg/cpuset.cpus.effective" ]; then
  eff=$(cat "/sys/fs/cgroup$cg/cpuset.cpus.effective")
  if echo "$doc" | grep -q "cgroup cpuset $eff"; then ok "doctor reports the cgroup cpuset $eff"; else bad "doctor does not report the cgroup cpuset $eff"; fi
fi

rm -f "$map"
[ $skips = 0 ] ||
  echo "omp_ext-skipped: smtvm_$topo: $skips of $((passes + fails + skips)) skipped: $skip_why"
echo "# $topo: $passes passed, $fails failed, $skips skipped"
[ $fails = 0 ]
