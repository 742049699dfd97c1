/*
 * Orders: exact place lists on the paper's machines (hwloc synthetic
 * strings) and the policies' properties on every real-machine fixture in
 * tests/topologies, at every N.
 */
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "omp_ext.h"

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"
#define C6100_FULL "pack:2 [numa] l3:1(size=8MiB) l2:4(size=256KiB) l1d:1(size=32KiB) core:1 pu:2(indexes=core:pack)"
#define C6100_INTERLEAVED "pack:2 [numa] l3:1(size=8MiB) l2:4(size=256KiB) l1d:1(size=32KiB) core:1 pu:2(indexes=pack:core)"
#define C6100_ADJACENT "pack:2 core:4 pu:2"
#define DL380P "pack:2 [numa] l3:1(size=15MiB) l2:6(size=256KiB) l1d:1(size=32KiB) core:1 pu:2(indexes=core:pack)"
#define T2000 "pack:1 [numa] l2:1(size=3MiB) l1d:8(size=8KiB) core:1 pu:4"
#define T2000_FAR "pack:1 core:8 pu:4(indexes=core)"
#define NOSMT "pack:2 core:4 pu:1"

static const char *const fixtures[] = {
  "amd-epyc-7742-rome-2s-64c-smt2-far128-nps4.xml",
  "amd-opteron-6134-4s-8c-nosmt-cgroup2-disallowed.xml",
  "azure-vm-xeon-8168-2s-12c-smt2-adjacent.xml",
  "cavium-thunderx2-2s-32c-smt4-far32-hwloc1.xml",
  "dell-r910-xeon-e7-4870-4s-10c-nosmt-interleaved.xml",
  "dell-xe8640-xeon-8480p-sapphirerapids-2s-56c-smt2-far112-snc4.xml",
  "hp-sl390s-xeon-westmere-2s-6c-smt2-far12-interleaved.xml",
  "huawei-kunpeng920-2s-64c-nosmt-4numa.xml",
  "ibm-power9-lassen-2s-20c-smt4-adjacent-cgroup.xml",
  "intel-arrowlake-ultra5-225u-hybrid-2p-smt2-8e-2lpe.xml",
  "intel-itanium2-montecito-2s-2c-smt2-adjacent.xml",
  "intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml",
  "intel-xeon-e5-2695v4-broadwell-2s-18c-smt-offlined.xml",
  "intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml",
  "intel-xeonphi-7250-knl-68c-smt4-far68-flat.xml",
};
#define NFIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))

static const char *const synthetic[] = {
  C6100, C6100_FULL, C6100_INTERLEAVED, C6100_ADJACENT, DL380P, T2000, T2000_FAR, NOSMT,
  "pack:4 [numa] core:3 pu:3",           /* odd SMT3 */
  "pack:2 numa:2 core:3 pu:2(indexes=core:numa:pack)",
};
#define NSYNTHETIC (sizeof(synthetic) / sizeof(synthetic[0]))

static omp_ext_topo_t *load_fixture(const char *name)
{
  char path[512];
  omp_ext_topo_t *topo = NULL;
  snprintf(path, sizeof(path), "%s/topologies/%s", OMP_EXT_TEST_DIR, name);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, path, 0), 0);
  return topo;
}

static omp_ext_pu_t *order_of(const omp_ext_topo_t *topo, omp_ht_policy_t p, unsigned n)
{
  omp_ext_pu_t *order = malloc(n * sizeof(*order));
  CU_ASSERT_FATAL(order != NULL);
  CU_ASSERT_EQUAL_FATAL(omp_ext_order(topo, NULL, p, n, order), 0);
  return order;
}

/* The policy's first n places on topology `input`, in `format`. */
static char *places(const char *input, const char *policy, unsigned n, omp_ext_format_t format)
{
  omp_ext_topo_t *topo = NULL;
  omp_ht_policy_t p;
  omp_ext_pu_t *order;
  char *text = NULL;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, input, 0), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_policy_from_name(policy, &p), 0);
  if (n == 0)
    n = omp_ext_topo_npus(topo);
  order = order_of(topo, p, n);
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_format(order, n, format, &text), 0);
  free(order);
  omp_ext_topo_destroy(topo);
  return text;
}

