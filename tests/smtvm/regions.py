#!/usr/bin/env python3
"""Per-region control in an SMT guest (checks.sh block 3f; issue 23).

  regions.py plan DIR HTPLACES NCORES
      From DIR/t0.json (region_probe's two regions, timed once) write
      DIR/results.json, a tune-style plan of this machine: region A on
      "spn 2" (two SMT siblings of the first core), region B on
      "speedup NCORES" (one PU on every core), default "spread" on every
      PU; and DIR/want.json, each region's configuration.  Exits 1 when
      A's and B's places are the same (no SMT here: the check would prove
      nothing).
  regions.py auto DIR HTPLACES NPUS ALLOWED
      From DIR/t4.json (the timing file of an OMP_EXT_HT_POLICY=auto run):
      DIR/want4.json, each region's settled configuration ("default": every
      allowed PU, the default team; "POLICY:N": htplaces POLICY N).
  regions.py check REPORT WANT [TIMING]
      Every line "REGION T NTHREADS CPULIST" of REPORT (the threads' own
      affinity, region_probe's last instance) on place T of its region's
      configuration with the planned team size; with TIMING, the timing
      layer's binding records of each region too.  Prints one line per
      problem, nothing when all hold; the last line "A: ..., B: ..." says
      what was checked (count of threads).
"""
import json
import re
import subprocess
import sys


def cpus(text):
    out = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def place_list(text):
    return [cpus(p) for p in re.findall(r"\{([^}]*)\}", text)]


def regions_of(path):
    regions = [r for r in json.load(open(path))["regions"] if r["kind"] == "parallel"]
    return sorted(regions, key=lambda r: int(r["offset"], 16))


def places(htp, *args):
    return subprocess.run([htp, *args], capture_output=True, text=True, check=True).stdout.strip()


def plan(d, htp, ncores):
    out = subprocess.run([htp, "topo"], capture_output=True, text=True, check=True).stdout
    get = lambda k: int(re.search(r"^%s:\s+(\d+)" % k, out, re.M).group(1))
    smt = re.search(r"^SMT:\s+up to (\d+)", out, re.M)
    machine = {"pus": get("PUs"), "cores": get("cores"), "packages": get("packages"),
               "max_smt": int(smt.group(1)) if smt else 1}
    regions = regions_of(d + "/t0.json")
    if len(regions) != 2:
        print("region_probe: %d parallel regions timed, wanted 2" % len(regions))
        return 1
    n = machine["pus"]
    configs = [{"index": 0, "policy": "spn", "threads": 2, "omp_places": places(htp, "spn", "2")},
               {"index": 1, "policy": "speedup", "threads": ncores,
                "omp_places": places(htp, "speedup", str(ncores))},
               {"index": 2, "policy": "spread", "threads": n,
                "omp_places": places(htp, "spread", str(n))}]
    a, b = (set().union(*place_list(c["omp_places"])) for c in configs[:2])
    if a <= b:
        print("spn 2 %s within speedup %d %s: no SMT sibling here" % (sorted(a), ncores, sorted(b)))
        return 1
    json.dump({"machine": machine, "configurations": configs,
               "summary": {"regions": [dict(name=r["name"], module=r["module"], offset=r["offset"],
                                            best=k) for r, k in zip(regions, (0, 1))]},
               "recommendation": {"objective": "time", "best": 2}},
              open(d + "/results.json", "w"))
    json.dump({"A": configs[0], "B": configs[1]}, open(d + "/want.json", "w"))
    return 0


def config_of(label, htp, npus, allowed):
    pol, n = label.split(":")
    if pol == "none":  # the team unbound: each thread on the whole allowed set
        return {"config": label, "threads": int(n), "omp_places": "{" + allowed + "}"}
    return {"config": label, "threads": int(n), "omp_places": places(htp, pol, n)}


