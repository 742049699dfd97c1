#!/bin/sh
# No cycles: (1) among the object files of the given archives, an object
# pointing at another when it calls or reads a symbol that the other defines
# (nm: undefined in the first, defined in the second); (2) among the source
# files' quoted includes (#include "NAME" resolved as the build does: the
# file's own folder, then include/, omp_ext/lib, omp_ext/tools,
# omp_ext/tools/sweep, omp_ext/htplaces, omp_ext/slurm, benchmarks), over
# include/, omp_ext/ and benchmarks/ (tests apart).  Each cycle found is
# printed with its files, one line, and the test fails.
# Registered in ctest (tests/CMakeLists.txt) with every archive of the build
# but the Fortran module's (issue 32, must hold).
# Usage: sh test_cycles.sh SOURCE_DIR ARCHIVE...
set -eu
src=$1
shift
[ $# -ge 1 ] || { echo "usage: test_cycles.sh SOURCE_DIR ARCHIVE..."; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for a in "$@"; do
  [ -f "$a" ] || { echo "FAIL: no archive $a"; exit 1; }
  # "archive:member: ... TYPE NAME"; one member name is one object (util.c.o
  # is in both the library's and the tools' archives: the same source).
  nm -A --defined-only "$a" 2>/dev/null | awk '$(NF-1) ~ /^[TDBRWVGSi]$/ {
    n = split($1, p, ":"); print "D", p[n - 1], $NF }'
  nm -A -u "$a" 2>/dev/null | awk '{ n = split($1, p, ":"); print "U", p[n - 1], $NF }'
done >"$tmp/symbols"
python3 - "$src" "$tmp/symbols" <<'PY'
import os, re, sys

src, symbols = sys.argv[1], sys.argv[2]


def sccs(graph):
    """Tarjan's strongly connected components with more than one node."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = n[0]; n[0] += 1; stack.append(w); on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop(); on.discard(w); comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


# 1. objects
defined, undefined = {}, {}
for line in open(symbols):
    kind, obj, sym = line.split()
    if kind == "D":
        defined.setdefault(sym, set()).add(obj)
    else:
        undefined.setdefault(obj, set()).add(sym)
objs = set(o for s in defined.values() for o in s) | set(undefined)
graph = {o: set() for o in objs}
for obj, syms in undefined.items():
    for s in syms:
        for d in defined.get(s, ()):
            if d != obj:
                graph[obj].add(d)
obj_cycles = sccs(graph)
for c in obj_cycles:
    print("object cycle: " + " ".join(c))

# 2. includes
dirs = ["include", "omp_ext/lib", "omp_ext/tools", "omp_ext/tools/sweep",
        "omp_ext/htplaces", "omp_ext/slurm", "benchmarks"]
files = []
for top in ("include", "omp_ext", "benchmarks"):
    for root, _, names in os.walk(os.path.join(src, top)):
        files += [os.path.join(root, n) for n in names if n.endswith((".c", ".h", ".in"))]
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
igraph = {}
for f in files:
    rel = os.path.relpath(f, src)
    igraph.setdefault(rel, set())
    for line in open(f, errors="replace"):
        m = inc.match(line)
        if not m:
            continue
        for d in [os.path.dirname(rel)] + dirs:
            cand = os.path.normpath(os.path.join(d, m.group(1)))
            if os.path.exists(os.path.join(src, cand)):
                igraph[rel].add(cand)
                break
inc_cycles = sccs(igraph)
for c in inc_cycles:
    print("include cycle: " + " ".join(c))
nedges = sum(len(v) for v in igraph.values())
if len(objs) < 50 or nedges < 100:
    print("FAIL: only %d objects, %d include arrows: wrong archives or folder?" % (len(objs), nedges))
    sys.exit(1)
if obj_cycles or inc_cycles:
    print("FAIL: %d object cycle(s), %d include cycle(s)" % (len(obj_cycles), len(inc_cycles)))
    sys.exit(1)
print("test_cycles: %d objects, %d source files (%d include arrows): no cycle"
      % (len(objs), len(files), nedges))
PY
