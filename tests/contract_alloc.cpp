/*
 * contract_alloc: per-thread storage allocated by the team size read in a
 * first region (C++: one std::vector a thread), filled by later regions,
 * each thread its own, then summed by the primary thread.  A later region
 * with more threads writes past the vector of vectors (issue 30: "free():
 * invalid next size", SIGSEGV -- OMP_NUM_THREADS=1 ignored); with fewer,
 * parts stay empty and the sum is short.  Prints:
 *
 *   contract_alloc [COUNT]     (COUNT later regions, default 300)
 *   team NT
 *   sum S                      (COUNT x 1000, whatever NT is)
 */
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv)
{
  int count = argc > 1 ? std::atoi(argv[1]) : 300, nt = 0;
#pragma omp parallel
  {
#pragma omp single
    nt = omp_get_num_threads();
  }
  double *parts = new double[nt * 8](); /* one cache line a thread */
  std::vector<std::vector<int>> seen(nt);
  for (int k = 0; k < count; k++) {
#pragma omp parallel
    {
      int t = omp_get_thread_num();
      for (int i = t; i < 1000; i += nt)
        parts[t * 8] += 1.0;
      seen[t].push_back(k);
    }
  }
  double sum = 0;
  for (int t = 0; t < nt; t++)
    sum += parts[t * 8];
  std::printf("team %d\nsum %.0f\n", nt, sum);
  delete[] parts;
  return 0;
}