def auto(d, htp, npus, allowed, timing="t4.json", want_file="want4.json", restored=False):
    want = {}
    regions = regions_of(d + "/" + timing)
    if len(regions) != 2:
        print("%s: %d parallel regions, wanted 2" % (timing, len(regions)))
        return 1
    for name, r in zip("AB", regions):
        c = r.get("control") or {}
        if c.get("source") != "auto" or "config" not in c:
            print("region %s: no auto control record: %s" % (name, c))
            return 1
        if restored and c.get("learnt") != "restored":
            print("region %s: not restored from the learnt state: learnt %s" % (name, c.get("learnt")))
            return 1
        if c.get("settled"):
            want[name] = config_of(c["config"], htp, npus, allowed)
        else:
            # Exploring again at exit (its time left the noise band: an
            # emulated guest's timings drift): the last instance ran one of
            # its candidates, which the file lists but does not name.
            want[name] = {"config": "one of its candidates (exploring again, %d re-explorations)"
                          % c.get("reexplores", 0),
                          "candidates": [config_of(k["config"], htp, npus, allowed)
                                         for k in c.get("candidates", [])]}
    json.dump(want, open(d + "/" + want_file, "w"))
    return 0


def learn(d, htp, npus, allowed):
    """The second run of exec auto --learn: every region restored."""
    return auto(d, htp, npus, allowed, "t5.json", "want5.json", restored=True)


def check(report, want_path, timing=None):
    want = json.load(open(want_path))
    seen = {}
    for line in open(report):
        f = line.split()
        if len(f) == 4 and f[0] in want:
            seen.setdefault(f[0], []).append((int(f[1]), int(f[2]), cpus(f[3])))
    bad = 0
    for name, w in sorted(want.items()):
        rows = seen.get(name, [])
        if "candidates" in w:  # the candidate every thread's place matches, if one
            fits = [k for k in w["candidates"] if len(rows) == k["threads"] and all(
                nt == k["threads"] and got == place_list(k["omp_places"])[t % k["threads"]]
                for t, nt, got in rows)]
            if not fits:
                print("region %s: threads %s on no candidate's places" % (name, sorted(
                    (t, sorted(got)) for t, _, got in rows)))
                bad += 1
                continue
            w.update(fits[0], config="%s: %s" % (w["config"], fits[0]["config"]))
        pl = place_list(w["omp_places"])
        if len(rows) != w["threads"]:
            print("region %s: %d threads reported, wanted %d" % (name, len(rows), w["threads"]))
            bad += 1
        for t, nt, got in rows:
            if nt != w["threads"] or got != pl[t % len(pl)]:
                print("region %s thread %d of %d on %s, wanted %s of %s" %
                      (name, t, nt, sorted(got), sorted(pl[t % len(pl)]), w["omp_places"]))
                bad += 1
    if timing:  # the timing layer's binding records of the same run
        for name, r in zip("AB", regions_of(timing)):
            w = want[name]
            pl = place_list(w["omp_places"])
            if not r.get("bindings"):
                print("timing: region %s has no binding record" % name)
                bad += 1
            for b in r.get("bindings", []):
                if b["team"] != w["threads"]:
                    print("timing: region %s team %d, wanted %d" % (name, b["team"], w["threads"]))
                    bad += 1
                for t, th in enumerate(b["threads"]):
                    if th is None or cpus(th["cpus"]) != pl[t % len(pl)] or th["pu"] not in pl[t % len(pl)]:
                        print("timing: region %s thread %d on %s, wanted %s" %
                              (name, t, th, sorted(pl[t % len(pl)])))
                        bad += 1
    print("checked: " + ", ".join("%s %s %d threads" % (
        n, w["config"] if "config" in w else "%s %d" % (w["policy"], w["threads"]),
        len(seen.get(n, []))) for n, w in sorted(want.items())))
    return 1 if bad else 0


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "plan":
        sys.exit(plan(args[0], args[1], int(args[2])))
    if cmd == "auto":
        sys.exit(auto(args[0], args[1], int(args[2]), args[3]))
    if cmd == "learn":
        sys.exit(learn(args[0], args[1], int(args[2]), args[3]))
    sys.exit(check(*args))
