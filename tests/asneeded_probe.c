/*
 * asneeded_probe: a gcc program whose only OpenMP symbol is GOMP_parallel,
 * linked `-Wl,--as-needed ... -lomp_ext -fopenmp`: libomp_ext's wrapper
 * satisfies it and the linker drops libgomp.  The wrapper must then find
 * (load) the runtime instead of aborting.  Prints the team size: 2.
 */
#include <stdio.h>

int main(void)
{
  int n = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic
    n++;
  }
  printf("%d\n", n);
  return 0;
}
