#!/bin/sh
# Run the README's commands, so that a README command that breaks fails CI;
# and the README is at most 400 lines.
# Marker convention of the README's fenced blocks:
#   ```sh       each block runs as one `sh -e` script: every command must succeed;
#   ```console  each "$ CMD" line runs (sh -c), and its standard output and
#               error together must be exactly the lines shown after it (up
#               to the next "$ " line or the end of the block); its exit
#               status is not checked (error examples exit 2);
#   ```c        compiled with the build's compiler against the build's
#               libomp_ext (-lomp_ext before -fopenmp) and run: must exit 0;
#   ```text, ```cmake and others: not run (they need root, a network, an
#               install, an MPI launcher or a cluster, or are the set-up).
# Everything runs in a scratch folder with the build's programs first in
# PATH, no OMP_*, KMP_*, GOMP_* or launcher variable set, and ./app an
# OpenMP program of the build (tests/omp_affinity_prog.c).
# Usage: test_readme.sh README HTPLACES_DIR HTBENCH_DIR APP CC INCLUDE_DIR LIB_DIR
set -eu
readme=$1 bindir=$2 benchdir=$3 app=$4 cc=$5 incdir=$6 libdir=$7
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in $(env | sed -n 's/^\(\(OMP\|KMP\|GOMP\|OMPI\|PMIX\|SLURM\|MPI_LOCAL\)[A-Za-z0-9_]*\)=.*/\1/p'); do
  unset "$v"
done
PATH="$bindir:$benchdir:$PATH"
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH LD_LIBRARY_PATH
mkdir "$work/run"
cp "$app" "$work/run/app"

# Split the README into numbered blocks: $work/blocks/NNN.KIND (line of the
# opening fence in NNN.line).
mkdir "$work/blocks"
awk -v dir="$work/blocks" '
  /^```/ && !inblock { kind = substr($0, 4); if (kind == "") kind = "none";
                       n++; f = sprintf("%s/%03d.%s", dir, n, kind); inblock = 1;
                       print NR > sprintf("%s/%03d.line", dir, n); printf "" > f; next }
  /^```$/ && inblock { inblock = 0; close(f); next }
  inblock { print > f }' "$readme"

pass=0 fail=0
bad() { echo "FAIL: README line $1: $2"; fail=$((fail + 1)); }

# The README stays short (the user's path; figures in benchmarks/RESULTS.md).
if [ "$(wc -l <"$readme")" -gt 400 ]; then
  bad "$(wc -l <"$readme")" "README.md has more than 400 lines: move details to the man pages or benchmarks/RESULTS.md"
else
  pass=$((pass + 1))
fi

for f in "$work"/blocks/*.sh; do
  [ -e "$f" ] || continue
  line=$(cat "${f%.sh}.line")
  if (cd "$work/run" && sh -e "$f") >"$work/out" 2>&1; then
    pass=$((pass + 1))
  else
    bad "$line" "sh block failed:"; sed 's/^/  /' "$f"; echo "  output:"; sed 's/^/  | /' "$work/out"
  fi
done

for f in "$work"/blocks/*.console; do
  [ -e "$f" ] || continue
  line=$(cat "${f%.console}.line")
  # One command file and one expected-output file per "$ " line.
  awk -v base="$work/cmd" '
    /^\$ / { n++; cmd = sprintf("%s.%02d", base, n); print substr($0, 3) > cmd; close(cmd);
             wf = sprintf("%s.%02d.want", base, n); printf "" > wf; next }
    n { print > wf }' "$f"
  for c in "$work"/cmd.[0-9][0-9]; do
    [ -e "$c" ] || continue
    (cd "$work/run" && sh -c "$(cat "$c")") >"$work/got" 2>&1 || true
    if cmp -s "$work/got" "$c.want"; then
      pass=$((pass + 1))
    else
      bad "$line" "\$ $(cat "$c")"; diff "$c.want" "$work/got" | sed 's/^/  /'
    fi
  done
  rm -f "$work"/cmd.*
done

for f in "$work"/blocks/*.c; do
  [ -e "$f" ] || continue
  line=$(cat "${f%.c}.line")
  cp "$f" "$work/prog.c"
  if ! "$cc" -Wall -Wextra -Werror -I"$incdir" -o "$work/prog" "$work/prog.c" -L"$libdir" \
       -lomp_ext -fopenmp >"$work/out" 2>&1; then
    bad "$line" "c block does not compile:"; sed 's/^/  | /' "$work/out"
  elif ! (cd "$work/run" && "$work/prog") >"$work/out" 2>&1; then
    bad "$line" "c block's program failed:"; sed 's/^/  | /' "$work/out"
  else
    pass=$((pass + 1))
  fi
done

[ "$pass" -gt 0 ] || { echo "FAIL: no README block was run"; exit 1; }
echo "readme: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
