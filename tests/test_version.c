/*
 * Versions at run time (omp_ext/version.h): libomp_ext's is project()'s,
 * hwloc's is the one of the library loaded (here the Debian libhwloc whose
 * -dev package CMake found), and `htplaces --version` / `htbench --version`
 * print both.
 */
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "misc.h"
#include "omp_ext.h"
#include "testutil.h"

static void test_library(void)
{
  CU_ASSERT_STRING_EQUAL(omp_ext_get_version(), PROJECT_VERSION_STR);
  CU_ASSERT_STRING_EQUAL(omp_ext_get_version(), OMP_EXT_VERSION);
}

static void test_hwloc(void)
{
  char buf[64], small[3];
  CU_ASSERT_EQUAL(omp_ext_hwloc_version(buf, sizeof(buf)), omp_ext_success);
  CU_ASSERT_STRING_EQUAL(buf, HWLOC_PKG_VERSION); /* pkg-config --modversion hwloc */
  CU_ASSERT_STRING_EQUAL(buf, HWLOC_VERSION);     /* built and run with the same */
  CU_ASSERT_EQUAL(omp_ext_hwloc_version(small, sizeof(small)), omp_ext_err_range);
  CU_ASSERT_EQUAL(strlen(small), 2);
  CU_ASSERT_EQUAL(strncmp(small, HWLOC_VERSION, 2), 0);
  CU_ASSERT_EQUAL(omp_ext_hwloc_version(NULL, 8), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_hwloc_version(buf, 0), omp_ext_err_invalid);
}

static void test_line(void)
{
  char buf[128], small[8];
  CU_ASSERT_EQUAL(omp_ext_version_line("tool", buf, sizeof(buf)), omp_ext_success);
  CU_ASSERT_STRING_EQUAL(buf, "tool " PROJECT_VERSION_STR " (hwloc " HWLOC_PKG_VERSION ")");
  CU_ASSERT_EQUAL(omp_ext_version_line("tool", small, sizeof(small)), omp_ext_err_range);
  CU_ASSERT_EQUAL(strlen(small), sizeof(small) - 1); /* truncated, terminated */
  CU_ASSERT_EQUAL(strncmp(small, "tool " PROJECT_VERSION_STR, sizeof(small) - 1), 0);
  CU_ASSERT_EQUAL(omp_ext_version_line(NULL, buf, sizeof(buf)), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_version_line("tool", NULL, 8), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_version_line("tool", buf, 0), omp_ext_err_invalid);
}

static void check_tool(const char *bin, const char *want)
{
  char *argv[] = {(char *)bin, "--version", NULL};
  struct run_result r;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, NULL, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, want);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  run_free(&r);
}

static void test_tools(void)
{
  check_tool(HTPLACES_BIN, "htplaces " PROJECT_VERSION_STR " (hwloc " HWLOC_PKG_VERSION ")\n");
  check_tool(HTBENCH_BIN,
             "htbench (omp_ext) " PROJECT_VERSION_STR " (hwloc " HWLOC_PKG_VERSION ")\n");
}

static CU_TestInfo version_tests[] = {
  {"omp_ext_get_version is project()'s", test_library},
  {"omp_ext_hwloc_version: the loaded hwloc", test_hwloc},
  {"omp_ext_version_line", test_line},
  {"htplaces --version, htbench --version", test_tools},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"version", NULL, NULL, NULL, NULL, version_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
