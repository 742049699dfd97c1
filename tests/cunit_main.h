/*
 * Shared main() for omp_ext's CUnit test programs: each program defines
 * `static CU_TestInfo NAME_tests[]` arrays and a `CU_SuiteInfo suites[]`
 * table, then OMP_EXT_CUNIT_MAIN(suites).  Exit status 1 on any failure.
 * Fixture paths are relative to OMP_EXT_TEST_DIR (set by CMake).
 */
#ifndef OMP_EXT_CUNIT_MAIN_H
#define OMP_EXT_CUNIT_MAIN_H

#include <CUnit/Basic.h>
#include <stdio.h>

#ifndef OMP_EXT_TEST_DIR
#define OMP_EXT_TEST_DIR "."
#endif

#define OMP_EXT_CUNIT_MAIN(suites)                                        \
  int main(void)                                                          \
  {                                                                       \
    unsigned failed;                                                      \
    if (CU_initialize_registry() != CUE_SUCCESS)                          \
      return 2;                                                           \
    if (CU_register_suites(suites) != CUE_SUCCESS) {                      \
      fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());                 \
      CU_cleanup_registry();                                              \
      return 2;                                                           \
    }                                                                     \
    CU_basic_set_mode(CU_BRM_VERBOSE);                                    \
    CU_basic_run_tests();                                                 \
    failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed(); \
    failed += CU_get_number_of_failure_records() ? 0 : 0;                 \
    CU_cleanup_registry();                                                \
    return failed ? 1 : 0;                                                \
  }

#endif
