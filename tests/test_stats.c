/*
 * Statistics of repeated timings (omp_ext/tools/stats.c, omp_ext/tools/misc.h: the tools' helpers),
 * used by htbench and htplaces tune: median, sd, the Student t confidence
 * interval, outliers, t(0.975, df) against the exact quantiles.  Its own
 * program (moved from test_htbench): fast, for tests/mutate.sh.
 */
#include <math.h>
#include <stdio.h>

#include "cunit_main.h"
#include "misc.h"
#include "omp_ext.h"

static void test_stats_known(void)
{
  double x[10] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  omp_ext_stats_t s;
  omp_ext_stats_compute(x, 10, &s);
  CU_ASSERT_EQUAL(s.n, 10);
  CU_ASSERT_DOUBLE_EQUAL(s.median, 5.5, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.min, 1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.max, 10, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.mean, 5.5, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.sd, 3.0276503540974917, 1e-9); /* sample sd of 1..10 */
  /* t(0.975, 9) = 2.262: half width 2.262 * 3.02765 / sqrt(10) = 2.16585 */
  CU_ASSERT_DOUBLE_EQUAL(s.ci95_hi - s.mean, 2.262 * 3.0276503540974917 / sqrt(10), 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(s.mean - s.ci95_lo, s.ci95_hi - s.mean, 1e-12);
  CU_ASSERT_EQUAL(s.outliers, 0);
}

static void test_stats_outlier(void)
{
  double x[13] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 100};
  double odd[3] = {3, 1, 2};
  double near[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 10};
  omp_ext_stats_t s;
  omp_ext_stats_compute(x, 13, &s);
  CU_ASSERT_EQUAL(s.outliers, 1); /* 100 is 3.3 sd above the mean */
  CU_ASSERT_DOUBLE_EQUAL(s.median, 1, 1e-12);
  /* 10 among nine 0s: mean 1, sd sqrt(10), 2.85 sd away: not beyond 3 sd
   * (tests/mutate.sh: an outlier rule at 2 sd survived the sample above) */
  omp_ext_stats_compute(near, 10, &s);
  CU_ASSERT_DOUBLE_EQUAL(s.sd, sqrt(10), 1e-12);
  CU_ASSERT_EQUAL(s.outliers, 0);
  omp_ext_stats_compute(odd, 3, &s);
  CU_ASSERT_DOUBLE_EQUAL(s.median, 2, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(omp_ext_student_t975(1), 12.706, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(omp_ext_student_t975(29), 2.045, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(omp_ext_student_t975(1000), 1.962, 2e-3);
  CU_ASSERT(isnan(omp_ext_student_t975(0)));
}

/* t(0.975, df) against the exact quantiles (mpmath, 10 digits): the table
 * within 0.0005 (3 decimals), beyond df 30 within 2e-6 as stats.h says (on
 * main: 1.96 + 2.37 / df, off by 0.0031 at df 31). */
static void test_student_t975_exact(void)
{
  static const double table[30] = {
    12.70620474, 4.30265273, 3.182446305, 2.776445105, 2.570581836, 2.446911851,
    2.364624252, 2.306004135, 2.262157163, 2.228138852, 2.20098516,  2.17881283,
    2.160368656, 2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.10092204,
    2.093024054, 2.085963447, 2.079613845, 2.073873068, 2.06865761,  2.063898562,
    2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456};
  static const struct {
    unsigned df;
    double t;
  } beyond[] = {{31, 2.039513446}, {35, 2.030107928},  {40, 2.02107539},
                {60, 2.000297822}, {100, 1.983971519}, {1000, 1.962339081},
                {100000, 1.959987708}};
  unsigned i;
  for (i = 0; i < 30; i++)
    CU_ASSERT_DOUBLE_EQUAL(omp_ext_student_t975(i + 1), table[i], 0.0005);
  for (i = 0; i < sizeof(beyond) / sizeof(beyond[0]); i++)
    CU_ASSERT_DOUBLE_EQUAL(omp_ext_student_t975(beyond[i].df), beyond[i].t, 2e-6);
}

static CU_TestInfo stats_tests[] = {
  {"statistics of 1..10 (median, sd, Student t CI)", test_stats_known},
  {"outliers beyond 3 sd, odd median, t table", test_stats_outlier},
  {"t(0.975, df) against the exact quantiles", test_student_t975_exact},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"stats", NULL, NULL, NULL, NULL, stats_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
