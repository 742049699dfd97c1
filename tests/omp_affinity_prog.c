/*
 * A small OpenMP program for htplaces verify's tests, built with the CMake
 * compiler (gcc: libgomp, clang: libomp).
 *   omp_affinity_prog           one parallel region, exit 0
 *   omp_affinity_prog serial    no parallel region
 *   omp_affinity_prog fail      one parallel region, exit 3
 */
#include <omp.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
  volatile double sum = 0;
  int serial = argc > 1 && strcmp(argv[1], "serial") == 0;
  int fail = argc > 1 && strcmp(argv[1], "fail") == 0;
  if (!serial) {
#pragma omp parallel
    {
      int i;
      for (i = 0; i < 100000; i++)
        sum += i;
    }
  }
  printf("omp_affinity_prog: max threads %d\n", omp_get_max_threads());
  return fail ? 3 : 0;
}
