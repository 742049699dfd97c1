/*
 * The median (median.h): one function for the library's timing file, the
 * tools' statistics and the benchmarks.
 */
#include "private/median.h"

/* The k-th smallest of v[0 .. n-1] (k < n), v reordered so that none
 * before it is larger (Wirth's selection, as in "Algorithms + Data
 * Structures = Programs", 1976).  Only equal values change places when v
 * is sorted. */
static double select_kth(double *v, size_t n, size_t k)
{
  long lo = 0, hi = (long)n - 1, kk = (long)k;
  while (lo < hi) {
    double x = v[kk], t;
    long i = lo, j = hi;
    do {
      while (v[i] < x)
        i++;
      while (x < v[j])
        j--;
      if (i <= j) {
        t = v[i], v[i] = v[j], v[j] = t;
        i++, j--;
      }
    } while (i <= j);
    if (j < kk)
      lo = i;
    if (kk < i)
      hi = j;
  }
  return v[kk];
}

double omp_ext_median(double *v, size_t n)
{
  double hi, lo;
  size_t i;
  if (n == 0)
    return 0;
  hi = select_kth(v, n, n / 2);
  if (n % 2)
    return hi;
  /* v[0 .. n/2-1] hold the n/2 smallest now: the largest of them. */
  for (lo = v[0], i = 1; i < n / 2; i++)
    lo = v[i] > lo ? v[i] : lo;
  return (lo + hi) / 2;
}
