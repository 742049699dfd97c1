/*
 * mixed_regions: an unmodified OpenMP program of mixed regions (issue 23's
 * benchmark): ITER iterations of SYNC tiny "sync" regions (a 64-element
 * reduction: team start and barrier dominate, fewer threads win) and one
 * large "work" region (a compute loop over N elements: every core wins).
 * Prints the checksum and the wall time:
 *
 *   mixed_regions [ITER [SYNC [N]]]     defaults 100 1000 400000
 *   checksum C
 *   time_s T
 *
 * MIXED_HAND=1 runs the hand-chosen per-region optimum instead (a code
 * change the other variants do not need): num_threads(1) on the sync
 * regions, the default team on the work region.  Built with the build's
 * compiler (gcc -> libgomp, clang -> libomp); no omp_ext: auto and
 * `htplaces exec --plan` reach it by preloading libomp_ext.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double sync_region(const double *v, int hand)
{
  double s = 0;
  int i;
  if (hand) {
#pragma omp parallel for reduction(+ : s) num_threads(1)
    for (i = 0; i < 64; i++)
      s += v[i];
  } else {
#pragma omp parallel for reduction(+ : s)
    for (i = 0; i < 64; i++)
      s += v[i];
  }
  return s;
}

static double work_region(double *a, long n)
{
  double s = 0;
  long i;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (i = 0; i < n; i++) {
    double x = a[i];
    int k;
    for (k = 0; k < 8; k++)
      x = sqrt(x * x + 1.0) * 0.5;
    a[i] = x;
    s += x;
  }
  return s;
}

int main(int argc, char **argv)
{
  int iter = argc > 1 ? atoi(argv[1]) : 100, nsync = argc > 2 ? atoi(argv[2]) : 1000;
  long n = argc > 3 ? atol(argv[3]) : 400000, i;
  const char *h = getenv("MIXED_HAND");
  int hand = h && *h == '1', it, k;
  double *a = malloc((size_t)n * sizeof(*a)), v[64], sum = 0, t0;
  if (!a || iter < 1 || nsync < 0 || n < 1) {
    fprintf(stderr, "usage: mixed_regions [ITER [SYNC [N]]] (positive whole numbers)\n");
    return 2;
  }
  for (i = 0; i < n; i++)
    a[i] = (double)(i % 1000) * 1e-3;
  for (k = 0; k < 64; k++)
    v[k] = (double)k * 0.25;
  t0 = now_s();
  for (it = 0; it < iter; it++) {
    for (k = 0; k < nsync; k++)
      sum += sync_region(v, hand) * 1e-6;
    sum += work_region(a, n) * 1e-9;
  }
  printf("checksum %.6f\ntime_s %.6f\n", sum, now_s() - t0);
  free(a);
  return 0;
}
