/*
 * The topology hand-off of htplaces exec (private/tools_handoff.h) in the
 * library: the stamp covers each fact and the XML; omp_ext_handoff_usable()
 * takes only this process's stamp; this machine's XML, exported whole as
 * htplaces loads it and imported as the binding topology (lean: hwloc's
 * cache filters and no-distances flag at XML import), gives the topology
 * discovery gives -- PUs, cores, packages, NUMA nodes, kinds, allowed set,
 * no cache, no distance -- and the non-lean import keeps the caches.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "private/internal.h" /* omp_ext_topo_load_as (libomp_ext.a) */
#include "private/tools.h"
#include "testutil.h"

static void test_stamp_fields(void)
{
  struct omp_ext_handoff_facts f, g;
  char a[OMP_EXT_HANDOFF_STAMP_LEN], b[OMP_EXT_HANDOFF_STAMP_LEN];
  const char xml[] = "<topology/>";
  unsigned i;
  CU_ASSERT_EQUAL_FATAL(omp_ext_handoff_facts(&f, NULL, 0), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_handoff_facts(&g, NULL, 0), 0);
  omp_ext_handoff_stamp(&f, xml, strlen(xml), a);
  omp_ext_handoff_stamp(&g, xml, strlen(xml), b);
  CU_ASSERT_STRING_EQUAL(a, b); /* (the same process, read twice) */
  CU_ASSERT_EQUAL(strlen(a), OMP_EXT_HANDOFF_STAMP_LEN - 1);
  CU_ASSERT_EQUAL(strncmp(a, "1-", 2), 0);
  CU_ASSERT_EQUAL(strspn(a + 2, "0123456789abcdef"), 16);
  for (i = 0; i < omp_ext_handoff_nfields; i++) {
    g = f;
    g.field[i] ^= 1ULL << (i + 7);
    omp_ext_handoff_stamp(&g, xml, strlen(xml), b);
    CU_ASSERT_STRING_NOT_EQUAL(a, b);
  }
  omp_ext_handoff_stamp(&f, xml, strlen(xml) - 1, b);
  CU_ASSERT_STRING_NOT_EQUAL(a, b);
  omp_ext_handoff_stamp(&f, "<topologY/>", strlen(xml), b);
  CU_ASSERT_STRING_NOT_EQUAL(a, b);
}

/* The affinity given (the mask at load) against the thread's own. */
static void test_stamp_affinity(void)
{
  struct omp_ext_handoff_facts f, g;
  cpu_set_t set;
  int cpu, other = -1, n = 0;
  CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(set), &set), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_handoff_facts(&f, NULL, 0), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_handoff_facts(&g, &set, sizeof(set)), 0);
  CU_ASSERT_EQUAL(f.field[omp_ext_handoff_affinity], g.field[omp_ext_handoff_affinity]);
  for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET(cpu, &set) && ++n > 1)
      other = cpu;
  if (other < 0) {
    OMP_EXT_SKIP("one allowed PU: no other affinity to compare");
    return;
  }
  CPU_CLR(other, &set);
  CU_ASSERT_EQUAL_FATAL(omp_ext_handoff_facts(&g, &set, sizeof(set)), 0);
  CU_ASSERT_NOT_EQUAL(f.field[omp_ext_handoff_affinity], g.field[omp_ext_handoff_affinity]);
  CU_ASSERT_EQUAL(f.field[omp_ext_handoff_node], g.field[omp_ext_handoff_node]);
}

static void test_usable(void)
{
  omp_ext_topo_t *t;
  hwloc_topology_t hw;
  char *xml, stamp[OMP_EXT_HANDOFF_STAMP_LEN], bad[OMP_EXT_HANDOFF_STAMP_LEN + 1];
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&t, NULL, 0), 0);
  hw = omp_ext_topo_hwloc(t);
  CU_ASSERT_EQUAL_FATAL(omp_ext_handoff_export(hw, &xml, stamp), 0);
  CU_ASSERT_TRUE(omp_ext_handoff_usable(xml, stamp, NULL, 0));
  CU_ASSERT_FALSE(omp_ext_handoff_usable(NULL, stamp, NULL, 0));
  CU_ASSERT_FALSE(omp_ext_handoff_usable(xml, NULL, NULL, 0));
  CU_ASSERT_FALSE(omp_ext_handoff_usable(xml, "", NULL, 0));
  CU_ASSERT_FALSE(omp_ext_handoff_usable("", stamp, NULL, 0));
  snprintf(bad, sizeof(bad), "%s0", stamp); /* one digit more */
  CU_ASSERT_FALSE(omp_ext_handoff_usable(xml, bad, NULL, 0));
  memcpy(bad, stamp, sizeof(stamp));
  bad[5] = bad[5] == 'a' ? 'b' : 'a';
  CU_ASSERT_FALSE(omp_ext_handoff_usable(xml, bad, NULL, 0));
  xml[strlen(xml) / 2] ^= 1; /* (an edit inside the XML) */
  CU_ASSERT_FALSE(omp_ext_handoff_usable(xml, stamp, NULL, 0));
  hwloc_free_xmlbuffer(hw, xml);
  omp_ext_topo_destroy(t);
}

