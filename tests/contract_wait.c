/*
 * contract_wait: the primary thread of each region waits until the whole
 * team -- as many threads as the first region had (omp_get_num_threads()
 * there) -- has arrived, as a hand-made barrier or a server that hands out
 * one part per thread does (OpenBLAS's OpenMP server spins so).  A region
 * run with fewer threads than that hangs: test_contract.sh runs it under
 * timeout.  Prints the team and the arrivals counted:
 *
 *   contract_wait [COUNT]      (COUNT regions, default 300)
 *   team NT
 *   arrived A                  (COUNT x NT)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  int count = argc > 1 ? atoi(argv[1]) : 300, nt = 0, k;
  long arrived = 0;
#pragma omp parallel
  {
#pragma omp single
    nt = omp_get_num_threads();
  }
  for (k = 0; k < count; k++) {
#pragma omp parallel
    {
      __atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL);
      if (omp_get_thread_num() == 0)
        while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < (long)(k + 1) * nt)
          ; /* the whole team must come */
    }
  }
  printf("team %d\narrived %ld\n", nt, arrived);
  return 0;
}
