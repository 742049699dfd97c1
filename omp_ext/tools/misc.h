/*
 * omp_ext/tools/misc.h -- the tools' helpers: what htplaces and htbench share
 * that is no part of libomp_ext's interface (as hwloc keeps its tools'
 * helpers in utils/hwloc/misc.h).  Built as the static library omp_ext_misc
 * (omp_ext/CMakeLists.txt: tools/stats.c, tools/misc.c, and the library's
 * lib/util.c and lib/median.c, whose helpers private/util.h and
 * private/median.h declare and the library compiles in too), linked into
 * the tools only: nothing here is exported from libomp_ext.so.  The one
 * header through which the tools outside omp_ext/ (benchmarks) see those
 * library helpers.
 */
#ifndef OMP_EXT_MISC_H
#define OMP_EXT_MISC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "omp_ext.h"
#include "private/median.h"
#include "private/tools.h"
#include "private/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- stats.c */

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
int omp_ext_stats_compute(double *x, unsigned n, omp_ext_stats_t *st);

/**
 * Student's t quantile t(0.975, df): the two-sided 95% factor.  Exact to
 * three decimals for df 1..30 (table: error below 0.0005), then the
 * Cornish-Fisher expansion to the 1/df^3 term (error below 2e-6).
 * \return the quantile; NaN for df 0.
 */
double omp_ext_student_t975(unsigned df);

/**
 * Do two 95% confidence intervals [a_lo, a_hi] and [b_lo, b_hi] overlap?
 * Used as the "no significant difference" verdict between two
 * configurations (a conservative test: overlapping intervals are reported as
 * not significantly different).
 * \return 1 (they overlap), 0 (disjoint).
 */
int omp_ext_ci_overlap(double a_lo, double a_hi, double b_lo, double b_hi);

/* ----------------------------------------------------------------- misc.c */

/**
 * The line that `htplaces --version` and `htbench --version` print:
 * "TOOL VERSION (hwloc RUN)" with RUN from omp_ext_hwloc_version(), or
 * "TOOL VERSION (hwloc RUN, built with hwloc BUILT)" when the hwloc
 * compiled against (HWLOC_VERSION) differs; no newline.
 *
 * \param tool  the program's name and any qualifier, e.g. "htbench (omp_ext)".
 * \param buf   receives the NUL-terminated line.
 * \param size  bytes at buf.
 * \return 0; omp_ext_err_invalid (NULL argument or size 0);
 *         omp_ext_err_range (truncated).
 */
int omp_ext_version_line(const char *tool, char *buf, size_t size);

/**
 * The tools' error line on stderr: "TOOL: MESSAGE", MESSAGE formatted from
 * \p fmt and \p ap (at most 4095 bytes), one line whatever the user typed
 * (control characters become '?').  htp_error() and htb_error() call it.
 * \return status.
 */
int omp_ext_tool_verror(const char *tool, int status, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_MISC_H */
