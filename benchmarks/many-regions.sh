#!/bin/sh
# many-regions.sh BUILD [REGIONS] [WORK] [CC]: htplaces tune's own cost on a
# program of REGIONS parallel regions (default 5000; issue 33: one addr2line
# per region made 1000 regions cost 36 s of tune's own time, 98 %).
#
# Generates a C program of REGIONS functions, each one parallel region that
# adds WORK numbers per thread (default 200000, about 0.2 ms), all called once per run;
# builds it with CC (default cc) -O2 -g (debug information: every region
# named FILE:LINE by addr2line, the costly path); runs
#   htplaces tune --reps 3 --threads 1,2 --policies none,spn -- PROGRAM
# and prints tune's closing line, then "tune's own time / the runs' time".
# The goal: under 10 %.
set -eu
build=$(cd "$1" && pwd) regions=${2:-5000} work=${3:-200000} cc=${4:-cc}
htp=$build/bin/htplaces
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT

# The program: region_K() for K < REGIONS, main() calling each once.
awk -v n="$regions" -v w="$work" 'BEGIN {
  print "#include <stdio.h>\n#include <omp.h>\nstatic volatile double sink;"
  for (k = 0; k < n; k++) {
    printf "__attribute__((noinline)) static void region_%d(void)\n{\n", k
    printf "#pragma omp parallel\n  {\n    double s = 0;\n"
    printf "    for (int i = 0; i < %d; i++)\n      s += i * %d.5;\n", w, k % 7
    printf "#pragma omp atomic\n    sink += s;\n  }\n}\n"
  }
  print "int main(void)\n{"
  for (k = 0; k < n; k++)
    printf "  region_%d();\n", k
  print "  printf(\"%g\\n\", sink);\n  return 0;\n}"
}' >"$tmp/many.c"
"$cc" -O2 -g -fopenmp -o "$tmp/many" "$tmp/many.c"

echo "load before: $(cat /proc/loadavg)"
"$htp" tune --reps 3 --threads 1,2 --policies none,spn -- "$tmp/many" >"$tmp/table" 2>"$tmp/err"
named=$(grep -c "many.c:" "$tmp/table" || true)
line=$(grep "tune's own time" "$tmp/err")
echo "$line"
echo "regions named FILE:LINE: $named of $regions"
echo "$line" | awk '{ for (i = 1; i <= NF; i++) { if ($i == "took") runs = $(i + 1);
                                                 if ($i == "time" && $(i - 1) == "own") own = $(i + 1) } }
                    END { printf "tune'\''s own time / the runs'\'' time: %.1f %%\n", 100 * own / runs }'
echo "load after: $(cat /proc/loadavg)"