#define ASSERT_FORMAT(input, policy, n, format, expected) \
  do {                                                    \
    char *got_ = places(input, policy, n, format);        \
    CU_ASSERT_STRING_EQUAL(got_, expected);               \
    free(got_);                                           \
  } while (0)
#define ASSERT_PLACES(input, policy, n, expected) \
  ASSERT_FORMAT(input, policy, n, omp_ext_format_omp, expected)
#define ASSERT_LIST(input, policy, n, expected) \
  ASSERT_FORMAT(input, policy, n, omp_ext_format_list, expected)

/* ---- exact orders on the paper's machines ---- */

static void test_c6100(void)
{
  const char *inputs[] = {C6100, C6100_FULL};
  unsigned i;
  for (i = 0; i < 2; i++) {
    ASSERT_PLACES(inputs[i], "spn", 8, "{0},{8},{1},{9},{2},{10},{3},{11}");
    ASSERT_PLACES(inputs[i], "speedup", 8, "{0},{1},{2},{3},{4},{5},{6},{7}");
    ASSERT_PLACES(inputs[i], "spread", 8, "{0},{4},{1},{5},{2},{6},{3},{7}");
    ASSERT_PLACES(inputs[i], "os", 8, "{0},{1},{2},{3},{4},{5},{6},{7}");
    ASSERT_LIST(inputs[i], "spn", 0, "0,8,1,9,2,10,3,11,4,12,5,13,6,14,7,15");
    ASSERT_LIST(inputs[i], "speedup", 0, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15");
    ASSERT_LIST(inputs[i], "spread", 0, "0,4,1,5,2,6,3,7,8,12,9,13,10,14,11,15");
  }
}

static void test_c6100_real_nehalem(void)
{
  char path[512];
  snprintf(path, sizeof(path), "%s/topologies/intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml",
           OMP_EXT_TEST_DIR);
  ASSERT_PLACES(path, "spn", 8, "{0},{8},{1},{9},{2},{10},{3},{11}");
  ASSERT_PLACES(path, "speedup", 8, "{0},{1},{2},{3},{4},{5},{6},{7}");
  ASSERT_PLACES(path, "spread", 8, "{0},{4},{1},{5},{2},{6},{3},{7}");
}

static void test_c6100_interleaved(void)
{
  ASSERT_LIST(C6100_INTERLEAVED, "spn", 0, "0,8,2,10,4,12,6,14,1,9,3,11,5,13,7,15");
  ASSERT_LIST(C6100_INTERLEAVED, "speedup", 0, "0,2,4,6,1,3,5,7,8,10,12,14,9,11,13,15");
  ASSERT_LIST(C6100_INTERLEAVED, "spread", 0, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15");
  ASSERT_LIST(C6100_INTERLEAVED, "os", 0, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15");
}

static void test_c6100_adjacent(void)
{
  ASSERT_LIST(C6100_ADJACENT, "spn", 8, "0,1,2,3,4,5,6,7");
  ASSERT_LIST(C6100_ADJACENT, "speedup", 8, "0,2,4,6,8,10,12,14");
  ASSERT_LIST(C6100_ADJACENT, "spread", 8, "0,8,2,10,4,12,6,14");
}

static void test_dl380p(void)
{
  ASSERT_LIST(DL380P, "spn", 12, "0,12,1,13,2,14,3,15,4,16,5,17");
  ASSERT_LIST(DL380P, "speedup", 0, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23");
  ASSERT_LIST(DL380P, "spread", 12, "0,6,1,7,2,8,3,9,4,10,5,11");
  ASSERT_LIST(DL380P, "spn", 0, "0,12,1,13,2,14,3,15,4,16,5,17,6,18,7,19,8,20,9,21,10,22,11,23");
}

static void test_t2000(void)
{
  ASSERT_LIST(T2000, "spn", 8, "0,1,2,3,4,5,6,7");
  ASSERT_LIST(T2000, "speedup", 0, "0,4,8,12,16,20,24,28,1,5,9,13,17,21,25,29,"
                                   "2,6,10,14,18,22,26,30,3,7,11,15,19,23,27,31");
  ASSERT_LIST(T2000, "spread", 8, "0,4,8,12,16,20,24,28");
  ASSERT_LIST(T2000_FAR, "spn", 8, "0,8,16,24,1,9,17,25");
  ASSERT_LIST(T2000_FAR, "speedup", 8, "0,1,2,3,4,5,6,7");
}

static void test_nosmt(void)
{
  ASSERT_LIST(NOSMT, "spn", 0, "0,1,2,3,4,5,6,7");
  ASSERT_LIST(NOSMT, "speedup", 0, "0,1,2,3,4,5,6,7");
  ASSERT_LIST(NOSMT, "spread", 0, "0,4,1,5,2,6,3,7");
  ASSERT_LIST(NOSMT, "os", 0, "0,1,2,3,4,5,6,7");
}

static void test_spread_numa(void)
{
  /* 2 packages x 2 NUMA nodes x 3 cores x 2 PUs: round-robin across
   * packages, and across the NUMA nodes inside each package. */
  const char *s = "pack:2 numa:2 core:3 pu:2(indexes=core:numa:pack)";
  ASSERT_LIST(s, "spread", 12, "0,6,3,9,1,7,4,10,2,8,5,11");
}

static void test_hybrid(void)
{
  char path[512];
  snprintf(path, sizeof(path), "%s/topologies/intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml",
           OMP_EXT_TEST_DIR);
  /* P-cores (PUs 0-11, kind with the highest efficiency) before E-cores. */
  ASSERT_LIST(path, "speedup", 0, "0,2,4,6,8,10,12,13,14,15,16,17,18,19,1,3,5,7,9,11");
  ASSERT_LIST(path, "spn", 0, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19");
  snprintf(path, sizeof(path), "%s/topologies/intel-arrowlake-ultra5-225u-hybrid-2p-smt2-8e-2lpe.xml",
           OMP_EXT_TEST_DIR);
  /* IntelCore, then IntelAtom, then IntelLowPower (outside the L3). */
  ASSERT_LIST(path, "speedup", 0, "0,2,4,5,6,7,8,9,10,11,12,13,1,3");
  ASSERT_LIST(path, "spn", 4, "0,1,2,3");
}

static void test_formats(void)
{
  ASSERT_FORMAT(C6100, "spn", 4, omp_ext_format_gomp, "0 8 1 9");
  ASSERT_FORMAT(C6100, "spn", 4, omp_ext_format_kmp, "granularity=fine,explicit,proclist=[0,8,1,9]");
  ASSERT_FORMAT(C6100, "spn", 4, omp_ext_format_list, "0,8,1,9");
  ASSERT_FORMAT(C6100, "spn", 2, omp_ext_format_json,
                "[{\"thread\":0,\"pu\":0,\"pu_logical\":0,\"core\":0,\"core_os\":0,\"package\":0,"
                "\"numa\":0,\"sibling\":0,\"kind\":0},{\"thread\":1,\"pu\":8,\"pu_logical\":1,"
                "\"core\":0,\"core_os\":0,\"package\":0,\"numa\":0,\"sibling\":1,\"kind\":0}]");
  ASSERT_FORMAT("pack:2 core:4 pu:2(indexes=core:pack)", "spread", 2, omp_ext_format_json,
                "[{\"thread\":0,\"pu\":0,\"pu_logical\":0,\"core\":0,\"core_os\":0,\"package\":0,"
                "\"numa\":0,\"sibling\":0,\"kind\":0},{\"thread\":1,\"pu\":4,\"pu_logical\":8,"
                "\"core\":4,\"core_os\":4,\"package\":1,\"numa\":0,\"sibling\":0,\"kind\":0}]");
}

/* The export line and variable of each format (the format table). */
static void test_export(void)
{
  omp_ext_topo_t *topo;
  omp_ext_pu_t order[4];
  char *line = (char *)"unchanged";
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, C6100, 0) == 0);
  CU_ASSERT_FATAL(omp_ext_order(topo, NULL, omp_ht_policy_spn, 4, order) == 0);
  CU_ASSERT_STRING_EQUAL(omp_ext_format_variable(omp_ext_format_omp), "OMP_PLACES");
  CU_ASSERT_STRING_EQUAL(omp_ext_format_variable(omp_ext_format_gomp), "GOMP_CPU_AFFINITY");
  CU_ASSERT_STRING_EQUAL(omp_ext_format_variable(omp_ext_format_kmp), "KMP_AFFINITY");
  CU_ASSERT_PTR_NULL(omp_ext_format_variable(omp_ext_format_list));
  CU_ASSERT_PTR_NULL(omp_ext_format_variable(omp_ext_format_json));
  CU_ASSERT_PTR_NULL(omp_ext_format_variable((omp_ext_format_t)OMP_EXT_NFORMATS));
  CU_ASSERT_EQUAL(omp_ext_places_export(order, 4, omp_ext_format_omp, &line), 0);
  CU_ASSERT_STRING_EQUAL(line, "export OMP_PLACES='{0},{8},{1},{9}' OMP_PROC_BIND=close "
                               "OMP_NUM_THREADS=4");
  free(line);
  CU_ASSERT_EQUAL(omp_ext_places_export(order, 2, omp_ext_format_gomp, &line), 0);
  CU_ASSERT_STRING_EQUAL(line, "export GOMP_CPU_AFFINITY='0 8' OMP_NUM_THREADS=2");
  free(line);
  CU_ASSERT_EQUAL(omp_ext_places_export(order, 1, omp_ext_format_kmp, &line), 0);
  CU_ASSERT_STRING_EQUAL(line, "export KMP_AFFINITY='granularity=fine,explicit,proclist=[0]' "
                               "OMP_NUM_THREADS=1");
  free(line);
  line = (char *)"unchanged";
  CU_ASSERT_EQUAL(omp_ext_places_export(order, 4, omp_ext_format_list, &line), omp_ext_err_format);
  CU_ASSERT_EQUAL(omp_ext_places_export(order, 4, omp_ext_format_json, &line), omp_ext_err_format);
  CU_ASSERT_EQUAL(omp_ext_places_export(order, 4, (omp_ext_format_t)-1, &line), omp_ext_err_format);
  CU_ASSERT_EQUAL(omp_ext_places_export(order, 0, omp_ext_format_omp, &line), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_places_export(NULL, 4, omp_ext_format_omp, &line), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_places_export(order, 4, omp_ext_format_omp, NULL), omp_ext_err_invalid);
  CU_ASSERT_STRING_EQUAL(line, "unchanged");
  omp_ext_topo_destroy(topo);
}

/* ---- properties on every fixture, every policy, every N ---- */

/* The full order is a permutation of the allowed PUs; every N gives its prefix. */
static void check_permutation_and_prefixes(const omp_ext_topo_t *topo, omp_ht_policy_t p)
{
  unsigned npus = omp_ext_topo_npus(topo), n, i;
  omp_ext_pu_t *full = order_of(topo, p, npus);
  hwloc_bitmap_t seen = hwloc_bitmap_alloc();
  for (i = 0; i < npus; i++) {
    CU_ASSERT_TRUE(hwloc_bitmap_isset(omp_ext_topo_allowed(topo), full[i].os_index));
    CU_ASSERT_FALSE(hwloc_bitmap_isset(seen, full[i].os_index));
    hwloc_bitmap_set(seen, full[i].os_index);
  }
  CU_ASSERT_TRUE(hwloc_bitmap_isequal(seen, omp_ext_topo_allowed(topo)));
  for (n = 1; n <= npus; n++) {
    omp_ext_pu_t *part = order_of(topo, p, n);
    for (i = 0; i < n; i++)
      CU_ASSERT_EQUAL(part[i].os_index, full[i].os_index);
    free(part);
  }
  hwloc_bitmap_free(seen);
  free(full);
}

/* speedup: the first min(N, cores) threads on distinct cores, and sibling
 * rank never decreases along the order. */
static void check_speedup(const omp_ext_topo_t *topo, const omp_ext_pu_t *o, unsigned npus)
{
  unsigned ncores = omp_ext_topo_ncores(topo), i, j;
  for (i = 0; i < ncores && i < npus; i++) {
    CU_ASSERT_EQUAL(o[i].sibling, 0);
    for (j = 0; j < i; j++)
      CU_ASSERT_NOT_EQUAL(o[i].core, o[j].core);
  }
  for (i = 1; i < npus; i++)
    CU_ASSERT_TRUE(o[i].sibling >= o[i - 1].sibling);
}

/* spn: each core's PUs consecutive and complete; a core never comes back. */
static void check_spn(const omp_ext_pu_t *o, unsigned npus)
{
  unsigned i, j;
  for (i = 1; i < npus; i++) {
    if (o[i].core == o[i - 1].core) {
      CU_ASSERT_EQUAL(o[i].sibling, o[i - 1].sibling + 1);
      continue;
    }
    CU_ASSERT_EQUAL(o[i].sibling, 0);
    for (j = 0; j < i; j++)
      CU_ASSERT_NOT_EQUAL(o[j].core, o[i].core);
  }
}

/* spread: among first PUs of cores of one kind, the next thread changes
 * package whenever another package still has an unused core of that kind. */
static void check_spread(const omp_ext_pu_t *o, unsigned npus)
{
  unsigned i, j;
  for (i = 0; i + 1 < npus; i++) {
    int other_left = 0;
    if (o[i].sibling != 0 || o[i + 1].sibling != 0 || o[i].kind != o[i + 1].kind)
      continue;
    if (o[i + 1].package != o[i].package)
      continue;
    for (j = i + 1; j < npus; j++)
      if (o[j].sibling == 0 && o[j].kind == o[i].kind && o[j].package != o[i].package)
        other_left = 1;
    CU_ASSERT_FALSE(other_left);
  }
}

/* Hybrid rule: under spn, cores of a more performant kind come first; under
 * speedup and spread, first PUs of more performant kinds come first. */
static void check_kinds(const omp_ext_pu_t *o, unsigned npus, omp_ht_policy_t p)
{
  unsigned i;
  for (i = 1; i < npus; i++) {
    if (p == omp_ht_policy_spn || o[i].sibling == o[i - 1].sibling)
      CU_ASSERT_TRUE(o[i].kind >= o[i - 1].kind);
  }
}

static void check_topology(const omp_ext_topo_t *topo)
{
  unsigned npus = omp_ext_topo_npus(topo), i, p;
  for (p = 0; p < OMP_EXT_NPOLICIES; p++) {
    omp_ext_pu_t *o = order_of(topo, (omp_ht_policy_t)p, npus);
    check_permutation_and_prefixes(topo, (omp_ht_policy_t)p);
    if (p == omp_ht_policy_os)
      for (i = 1; i < npus; i++)
        CU_ASSERT_TRUE(o[i].os_index > o[i - 1].os_index);
    if (p == omp_ht_policy_speedup)
      check_speedup(topo, o, npus);
    if (p == omp_ht_policy_spn)
      check_spn(o, npus);
    if (p == omp_ht_policy_spread) {
      check_spread(o, npus);
      check_speedup(topo, o, npus); /* spread is also one PU per core first */
    }
    if (p != omp_ht_policy_os)
      check_kinds(o, npus, (omp_ht_policy_t)p);
    free(o);
  }
}

static void test_properties_fixtures(void)
{
  unsigned f;
  for (f = 0; f < NFIXTURES; f++) {
    omp_ext_topo_t *topo = load_fixture(fixtures[f]);
    check_topology(topo);
    omp_ext_topo_destroy(topo);
  }
}

static void test_properties_synthetic(void)
{
  unsigned f;
  for (f = 0; f < NSYNTHETIC; f++) {
    omp_ext_topo_t *topo = NULL;
    CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, synthetic[f], 0), 0);
    check_topology(topo);
    omp_ext_topo_destroy(topo);
  }
}

/* Siblings come from hwloc cores, whatever the numbering. */
static void test_siblings_from_topology(void)
{
  struct { const char *file; unsigned pu, sibling; } cases[] = {
    {"intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml", 0, 8},
    {"hp-sl390s-xeon-westmere-2s-6c-smt2-far12-interleaved.xml", 0, 12},
    {"azure-vm-xeon-8168-2s-12c-smt2-adjacent.xml", 0, 1},
    {"dell-xe8640-xeon-8480p-sapphirerapids-2s-56c-smt2-far112-snc4.xml", 0, 112},
    {"amd-epyc-7742-rome-2s-64c-smt2-far128-nps4.xml", 0, 128},
    {"cavium-thunderx2-2s-32c-smt4-far32-hwloc1.xml", 128, 160},
    {"intel-xeonphi-7250-knl-68c-smt4-far68-flat.xml", 0, 68},
  };
  unsigned i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    omp_ext_topo_t *topo = load_fixture(cases[i].file);
    omp_ext_pu_t *o = order_of(topo, omp_ht_policy_spn, omp_ext_topo_npus(topo));
    unsigned t;
    for (t = 0; t + 1 < omp_ext_topo_npus(topo); t++)
      if (o[t].os_index == cases[i].pu)
        CU_ASSERT_EQUAL(o[t + 1].os_index, cases[i].sibling);
    free(o);
    omp_ext_topo_destroy(topo);
  }
}

