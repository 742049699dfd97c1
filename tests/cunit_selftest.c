/*
 * cunit_main.h's exit status, on crafted programs (test_cunit_main runs
 * this with each CUNIT_SELFTEST value; tests/README.md, "Skips"):
 *   pass      one test passes                           -> 0
 *   fail      one assertion fails                       -> 1
 *   setup     the only suite's setup fails (no test ran) -> 1
 *   cleanup   a suite's cleanup fails after its tests   -> 1
 *   none      no test at all                            -> 77
 *   allskip   every test skips                          -> 77
 *   partskip  one of two tests skips                    -> 0 and the
 *             "omp_ext-skipped: ... 1 of 2 skipped: REASON" line
 */
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"

static int fails(void) { return 1; }
static void passes(void) { CU_ASSERT(1); }
static void fails_assert(void) { CU_ASSERT(0); }
static void skips(void) { OMP_EXT_SKIP("crafted reason"); }
static void skips_twice(void)
{
  OMP_EXT_SKIP("first part");
  OMP_EXT_SKIP("second part"); /* one test: counted once */
}

static CU_TestInfo pass_tests[] = {{"passes", passes}, CU_TEST_INFO_NULL};
static CU_TestInfo fail_tests[] = {{"fails", fails_assert}, CU_TEST_INFO_NULL};
static CU_TestInfo skip_tests[] = {{"skips", skips}, {"skips twice", skips_twice}, CU_TEST_INFO_NULL};
static CU_TestInfo part_tests[] = {{"passes", passes}, {"skips", skips}, CU_TEST_INFO_NULL};
static CU_TestInfo no_tests[] = {CU_TEST_INFO_NULL};

static CU_SuiteInfo s_pass[] = {{"pass", NULL, NULL, NULL, NULL, pass_tests}, CU_SUITE_INFO_NULL};
static CU_SuiteInfo s_fail[] = {{"fail", NULL, NULL, NULL, NULL, fail_tests}, CU_SUITE_INFO_NULL};
static CU_SuiteInfo s_setup[] = {{"setup", fails, NULL, NULL, NULL, pass_tests}, CU_SUITE_INFO_NULL};
static CU_SuiteInfo s_cleanup[] = {{"cleanup", NULL, fails, NULL, NULL, pass_tests},
                                   CU_SUITE_INFO_NULL};
static CU_SuiteInfo s_none[] = {{"none", NULL, NULL, NULL, NULL, no_tests}, CU_SUITE_INFO_NULL};
static CU_SuiteInfo s_allskip[] = {{"allskip", NULL, NULL, NULL, NULL, skip_tests},
                                   CU_SUITE_INFO_NULL};
static CU_SuiteInfo s_partskip[] = {{"partskip", NULL, NULL, NULL, NULL, part_tests},
                                    CU_SUITE_INFO_NULL};

static CU_SuiteInfo *suites = s_pass;

__attribute__((constructor)) static void pick(void)
{
  static const struct {
    const char *name;
    CU_SuiteInfo *suites;
  } modes[] = {{"pass", s_pass},       {"fail", s_fail}, {"setup", s_setup},
               {"cleanup", s_cleanup}, {"none", s_none}, {"allskip", s_allskip},
               {"partskip", s_partskip}};
  const char *m = getenv("CUNIT_SELFTEST");
  unsigned i;
  for (i = 0; m && i < sizeof(modes) / sizeof(modes[0]); i++)
    if (!strcmp(m, modes[i].name))
      suites = modes[i].suites;
}

OMP_EXT_CUNIT_MAIN(suites)
