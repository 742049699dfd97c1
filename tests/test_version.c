/*
 * Versions (omp_ext/config.h, omp_ext/version.h): the compile-time macros
 * and the running library's omp_ext_version() / omp_ext_get_version() agree
 * and are project()'s; hwloc's is the one of the library loaded (here the Debian libhwloc whose
 * -dev package CMake found), and `htplaces --version` / `htbench --version`
 * print both.
 */
#include <stdio.h>
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

/* The macros are numbers the preprocessor can compare. */
#if !defined(OMP_EXT_VERSION_HEX) || OMP_EXT_VERSION_HEX != ((OMP_EXT_VERSION_MAJOR << 16) | \
    (OMP_EXT_VERSION_MINOR << 8) | OMP_EXT_VERSION_PATCH)
#error "OMP_EXT_VERSION_HEX is not 0xMMmmpp of OMP_EXT_VERSION_MAJOR/MINOR/PATCH"
#endif

static void test_numbers(void)
{
  char text[32];
  /* compile time: config.h's numbers are project()'s (passed by CMake) */
  CU_ASSERT_EQUAL(OMP_EXT_VERSION_MAJOR, PROJECT_VERSION_MAJOR_NUM);
  CU_ASSERT_EQUAL(OMP_EXT_VERSION_MINOR, PROJECT_VERSION_MINOR_NUM);
  CU_ASSERT_EQUAL(OMP_EXT_VERSION_PATCH, PROJECT_VERSION_PATCH_NUM);
  snprintf(text, sizeof(text), "%d.%d.%d", OMP_EXT_VERSION_MAJOR, OMP_EXT_VERSION_MINOR,
           OMP_EXT_VERSION_PATCH);
  CU_ASSERT_STRING_EQUAL(text, OMP_EXT_VERSION);
  /* run time: the library's own, the same here */
  CU_ASSERT_EQUAL(omp_ext_version(), OMP_EXT_VERSION_HEX);
  /* The API version: 0xMMmm00, its own number (not the package's), and the
   * running library's equals the headers'. */
  CU_ASSERT_EQUAL(OMP_EXT_API_VERSION & 0xffu, 0u);
  CU_ASSERT(OMP_EXT_API_VERSION >= 0x00010000);
  CU_ASSERT_EQUAL(omp_ext_get_api_version(), OMP_EXT_API_VERSION);
  CU_ASSERT_EQUAL(omp_ext_version(), (unsigned)((PROJECT_VERSION_MAJOR_NUM << 16) |
                                                (PROJECT_VERSION_MINOR_NUM << 8) |
                                                PROJECT_VERSION_PATCH_NUM));
  snprintf(text, sizeof(text), "%u.%u.%u", omp_ext_version() >> 16, (omp_ext_version() >> 8) & 0xff,
           omp_ext_version() & 0xff);
  CU_ASSERT_STRING_EQUAL(text, omp_ext_get_version());
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
  {"OMP_EXT_VERSION_MAJOR/MINOR/PATCH/HEX vs omp_ext_version()", test_numbers},
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