/* ---- the allowed set ---- */

static void test_allowed_cgroup(void)
{
  omp_ext_topo_t *topo = load_fixture("amd-opteron-6134-4s-8c-nosmt-cgroup2-disallowed.xml");
  char *s = NULL;
  CU_ASSERT_EQUAL(omp_ext_topo_npus(topo), 6);
  hwloc_bitmap_list_asprintf(&s, omp_ext_topo_allowed(topo));
  CU_ASSERT_STRING_EQUAL(s, "0-5");
  free(s);
  CU_ASSERT_EQUAL(omp_ext_topo_npackages(topo), 1);
  omp_ext_topo_destroy(topo);

  topo = load_fixture("ibm-power9-lassen-2s-20c-smt4-adjacent-cgroup.xml");
  CU_ASSERT_EQUAL(omp_ext_topo_npus(topo), 160);
  CU_ASSERT_EQUAL(omp_ext_topo_ncores(topo), 40);
  CU_ASSERT_EQUAL(omp_ext_topo_max_smt(topo), 4);
  CU_ASSERT_PTR_NULL(omp_ext_topo_pu_by_os(topo, 0));
  CU_ASSERT_PTR_NULL(omp_ext_topo_pu_by_os(topo, 90));
  CU_ASSERT_PTR_NOT_NULL(omp_ext_topo_pu_by_os(topo, 8));
  omp_ext_topo_destroy(topo);
}

