/*
 * bench_api: what the in-code policy API costs (a benchmark, never a test).
 *
 *   bench_api [REPS]
 *
 * 1. Empty parallel region, EPCC style (syncbench "PARALLEL"): REPS outer
 *    repetitions of INNER empty regions of 2 threads; the time per region of
 *    each repetition; median and minimum.  First with no policy ever set
 *    (omp_ext's hooks return at once), then after omp_set_ht_policy(spn).
 * 2. One omp_set_ht_policy() call (it binds a team at once: one region plus
 *    one bind per thread) with teams of 1 and 2 threads, alternating spn and
 *    speedup so every call re-binds; median and minimum of REPS*10 calls.
 *
 * Built with the build's compiler (gcc -> libgomp, clang -> libomp); run the
 * gcc build with LD_PRELOAD=libiomp5.so for Intel's runtime, and with
 * OMP_TOOL=disabled to see what omp_ext's OMPT tool costs under libomp.
 * Microseconds, CLOCK_MONOTONIC.
 */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "omp_ext.h"

#define INNER 2000

static void report(const char *what, double *t, int n)
{
  sort_doubles(t, n);
  printf("%-44s %10.3f %10.3f\n", what, t[n / 2], t[0]);
}

static void empty_regions(const char *what, double *t, int reps)
{
  int r, i;
  for (r = 0; r < reps; r++) {
    double t0 = now_us();
    for (i = 0; i < INNER; i++) {
#pragma omp parallel num_threads(2)
      {
        /* empty, as EPCC's PARALLEL test without its delay; the barrier
         * for the compiler keeps the region from being optimised away */
        __asm__ __volatile__("" ::: "memory");
      }
    }
    t[r] = (now_us() - t0) / INNER;
  }
  report(what, t, reps);
}

static int set_calls(const char *what, int nthreads, double *t, int n)
{
  int i, err;
  omp_set_num_threads(nthreads);
  for (i = 0; i < n; i++) {
    double t0 = now_us();
    err = omp_set_ht_policy(i % 2 ? omp_ht_policy_spn : omp_ht_policy_speedup);
    t[i] = now_us() - t0;
    if (err) {
      fprintf(stderr, "bench_api: omp_set_ht_policy: %s\n", omp_ext_strerror(err));
      return 1;
    }
  }
  report(what, t, n);
  return 0;
}

int main(int argc, char **argv)
{
  int reps = argc > 1 ? atoi(argv[1]) : 51, calls;
  double *t;
  if (reps < 1 || !(t = malloc((size_t)reps * 10 * sizeof(*t)))) {
    fprintf(stderr, "bench_api: usage: bench_api [REPS >= 1]\n");
    return 2;
  }
  calls = reps * 10;
  printf("%-44s %10s %10s\n", "measure (microseconds)", "median", "min");
  empty_regions("warm-up (discarded)", t, reps < 5 ? reps : 5);
  empty_regions("empty region, 2 threads, no policy", t, reps);
  if (omp_set_ht_policy(omp_ht_policy_spn) != 0) {
    fprintf(stderr, "bench_api: omp_set_ht_policy failed\n");
    return 1;
  }
  empty_regions("empty region, 2 threads, policy spn", t, reps);
  /* os: hooks live (policy set) but threads unbound: the hooks' own cost,
   * apart from what binding does to wake-up times. */
  if (omp_set_ht_policy(omp_ht_policy_os) != 0)
    return 1;
  empty_regions("empty region, 2 threads, policy os", t, reps);
  if (set_calls("omp_set_ht_policy(), 1 thread", 1, t, calls) ||
      set_calls("omp_set_ht_policy(), 2 threads", 2, t, calls))
    return 1;
  printf("hooks: 0x%x (1 OMPT tool started, 2 OMPT hook ran, 4 GOMP wrapper ran)\n",
         omp_ext_ht_hooks());
  free(t);
  return 0;
}
