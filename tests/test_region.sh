#!/bin/sh
# Per-region control (issues 23, 30), under this build's runtime:
#  1. htplaces exec --plan: every thread of every region on a place of the
#     configuration the plan chose for it (seen by the threads themselves
#     and by the timing layer's binding records), the team sizes as
#     planned; the plan applies only what tune measured: with the team
#     kept (OpenMP's contract), region A gets its best configuration of
#     the program's team (not its 1-thread best); with --team-sizes (team
#     sizes may change) its 1-thread best; a region seen only at N > 1
#     follows the recommendation's N; OMP_NUM_THREADS is the
#     recommendation's N and OMP_WAIT_POLICY its wait policy; the timing
#     file names each applied configuration;
#  2. --plan refused for another machine's plan (exit 2, one line, nothing
#     on stdout, the program not run); a broken OMP_EXT_PLAN file reported
#     (tests/test_plan_file.sh has the rest);
#  3. OMP_EXT_HT_POLICY=auto on a program that runs each region only a few
#     times: the base placement (bound: the speedup order, the program's
#     team), never unbound;
#  4. auto on many instances: the last instance of each region on the
#     places of the configuration auto says (timing file) it settled on
#     (a region exploring again at exit, after a drift, is left out; at
#     least one must be settled);
#  5. auto by the API, a program that asks omp_get_max_threads(), exec
#     auto (and --learn: a learnt state reused by the next run), refusals;
#  6. a num_threads clause keeps the user's count;
#  7. auto and a plan ask libomp to keep a hot team's surplus threads
#     (KMP_HOT_TEAMS_MODE=1 in the program's environment) unless the user
#     set KMP_HOT_TEAMS_MODE; nothing set without per-region control.
# Usage: sh test_region.sh REGION_PROBE HTPLACES LIBOMP_EXT_SO
set -eu
probe=$1 htp=$2 lib=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset OMP_NUM_THREADS OMP_PLACES OMP_PROC_BIND OMP_EXT_HT_POLICY OMP_EXT_PLAN OMP_EXT_TIMING \
  KMP_AFFINITY GOMP_CPU_AFFINITY 2>/dev/null || true
fail() { echo "FAIL: $*"; exit 1; }

# The probe's two regions (A's code address comes before B's).  A plan as
# tune writes it: configuration 0 one thread (spn 1), 1 the whole team in
# the speedup order, 2 the whole team on the same PUs in reverse order;
# region A timed fastest on one thread (config 0) and, at the team's size,
# on config 2; region B timed only with the whole team (config 1).
OMP_EXT_TIMING=$tmp/t0.json LD_PRELOAD=$lib "$probe" 3 >/dev/null
python3 - "$tmp" "$htp" <<'PY' || fail "cannot build the plan"
import json, os, re, subprocess, sys
tmp, htp = sys.argv[1], sys.argv[2]
out = subprocess.run([htp, "topo"], capture_output=True, text=True, check=True).stdout
get = lambda k: int(re.search(r"^%s:\s+(\d+)" % k, out, re.M).group(1))
smt = re.search(r"^SMT:\s+up to (\d+)", out, re.M)
machine = {"pus": get("PUs"), "cores": get("cores"), "packages": get("packages"),
           "max_smt": int(smt.group(1)) if smt else 1}
places = lambda *a: subprocess.run([htp, *a], capture_output=True, text=True, check=True).stdout.strip()
regions = sorted((r for r in json.load(open(tmp + "/t0.json"))["regions"] if r["kind"] == "parallel"),
                 key=lambda r: int(r["offset"], 16))
assert len(regions) == 2, regions
n = machine["pus"]
fwd = places("speedup", str(n))
rev = ",".join(reversed(fwd.split(",")))
key = lambda r: r["module"] + "+" + r["offset"]
A, B = (dict(name=r["name"], module=r["module"], offset=r["offset"], key=key(r)) for r in regions)
timed = lambda *pairs: [{"key": r["key"], "total_s": t} for r, t in pairs]
configs = [{"index": 0, "policy": "spn", "threads": 1, "omp_places": places("spn", "1"),
            "wait": "unset", "regions": timed((A, 0.1))},
           {"index": 1, "policy": "speedup", "threads": n, "omp_places": fwd, "wait": "unset",
            "regions": timed((A, 0.5), (B, 0.2))},
           {"index": 2, "policy": "spread", "threads": n, "omp_places": rev, "wait": "unset",
            "regions": timed((A, 0.3), (B, 0.4))}]
plan = {"machine": machine, "configurations": configs,
        "summary": {"regions": [dict(A, best=0), dict(B, best=1)]},
        "recommendation": {"objective": "time", "best": 1}}
json.dump(plan, open(tmp + "/results.json", "w"))
cfg = lambda c: {"threads": c["threads"], "omp_places": c["omp_places"]}
json.dump({"A": cfg(configs[2]), "B": cfg(configs[1])}, open(tmp + "/want.json", "w"))
json.dump({"A": cfg(configs[0]), "B": cfg(configs[1])}, open(tmp + "/want-free.json", "w"))
json.dump({"A": cfg(configs[0]), "B": cfg(configs[0])}, open(tmp + "/want-one.json", "w"))
os.mkdir(tmp + "/one")
json.dump(dict(plan, recommendation={"objective": "time", "best": 0}), open(tmp + "/one/results.json", "w"))
os.mkdir(tmp + "/wait")
json.dump(dict(plan, configurations=[dict(c, wait="passive") for c in configs]),
          open(tmp + "/wait/results.json", "w"))
json.dump(dict(plan, machine=dict(machine, pus=machine["pus"] + 1)), open(tmp + "/other.json", "w"))
json.dump(dict(plan, configurations=[configs[0], dict(configs[1], threads=n + 1), configs[2]]),
          open(tmp + "/big.json", "w"))