static void test_numa_count(void)
{
  /* DDR + CPU-less MCDRAM (flat mode): both NUMA nodes are local */
  omp_ext_topo_t *topo = load_fixture("intel-xeonphi-7250-knl-68c-smt4-far68-flat.xml");
  CU_ASSERT_EQUAL(omp_ext_topo_nnuma(topo), 2);
  omp_ext_topo_destroy(topo);
  topo = load_fixture("amd-epyc-7742-rome-2s-64c-smt2-far128-nps4.xml");
  CU_ASSERT_EQUAL(omp_ext_topo_nnuma(topo), 8);
  omp_ext_topo_destroy(topo);
  topo = load_fixture("amd-opteron-6134-4s-8c-nosmt-cgroup2-disallowed.xml");
  CU_ASSERT_EQUAL(omp_ext_topo_nnuma(topo), 2); /* PUs 0-5 of nodes 0 and 1 */
  omp_ext_topo_destroy(topo);
}

static void test_allowed_offline(void)
{
  omp_ext_topo_t *topo = load_fixture("intel-xeon-e5-2695v4-broadwell-2s-18c-smt-offlined.xml");
  CU_ASSERT_EQUAL(omp_ext_topo_npus(topo), 36);
  CU_ASSERT_EQUAL(omp_ext_topo_max_smt(topo), 1);
  CU_ASSERT_PTR_NULL(omp_ext_topo_pu_by_os(topo, 36));
  omp_ext_topo_destroy(topo);
}

