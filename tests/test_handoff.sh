#!/bin/sh
# The topology hand-off of htplaces exec (issue 30: OMP_EXT_TOPO_XML and
# OMP_EXT_TOPO_STAMP), under this build's runtime, on region_probe with
# libomp_ext preloaded and OMP_EXT_HT_POLICY=spn, 2 threads:
#  1. a hand-off stamped for the program's own process is used: a topology
#     of this machine's first allowed PU alone puts every thread there
#     (what makes the refusals below observable), and this machine's whole
#     topology places threads as discovery does;
#  2. a stamp of another build, host, boot, cgroup or affinity, of edited
#     XML, a stamp that is no stamp, or XML that is no topology: the
#     placement of a run without hand-off, nothing on stderr, exit 0;
#  3. hwloc's environment naming a topology source wins over the hand-off;
#  4. htplaces exec auto hands it over (both variables), exec auto --
#     taskset -c P PROG keeps every thread on P; exec POLICY and exec auto
#     drop an outer exec's variables rather than pass them on.
# Needs 2 allowed PUs (skip otherwise).
# Usage: sh test_handoff.sh REGION_PROBE HTPLACES LIBOMP_EXT_SO HANDOFF_EXEC
set -eu
probe=$1 htp=$2 lib=$3 hx=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY OMP_EXT_PLAN OMP_EXT_TIMING \
  KMP_AFFINITY GOMP_CPU_AFFINITY OMP_EXT_TOPO_XML OMP_EXT_TOPO_STAMP HWLOC_XMLFILE \
  HWLOC_SYNTHETIC HWLOC_FSROOT HWLOC_THISSYSTEM 2>/dev/null || true
fail() { echo "FAIL: $*"; exit 1; }
pus=$("$htp" spn 2>/dev/null | tr -d '{}' | tr ',' ' ')
set -- $pus
[ $# -ge 2 ] || { echo "omp_ext-skipped: needs 2 allowed PUs (has: $pus)"; exit 77; }
p0=$1 p1=$2
# Each thread's PUs in the last instance of each region, sorted.
where() { sort | tr '\n' ';'; }
run() { # [WRAPPER...] -> placement lines; stderr into $tmp/err
  env OMP_NUM_THREADS=2 OMP_EXT_HT_POLICY=spn LD_PRELOAD="$lib" "$@" "$probe" 2 2>"$tmp/err" | where
}
base=$(run)
case $base in *" $p0;"*" $p1;"*|*" $p1;"*" $p0;"*) ;; *) fail "no hand-off: threads on '$base', not on $p0 and $p1" ;; esac
[ ! -s "$tmp/err" ] || fail "no hand-off: stderr $(cat "$tmp/err")"
only0=$(printf 'A 0 2 %s\nA 1 2 %s\nB 0 2 %s\nB 1 2 %s\n' "$p0" "$p0" "$p0" "$p0" | where)

# 1. used when stamped for this process
got=$("$hx" one none env OMP_NUM_THREADS=2 OMP_EXT_HT_POLICY=spn LD_PRELOAD="$lib" "$probe" 2 | where)
[ "$got" = "$only0" ] || fail "a hand-off of PU $p0 alone, stamped for this process, not used: '$got'"
got=$("$hx" real none env OMP_NUM_THREADS=2 OMP_EXT_HT_POLICY=spn LD_PRELOAD="$lib" "$probe" 2 2>"$tmp/err" | where)
[ "$got" = "$base" ] && [ ! -s "$tmp/err" ] || fail "this machine handed over: '$got', discovery: '$base'"

# 2. any other stamp, or no topology: as without hand-off, silently
for b in build node boot cgroup affinity xml text; do
  got=$("$hx" one $b env OMP_NUM_THREADS=2 OMP_EXT_HT_POLICY=spn LD_PRELOAD="$lib" "$probe" 2 2>"$tmp/err" | where) ||
    fail "stamp with another $b: the program failed"
  [ "$got" = "$base" ] || fail "stamp with another $b: the hand-off was used ('$got', discovery '$base')"
  [ ! -s "$tmp/err" ] || fail "stamp with another $b: stderr $(cat "$tmp/err")"
done
got=$("$hx" garbage none env OMP_NUM_THREADS=2 OMP_EXT_HT_POLICY=spn LD_PRELOAD="$lib" "$probe" 2 2>"$tmp/err" | where) ||
  fail "garbage XML: the program failed"
