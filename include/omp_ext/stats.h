/*
 * omp_ext/stats.h -- statistics of repeated timings.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_STATS_H
#define OMP_EXT_STATS_H

#include "omp_ext/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup stats Statistics of repeated measurements                      */
/* ------------------------------------------------------------------------ */

/** Statistics of n samples (units: those of the samples, e.g. seconds). */
typedef struct omp_ext_stats {
  unsigned n;               /**< number of samples */
  double median, min, max;  /**< order statistics */
  double mean, sd;          /**< mean and sample standard deviation (n - 1) */
  double ci95_lo, ci95_hi;  /**< 95% confidence interval of the mean (Student t) */
  unsigned outliers;        /**< samples with |x - mean| > 3 sd */
} omp_ext_stats_t;

/**
 * Statistics of x[0..n-1], as EPCC's microbenchmarks report them (Bull,
 * EWOMP 1999): median, min, max, mean, sample standard deviation, the 95%
 * confidence interval of the mean, mean -+ t(0.975, n - 1) * sd / sqrt(n),
 * and the count of samples further than 3 sd from the mean.  One sample
 * gives sd 0 and the interval [x, x].
 *
 * \param x   n samples; sorted in place (ascending).
 * \param n   at least 1.
 * \param st  receives the statistics.
 * \return 0; omp_ext_err_invalid (x or st NULL, n 0, or a sample not finite).
 */
OMP_EXT_API int omp_ext_stats_compute(double *x, unsigned n, omp_ext_stats_t *st);

/**
 * Student's t quantile t(0.975, df): the two-sided 95% factor.  Exact to
 * three decimals for df 1..30 (table: error below 0.0005), then the
 * Cornish-Fisher expansion to the 1/df^3 term (error below 2e-6).
 * \return the quantile; NaN for df 0.
 */
OMP_EXT_API double omp_ext_student_t975(unsigned df);

/**
 * Do two 95% confidence intervals [a_lo, a_hi] and [b_lo, b_hi] overlap?
 * Used as the "no significant difference" verdict between two
 * configurations (a conservative test: overlapping intervals are reported as
 * not significantly different).
 * \return 1 (they overlap), 0 (disjoint).
 */
OMP_EXT_API int omp_ext_ci_overlap(double a_lo, double a_hi, double b_lo, double b_hi);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_STATS_H */