static void test_restrict(void)
{
  omp_ext_topo_t *topo = NULL;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  char *text = NULL;
  omp_ext_pu_t o[4];
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, C6100, 0), 0);
  hwloc_bitmap_list_sscanf(set, "1-2,9-10");
  CU_ASSERT_EQUAL(omp_ext_topo_restrict(topo, set), 0);
  CU_ASSERT_EQUAL(omp_ext_topo_npus(topo), 4);
  CU_ASSERT_EQUAL(omp_ext_topo_ncores(topo), 2);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_spn, 4, o), 0);
  CU_ASSERT_EQUAL(omp_ext_places_format(o, 4, omp_ext_format_list, &text), 0);
  CU_ASSERT_STRING_EQUAL(text, "1,9,2,10");
  free(text);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_spn, 5, o), omp_ext_err_range);
  hwloc_bitmap_only(set, 100);
  CU_ASSERT_EQUAL(omp_ext_topo_restrict(topo, set), omp_ext_err_empty);
  CU_ASSERT_EQUAL(omp_ext_topo_npus(topo), 4); /* unchanged */
  hwloc_bitmap_free(set);
  omp_ext_topo_destroy(topo);
}

/* spread with a missing SMT sibling (issue 24): PU 6 offline on 2 packages
 * x 2 cores x 2 PUs (core k of package p = {2p+k, 2p+k+4}); the siblings'
 * round alternates packages again, as htplaces(1) says ("then the siblings
 * in the same way"): 0,2,1,3,4,7,5, not 0,2,1,3,4,5,7 (4 PUs on package 0
 * and 2 on package 1 at spread 6 while PU 7 on package 1 is free). */
