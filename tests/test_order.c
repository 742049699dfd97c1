/*
 * Orders on the paper's machines (synthetic strings): exact place lists.
 */
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "omp_ext.h"

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"

/* The policy's first n places on topology `input`, as OMP_PLACES text. */
static char *places(const char *input, const char *policy, unsigned n)
{
  omp_ext_topo_t *topo;
  omp_ht_policy_t p;
  omp_ext_pu_t *order = malloc(n * sizeof(*order));
  char *text = NULL;
  CU_ASSERT_FATAL(order != NULL);
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, input, 0) == 0);
  CU_ASSERT_FATAL(omp_ext_policy_from_name(policy, &p) == 0);
  CU_ASSERT_FATAL(omp_ext_order(topo, p, n, order) == 0);
  CU_ASSERT_FATAL(omp_ext_places_format(order, n, omp_ext_format_omp, &text) == 0);
  free(order);
  omp_ext_topo_destroy(topo);
  return text;
}

#define ASSERT_PLACES(input, policy, n, expected)   \
  do {                                               \
    char *got_ = places(input, policy, n);           \
    CU_ASSERT_STRING_EQUAL(got_, expected);          \
    free(got_);                                      \
  } while (0)

static void test_c6100(void)
{
  ASSERT_PLACES(C6100, "spn", 8, "{0},{8},{1},{9},{2},{10},{3},{11}");
  ASSERT_PLACES(C6100, "speedup", 8, "{0},{1},{2},{3},{4},{5},{6},{7}");
  ASSERT_PLACES(C6100, "spread", 8, "{0},{4},{1},{5},{2},{6},{3},{7}");
}

static CU_TestInfo paper_tests[] = {
  {"Dell C6100, siblings +8", test_c6100},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"paper machines", NULL, NULL, NULL, NULL, paper_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