for name, change in (("bogus", {"policy": "bogus"}), ("autobest", {"policy": "auto"})):
    json.dump(dict(plan, configurations=[configs[0], dict(configs[1], **change), configs[2]]),
              open("%s/%s.json" % (tmp, name), "w"))
PY

# check.py REPORT WANT [TIMING]: every reported thread on its place of WANT
# (a region -> {"threads": N, "omp_places": "{..},.."}).
cat >"$tmp/check.py" <<'PY'
import json, re, sys
def cpus(text):
    out = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out
def place_list(text):
    return [cpus(p) for p in re.findall(r"\{([^}]*)\}", text)]
report, want = sys.argv[1], json.load(open(sys.argv[2]))
seen = {}
for line in open(report):
    name, t, nt, lst = line.split()
    seen.setdefault(name, []).append((int(t), int(nt), cpus(lst)))
bad = 0
for name, w in want.items():
    rows = seen.get(name, [])
    if not rows:
        print("no report from region", name); bad += 1; continue
    for t, nt, got in rows:
        pl = place_list(w["omp_places"])
        ok = nt == w["threads"] and got == pl[t % len(pl)]
        if not ok:
            print("region %s thread %d of %d on %s, wanted %s" % (name, t, nt, sorted(got), w)); bad += 1
if len(sys.argv) > 3:  # the timing layer's records of the same run
    regions = sorted((r for r in json.load(open(sys.argv[3]))["regions"] if r["kind"] == "parallel"),
                     key=lambda r: int(r["offset"], 16))
    for name, r in zip("AB", regions):
        w = want[name]
        pl = place_list(w["omp_places"])
        for b in r["bindings"]:
            if b["team"] != w["threads"]:
                print("timing: region %s team %d, wanted %d" % (name, b["team"], w["threads"])); bad += 1
            for t, th in enumerate(b["threads"]):
                if th is None or cpus(th["cpus"]) != pl[t % len(pl)]:
                    print("timing: region %s thread %d on %s" % (name, t, th)); bad += 1
sys.exit(1 if bad else 0)
PY

# 1. exec --plan: the team kept (the recommendation's N): A on its best of
#    that size (config 2), B on config 1; OMP_NUM_THREADS set to N.
npus=$("$htp" speedup | tr ',' '\n' | grep -c .)
OMP_EXT_TIMING=$tmp/t1.json "$htp" exec --plan "$tmp" -- "$probe" 50 >"$tmp/r1" 2>"$tmp/e1" ||
  fail "exec --plan failed"
python3 "$tmp/check.py" "$tmp/r1" "$tmp/want.json" "$tmp/t1.json" || fail "exec --plan: threads off their places"
grep -q '"source": "plan", "config": "spread:[0-9]*", "team_kept": true' "$tmp/t1.json" ||
  fail "timing file lacks the applied configuration's name: $(grep -o '"control": {[^}]*}' "$tmp/t1.json")"
! grep -q '"config": "plan:' "$tmp/t1.json" || fail "the control record names a line number, not the configuration"
! grep -q "none of the plan" "$tmp/e1" || fail "exec --plan: the matching plan said it matched nothing"
[ "$("$htp" exec --plan "$tmp" -- sh -c 'echo $OMP_NUM_THREADS')" = "$npus" ] ||
  fail "exec --plan: OMP_NUM_THREADS is not the recommendation's N"
# 1c. --team-sizes (team sizes may change): A on its fastest, one thread.
OMP_EXT_TIMING=$tmp/t1c.json "$htp" exec --plan "$tmp" --team-sizes -- "$probe" 50 >"$tmp/r1c" ||
  fail "exec --plan --team-sizes failed"
python3 "$tmp/check.py" "$tmp/r1c" "$tmp/want-free.json" "$tmp/t1c.json" ||
  fail "exec --plan --team-sizes: threads off their places"
# 1d. The recommendation is one thread: B, seen only with the whole team,
#     follows it (one thread on its place), A its one-thread line.
OMP_EXT_TIMING=$tmp/t1d.json "$htp" exec --plan "$tmp/one" -- "$probe" 50 >"$tmp/r1d" ||
  fail "exec --plan (one thread recommended) failed"
python3 "$tmp/check.py" "$tmp/r1d" "$tmp/want-one.json" "$tmp/t1d.json" ||
  fail "exec --plan (one thread recommended): a region off the recommendation"
# 1e. The wait policy of the recommendation is part of the plan; a user's
#     other value is refused.
[ "$("$htp" exec --plan "$tmp/wait" -- sh -c 'echo $OMP_WAIT_POLICY')" = passive ] ||
  fail "exec --plan: OMP_WAIT_POLICY is not the plan's"
rc=0; OMP_WAIT_POLICY=active "$htp" exec --plan "$tmp/wait" -- sh -c 'echo ran' >"$tmp/o1e" 2>"$tmp/e1e" || rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/o1e" ] && [ "$(wc -l <"$tmp/e1e")" = 1 ] && grep -q "OMP_WAIT_POLICY=active is set" "$tmp/e1e" ||
  fail "exec --plan, OMP_WAIT_POLICY of another value: exit $rc, stderr '$(cat "$tmp/e1e")'"
# 1f. The plan reaches the program in OMP_EXT_PLAN itself, not as an
#     inherited descriptor (wrappers that close descriptors lost it).
"$htp" exec --plan "$tmp" -- sh -c 'printf %s "$OMP_EXT_PLAN"' >"$tmp/p1f"
head -n 1 "$tmp/p1f" | grep -qx 'omp_ext_plan 2' || fail "OMP_EXT_PLAN is not the plan text: $(head -c 80 "$tmp/p1f")"
# 1g. A results.json whose configurations carry no region times (written by
#     a script: only the summary's "best" per region): each region gets its
#     summary best (here with --team-sizes: A one thread on {first PU}),
#     not silently the recommendation.
mkdir -p "$tmp/bare"
python3 - "$tmp" "$npus" <<'PY'
import json, sys
tmp, npus = sys.argv[1], int(sys.argv[2])
d = json.load(open(tmp + "/results.json"))
for c in d["configurations"]:
    c.pop("regions", None)