static void test_spread_missing_sibling(void)
{
  omp_ext_topo_t *topo = NULL;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  char *text = NULL;
  omp_ext_pu_t o[8];
  CU_ASSERT_PTR_NOT_NULL_FATAL(set);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, "pack:2 core:2 pu:2(indexes=core:pack)", 0), 0);
  hwloc_bitmap_list_sscanf(set, "0-5,7");
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_restrict(topo, set), 0);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_spread, 7, o), 0);
  CU_ASSERT_EQUAL(omp_ext_places_format(o, 7, omp_ext_format_list, &text), 0);
  CU_ASSERT_STRING_EQUAL(text, "0,2,1,3,4,7,5");
  free(text);
  /* Nothing missing: unchanged. */
  hwloc_bitmap_list_sscanf(set, "0-7");
  omp_ext_topo_destroy(topo);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, "pack:2 core:2 pu:2(indexes=core:pack)", 0), 0);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_spread, 8, o), 0);
  CU_ASSERT_EQUAL(omp_ext_places_format(o, 8, omp_ext_format_list, &text), 0);
  CU_ASSERT_STRING_EQUAL(text, "0,2,1,3,4,6,5,7");
  free(text);
  hwloc_bitmap_free(set);
  omp_ext_topo_destroy(topo);
}

