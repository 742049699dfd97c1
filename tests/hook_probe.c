/*
 * hook_probe: how often omp_ext's per-region hooks ran, and whether the
 * team stayed bound.  An OpenMP program of this build's compiler linked
 * with libomp_ext (before the runtime).  Prints, one per line:
 *
 *   nopolicy CALLS        after 200 regions of 2 threads, no policy set
 *   policy50 CALLS        after omp_set_ht_policy_num_threads(spn, 2) and 50 regions
 *   policy150 CALLS       after 100 more regions
 *   grown CALLS           after 1 region of 3 threads, then 50 of 2
 *   cycled CALLS          after 10 regions of 4, 2, 4, 2... threads (libgomp: a smaller
 *                         team ends the surplus threads, a larger one starts new ones)
 *   bound OK BAD          regions x threads after the policy: on omp_get_ht_pu(t) or not
 *   hooks BITS            omp_ext_ht_hooks()
 *
 * CALLS is omp_ext_ht_hook_calls().  Regions: 200 + 1 (omp_ext's own, in
 * omp_set_ht_policy) + 150 + 1 + 50 + 10 = 412 level-1 regions.
 */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

#include "omp_ext.h"

static unsigned ok, bad;

static void regions(int n, int nthreads, int check)
{
  int r;
  for (r = 0; r < n; r++) {
#pragma omp parallel num_threads(nthreads)
    {
      if (check) {
        char list[256], want[32];
        int t = omp_get_thread_num();
        cpulist_of_thread(list, sizeof(list));
        snprintf(want, sizeof(want), "%d", omp_get_ht_pu(t));
#pragma omp atomic
        ok += strcmp(list, want) == 0;
#pragma omp atomic
        bad += strcmp(list, want) != 0;
      }
    }
  }
}

int main(void)
{
  int err;
  regions(200, 2, 0);
  printf("nopolicy %lu\n", omp_ext_ht_hook_calls());
  if ((err = omp_set_ht_policy_num_threads(omp_ht_policy_spn, 2)) != 0) {
    fprintf(stderr, "hook_probe: %s\n", omp_ext_strerror(err));
    return 1;
  }
  regions(50, 2, 1);
  printf("policy50 %lu\n", omp_ext_ht_hook_calls());
  regions(100, 2, 1);
  printf("policy150 %lu\n", omp_ext_ht_hook_calls());
  regions(1, 3, 1);
  regions(50, 2, 1);
  printf("grown %lu\n", omp_ext_ht_hook_calls());
  for (err = 0; err < 10; err++)
    regions(1, err % 2 ? 2 : 4, 1);
  printf("cycled %lu\n", omp_ext_ht_hook_calls());
  printf("bound %u %u\n", ok, bad);
  printf("hooks %d\n", omp_ext_ht_hooks());
  return 0;
}