for r in d["summary"]["regions"]:
    r.pop("key", None)
json.dump(d, open(tmp + "/bare/results.json", "w"))
PY
"$htp" exec --plan "$tmp/bare" --team-sizes -- sh -c 'printf %s "$OMP_EXT_PLAN"' >"$tmp/p1g"
[ "$(grep -c '^region ' "$tmp/p1g")" -ge 2 ] || fail "a plan without per-configuration region times has no region line: $(cat "$tmp/p1g")"
OMP_EXT_TIMING=$tmp/t1g.json "$htp" exec --plan "$tmp/bare" --team-sizes -- "$probe" 50 >"$tmp/r1g" ||
  fail "exec --plan (summary only) failed"
python3 "$tmp/check.py" "$tmp/r1g" "$tmp/want-free.json" "$tmp/t1g.json" ||
  fail "exec --plan (summary only) --team-sizes: threads off their places"
# 1h. What per-region control wins (region A at the team's size: 0.5 s under
#     the recommendation, 0.3 s on config 2: 0.2 s a run) against the
#     recommendation's run time: 0.2 % of a 100 s run -- one configuration,
#     run as exec POLICY N (nothing preloaded, no region line, a comment
#     saying why); 4 % of a 5 s run -- per-region control.
# the plan's variables in PROGRAM's environment: plan_env DIR NAMES-ERE
plan_env() { "$htp" exec --plan "$1" -- env | grep -E "^($2)=" | sort | tr '\n' ' '; }
for run in 100 5; do
  mkdir -p "$tmp/run$run"
  python3 - "$tmp" "$run" <<'PY'
import json, sys
tmp, run = sys.argv[1], float(sys.argv[2])
d = json.load(open(tmp + "/results.json"))
for c in d["configurations"]:
    c["time_s"] = {"n": 3, "median": run}
json.dump(d, open("%s/run%d/results.json" % (tmp, run), "w"))
PY
  got=$(plan_env "$tmp/run$run" 'OMP_PLACES|OMP_PROC_BIND|LD_PRELOAD|OMP_EXT_PLAN')
  case $run:$got in
    "100:OMP_PLACES=$("$htp" speedup "$npus") OMP_PROC_BIND=close ") ;;
    5:*LD_PRELOAD=*libomp_ext*OMP_EXT_PLAN=omp_ext_plan*) ;;
    *) fail "exec --plan, a win of 0.2 s in a run of $run s: '$got'" ;;
  esac
done
# with --team-sizes the wins of other team sizes count: the region lines kept
"$htp" exec --plan "$tmp/run100" --team-sizes -- sh -c 'printf %s "$OMP_EXT_PLAN"' >"$tmp/p1h"
grep -q '^region ' "$tmp/p1h" || fail "exec --plan --team-sizes: no region line: $(cat "$tmp/p1h")"
OMP_EXT_TIMING=$tmp/t1h.json "$htp" exec --plan "$tmp/run100" -- sh -c 'printf %s "$OMP_EXT_PLAN"' >"$tmp/p1h"
grep -q "^# per-region control would win 0.2 s of a 100 s run (0.2%; it pays from 2%): one configuration for $npus threads\$" "$tmp/p1h" &&
  ! grep -q "^region [^ ]* [^ ]* $npus " "$tmp/p1h" || fail "exec --plan, one configuration: the plan '$(cat "$tmp/p1h")'"
# ... the lines of the other team (1 thread) kept: a run at that team
# (the user's OMP_NUM_THREADS=1) gets them, preloaded
if [ "$npus" -gt 1 ]; then
  grep -q '^region [^ ]* [^ ]* 1 ' "$tmp/p1h" || fail "exec --plan, one configuration: the other team's lines dropped: $(cat "$tmp/p1h")"
  got=$(OMP_NUM_THREADS=1 "$htp" exec --plan "$tmp/run100" -- env | grep -E '^(OMP_NUM_THREADS|LD_PRELOAD)=' | sort | tr '\n' ' ')
  case $got in
    "LD_PRELOAD="*libomp_ext*" OMP_NUM_THREADS=1 ") ;;
    *) fail "exec --plan at the other team (OMP_NUM_THREADS=1): '$got'" ;;
  esac
fi
# 1i. With tune's per-round totals ("rounds", "totals_s"), region A's line
#     differs from the recommendation only when faster there in every
#     round tune paired (a sign test): in all 5, per-region control (the
#     5 s run of 1h); slower in one round (its median as fast as before),
#     no line of A at the team: one configuration
for how in every once; do
  mkdir -p "$tmp/r1i$how"
  python3 - "$tmp" "$how" <<'PY'
import json, sys
tmp, how = sys.argv[1], sys.argv[2]
d = json.load(open(tmp + "/run5/results.json"))
a2 = [0.3, 0.31, 0.6 if how == "once" else 0.29, 0.3, 0.32]
for c in d["configurations"]:
    for r in c.get("regions", []):
        if c["index"] in (1, 2) and r["key"] == d["summary"]["regions"][0]["key"]:
            r["rounds"] = [0, 1, 2, 3, 4]
            r["totals_s"] = [0.5, 0.52, 0.48, 0.5, 0.51] if c["index"] == 1 else a2
json.dump(d, open("%s/r1i%s/results.json" % (tmp, how), "w"))
PY
  got=$(plan_env "$tmp/r1i$how" 'OMP_PLACES|OMP_PROC_BIND|LD_PRELOAD')
  case $how:$got in
    every:*LD_PRELOAD=*libomp_ext*) ;;
    "once:OMP_PLACES=$("$htp" speedup "$npus") OMP_PROC_BIND=close ") ;;
    *) fail "exec --plan, region A faster in $how round(s): '$got'" ;;
  esac