/* ---- errors ---- */

static void test_errors(void)
{
  omp_ext_topo_t *topo = NULL;
  omp_ext_pu_t o[16];
  omp_ht_policy_t p;
  omp_ext_format_t f;
  char *text;
  CU_ASSERT_EQUAL(omp_ext_topo_load(NULL, C6100, 0), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_topo_load(&topo, C6100, 1UL << 20), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_topo_load(&topo, "pack:2 banana:3", 0), omp_ext_err_topology);
  CU_ASSERT_PTR_NULL(topo);
  CU_ASSERT_EQUAL(omp_ext_topo_load(&topo, "/nonexistent/topology.xml", 0), omp_ext_err_topology);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, C6100, 0), 0);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, (omp_ht_policy_t)99, 4, o), omp_ext_err_policy);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_spn, 0, o), omp_ext_err_range);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_spn, 17, o), omp_ext_err_range);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_spn, 4, NULL), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_spn, 4, o), 0);
  CU_ASSERT_EQUAL(omp_ext_places_format(o, 4, (omp_ext_format_t)9, &text), omp_ext_err_format);
  CU_ASSERT_EQUAL(omp_ext_places_format(o, 0, omp_ext_format_omp, &text), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_policy_from_name("SPN", &p), omp_ext_err_policy);
  CU_ASSERT_EQUAL(omp_ext_policy_from_name("spn", &p), 0);
  CU_ASSERT_EQUAL(p, omp_ht_policy_spn);
  CU_ASSERT_EQUAL(omp_ext_format_from_name("xml", &f), omp_ext_err_format);
  CU_ASSERT_PTR_NULL(omp_ext_policy_name((omp_ht_policy_t)OMP_EXT_NPOLICIES));
  /* auto: a row of the list (name, description), with no order */
  CU_ASSERT_EQUAL(omp_ext_policy_from_name("auto", &p), 0);
  CU_ASSERT_EQUAL(p, omp_ht_policy_auto);
  CU_ASSERT_EQUAL((int)omp_ht_policy_auto, 0x100);
  CU_ASSERT_STRING_EQUAL(omp_ext_policy_name(omp_ht_policy_auto), "auto");
  CU_ASSERT_EQUAL(strncmp(omp_ext_policy_description(omp_ht_policy_auto), "run time only", 13), 0);
  CU_ASSERT_EQUAL(omp_ext_policy_has_order(omp_ht_policy_auto), 0);
  CU_ASSERT_EQUAL(omp_ext_policy_is_base(omp_ht_policy_auto), 0);
  CU_ASSERT_EQUAL(omp_ext_policy_is_energy_candidate(omp_ht_policy_auto), 0);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_auto, 4, o), omp_ext_err_policy);
  CU_ASSERT_EQUAL(omp_ext_policy_has_order(omp_ht_policy_energy), 1);
  CU_ASSERT_EQUAL(omp_ext_policy_has_order(omp_ht_policy_os), 1);
  CU_ASSERT_EQUAL(omp_ext_policy_has_order((omp_ht_policy_t)OMP_EXT_NPOLICIES), omp_ext_err_policy);
  CU_ASSERT_EQUAL(omp_ext_policy_has_order((omp_ht_policy_t)0x101), omp_ext_err_policy);
  CU_ASSERT_PTR_NULL(omp_ext_policy_name((omp_ht_policy_t)0x101));
  CU_ASSERT_EQUAL(OMP_EXT_NPOLICIES_ALL, OMP_EXT_NPOLICIES + 1);
  CU_ASSERT_STRING_EQUAL(omp_ext_strerror(omp_ext_err_range),
                         "thread count out of range (1 .. allowed PUs)");
  CU_ASSERT_STRING_EQUAL(omp_ext_strerror(12345), "unknown error");
  omp_ext_topo_destroy(topo);
}

