#!/bin/sh
# The EXAMPLE section of omp_ext_share(3) (scale, scale_tail, scale_steal)
# compiled as written with the build's compiler against the build's
# libomp_ext, and run in teams of 1 to 4: each function must double every
# element of its array exactly once and return 0, and, with an invalid
# OMP_EXT_SIGMA in a team of 2, return non-zero.  (The tail example once
# stopped each thread after its first chunk of the tail and said 0.)
# Usage: test_share_examples.sh SOURCE_DIR CC INCLUDE_DIR LIB_DIR
set -eu
src=$1 cc=$2 incdir=$3 libdir=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk '/^\.SH EXAMPLE/ { on = 1; next } /^\.SH / { on = 0 }
     on && /^\.nf/ { inb = 1; next } on && /^\.fi/ { inb = 0; next } on && inb' \
  "$src/man/man3/omp_ext_share.3" >"$work/prog.c"
for f in scale scale_tail scale_steal; do
  grep -q "^[a-z]* $f(double \*x, long n)" "$work/prog.c" || { echo "FAIL: no $f() in the page"; exit 1; }
done
cat >>"$work/prog.c" <<'MAIN'

#include <stdio.h>
#include <stdlib.h>

/* Each example once on 0, 1, ..., n-1: each element doubled exactly once. */
static int check(const char *name, const double *x, long n, int err)
{
  long i, bad = 0;
  for (i = 0; i < n; i++)
    bad += x[i] != 2.0 * (double)i;
  if (err || bad)
    printf("%s: returned %d, %ld of %ld elements wrong\n", name, err, bad, n);
  return err || bad;
}

/* With an invalid OMP_EXT_SIGMA (argument "bad"): every example must say
 * that its loop was not done. */
static int check_errors(void)
{
  double x[100];
  int fails = 0;
  if (!scale(x, 100))
    fails += puts("scale: returned 0 without sigma") >= 0;
  if (!scale_tail(x, 100))
    fails += puts("scale_tail: returned 0 without sigma") >= 0;
  if (!scale_steal(x, 100))
    fails += puts("scale_steal: returned 0 without sigma") >= 0;
  return fails != 0;
}

int main(int argc, char **argv)
{
  static const long sizes[] = {0, 1, 2, 3, 17, 100000};
  unsigned s;
  int fails = 0;
  if (argc > 1 && argv[1][0] == 'b')
    return check_errors();
  for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
    long n = sizes[s], i;
    double *x = malloc((size_t)(n ? n : 1) * sizeof(*x));
    if (!x)
      return 2;
    for (i = 0; i < n; i++)
      x[i] = (double)i;
    fails += check("scale", x, n, scale(x, n));
    for (i = 0; i < n; i++)
      x[i] = (double)i;
    fails += check("scale_tail", x, n, scale_tail(x, n));
    for (i = 0; i < n; i++)
      x[i] = (double)i;
    fails += check("scale_steal", x, n, scale_steal(x, n));
    free(x);
  }
  return fails != 0;
}
MAIN
if ! "$cc" -Wall -Wextra -Werror -I"$incdir" -o "$work/prog" "$work/prog.c" -L"$libdir" \
     -lomp_ext -fopenmp >"$work/out" 2>&1; then
  echo "FAIL: the examples do not compile:"; sed 's/^/  | /' "$work/out"; exit 1
fi
fail=0
for t in 1 2 3 4; do
  if ! LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" OMP_NUM_THREADS=$t \
       "$work/prog" >"$work/out" 2>&1; then
    echo "FAIL: $t threads:"; sed 's/^/  | /' "$work/out"; fail=$((fail + 1))
  fi
done
echo "share examples: $((4 - fail)) of 4 team sizes passed"
# The error path: a team of 2 with an invalid OMP_EXT_SIGMA (a team of one
# needs no sigma).
if ! LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" OMP_NUM_THREADS=2 \
     OMP_EXT_SIGMA=abc "$work/prog" bad >"$work/out" 2>&1; then
  echo "FAIL: an example returned 0 with OMP_EXT_SIGMA=abc:"; sed 's/^/  | /' "$work/out"
  fail=$((fail + 1))
fi
[ "$fail" -eq 0 ]