done
# 1j. A recommendation that is a tie of noisy rounds beside a configuration
#     whose median is 2 x faster: one warning line, the program runs with
#     tune's plan; a significant one (or a tie within 1.25 x): no word
for how in tie significant; do
  mkdir -p "$tmp/r1j$how"
  python3 - "$tmp" "$how" <<'PY'
import json, sys
tmp, how = sys.argv[1], sys.argv[2]
d = json.load(open(tmp + "/results.json"))
for c in d["configurations"]:
    c["time_s"] = {"n": 5, "median": 0.5 if c["index"] == 2 else 1.0}
d["recommendation"].update(fastest=2, significant=(how == "significant"))
json.dump(d, open("%s/r1j%s/results.json" % (tmp, how), "w"))
PY
  out=$("$htp" exec --plan "$tmp/r1j$how" -- sh -c 'echo ran' 2>"$tmp/e1j") || fail "exec --plan ($how) failed"
  case $how:$out:$(cat "$tmp/e1j") in
    "tie:ran:htplaces: warning: plan $tmp/r1jtie/results.json: its recommendation, speedup $npus (median 1 s), is a tie of noisy rounds beside spread $npus (median 0.5 s, 2 x faster): tune again on a quiet machine or with --budget") ;;
    "significant:ran:") ;;
    *) fail "exec --plan, a recommendation ($how) beside a 2 x faster median: stdout '$out', stderr '$(cat "$tmp/e1j")'" ;;
  esac
done
# 1k. Results of another program (tune's "program"): one warning line,
#     the program runs; of this one (a path to the same file name): none
for prog in /bin/other-app sh; do
  python3 - "$tmp" "$prog" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/results.json"))
d["program"] = [sys.argv[2], "-c", "x"]
json.dump(d, open(sys.argv[1] + "/r1k.json", "w"))
PY
  out=$("$htp" exec --plan "$tmp/r1k.json" -- sh -c 'echo ran' 2>"$tmp/e1k") || fail "exec --plan (results of $prog) failed"
  case $prog:$out:$(cat "$tmp/e1k") in
    "/bin/other-app:ran:htplaces: warning: plan $tmp/r1k.json was measured on other-app, not sh: its regions will not match, and its team and places are the other program's") ;;
    "sh:ran:") ;;
    *) fail "exec --plan, results of $prog: stdout '$out', stderr '$(cat "$tmp/e1k")'" ;;
  esac
done
# 1a. A program whose file name has a blank and a '%': its plan lines carry
#     the name escaped (%XX), and every region gets its configuration.
cp "$probe" "$tmp/my probe%1"
python3 - "$tmp" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1] + "/results.json"))
for r in plan["summary"]["regions"]:
    r["module"] = sys.argv[1] + "/my probe%1"
json.dump(plan, open(sys.argv[1] + "/spaced.json", "w"))
PY
OMP_EXT_TIMING=$tmp/t1a.json "$htp" exec --plan "$tmp/spaced.json" -- "$tmp/my probe%1" 5 \
  >/dev/null 2>"$tmp/e1a" || fail "exec --plan, a program name with a blank: the program failed"
[ ! -s "$tmp/e1a" ] || fail "exec --plan, a program name with a blank: stderr: $(cat "$tmp/e1a")"
[ "$(grep -o '"source": "plan", "config": "spread:' "$tmp/t1a.json" | wc -l)" = 1 ] &&
  [ "$(grep -o '"source": "plan", "config": "speedup:' "$tmp/t1a.json" | wc -l)" = 1 ] ||
  fail "exec --plan, a program name with a blank: the regions did not get their lines"
# 1b. A plan whose regions are another program's: the program runs (its
#     regions get the plan's default), and says so at exit, once.
python3 - "$tmp" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1] + "/results.json"))
for r in plan["summary"]["regions"]:
    r["module"] = "another_program"
json.dump(plan, open(sys.argv[1] + "/elsewhere.json", "w"))
PY
"$htp" exec --plan "$tmp/elsewhere.json" -- "$probe" 5 >/dev/null 2>"$tmp/e1b" ||
  fail "exec --plan, another program's plan: the program failed"
[ "$(grep -c "omp_ext: OMP_EXT_PLAN: none of the plan's 2 regions ran in this program (its 2 regions got the plan's default)" "$tmp/e1b")" = 1 ] ||
  fail "another program's plan: stderr: $(cat "$tmp/e1b")"

# 2. refusals
set +e
"$htp" exec --plan "$tmp/other.json" -- "$probe" 3 >"$tmp/o2" 2>"$tmp/e2"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "another machine's plan: exit $rc, wanted 2"
[ ! -s "$tmp/o2" ] || fail "another machine's plan: the program ran or stdout written"
[ "$(wc -l <"$tmp/e2")" -eq 1 ] && grep -q 'another machine' "$tmp/e2" ||
  fail "another machine's plan: stderr: $(cat "$tmp/e2")"
# a configuration of more threads than the machine's PUs (hand-edited): one
# line, the program not run (on main it ran: libgomp crashed at 100000)
set +e
"$htp" exec --plan "$tmp/big.json" -- "$probe" 3 >"$tmp/o5" 2>"$tmp/e5"
rc=$?
set -e
[ "$rc" -eq 2 ] && [ ! -s "$tmp/o5" ] || fail "--plan threads > PUs: exit $rc or the program ran"
[ "$(wc -l <"$tmp/e5")" -eq 1 ] && grep -q 'invalid "threads" ([0-9]*; allowed: 1\.\.[0-9]*' "$tmp/e5" ||
  fail "--plan threads > PUs: stderr: $(cat "$tmp/e5")"
# a folder without results.json: the reason and what to give, no parser
# "line -1" (on main: "--plan DIR/results.json: line -1: unable to open ...")
mkdir "$tmp/empty"
set +e
"$htp" exec --plan "$tmp/empty" -- "$probe" 3 >"$tmp/o4" 2>"$tmp/e4"
rc=$?
set -e
[ "$rc" -eq 2 ] && [ ! -s "$tmp/o4" ] || fail "--plan empty folder: exit $rc or stdout written"
[ "$(cat "$tmp/e4")" = "htplaces: --plan $tmp/empty/results.json: No such file or directory; give htplaces tune's --out folder, its results.json, or a plan file" ] ||
  fail "--plan empty folder: stderr: $(cat "$tmp/e4")"
