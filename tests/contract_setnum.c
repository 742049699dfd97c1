/*
 * contract_setnum: omp_set_num_threads() honoured (OpenMP 5.2 §18.2.1:
 * it sets nthreads-var, the team of the next regions without a clause).
 * The program sets 1, then its first team size again, then 1, running
 * COUNT regions after each call, and prints the team sizes each phase saw
 * (a team other than the one it set prints it):
 *
 *   contract_setnum [COUNT]    (default 200)
 *   phase 1 teams 1
 *   phase 2 teams NT
 *   phase 3 teams 1
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static void phase(int p, int count)
{
  int k, seen[2] = {0, 0}, nseen = 0, i;
  for (k = 0; k < count; k++) {
    int team = 0;
#pragma omp parallel
    {
#pragma omp single
      team = omp_get_num_threads();
    }
    for (i = 0; i < nseen && seen[i] != team; i++)
      ;
    if (i == nseen && nseen < 2)
      seen[nseen++] = team;
  }
  printf("phase %d teams", p);
  for (i = 0; i < nseen; i++)
    printf(" %d", seen[i]);
  printf("\n");
}

int main(int argc, char **argv)
{
  int count = argc > 1 ? atoi(argv[1]) : 200, nt = 0;
#pragma omp parallel
  {
#pragma omp single
    nt = omp_get_num_threads();
  }
  omp_set_num_threads(1);
  phase(1, count);
  omp_set_num_threads(nt);
  phase(2, count);
  omp_set_num_threads(1);
  phase(3, count);
  return 0;
}
