/*
 * Cores at two depths of hwloc's tree.  Where L1 caches are per thread
 * (QEMU) and one sibling of a core is offline, hwloc puts that core below
 * its L1 cache and the other cores above theirs: Core objects at two depths,
 * whose logical indexes restart at each depth (both "Core L#0").  The
 * fixture is an lstopo export made inside the smtvm "offline" guest (2
 * packages x 2 cores x 2 threads, siblings n and n+4, CPU 5 offline).
 * omp_ext must still see 4 cores (one with PU 1 alone), never a 3-PU core.
 */
#include <stdio.h>
#include <string.h>

#include "cunit_main.h"
#include "omp_ext.h"

#define FIXTURE OMP_EXT_TEST_DIR "/smtvm/qemu-smt2x2-cpu5-offline.xml"

static void expect_order(omp_ext_topo_t *topo, omp_ht_policy_t policy, const unsigned *want,
                         unsigned n)
{
  omp_ext_pu_t order[16];
  unsigned i;
  CU_ASSERT_EQUAL_FATAL(omp_ext_order(topo, NULL, policy, n, order), 0);
  for (i = 0; i < n; i++) {
    if (order[i].os_index != want[i])
      fprintf(stderr, "\n  policy %d: thread %u on PU %u, want %u", (int)policy, i,
              order[i].os_index, want[i]);
    CU_ASSERT_EQUAL(order[i].os_index, want[i]);
  }
}

static void test_offline_sibling_core(void)
{
  static const unsigned speedup[] = {0, 1, 2, 3, 4, 6, 7};
  static const unsigned spn[] = {0, 4, 1, 2, 6, 3, 7};
  static const unsigned spread[] = {0, 2, 1, 3, 4, 6, 7};
  omp_ext_topo_t *topo;
  unsigned i;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, FIXTURE, 0), 0);
  CU_ASSERT_EQUAL(omp_ext_topo_npus(topo), 7);
  CU_ASSERT_EQUAL(omp_ext_topo_ncores(topo), 4);
  CU_ASSERT_EQUAL(omp_ext_topo_npackages(topo), 2);
  CU_ASSERT_EQUAL(omp_ext_topo_max_smt(topo), 2);
  /* PU 1 alone on its core, in package 0, never a sibling of 0 or 4. */
  for (i = 0; i < omp_ext_topo_npus(topo); i++) {
    const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, i);
    if (pu->os_index == 1) {
      CU_ASSERT_EQUAL(pu->sibling, 0);
      CU_ASSERT_EQUAL(pu->package, 0);
      CU_ASSERT_EQUAL(pu->core, 1);
    }
  }
  expect_order(topo, omp_ht_policy_speedup, speedup, 7);
  expect_order(topo, omp_ht_policy_spn, spn, 7);
  expect_order(topo, omp_ht_policy_spread, spread, 7);
  omp_ext_topo_destroy(topo);
}

static CU_TestInfo depth_tests[] = {
  {"offline sibling, L1 per thread: 4 cores, PU 1 alone", test_offline_sibling_core},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"cores at two hwloc depths", NULL, NULL, NULL, NULL, depth_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