# a configuration of an unknown policy, or auto's as the recommendation
for bad in bogus autobest; do
  rc=0; "$htp" exec --plan "$tmp/$bad.json" -- sh -c 'echo ran' >"$tmp/o6" 2>"$tmp/e6" || rc=$?
  [ $rc = 2 ] && [ ! -s "$tmp/o6" ] && [ "$(wc -l <"$tmp/e6")" = 1 ] ||
    fail "--plan $bad: exit $rc, stdout '$(cat "$tmp/o6")', stderr '$(cat "$tmp/e6")'"
done
grep -q "has policy 'bogus'; allowed: none, os, speedup, spn, spread" "$tmp/e6" ||
  grep -q "is auto's (run time), not a placement" "$tmp/e6" || fail "--plan autobest: $(cat "$tmp/e6")"
printf 'omp_ext_plan 1\nregion x 12 1 {0}\n' >"$tmp/broken"
OMP_EXT_PLAN=$tmp/broken LD_PRELOAD=$lib "$probe" 3 >/dev/null 2>"$tmp/e3"
[ "$(cat "$tmp/e3")" = "omp_ext: OMP_EXT_PLAN: '$tmp/broken' line 2: OFFSET '12': hexadecimal such as 0x1a2c is expected: per-region control is off" ] ||
  fail "broken plan not reported: $(cat "$tmp/e3")"

# 3. auto, each region run 3 times: the base placement -- the program's
#    team, thread t bound to PU t of the speedup order (never unbound)
OMP_EXT_HT_POLICY=auto LD_PRELOAD=$lib "$probe" 3 >"$tmp/r3" || fail "auto run failed"
full=$("$htp" os "$npus" | tr -d '{}') # every allowed PU: "0,1,..."
python3 - "$tmp/r3" "$npus" "$("$htp" speedup)" <<'PY' || fail "auto on a few instances is not the base placement"
import sys
rows = [l.split() for l in open(sys.argv[1])]
npus, order = int(sys.argv[2]), [int(p.strip("{}")) for p in sys.argv[3].split(",")]
bad = [r for r in rows if int(r[2]) != npus or r[3] != str(order[int(r[1]) % len(order)])]
assert len(rows) == 2 * npus and not bad, (rows, bad)
PY

# 4. auto on many instances: on its settled configuration's places
OMP_EXT_TIMING=$tmp/t4.json OMP_EXT_HT_POLICY=auto LD_PRELOAD=$lib "$probe" 400 >"$tmp/r4" ||
  fail "auto run failed"
python3 - "$tmp" "$htp" "$npus" "$full" <<'PY' || fail "auto: threads off their settled configuration"
import json, subprocess, sys
tmp, htp, npus, full = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
regions = sorted((r for r in json.load(open(tmp + "/t4.json"))["regions"] if r["kind"] == "parallel"),
                 key=lambda r: int(r["offset"], 16))
want = {}
for name, r in zip("AB", regions):
    c = r["control"]
    assert c["source"] == "auto", c
    if not c["settled"]:  # exploring again at exit: only after settling once
        assert c["reexplores"] >= 1, c
        continue
    if c["config"].startswith("none:"):  # the team unbound: every allowed PU
        want[name] = {"threads": npus, "omp_places": "{" + full + "}"}
    else:
        pol, n = c["config"].split(":")
        want[name] = {"threads": int(n), "omp_places": subprocess.run(
            [htp, pol, n], capture_output=True, text=True, check=True).stdout.strip()}
assert want, "auto: no region settled"
json.dump(want, open(tmp + "/want4.json", "w"))
PY
python3 "$tmp/check.py" "$tmp/r4" "$tmp/want4.json" || fail "auto: threads off their places"
# 5. omp_set_ht_policy(omp_ht_policy_auto) in the program: the same tuner
OMP_EXT_TIMING=$tmp/t5.json REGION_PROBE_AUTO=1 LD_PRELOAD=$lib "$probe" 400 >"$tmp/r5" ||
  fail "auto by the API: run failed"
grep -qx 'set 0' "$tmp/r5" || fail "omp_set_ht_policy(omp_ht_policy_auto): $(head -1 "$tmp/r5")"
python3 - "$tmp/t5.json" <<'PY' || fail "auto by the API: both regions should have settled"
import json, sys
cs = [r["control"] for r in json.load(open(sys.argv[1]))["regions"] if r["kind"] == "parallel"]
# settled, or exploring again at exit after settling once (drift)
assert len(cs) == 2 and all(c["source"] == "auto" and (c["settled"] or c["reexplores"] >= 1)
                            for c in cs), cs
PY
# 5a. A program that called omp_get_max_threads() may cut its work by it:
#     every region keeps the program's team (npus) under auto and under a
#     plan that gives region A one thread; "team_kept" says so.
for how in auto plan; do
  rc=0
  if [ $how = auto ]; then
    REGION_PROBE_ASK=1 OMP_EXT_TIMING=$tmp/t5a.json OMP_EXT_HT_POLICY=auto LD_PRELOAD=$lib \
      "$probe" 400 >"$tmp/r5a" || rc=$?
  else
    REGION_PROBE_ASK=1 OMP_EXT_TIMING=$tmp/t5a.json "$htp" exec --plan "$tmp" -- "$probe" 50 \
      >"$tmp/r5a" || rc=$?
  fi
  [ $rc = 0 ] || fail "team kept ($how): run failed"
  python3 - "$tmp/r5a" "$tmp/t5a.json" "$npus" "$how" <<'PY' || fail "team kept ($how): a region's team changed"
