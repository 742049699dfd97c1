/*
 * clause_probe: a region with a num_threads(2) clause and 12 shared
 * variables (clang passes each to __kmpc_fork_call: omp_ext's wrapper
 * forwards them by count, through its trampoline when it binds), run
 * COUNT times (argument, default 50).  Prints
 *
 *   team N          the team size of the last instance (the clause's 2)
 *   sum S           the shared variables' weighted sum times COUNT (506 x
 *                   COUNT): every argument reached the region intact
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  int count = argc > 1 ? atoi(argv[1]) : 50, i, team = 0;
  long a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, k = 9, l = 10, m = 11, sum = 0;
  for (i = 0; i < count; i++) {
#pragma omp parallel num_threads(2) shared(a, b, c, d, e, f, g, h, k, l, m, sum, team)
    {
      long v = a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * k + 10 * l + 11 * m;
#pragma omp atomic
      sum += v;
      if (omp_get_thread_num() == 0)
        team = omp_get_num_threads();
    }
  }
  printf("team %d\nsum %ld\n", team, sum / team);
  return 0;
}
