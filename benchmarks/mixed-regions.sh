#!/bin/sh
# mixed-regions.sh BUILD [ROUNDS] [ITER SYNC N]: issue 23's comparison on
# benchmarks/mixed_regions (tiny sync regions and large work regions, one
# unmodified program), ROUNDS alternating rounds (default 7) in one run, the
# order of the variants rotated by one each round:
#
#   spnK    htplaces exec spn K          (every K from 1 to the allowed PUs:
#                                         the global settings; "best global"
#                                         is the one with the least median)
#   hand    MIXED_HAND=1 htplaces exec spn P: the hand-chosen per-region
#           optimum (num_threads(1) on the sync regions, all P on the work)
#   auto    OMP_EXT_HT_POLICY=auto, libomp_ext preloaded: OpenMP's
#           team-size contract kept (dyn-var false), places per region only
#   autodyn the same with OMP_DYNAMIC=true (dyn-var true: a region may get
#           fewer threads than nthreads-var, issue 30's opt-in; libgomp then
#           also cuts every team by the load average, its own dynamic rule)
#   autothr OMP_EXT_HT_POLICY=auto:threads (the user's explicit opt-in: no
#           runtime's dynamic rule)
#   plan    htplaces exec --plan DIR, DIR/results.json made first from
#           three timed runs (OMP_EXT_TIMING) per global setting: each
#           region's least median total, as htplaces tune ranks them; team
#           kept, places per region
#   plandyn htplaces exec --plan DIR --team-sizes (each region's best team)
#
# The goals (issue 30) are those of auto and the plan where team sizes may
# change (autodyn or autothr, plandyn): mixed_regions is correct under
# OMP_DYNAMIC=true (no region relies on its team size).
#
# Prints every run, then per variant the median wall time (the program's
# own time_s) and the ratios the issue asks for; fails when a checksum
# differs between variants.
set -eu
build=$(cd "$1" && pwd) rounds=${2:-7}
shift $(( $# >= 2 ? 2 : 1 ))
args="$*"
prog=$build/benchmarks/mixed_regions htp=$build/bin/htplaces lib=$build/omp_ext/libomp_ext.so
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT
. "$(dirname "$0")/rounds.sh"
npus=$(rounds_npus "$htp")
variants=""
k=1
while [ "$k" -le "$npus" ]; do variants="$variants spn$k"; k=$((k + 1)); done
variants="$variants hand auto autodyn autothr plan plandyn"

# The plan: one timed run per global setting, each region's best.
for rep in 1 2 3; do
  for v in $variants; do
    case $v in spn*) OMP_EXT_TIMING=$tmp/t-$v-$rep.json LD_PRELOAD=$lib "$htp" exec spn "${v#spn}" -- "$prog" $args >/dev/null ;; esac
  done
done
mkdir -p "$tmp/plan"
python3 - "$tmp" "$npus" "$htp" <<'PY'
import json, re, subprocess, sys
tmp, npus, htp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
topo = {}
for line in subprocess.run([htp, "topo"], capture_output=True, text=True).stdout.splitlines():
    key, _, val = line.partition(":")
    if val.split():
        topo[key.strip()] = val.split()[0]
out = subprocess.run([htp, "topo"], capture_output=True, text=True).stdout
smt = re.search(r"^SMT:\s+up to (\d+)", out, re.M)
machine = {"pus": int(topo["PUs"]), "cores": int(topo["cores"]), "packages": int(topo["packages"]),
           "max_smt": int(smt.group(1)) if smt else 1}
configs, regions = [], {}
for k in range(1, npus + 1):
    places = subprocess.run([htp, "spn", str(k)], capture_output=True, text=True).stdout.strip()
    configs.append({"index": k - 1, "policy": "spn", "threads": k, "omp_places": places})
    per = {}
    for rep in (1, 2, 3):  # each region's median total over 3 runs
        for r in json.load(open(f"{tmp}/t-spn{k}-{rep}.json"))["regions"]:
            if r.get("kind") == "parallel":
                regions.setdefault(r["offset"], {"name": r["name"], "module": r["module"], "offset": r["offset"], "t": []})
                per.setdefault(r["offset"], []).append(r["total_s"])
    for off, ts in per.items():
        regions[off]["t"].append(sorted(ts)[len(ts) // 2])
total = [0.0] * npus
for r in regions.values():
    for k in range(npus):
        total[k] += r["t"][k]
summary = [{"name": r["name"], "module": r["module"], "offset": r["offset"],
            "best": min(range(npus), key=lambda k: r["t"][k])} for r in regions.values()]
json.dump({"machine": machine,
           "configurations": configs, "summary": {"regions": summary},
           "recommendation": {"objective": "time", "best": min(range(npus), key=lambda k: total[k])}},
          open(f"{tmp}/plan/results.json", "w"))
PY

# Alternating rounds (rounds.sh).
run_variant() { # VARIANT -> "time checksum"
  case $1 in
    spn*) "$htp" exec spn "${1#spn}" -- "$prog" $args ;;
    hand) MIXED_HAND=1 "$htp" exec spn "$npus" -- "$prog" $args ;;
    auto) OMP_EXT_HT_POLICY=auto LD_PRELOAD=$lib "$prog" $args ;;
    autodyn) OMP_DYNAMIC=true OMP_EXT_HT_POLICY=auto LD_PRELOAD=$lib "$prog" $args ;;
    autothr) OMP_EXT_HT_POLICY=auto:threads LD_PRELOAD=$lib "$prog" $args ;;
    plan) "$htp" exec --plan "$tmp/plan" -- "$prog" $args ;;
    plandyn) "$htp" exec --plan "$tmp/plan" --team-sizes -- "$prog" $args ;;
  esac | awk '/^checksum/ {c = $2} /^time_s/ {t = $2} END {print t, c}'
}
echo "# mixed_regions $args: $(uname -n), $(nproc) PUs, $(basename "$build"), $rounds rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
rounds "$rounds" "$tmp/runs" $variants
python3 - "$tmp/runs" $variants <<'PY'
import statistics, sys
runs = [l.split() for l in open(sys.argv[1])]
variants = sys.argv[2:]
med = {v: statistics.median(float(r[1]) for r in runs if r[0] == v) for v in variants}
sums = {r[2] for r in runs}
print("# variant  median_s")
for v in variants:
    print(f"  {v:8s} {med[v]:.4f}")
glob = min((v for v in variants if v.startswith("spn")), key=lambda v: med[v])
print(f"# best global {glob}: autodyn/best-global {med['autodyn'] / med[glob]:.3f} (goal <= 0.88), "
      f"autodyn/hand {med['autodyn'] / med['hand']:.3f} (<= 1.15), plandyn/best-global "
      f"{med['plandyn'] / med[glob]:.3f} (<= 0.88), hand/best-global {med['hand'] / med[glob]:.3f}")
print(f"# auto:threads: autothr/best-global {med['autothr'] / med[glob]:.3f} (goal <= 0.88), "
      f"autothr/hand {med['autothr'] / med['hand']:.3f} (<= 1.15)")
print(f"# team kept (dyn-var false): auto/best-global {med['auto'] / med[glob]:.3f}, "
      f"plan/best-global {med['plan'] / med[glob]:.3f} (do no harm: <= 1.05)")
print(f"# checksums: {'equal' if len(sums) == 1 else 'DIFFER: ' + ' '.join(sorted(sums))}")
sys.exit(0 if len(sums) == 1 else 1)
PY