import json, sys
lines = open(sys.argv[1]).read().split("\n")
npus, how = int(sys.argv[3]), sys.argv[4]
assert lines[0] == "max %d" % npus, lines[0]
rows = [l.split() for l in lines[1:] if l]
assert rows and all(int(r[2]) == npus for r in rows), rows
rs = [r for r in json.load(open(sys.argv[2]))["regions"] if r["kind"] == "parallel"]
assert len(rs) == 2, rs
for r in rs:
    assert r["team_sizes"] == [npus], r["team_sizes"]
    assert r["control"]["source"] == how and r["control"]["team_kept"] is True, r["control"]
PY
done
# 5b. htplaces exec auto: the same tuner, libomp_ext preloaded by exec;
#     an N or an unknown objective: exit 2, one line, the program not run.
OMP_EXT_TIMING=$tmp/t5b.json "$htp" exec auto -- "$probe" 400 >"$tmp/r5b" ||
  fail "exec auto: run failed"
python3 - "$tmp/t5b.json" <<'PY' || fail "exec auto: both regions should be under auto"
import json, sys
cs = [r["control"] for r in json.load(open(sys.argv[1]))["regions"] if r["kind"] == "parallel"]
assert len(cs) == 2 and all(c["source"] == "auto" and c["objective"] == "time" and
                            (c["settled"] or c["reexplores"] >= 1) for c in cs), cs
PY
# -r: the process bound to those PUs first (auto's candidates are made of them)
pu=$("$htp" os 1 | tr -d '{}')
[ "$("$htp" -r "$pu" exec auto -- sh -c 'grep Cpus_allowed_list /proc/self/status' | cut -f2)" = "$pu" ] ||
  fail "exec -r $pu auto: the process is not bound to PU $pu"
# a leftover OMP_EXT_PLAN would turn auto off: refused, as OMP_EXT_HT_POLICY
rc=0; OMP_EXT_PLAN=/etc/passwd "$htp" exec auto -- sh -c 'echo ran' >"$tmp/o5b" 2>"$tmp/e5b" || rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/o5b" ] && grep -q "^htplaces: OMP_EXT_PLAN is set" "$tmp/e5b" ||
  fail "exec auto with OMP_EXT_PLAN set: exit $rc, stderr '$(cat "$tmp/e5b")'"
# a library path with a space: LD_PRELOAD cannot carry it (exit 1, one line)
mkdir -p "$tmp/sp ace/bin" "$tmp/sp ace/omp_ext"
cp "$htp" "$tmp/sp ace/bin/" && cp "$lib" "$tmp/sp ace/omp_ext/libomp_ext.so.0"
rc=0; "$tmp/sp ace/bin/htplaces" exec auto -- sh -c 'echo ran' >"$tmp/o5b" 2>"$tmp/e5b" || rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/o5b" ] && [ "$(wc -l <"$tmp/e5b")" = 1 ] &&
  grep -q "has a space or ':', which LD_PRELOAD cannot carry" "$tmp/e5b" ||
  fail "exec auto, library path with a space: exit $rc, stderr '$(cat "$tmp/e5b")'"
# ... and tune's auto row says so too (it said "none found; give --timing-lib")
rc=0; "$tmp/sp ace/bin/htplaces" tune --reps 3 --threads 1 --policies spn,auto -- true \
  >"$tmp/o5b" 2>"$tmp/e5b" || rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/o5b" ] && grep -q "^htplaces: --policies auto needs libomp_ext.so preloaded into the program, and its path '.*sp ace.*' has a space" "$tmp/e5b" ||
  fail "tune auto, library path with a space: exit $rc, stderr '$(cat "$tmp/e5b")'"
for bad in "auto 2" "auto:fast"; do
  # shellcheck disable=SC2086
  rc=0; "$htp" exec $bad -- sh -c 'echo ran' >"$tmp/o5b" 2>"$tmp/e5b" || rc=$?
  [ $rc = 2 ] && [ ! -s "$tmp/o5b" ] && [ "$(wc -l <"$tmp/e5b")" = 1 ] ||
    fail "exec $bad: exit $rc, stdout '$(cat "$tmp/o5b")', stderr '$(cat "$tmp/e5b")'"
