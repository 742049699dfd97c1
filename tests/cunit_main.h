/*
 * Shared main() for omp_ext's CUnit test programs: each program defines
 * `static CU_TestInfo NAME_tests[]` arrays and a `CU_SuiteInfo suites[]`
 * table, then OMP_EXT_CUNIT_MAIN(suites).
 * Fixture paths are relative to OMP_EXT_TEST_DIR (set by CMake).
 *
 * Exit status (tests/README.md, "Skips"):
 *   1  any failed assertion, failed test, or suite whose setup or cleanup
 *      failed (its tests did not run: that is a failure, never a pass);
 *   77 nothing was tested: no test ran, or every test that ran skipped
 *      (ctest's SKIP_RETURN_CODE, set on every test); the reasons on stderr;
 *   0  otherwise.  When some tests skipped, one stderr line
 *      "omp_ext-skipped: PROGRAM: N of M skipped: REASON; ..." says so
 *      (tests/run.sh lists and counts these lines).
 * A test that cannot run here calls OMP_EXT_SKIP("why") and returns; a
 * test that skips only a part calls it too (counted once per test).
 */
#ifndef OMP_EXT_CUNIT_MAIN_H
#define OMP_EXT_CUNIT_MAIN_H

#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#ifndef OMP_EXT_TEST_DIR
#define OMP_EXT_TEST_DIR "."
#endif

/* The skips of this program (one test at a time: CUnit runs them in
 * sequence, from the main thread). */
static struct {
  unsigned tests;       /* tests that called OMP_EXT_SKIP */
  CU_pTest last;        /* the last of them */
  char why[1024];       /* "test: reason; ..." (shortened) */
} omp_ext_skips;

static __attribute__((unused)) void omp_ext_skip(const char *why)
{
  CU_pTest t = CU_get_current_test();
  size_t len = strlen(omp_ext_skips.why);
  if (t && t == omp_ext_skips.last)
    return; /* that test is counted already */
  omp_ext_skips.last = t;
  omp_ext_skips.tests++;
  printf("(skipped: %s) ", why); /* on CUnit's own line of the test */
  fflush(stdout);
  if (len < sizeof(omp_ext_skips.why))
    snprintf(omp_ext_skips.why + len, sizeof(omp_ext_skips.why) - len, "%s%s: %s",
             len ? "; " : "", t && t->pName ? t->pName : "?", why);
}

/** Count the current test as skipped, with the reason (then return). */
#define OMP_EXT_SKIP(why) omp_ext_skip(why)

/* The exit status from CUnit's counts and the skips (see above). */
static int omp_ext_cunit_status(const char *prog)
{
  unsigned failed = CU_get_number_of_failure_records() + CU_get_number_of_tests_failed() +
                    CU_get_number_of_suites_failed();
  unsigned ran = CU_get_number_of_tests_run();
  if (failed) {
    if (CU_get_number_of_suites_failed())
      fprintf(stderr, "%s: %u suite(s) failed their setup (their tests did not run) or cleanup\n",
              prog, CU_get_number_of_suites_failed());
    return 1;
  }
  if (ran == 0) {
    fprintf(stderr, "%s: skipped: no test ran\n", prog);
    return 77;
  }
  if (omp_ext_skips.tests >= ran) {
    fprintf(stderr, "%s: skipped: all %u tests: %s\n", prog, ran, omp_ext_skips.why);
    return 77;
  }
  if (omp_ext_skips.tests)
    fprintf(stderr, "omp_ext-skipped: %s: %u of %u skipped: %s\n", prog, omp_ext_skips.tests,
            ran, omp_ext_skips.why);
  return 0;
}

#define OMP_EXT_CUNIT_MAIN(suites)                                        \
  int main(int argc, char **argv)                                         \
  {                                                                       \
    int status;                                                           \
    const char *prog = argc > 0 && strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 \
                       : argc > 0 ? argv[0] : "test";                     \
    if (CU_initialize_registry() != CUE_SUCCESS)                          \
      return 2;                                                           \
    if (CU_register_suites(suites) != CUE_SUCCESS) {                      \
      fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());                 \
      CU_cleanup_registry();                                              \
      return 2;                                                           \
    }                                                                     \
    CU_basic_set_mode(CU_BRM_VERBOSE);                                    \
    CU_basic_run_tests();                                                 \
    status = omp_ext_cunit_status(prog);                                  \
    CU_cleanup_registry();                                                \
    return status;                                                        \
  }

#endif
