/*
 * A small OpenMP program for htplaces verify's tests, built with the CMake
 * compiler (gcc: libgomp, clang: libomp).
 *   omp_affinity_prog           one parallel region, exit 0
 *   omp_affinity_prog serial    no parallel region
 *   omp_affinity_prog fail      one parallel region, exit 3
 *   omp_affinity_prog signal    one parallel region, then killed by SIGUSR1
 *   omp_affinity_prog nested    a region with a nested team of 2 in each
 *                               thread (max active levels 2), exit 0
 * Any other argument is ignored.
 */
#include <omp.h>
#include <signal.h>
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
