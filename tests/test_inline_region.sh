#!/bin/sh
# One parallel construct started from two call sites (a function holding it
# inlined twice: NPB MG's comm3 under gcc -O3) is two regions for the
# timing layer, as for per-region control, under this build's runtime:
#  1. the timing file lists two parallel regions of the probe, at two
#     different offsets (under libgomp the two sites share the outlined
#     function: the timing layer once merged them under the first site's
#     offset, so that tune's plan named one site and exec --plan left the
#     other to the plan's global best);
#  2. htplaces exec --plan --team-sizes (team sizes may change) with one site
#     timed fastest on 1 thread and the other only on every allowed PU (the
#     plan's global best): each site runs the team size planned for it.
# Usage: sh test_inline_region.sh INLINE_PROBE HTPLACES LIBOMP_EXT_SO
set -eu
probe=$1 htp=$2 lib=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY OMP_EXT_PLAN OMP_EXT_TIMING \
  KMP_AFFINITY GOMP_CPU_AFFINITY 2>/dev/null || true
fail() { echo "FAIL: $*"; exit 1; }

OMP_EXT_TIMING=$tmp/t.json LD_PRELOAD=$lib "$probe" 3 >/dev/null
python3 - "$tmp" "$htp" <<'PY' || fail "the timing file does not list the two call sites as two regions"
import json, re, subprocess, sys
tmp, htp = sys.argv[1], sys.argv[2]
regions = sorted((r for r in json.load(open(tmp + "/t.json"))["regions"] if r["kind"] == "parallel"),
                 key=lambda r: int(r["offset"], 16))
print("regions:", [(r["name"], r["offset"], r["instances"]) for r in regions])
assert len(regions) == 2 and regions[0]["offset"] != regions[1]["offset"], regions
assert [r["instances"] for r in regions] == [3, 3], regions
out = subprocess.run([htp, "topo"], capture_output=True, text=True, check=True).stdout
get = lambda k: int(re.search(r"^%s:\s+(\d+)" % k, out, re.M).group(1))
smt = re.search(r"^SMT:\s+up to (\d+)", out, re.M)
machine = {"pus": get("PUs"), "cores": get("cores"), "packages": get("packages"),
           "max_smt": int(smt.group(1)) if smt else 1}
places = lambda *a: subprocess.run([htp, *a], capture_output=True, text=True, check=True).stdout.strip()
n = machine["pus"]
key = lambda r: r["module"] + "+" + r["offset"]
configs = [{"index": 0, "policy": "spn", "threads": 1, "omp_places": places("spn", "1"),
            "regions": [{"key": key(regions[0]), "total_s": 0.1}]},
           {"index": 1, "policy": "speedup", "threads": n, "omp_places": places("speedup", str(n)),
            "regions": [{"key": key(r), "total_s": 0.2} for r in regions]}]
json.dump({"machine": machine, "configurations": configs,
           "summary": {"regions": [dict(name=r["name"], module=r["module"], offset=r["offset"], key=key(r), best=b)
                                   for r, b in zip(regions, (0, 1))]},
           "recommendation": {"objective": "time", "best": 1}}, open(tmp + "/results.json", "w"))
open(tmp + "/n", "w").write(str(n))
PY
n=$(cat "$tmp/n")
"$htp" exec --plan "$tmp/results.json" --team-sizes -- "$probe" 3 >"$tmp/out" || fail "exec --plan failed"
cat "$tmp/out"
# One site planned on 1 thread, the other on all n (which is which: the
# order of their call sites in the code).
got=$(sort -k2n "$tmp/out" | awk '{printf "%s ", $2}')
[ "$got" = "1 $n " ] || fail "team sizes '$got' under the plan, wanted one site on 1 and one on $n"
echo "ok: two call sites, two regions, each with its planned team size (1 and $n)"
