/*
 * Statistics of repeated timings, EPCC's way (Bull, "Measuring
 * synchronisation and scheduling overheads in OpenMP", EWOMP 1999): median,
 * min, max, mean, standard deviation, a 95% confidence interval of the mean
 * (Student t) and the samples further than 3 standard deviations from the
 * mean.  Used by htbench and htplaces tune: one of the tools' helpers
 * (misc.h), not part of libomp_ext.
 */
#include <math.h>
#include <stdlib.h>

#include "misc.h"

/* t(0.975, df) for df = 1..30; beyond, the normal 1.96 with a 1/df term
 * (error < 0.002 for df > 30). */
static const double t975[30] = {
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
  2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
  2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double omp_ext_student_t975(unsigned df)
{
  if (df == 0)
    return NAN;
  if (df <= 30)
    return t975[df - 1];
  return 1.959964 + 2.37 / df;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int omp_ext_stats_compute(double *x, unsigned n, omp_ext_stats_t *st)
{
  double sum = 0, ss = 0, half;
  unsigned i;

  if (!x || !st || n == 0)
    return omp_ext_err_invalid;
  for (i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return omp_ext_err_invalid;
  qsort(x, n, sizeof(*x), cmp_double);
  st->n = n;
  st->min = x[0];
  st->max = x[n - 1];
  st->median = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
  for (i = 0; i < n; i++)
    sum += x[i];
  st->mean = sum / n;
  for (i = 0; i < n; i++)
    ss += (x[i] - st->mean) * (x[i] - st->mean);
  st->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
  half = n > 1 ? omp_ext_student_t975(n - 1) * st->sd / sqrt(n) : 0;
  st->ci95_lo = st->mean - half;
  st->ci95_hi = st->mean + half;
  st->outliers = 0;
  for (i = 0; i < n; i++)
    if (st->sd > 0 && fabs(x[i] - st->mean) > 3 * st->sd)
      st->outliers++;
  return omp_ext_success;
}

int omp_ext_ci_overlap(double a_lo, double a_hi, double b_lo, double b_hi)
{
  return a_lo <= b_hi && b_lo <= a_hi;
}