static unsigned caches(hwloc_topology_t hw)
{
  hwloc_obj_type_t type;
  unsigned n = 0;
  for (type = HWLOC_OBJ_L1CACHE; type <= HWLOC_OBJ_L3ICACHE; type++)
    n += (unsigned)hwloc_get_nbobjs_by_type(hw, type);
  return n;
}

static void assert_same(const omp_ext_topo_t *a, const omp_ext_topo_t *b)
{
  unsigned i;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_npus(a), omp_ext_topo_npus(b));
  CU_ASSERT_EQUAL(omp_ext_topo_ncores(a), omp_ext_topo_ncores(b));
  CU_ASSERT_EQUAL(omp_ext_topo_npackages(a), omp_ext_topo_npackages(b));
  CU_ASSERT_EQUAL(omp_ext_topo_nnuma(a), omp_ext_topo_nnuma(b));
  CU_ASSERT_EQUAL(omp_ext_topo_nkinds(a), omp_ext_topo_nkinds(b));
  CU_ASSERT_EQUAL(omp_ext_topo_max_smt(a), omp_ext_topo_max_smt(b));
  CU_ASSERT_TRUE(hwloc_bitmap_isequal(omp_ext_topo_allowed(a), omp_ext_topo_allowed(b)));
  CU_ASSERT_TRUE(omp_ext_topo_is_thissystem(a) && omp_ext_topo_is_thissystem(b));
  for (i = 0; i < omp_ext_topo_npus(a); i++)
    CU_ASSERT_EQUAL(memcmp(omp_ext_topo_pu(a, i), omp_ext_topo_pu(b, i), sizeof(omp_ext_pu_t)), 0);
  CU_ASSERT_EQUAL(hwloc_topology_get_depth(omp_ext_topo_hwloc(a)),
                  hwloc_topology_get_depth(omp_ext_topo_hwloc(b)));
  CU_ASSERT_EQUAL(caches(omp_ext_topo_hwloc(a)), caches(omp_ext_topo_hwloc(b)));
}

static void test_import_as_discovery(void)
{
  omp_ext_topo_t *whole, *disc, *imp, *disc_full, *imp_full;
  hwloc_topology_t hw;
  char *xml, stamp[OMP_EXT_HANDOFF_STAMP_LEN];
  unsigned nr = 0;
  /* (as htplaces loads it: whole, caches and all) */
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load_as(&whole, NULL, NULL, 0, 0), 0);
  hw = omp_ext_topo_hwloc(whole);
  CU_ASSERT_EQUAL_FATAL(omp_ext_handoff_export(hw, &xml, stamp), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load_as(&disc, NULL, NULL, 0, 1), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load_as(&imp, NULL, xml, 0, 1), 0);
  assert_same(disc, imp);
  CU_ASSERT_EQUAL(caches(omp_ext_topo_hwloc(imp)), 0); /* the filters apply at import */
  CU_ASSERT_EQUAL(hwloc_distances_get(omp_ext_topo_hwloc(imp), &nr, NULL, 0, 0), 0);
  CU_ASSERT_EQUAL(nr, 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load_as(&disc_full, NULL, NULL, 0, 0), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load_as(&imp_full, NULL, xml, 0, 0), 0);
  assert_same(disc_full, imp_full); /* (ll_caches places: the caches kept) */
  if (caches(hw) == 0)
    OMP_EXT_SKIP("this machine shows no cache: the cache filter is not seen at work");
  hwloc_free_xmlbuffer(hw, xml);
  omp_ext_topo_destroy(whole);
  omp_ext_topo_destroy(disc);
  omp_ext_topo_destroy(imp);
  omp_ext_topo_destroy(disc_full);
  omp_ext_topo_destroy(imp_full);
}

/* XML hwloc refuses: an error, nothing loaded (bind.c then discovers). */
static void test_import_garbage(void)
{
  omp_ext_topo_t *t = NULL;
  CU_ASSERT_EQUAL(omp_ext_topo_load_as(&t, NULL, "<topology version=\"2.0\"><object", 0, 1),
                  omp_ext_err_topology);
  CU_ASSERT_PTR_NULL(t);
  CU_ASSERT_NOT_EQUAL(omp_ext_topo_load_as(&t, NULL, "not xml", 0, 1), 0);
  CU_ASSERT_PTR_NULL(t);
}

static CU_TestInfo handoff_tests[] = {
    {"stamp covers each fact and the XML", test_stamp_fields},
    {"stamp of the affinity at load", test_stamp_affinity},
    {"usable only with this process's stamp", test_usable},
    {"lean import of the whole XML is discovery's topology", test_import_as_discovery},
    {"garbage XML refused", test_import_garbage},
    CU_TEST_INFO_NULL};

static CU_SuiteInfo suites[] = {{"handoff", NULL, NULL, NULL, NULL, handoff_tests},
                                CU_SUITE_INFO_NULL};

OMP_EXT_CUNIT_MAIN(suites)
