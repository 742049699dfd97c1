/*
 * inline_probe: one parallel construct in a function that the compiler
 * inlines at two call sites, X and Y, each run COUNT times (argument,
 * default 5), alternating.  In the last instance of each, the primary
 * thread prints the site and its team size:
 *
 *   X NTHREADS
 *   Y NTHREADS
 *
 * Under libgomp both sites call GOMP_parallel with the same outlined
 * function; per-region control (auto, htplaces exec --plan) tells them
 * apart by call site, and so must the timing layer that htplaces tune's
 * plan comes from (test_inline_region.sh).  Like region_probe: this
 * build's compiler, no omp_ext (the library preloaded).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) void region(const char *site, int last)
{
#pragma omp parallel
  {
    if (last && omp_get_thread_num() == 0)
      printf("%s %d\n", site, omp_get_num_threads());
  }
}

int main(int argc, char **argv)
{
  int count = argc > 1 ? atoi(argv[1]) : 5, i;
  for (i = 0; i < count; i++) {
    region("X", i == count - 1);
    region("Y", i == count - 1);
  }
  return 0;
}
