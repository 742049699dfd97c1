/*
 * A small OpenMP program for htplaces verify's tests, built with the CMake
 * compiler (gcc: libgomp, clang: libomp).
 *   omp_affinity_prog           one parallel region, exit 0
 *   omp_affinity_prog serial    no parallel region
 *   omp_affinity_prog fail      one parallel region, exit 3
 *   omp_affinity_prog signal    one parallel region, then killed by SIGUSR1
 *   omp_affinity_prog nested    a region with a nested team of 2 in each
 *                               thread (max active levels 2), exit 0
 *   omp_affinity_prog move      one region in which the last thread moves
 *                               itself (sched_setaffinity) to thread 0's
 *                               CPUs, then every thread waits 300 ms; prints
 *                               "moved thread N to CPU C", exit 0
 * Any other argument is ignored.
 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <string.h>

static int is(int argc, char **argv, const char *mode)
{
  return argc > 1 && strcmp(argv[1], mode) == 0;
}

int main(int argc, char **argv)
{
  volatile double sum = 0;
  if (is(argc, argv, "nested")) {
    omp_set_max_active_levels(2);
#pragma omp parallel
    {
#pragma omp parallel num_threads(2)
      {
        int i;
        for (i = 0; i < 1000; i++)
          sum += i;
      }
    }
  } else if (is(argc, argv, "move")) {
    cpu_set_t first;
    CPU_ZERO(&first);
#pragma omp parallel
    {
      struct timespec wait = {0, 300000000L};
      int me = omp_get_thread_num(), last = omp_get_num_threads() - 1, c;
      if (me == 0)
        sched_getaffinity(0, sizeof(first), &first);
#pragma omp barrier
      if (me == last && me > 0 && sched_setaffinity(0, sizeof(first), &first) == 0) {
        for (c = 0; c < CPU_SETSIZE && !CPU_ISSET(c, &first); c++)
          ;
#pragma omp critical
        printf("omp_affinity_prog: moved thread %d to CPU %d\n", me, c);
      }
      nanosleep(&wait, NULL);
    }
  } else if (!is(argc, argv, "serial")) {
#pragma omp parallel
    {
      int i;
      for (i = 0; i < 100000; i++)
        sum += i;
    }
  }
  printf("omp_affinity_prog: max threads %d\n", omp_get_max_threads());
  fflush(stdout);
  if (is(argc, argv, "signal"))
    raise(SIGUSR1);
  return is(argc, argv, "fail") ? 3 : 0;
}
