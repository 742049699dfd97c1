/*
 * The clock and the sort of the small benchmarks (bench_api, bench_hooks):
 * header-only, as bench_hooks_plain links nothing of omp_ext.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdlib.h>
#include <time.h>

/* CLOCK_MONOTONIC in microseconds. */
static inline double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static inline int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* t[0..n-1] in ascending order. */
static inline void sort_doubles(double *t, int n)
{
  qsort(t, (size_t)n, sizeof(*t), cmp_double);
}

#endif /* BENCH_H */
