/*
 * nested_probe: an OpenMP program linked with libomp_ext that sets
 * omp_set_ht_policy_num_threads(POLICY, 2), allows 2 active levels and runs
 * 2 rounds of a region of 2 threads, each with a nested region of 2.  It
 * prints "allowed LIST" (its affinity before the call), then one line
 * "ROUND LEVEL OUTER THREAD LIST" per thread (OUTER: the level-1 thread
 * number; LIST: sched_getaffinity as "0,1").  Built with the build's
 * compiler (gcc -> libgomp, clang -> libomp).
 *   nested_probe POLICY
 */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>

#include "cpulist.h"

#include "omp_ext.h"

#define ROUNDS 2

int main(int argc, char **argv)
{
  static char lines[ROUNDS][2][3][256]; /* [round][outer][0: level 1, 1..2: inner 0..1] */
  char allowed[256];
  omp_ht_policy_t policy;
  int r, o, i, err;
  if (argc != 2 || omp_ext_policy_from_name(argv[1], &policy) != 0) {
    fprintf(stderr, "usage: nested_probe POLICY\n");
    return 2;
  }
  cpulist_of_thread(allowed, sizeof(allowed));
  omp_set_max_active_levels(2);
  if ((err = omp_set_ht_policy_num_threads(policy, 2)) != 0) {
    fprintf(stderr, "nested_probe: %s\n", omp_ext_strerror(err));
    return 1;
  }
  for (r = 0; r < ROUNDS; r++) {
#pragma omp parallel num_threads(2)
    {
      int outer = omp_get_thread_num();
      if (omp_get_num_threads() == 2)
        cpulist_of_thread(lines[r][outer][0], sizeof(lines[r][outer][0]));
#pragma omp parallel num_threads(2)
      {
        int inner = omp_get_thread_num();
        if (omp_get_num_threads() == 2 && omp_get_level() == 2)
          cpulist_of_thread(lines[r][outer][1 + inner], sizeof(lines[r][outer][1 + inner]));
      }
    }
  }
  printf("allowed %s\n", allowed);
  for (r = 0; r < ROUNDS; r++)
    for (o = 0; o < 2; o++) {
      printf("%d 1 %d %d %s\n", r, o, o, lines[r][o][0][0] ? lines[r][o][0] : "none");
      for (i = 0; i < 2; i++)
        printf("%d 2 %d %d %s\n", r, o, i, lines[r][o][1 + i][0] ? lines[r][o][1 + i] : "none");
    }
  return 0;
}
