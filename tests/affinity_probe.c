/*
 * affinity_probe: an OpenMP program that prints, for each thread of one
 * parallel region, the CPUs it may run on (sched_getaffinity), one line per
 * thread: "THREAD LIST" with LIST as OS indexes "0,8" in ascending order.
 * Built with the build's compiler: gcc -> libgomp, clang -> libomp.
 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

int main(void)
{
  int n = omp_get_max_threads();
  char (*lines)[4096] = calloc((size_t)n, sizeof(*lines));
  int t, team = 0;
  if (!lines)
    return 1;
#pragma omp parallel
  {
    int me = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();
    if (me < n)
      cpulist_of_thread(lines[me], sizeof(lines[me]));
  }
  for (t = 0; t < team && t < n; t++)
    printf("%d %s\n", t, lines[t]);
  free(lines);
  return 0;
}
