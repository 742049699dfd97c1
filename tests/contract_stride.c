/*
 * contract_stride: a program that relies on its team size the way OpenMP
 * 5.2 §10.1.1 lets it (dyn-var false: a region without a num_threads
 * clause gets nthreads-var threads) -- it reads omp_get_num_threads() in a
 * first region and strides the loops of later regions by that count, each
 * thread taking i = t, t + nt, ...  A later region run with fewer threads
 * leaves parts undone (issue 30: 99600000 instead of 140000000); with more,
 * it computes parts twice.  Prints the team size read and the sum, which
 * must not depend on anything but OMP_NUM_THREADS and omp_set_num_threads:
 *
 *   contract_stride [COUNT]    (COUNT later regions, default 300)
 *   team NT
 *   sum S                      (COUNT x 14000, whatever NT is)
 *
 * A test program of test_contract.sh, built without omp_ext: per-region
 * control reaches it by LD_PRELOAD (exec auto, exec --plan).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1000

int main(int argc, char **argv)
{
  int count = argc > 1 ? atoi(argv[1]) : 300, nt = 0, k;
  long sum = 0;
#pragma omp parallel
  {
#pragma omp single
    nt = omp_get_num_threads();
  }
  for (k = 0; k < count; k++) {
    /* two regions of different lengths, as a solver's: each strided by nt */
#pragma omp parallel reduction(+ : sum)
    {
      int i;
      for (i = omp_get_thread_num(); i < N; i += nt)
        sum += 4;
    }
#pragma omp parallel reduction(+ : sum)
    {
      int i, j;
      for (i = omp_get_thread_num(); i < N; i += nt)
        for (j = 0; j < 10; j++)
          sum += 1;
    }
  }
  printf("team %d\nsum %ld\n", nt, sum);
  return 0;
}