done
# 5c. exec auto --learn DIR: the state written at exit (DIR/PROGRAM.plan,
#     the plan format), read back by the next run (the timing file's
#     "learnt": "restored"), applied by exec --plan; a state of another
#     build, machine or objective refused with one line and learnt afresh;
#     processes writing the same folder at once leave a valid state.
"$htp" exec auto --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c" || fail "exec auto --learn failed"
state=$tmp/learn/${probe##*/}.plan
[ -f "$state" ] && [ ! -s "$tmp/e5c" ] || fail "exec auto --learn: no state, or stderr '$(cat "$tmp/e5c")'"
head -n 1 "$state" | grep -qx 'omp_ext_plan 2' && grep -q '^learnt auto$' "$state" &&
  grep -Eq "^run $npus (0\.0*[1-9]|[1-9])[0-9]*(\.[0-9]+)?\$" "$state" &&
  grep -q '^build ' "$state" && [ "$(grep -c '^region .* team=keep:' "$state")" = 2 ] ||
  fail "exec auto --learn: the state is not what it should be: $(cat "$state")"
OMP_EXT_TIMING=$tmp/t5c.json "$htp" exec auto --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c" ||
  fail "exec auto --learn (second run) failed"
[ "$(grep -o '"learnt": "restored"' "$tmp/t5c.json" | wc -l)" = 2 ] && [ ! -s "$tmp/e5c" ] ||
  fail "exec auto --learn: the second run did not start from the state: $(cat "$tmp/e5c")"
# a run at another team size (OMP_NUM_THREADS=1) adds its own lines and
# keeps the first team's: the next run at the first team restores them
if [ "$npus" -gt 1 ]; then
  cp "$state" "$tmp/state.team"
  OMP_NUM_THREADS=1 "$htp" exec auto --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c" ||
    fail "exec auto --learn at OMP_NUM_THREADS=1 failed"
  [ "$(grep -c '^region .* team=keep:1 ' "$state")" = 2 ] &&
    [ "$(grep -c "^region .* team=keep:$npus " "$state")" = 2 ] &&
    grep -q '^run 1 ' "$state" && grep -qx "$(grep "^run $npus " "$tmp/state.team")" "$state" ||
    fail "a run at another team did not keep both teams' lines: $(cat "$state")"
  OMP_EXT_TIMING=$tmp/t5t.json "$htp" exec auto --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c"
  [ "$(grep -o '"learnt": "restored"' "$tmp/t5t.json" | wc -l)" = 2 ] ||
    fail "the first team's learning was lost by a run at another: $(cat "$tmp/e5c" "$state")"
  # a region keeps 4 team lines at most (what the reader takes), the
  # latest: teams 1, N+1, N+2, then N (restored), then N+3 drops team 1
  for t in $((npus + 1)) $((npus + 2)); do
    OMP_NUM_THREADS=$t "$htp" exec auto --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c"
  done
  OMP_EXT_TIMING=$tmp/t5t.json "$htp" exec auto --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c"
  [ "$(grep -o '"learnt": "restored"' "$tmp/t5t.json" | wc -l)" = 2 ] ||
    fail "the first team's learning was lost among 4 teams: $(cat "$tmp/e5c" "$state")"
  OMP_NUM_THREADS=$((npus + 3)) "$htp" exec auto --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c"
  [ "$(grep -c '^region ' "$state")" = 8 ] && ! grep -q '^region .* team=keep:1 ' "$state" &&
    [ "$(grep -c "^region .* team=keep:$npus " "$state")" = 2 ] ||
    fail "5 teams: not the 4 latest lines of each region: $(cat "$state")"
  cp "$tmp/state.team" "$state"
fi
OMP_EXT_TIMING=$tmp/t5d.json "$htp" exec --plan "$state" -- "$probe" 3 >/dev/null ||
  fail "exec --plan on a learnt state failed"
[ "$(grep -o '"source": "plan", "config": "[a-z]*:[0-9]*", "team_kept": true' "$tmp/t5d.json" | wc -l)" = 2 ] ||
  fail "exec --plan on a learnt state: the regions did not get its lines"
cp "$state" "$tmp/state.good"
sed 's/^build \([^ ]*\) .*/build \1 gnu:00/' "$tmp/state.good" >"$state"
"$htp" exec auto --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c"
[ "$(wc -l <"$tmp/e5c")" = 1 ] && grep -q "was learnt for another build of ${probe##*/} (gnu:00; this one gnu:" "$tmp/e5c" ||
  fail "a state of another build: stderr '$(cat "$tmp/e5c")'"
grep -q "^build [^ ]* gnu:[0-9a-f]\{8,\}" "$state" || fail "the state of another build was not replaced"
# another program's state copied under this one's name (its modules not
# loaded here): refused with one line, learnt afresh, replaced
sed 's/^\(build\|region\) [^ ]*/\1 otherprog/' "$tmp/state.good" >"$state"
"$htp" exec auto --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c"
[ "$(wc -l <"$tmp/e5c")" = 1 ] && grep -q "was learnt for another program (its regions are in otherprog, not loaded here): learning afresh$" "$tmp/e5c" ||
  fail "another program's state: stderr '$(cat "$tmp/e5c")'"
! grep -q otherprog "$state" && grep -q "^build ${probe##*/} " "$state" || fail "another program's state was kept: $(cat "$state")"
# a state of another machine (or another set of allowed PUs: taskset, a
# job's cpuset) is kept, not replaced: this run learns for itself only
sed 's/^machine .*/machine 9999 1 1 1 0/' "$tmp/state.good" >"$state"
cp "$state" "$tmp/state.other"
"$htp" exec auto --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c"
[ "$(wc -l <"$tmp/e5c")" = 1 ] && grep -q "made on another machine (9999 PUs.*: learning for this run only, the state kept (one folder per machine type and set of allowed PUs keeps both)$" "$tmp/e5c" &&
  cmp -s "$state" "$tmp/state.other" ||
  fail "a state of another machine: stderr '$(cat "$tmp/e5c")', or the state replaced"
cp "$tmp/state.good" "$state"
"$htp" exec auto:energy --learn "$tmp/learn" -- "$probe" 3 >/dev/null 2>"$tmp/e5c"
[ "$(wc -l <"$tmp/e5c")" = 1 ] && grep -q "was learnt under auto, this process runs auto:energy: learning afresh" "$tmp/e5c" ||
  fail "a state of another objective: stderr '$(cat "$tmp/e5c")'"
i=0
while [ $i -lt 6 ]; do
  "$htp" exec auto:energy --learn "$tmp/learn" -- "$probe" 20 >/dev/null 2>>"$tmp/e5e" &
  i=$((i + 1))
done
wait
[ ! -s "$tmp/e5e" ] || fail "processes learning at once: stderr '$(cat "$tmp/e5e")'"
"$htp" exec --plan "$state" -- true || fail "processes learning at once left an invalid state: $(cat "$state")"
[ "$(ls -A "$tmp/learn")" = "${probe##*/}.plan" ] || fail "temporary files left: $(ls -A "$tmp/learn")"
# a symbolic link to a state: the target read and replaced, the link kept;
# a folder or a dangling link there: one line, nothing written
mkdir "$tmp/learnln" "$tmp/learndir" "$tmp/learndl" "$tmp/learnto"
cp "$tmp/state.good" "$tmp/learnto/target.plan"
ln -s ../learnto/target.plan "$tmp/learnln/${probe##*/}.plan"
OMP_EXT_TIMING=$tmp/t5l.json "$htp" exec auto --learn "$tmp/learnln" -- "$probe" 3 >/dev/null 2>"$tmp/e5l" ||
  fail "exec auto --learn through a symbolic link failed"
[ -L "$tmp/learnln/${probe##*/}.plan" ] && [ ! -s "$tmp/e5l" ] &&
  [ "$(grep -o '"learnt": "restored"' "$tmp/t5l.json" | wc -l)" = 2 ] &&
  ! cmp -s "$tmp/state.good" "$tmp/learnto/target.plan" && grep -q '^run ' "$tmp/learnto/target.plan" &&
  [ "$(ls -A "$tmp/learnto")" = target.plan ] ||
  fail "a state behind a symbolic link: not read, not written to its target, or the link replaced: $(ls -lA "$tmp/learnln" "$tmp/learnto") $(cat "$tmp/e5l")"
mkdir "$tmp/learndir/${probe##*/}.plan"
ln -s ../nowhere.plan "$tmp/learndl/${probe##*/}.plan"
for d in learndir learndl; do
  "$htp" exec auto --learn "$tmp/$d" -- "$probe" 3 >"$tmp/o5l" 2>"$tmp/e5l" || fail "exec auto --learn $d failed"
  [ "$(wc -l <"$tmp/e5l")" = 1 ] && grep -Eq "is (not a regular file \(a folder\)|a symbolic link to nothing): nothing learnt is kept$" "$tmp/e5l" &&
    [ "$(ls -A "$tmp/$d")" = "${probe##*/}.plan" ] && [ ! -e "$tmp/nowhere.plan" ] ||
    fail "a state that is $d: stderr '$(cat "$tmp/e5l")', folder $(ls -A "$tmp/$d")"
done
# a program name of 245 bytes: its state (250 bytes) written, the
# temporary file's name short enough too
long=$(printf '%0245d' 0 | tr 0 p)
mkdir "$tmp/learnlong" && cp "$probe" "$tmp/learnlong/$long"
"$htp" exec auto --learn "$tmp/learnlong/d" -- "$tmp/learnlong/$long" 3 >/dev/null 2>"$tmp/e5g"
[ -f "$tmp/learnlong/d/$long.plan" ] && [ ! -s "$tmp/e5g" ] ||
  fail "a program name of 245 bytes: no state, or stderr '$(cat "$tmp/e5g")'"
# one allowed PU: the only candidate is settled on once timed (its state
# then amounts to one configuration: the next run is not preloaded)
if command -v taskset >/dev/null 2>&1; then
  mkdir "$tmp/learn1pu"
  pu=$("$htp" os 1 | tr -d '{}')
  taskset -c "$pu" "$htp" exec auto --learn "$tmp/learn1pu" -- "$probe" 3 >/dev/null 2>"$tmp/e5p" || fail "exec auto --learn on one PU failed"
  [ "$(grep -c '^region .* phase=settled' "$tmp/learn1pu/${probe##*/}.plan")" = 2 ] && [ ! -s "$tmp/e5p" ] ||
    fail "one allowed PU: regions not settled after a run: $(cat "$tmp/learn1pu/${probe##*/}.plan" "$tmp/e5p")"
fi
for bad in "--learn $tmp/learn spn" "--team-sizes spn" "--plan $state --team-sizes"; do
  # shellcheck disable=SC2086
  rc=0; "$htp" exec $bad -- sh -c 'echo ran' >"$tmp/o5b" 2>"$tmp/e5b" || rc=$?
  [ $rc = 2 ] && [ ! -s "$tmp/o5b" ] && [ "$(wc -l <"$tmp/e5b")" = 1 ] ||
    fail "exec $bad: exit $rc, stdout '$(cat "$tmp/o5b")', stderr '$(cat "$tmp/e5b")'"
done
# 6. A num_threads clause keeps the user's count (a plan of 1 thread for
#    every region, auto), and a region's 12 shared variables arrive intact
#    through the wrappers (their trampoline binds: a policy, the plan).
clause=${probe%/*}/clause_probe
cat >"$tmp/one.plan" <<EOP
omp_ext_plan 1
default 1 $("$htp" spn 1)
EOP
for how in "OMP_EXT_HT_POLICY=spn" "OMP_EXT_HT_POLICY=auto" "OMP_EXT_PLAN=$tmp/one.plan"; do
  env "$how" LD_PRELOAD="$lib" "$clause" 300 >"$tmp/r6" || fail "$how: clause_probe failed"
  [ "$(cat "$tmp/r6")" = "$(printf 'team 2\nsum %d' $((506 * 300)))" ] ||
    fail "$how: clause_probe printed $(tr '\n' ' ' <"$tmp/r6")"
done
# 7. KMP_HOT_TEAMS_MODE: set to 1 by auto and by a plan, the user's value
#    kept, absent otherwise (env, preloaded, prints the environment its
#    main sees: after the library's constructors).
hot() { env -u KMP_HOT_TEAMS_MODE "$@" LD_PRELOAD="$lib" env | sed -n 's/^KMP_HOT_TEAMS_MODE=//p'; }
[ "$(hot OMP_EXT_HT_POLICY=auto)" = 1 ] || fail "auto: KMP_HOT_TEAMS_MODE='$(hot OMP_EXT_HT_POLICY=auto)', want 1"
[ "$(hot OMP_EXT_PLAN="$tmp/one.plan")" = 1 ] || fail "plan: KMP_HOT_TEAMS_MODE not 1"
[ "$(hot OMP_EXT_HT_POLICY=auto KMP_HOT_TEAMS_MODE=0)" = 0 ] ||
  fail "auto: the user's KMP_HOT_TEAMS_MODE=0 not kept"
[ -z "$(hot OMP_EXT_HT_POLICY=spn)" ] || fail "spn: KMP_HOT_TEAMS_MODE set without per-region control"
[ -z "$(hot OMP_EXT_HT_POLICY=auto:bogus 2>/dev/null)" ] ||
  fail "a refused auto value: KMP_HOT_TEAMS_MODE set"
echo "test_region: plan (only what was measured), refusals, auto (few and many instances, by the API, learnt across runs), clauses hold, hot teams kept"
