/*
 * No 64-PU ceiling in the tests: on a 256-PU synthetic topology
 * (HWLOC_SYNTHETIC, 2 packages x 64 cores x 2 PUs) the tests' own helpers
 * (policy_orders_new(), used by test_bind and test_exec) give every
 * policy's whole order, and test_bind, which cannot bind on a topology
 * that is not this machine's, fails its setup loudly instead of passing
 * without running (on main: policy_orders() refused more than 64 PUs and
 * test_bind printed "Ran 0" and exited 0).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "testutil.h"

#define LARGE "pack:2 core:64 pu:2"
#define LARGE_NPUS 256u

static void test_orders_256(void)
{
  unsigned npus = 0, p, t, *orders;
  static unsigned char seen[LARGE_NPUS];
  CU_ASSERT_EQUAL_FATAL(setenv("HWLOC_SYNTHETIC", LARGE, 1), 0);
  orders = policy_orders_new(&npus);
  unsetenv("HWLOC_SYNTHETIC");
  CU_ASSERT_PTR_NOT_NULL_FATAL(orders);
  CU_ASSERT_EQUAL_FATAL(npus, LARGE_NPUS);
  for (p = 0; p < OMP_EXT_NPOLICIES; p++) {
    memset(seen, 0, sizeof(seen));
    for (t = 0; t < npus; t++) {
      unsigned pu = POLICY_ORDER(orders, npus, p, t);
      CU_ASSERT_FATAL(pu < LARGE_NPUS);
      CU_ASSERT_EQUAL(seen[pu], 0); /* a permutation of the 256 PUs */
      seen[pu] = 1;
    }
  }
  /* spn fills a core (PUs 2c, 2c+1 in this synthetic numbering) before the
   * next; speedup's first 128 threads are on 128 distinct cores */
  for (t = 0; t < npus; t += 2)
    CU_ASSERT_EQUAL(POLICY_ORDER(orders, npus, omp_ht_policy_spn, t) / 2,
                    POLICY_ORDER(orders, npus, omp_ht_policy_spn, t + 1) / 2);
  memset(seen, 0, sizeof(seen));
  for (t = 0; t < npus / 2; t++) {
    unsigned core = POLICY_ORDER(orders, npus, omp_ht_policy_speedup, t) / 2;
    CU_ASSERT_EQUAL(seen[core], 0);
    seen[core] = 1;
  }
  free(orders);
}

/* test_bind on the 256-PU topology (not this machine: hwloc's environment): its setup fails
 * (exit 1, the reason on stderr), never a pass without a test run. */
static void test_bind_setup_fails_loudly(void)
{
  char *argv[] = {TEST_BIND_BIN, NULL};
  char *env[] = {"HWLOC_SYNTHETIC=" LARGE, NULL};
  struct run_result r;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &r), 0);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "test_bind: 256 PUs in the topology"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "suite(s) failed their setup"));
  run_free(&r);
}

static CU_TestInfo large_tests[] = {
  {"every policy's order on 256 PUs (test_bind, test_exec's helper)", test_orders_256},
  {"test_bind on a 256-PU topology not this machine's: setup failure", test_bind_setup_fails_loudly},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"large topology", NULL, NULL, NULL, NULL, large_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