static CU_TestInfo paper_tests[] = {
  {"Dell C6100, siblings +8", test_c6100},
  {"real Nehalem X5550 = C6100 layout", test_c6100_real_nehalem},
  {"C6100, socket-interleaved numbering", test_c6100_interleaved},
  {"C6100, adjacent numbering", test_c6100_adjacent},
  {"HP DL380p 2x6x2", test_dl380p},
  {"Sun T2000 1x8x4", test_t2000},
  {"no SMT", test_nosmt},
  {"spread across packages and NUMA nodes", test_spread_numa},
  {"hybrid: most performant kind first", test_hybrid},
  {"output formats", test_formats},
  {"export lines and variables", test_export},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo property_tests[] = {
  {"every policy, every N, real fixtures", test_properties_fixtures},
  {"every policy, every N, synthetic", test_properties_synthetic},
  {"siblings from hwloc cores", test_siblings_from_topology},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo allowed_tests[] = {
  {"cgroup-restricted machines", test_allowed_cgroup},
  {"offline SMT siblings", test_allowed_offline},
  {"NUMA nodes, CPU-less ones too", test_numa_count},
  {"restrict to a cpuset", test_restrict},
  {"spread alternates packages with a sibling missing", test_spread_missing_sibling},
  {"error codes", test_errors},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"paper machines", NULL, NULL, NULL, NULL, paper_tests},
  {"properties", NULL, NULL, NULL, NULL, property_tests},
  {"allowed set and errors", NULL, NULL, NULL, NULL, allowed_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