[ "$got" = "$base" ] && [ ! -s "$tmp/err" ] || fail "garbage XML: '$got' (discovery '$base'), stderr $(cat "$tmp/err")"
got=$(OMP_EXT_TOPO_XML='<topology' OMP_EXT_TOPO_STAMP=1-0123456789abcdef run)
[ "$got" = "$base" ] && [ ! -s "$tmp/err" ] || fail "hand-made variables: '$got' (discovery '$base')"
# (the stamp checked against the affinity at load: taskset after stamping)
got=$("$hx" one none taskset -c "$p1" env OMP_NUM_THREADS=2 OMP_EXT_HT_POLICY=spn LD_PRELOAD="$lib" "$probe" 2 2>"$tmp/err" | where)
want=$(printf 'A 0 2 %s\nA 1 2 %s\nB 0 2 %s\nB 1 2 %s\n' "$p1" "$p1" "$p1" "$p1" | where)
[ "$got" = "$want" ] || fail "taskset -c $p1 after the stamp: '$got', not every thread on $p1"

# The same, really elsewhere (root: a UTS namespace of another host name, a
# mount namespace with another boot_id, a child cpuset cgroup of the same
# PUs); the hand-off stamped before the move, the program run after it.
elsewhere() { # NAME: run by $tmp/NAME.sh, which moves, then runs its arguments
  what=$1
  got=$("$hx" one none sh "$tmp/$what.sh" env OMP_NUM_THREADS=2 OMP_EXT_HT_POLICY=spn \
        LD_PRELOAD="$lib" "$probe" 2 2>"$tmp/err" | where)
  if [ -z "$got" ]; then echo "omp_ext-skipped: another $what: $(head -c 200 "$tmp/err")"; return 0; fi
  [ "$got" = "$base" ] || fail "another $what after the stamp: the hand-off was used ('$got', discovery '$base')"
  [ ! -s "$tmp/err" ] || fail "another $what: stderr $(cat "$tmp/err")"
}
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
  echo other-boot >"$tmp/boot"
  cat >"$tmp/host.sh" <<'SH'
exec unshare -u sh -c 'hostname omp-ext-handoff-other && exec "$@"' sh "$@"
SH
  cat >"$tmp/boot.sh" <<SH
exec unshare -m sh -c 'mount --bind $tmp/boot /proc/sys/kernel/random/boot_id && exec "\$@"' sh "\$@"
SH
  elsewhere host
  elsewhere boot
else
  echo "omp_ext-skipped: another host and boot: needs root and unshare"
fi
cg=/sys/fs/cgroup/cpuset
if [ "$(id -u)" = 0 ] && [ -w "$cg/tasks" ] && mkdir "$cg/omp_ext_handoff_$$" 2>/dev/null; then
  trap 'rmdir "$cg/omp_ext_handoff_$$" 2>/dev/null; rm -rf "$tmp"' EXIT
  cat "$cg/cpuset.cpus" >"$cg/omp_ext_handoff_$$/cpuset.cpus"
  cat "$cg/cpuset.mems" >"$cg/omp_ext_handoff_$$/cpuset.mems"
  printf 'echo $$ >%s/tasks && exec "$@"\n' "$cg/omp_ext_handoff_$$" >"$tmp/cgroup.sh"
  elsewhere cgroup
else
  echo "omp_ext-skipped: another cgroup: needs root and a cgroup v1 cpuset hierarchy"
fi

# 3. hwloc's environment wins (the program is then not bound: not this machine)
got=$("$hx" one none env HWLOC_SYNTHETIC="pack:1 core:2 pu:1" OMP_NUM_THREADS=2 OMP_EXT_HT_POLICY=spn LD_PRELOAD="$lib" "$probe" 2 2>"$tmp/err" | where)
[ "$got" != "$only0" ] || fail "HWLOC_SYNTHETIC set: the hand-off was used"
grep -q "threads are not bound" "$tmp/err" || fail "HWLOC_SYNTHETIC set: no 'not bound' line: $(cat "$tmp/err")"

# 4. htplaces exec
vars=$("$htp" exec auto -- env | grep -c '^OMP_EXT_TOPO_\(XML=<?xml\|STAMP=1-[0-9a-f]\{16\}$\)') || true
[ "$vars" = 2 ] || fail "exec auto handed over $vars of the 2 variables"
got=$("$htp" exec auto -- taskset -c "$p1" "$probe" 2 2>"$tmp/err" | awk '{print $4}' | sort -u | tr '\n' ' ')
[ "$got" = "$p1 " ] || fail "exec auto -- taskset -c $p1: threads on '$got'"
n=$(OMP_EXT_TOPO_XML=x OMP_EXT_TOPO_STAMP=y "$htp" exec spn 1 -- env | grep -c '^OMP_EXT_TOPO_') || true
[ "$n" = 0 ] || fail "exec spn passed an outer exec's hand-off on"
"$htp" exec auto -- env | grep '^OMP_EXT_TOPO_STAMP=' >"$tmp/s1"
OMP_EXT_TOPO_XML=x OMP_EXT_TOPO_STAMP=y "$htp" exec auto -- env | grep '^OMP_EXT_TOPO_STAMP=' >"$tmp/s2"
cmp -s "$tmp/s1" "$tmp/s2" || fail "exec auto under an outer hand-off: another stamp ($(cat "$tmp/s2"))"
echo "test_handoff: ok (PUs $p0 $p1)"
