/*
 * region_probe: two outermost regions, A and B, each run COUNT times
 * (argument, default 300), alternating.  In the last instance of each,
 * every thread reports where it is bound, one line per thread:
 *
 *   A T NTHREADS CPULIST      (B likewise)
 *
 * CPULIST: the thread's affinity mask ("0-3,8").  REGION_PROBE_AUTO=1: first
 * omp_set_ht_policy(omp_ht_policy_auto) of the preloaded libomp_ext (found
 * with dlsym), printing "set RESULT".  REGION_PROBE_ASK=1: first
 * omp_get_max_threads(), printing "max N" (a program that may cut its work
 * by it: per-region control then keeps the team size).  REGION_PROBE_POLICY=1:
 * first omp_get_ht_policy() of the preloaded libomp_ext, printing "policy
 * P" (0: os, unset).  An OpenMP program of this
 * build's compiler without omp_ext: test_region.sh drives per-region
 * control (htplaces exec --plan, OMP_EXT_HT_POLICY=auto) into it through
 * the preloaded library.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpulist.h"

static void report(const char *name)
{
  char list[256];
  cpulist_of_thread(list, sizeof(list));
#pragma omp critical
  printf("%s %d %d %s\n", name, omp_get_thread_num(), omp_get_num_threads(), list);
}

int main(int argc, char **argv)
{
  int count = argc > 1 ? atoi(argv[1]) : 300, i;
  volatile double sink = 0;
  const char *api = getenv("REGION_PROBE_AUTO"), *ask = getenv("REGION_PROBE_ASK");
  const char *pol = getenv("REGION_PROBE_POLICY");
  if (ask && *ask == '1')
    printf("max %d\n", omp_get_max_threads());
  if (pol && *pol == '1') { /* the policy libomp_ext reports: OMP_EXT_HT_POLICY's effect */
    int (*get)(void);
    *(void **)&get = dlsym(RTLD_DEFAULT, "omp_get_ht_policy");
    printf("policy %d\n", get ? get() : -999);
  }
  if (api && *api == '1') {
    int (*set)(int);
    *(void **)&set = dlsym(RTLD_DEFAULT, "omp_set_ht_policy");
    printf("set %d\n", set ? set(0x100) : -999); /* omp_ht_policy_auto */
  }
  for (i = 0; i < count; i++) {
#pragma omp parallel
    {
      if (i == count - 1)
        report("A");
    }
#pragma omp parallel
    {
      double s = 0;
      int k;
      for (k = 0; k < 2000; k++)
        s += k * 0.5;
#pragma omp atomic
      sink += s;
      if (i == count - 1)
        report("B");
    }
  }
  return sink < 0;
}
