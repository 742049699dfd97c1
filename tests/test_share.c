/*
 * Capacity-weighted split (issue 15, paper §1.2): the weights on fixture
 * topologies and crafted placements (exact values worked from the model in
 * omp_ext/share.h), the split's properties, and the collective calls inside
 * real parallel regions of this build's runtime (gcc -> libgomp, clang ->
 * libomp).  Never assumes SMT or a PU count of this machine.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cunit_main.h"
#include "omp_ext.h"

#define FIXTURE(name) OMP_EXT_TEST_DIR "/topologies/" name
#define NEHALEM FIXTURE("intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml")
#define KNL FIXTURE("intel-xeonphi-7250-knl-68c-smt4-far68-flat.xml")
#define RAPTOR FIXTURE("intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml")
#define ARROW FIXTURE("intel-arrowlake-ultra5-225u-hybrid-2p-smt2-8e-2lpe.xml")
#define MAXT 64
#define ASSERT_NEAR(x, y) CU_ASSERT(fabs((x) - (y)) <= 1e-12)

/* ------------------------------------------------------------ helpers */

/* Weights of threads bound to the cpusets in \p lists ("0", "0,8", "0-3"),
 * on topology \p input, under sigma; returns omp_ext_capacity_weights(). */
static int weights_of(const char *input, const char *const *lists, unsigned n, double sigma,
                      double *w)
{
  omp_ext_topo_t *topo;
  hwloc_bitmap_t binds[MAXT];
  unsigned t;
  int err;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, input, 0) == 0);
  for (t = 0; t < n; t++) {
    binds[t] = hwloc_bitmap_alloc();
    CU_ASSERT_FATAL(binds[t] && hwloc_bitmap_list_sscanf(binds[t], lists[t]) == 0);
  }
  err = omp_ext_capacity_weights(topo, (const hwloc_const_cpuset_t *)binds, n, sigma, w);
  for (t = 0; t < n; t++)
    hwloc_bitmap_free(binds[t]);
  omp_ext_topo_destroy(topo);
  return err;
}

/* Weights of the first n PUs of a policy's order (one PU per thread). */
static void policy_weights(const char *input, omp_ht_policy_t policy, unsigned n, double sigma,
                           double *w)
{
  omp_ext_topo_t *topo;
  omp_ext_pu_t order[MAXT];
  hwloc_bitmap_t binds[MAXT];
  unsigned t;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, input, 0) == 0);
  CU_ASSERT_FATAL(omp_ext_order(topo, NULL, policy, n, order) == 0);
  for (t = 0; t < n; t++) {
    binds[t] = hwloc_bitmap_alloc();
    CU_ASSERT_FATAL(binds[t] != NULL);
    hwloc_bitmap_only(binds[t], order[t].os_index);
  }
  CU_ASSERT_FATAL(omp_ext_capacity_weights(topo, (const hwloc_const_cpuset_t *)binds, n, sigma,
                                           w) == 0);
  for (t = 0; t < n; t++)
    hwloc_bitmap_free(binds[t]);
  omp_ext_topo_destroy(topo);
}

/* ------------------------------------------------------------ weights */

static void test_alone(void)
{
  static const char *const lists[] = {"0", "1", "2", "3"}; /* four cores (far +8) */
  double w[4];
  unsigned t;
  CU_ASSERT_EQUAL(weights_of(NEHALEM, lists, 4, 0.3, w), 0);
  for (t = 0; t < 4; t++)
    ASSERT_NEAR(w[t], 1.0);
}

static void test_smt2_sharing(void)
{
  static const char *const lists[] = {"0", "8", "1"}; /* 0 and 8: siblings */
  double w[3];
  CU_ASSERT_EQUAL(weights_of(NEHALEM, lists, 3, 0.3, w), 0);
  ASSERT_NEAR(w[0], 0.65);
  ASSERT_NEAR(w[1], 0.65);
  ASSERT_NEAR(w[2], 1.0);
  /* sigma 0: a sibling adds nothing; sigma 1: a sibling is a core. */
  CU_ASSERT_EQUAL(weights_of(NEHALEM, lists, 3, 0.0, w), 0);
  ASSERT_NEAR(w[0], 0.5);
  ASSERT_NEAR(w[1], 0.5);
  ASSERT_NEAR(w[2], 1.0);
  CU_ASSERT_EQUAL(weights_of(NEHALEM, lists, 3, 1.0, w), 0);
  ASSERT_NEAR(w[0], 1.0);
  ASSERT_NEAR(w[1], 1.0);
  ASSERT_NEAR(w[2], 1.0);
}

static void test_smt4_sharing(void)
{
  /* KNL: core c = {c, c+68, c+136, c+204}. */
  static const char *const four[] = {"0", "68", "136", "204"};
  static const char *const three[] = {"0", "68", "136", "1"};
  double w[4];
  unsigned t;
  CU_ASSERT_EQUAL(weights_of(KNL, four, 4, 0.3, w), 0);
  for (t = 0; t < 4; t++)
    ASSERT_NEAR(w[t], (1 + 3 * 0.3) / 4); /* 0.475 */
  CU_ASSERT_EQUAL(weights_of(KNL, three, 4, 0.3, w), 0);
  for (t = 0; t < 3; t++)
    ASSERT_NEAR(w[t], (1 + 2 * 0.3) / 3);
  ASSERT_NEAR(w[3], 1.0);
  CU_ASSERT_EQUAL(weights_of(KNL, four, 4, 0.0, w), 0);
  ASSERT_NEAR(w[0], 0.25);
  CU_ASSERT_EQUAL(weights_of(KNL, four, 4, 1.0, w), 0);
  ASSERT_NEAR(w[0], 1.0);
}

static void test_oversubscribed(void)
{
  /* The issue's case: 3 threads on PUs {0},{1} of two cores, close. */
  static const char *const two_pus[] = {"0", "0", "1"};
  /* Time-sharing PU 0 while its sibling 8 is busy too. */
  static const char *const with_sibling[] = {"0", "0", "8"};
  static const char *const one_pu[] = {"5", "5", "5", "5"};
  double w[4];
  CU_ASSERT_EQUAL(weights_of("pack:1 core:2 pu:1", two_pus, 3, 0.3, w), 0);
  ASSERT_NEAR(w[0], 0.5);
  ASSERT_NEAR(w[1], 0.5);
  ASSERT_NEAR(w[2], 1.0);
  CU_ASSERT_EQUAL(weights_of(NEHALEM, with_sibling, 3, 0.3, w), 0);
  ASSERT_NEAR(w[0], 0.325);
  ASSERT_NEAR(w[1], 0.325);
  ASSERT_NEAR(w[2], 0.65);
  CU_ASSERT_EQUAL(weights_of(NEHALEM, one_pu, 4, 0.3, w), 0);
  ASSERT_NEAR(w[3], 0.25);
  /* sigma is about siblings, not time-sharing: 0 and 1 give the same. */
  CU_ASSERT_EQUAL(weights_of("pack:1 core:2 pu:1", two_pus, 3, 0.0, w), 0);
  ASSERT_NEAR(w[0], 0.5);
  CU_ASSERT_EQUAL(weights_of("pack:1 core:2 pu:1", two_pus, 3, 1.0, w), 0);
  ASSERT_NEAR(w[0], 0.5);
}

static void test_wide_bindings(void)
{
  /* Unbound (the whole set): interchangeable threads share its capacity. */
  static const char *const unbound[] = {"0-1", "0-1", "0-1"};
  /* OMP_PLACES=cores: one thread per core place is alone... */
  static const char *const cores[] = {"0,8", "1,9"};
  /* ...two in one core place spread over its two PUs. */
  static const char *const two_in_core[] = {"0,8", "0,8", "1,9"};
  double w[3];
  CU_ASSERT_EQUAL(weights_of("pack:1 core:2 pu:1", unbound, 3, 0.3, w), 0);
  ASSERT_NEAR(w[0], 2.0 / 3);
  ASSERT_NEAR(w[1], 2.0 / 3);
  ASSERT_NEAR(w[2], 2.0 / 3);
  CU_ASSERT_EQUAL(weights_of(NEHALEM, cores, 2, 0.3, w), 0);
  ASSERT_NEAR(w[0], 1.0);
  ASSERT_NEAR(w[1], 1.0);
  CU_ASSERT_EQUAL(weights_of(NEHALEM, two_in_core, 3, 0.3, w), 0);
  ASSERT_NEAR(w[0], 0.65);
  ASSERT_NEAR(w[1], 0.65);
  ASSERT_NEAR(w[2], 1.0);
}

/* The figures of benchmarks/results/share-weights.txt. */
static void test_fixture_policies(void)
{
  double w[MAXT];
  unsigned t;
  /* spn, odd N: one core holds a single thread. */
  policy_weights(NEHALEM, omp_ht_policy_spn, 3, 0.3, w);
  ASSERT_NEAR(w[0], 0.65);
  ASSERT_NEAR(w[1], 0.65);
  ASSERT_NEAR(w[2], 1.0);
  /* speedup past the 8 cores: cores 0 and 1 doubled. */
  policy_weights(NEHALEM, omp_ht_policy_speedup, 10, 0.3, w);
  for (t = 0; t < 10; t++)
    ASSERT_NEAR(w[t], t < 2 || t >= 8 ? 0.65 : 1.0);
  /* Raptor Lake: 6 P-cores, then E-cores at 3900 / 5000 MHz = 0.78. */
  policy_weights(RAPTOR, omp_ht_policy_speedup, 8, 0.3, w);
  for (t = 0; t < 8; t++)
    ASSERT_NEAR(w[t], t < 6 ? 1.0 : 0.78);
  policy_weights(RAPTOR, omp_ht_policy_spn, 13, 0.3, w);
  for (t = 0; t < 13; t++)
    ASSERT_NEAR(w[t], t < 12 ? 0.65 : 0.78);
}

static void test_kinds(void)
{
  omp_ext_topo_t *topo;
  double f = 0;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, RAPTOR, 0) == 0);
  CU_ASSERT_EQUAL(omp_ext_kind_capacity(topo, 0, &f), 0);
  ASSERT_NEAR(f, 1.0);
  CU_ASSERT_EQUAL(omp_ext_kind_capacity(topo, 1, &f), 0);
  ASSERT_NEAR(f, 0.78);
  CU_ASSERT_EQUAL(omp_ext_kind_capacity(topo, 2, &f), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_kind_capacity(topo, 0, NULL), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_kind_capacity(NULL, 0, &f), omp_ext_err_invalid);
  omp_ext_topo_destroy(topo);
  /* Arrow Lake's kinds come from CPUID (CoreType), without frequencies:
   * no ratio is claimed. */
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, ARROW, 0) == 0);
  CU_ASSERT_EQUAL(omp_ext_topo_nkinds(topo), 3);
  CU_ASSERT_EQUAL(omp_ext_kind_capacity(topo, 2, &f), 0);
  ASSERT_NEAR(f, 1.0);
  omp_ext_topo_destroy(topo);
  /* Hybrid and shared: an E-core (no SMT) and a shared P-core. */
  {
    static const char *const lists[] = {"0", "1", "12", "12"};
    double w[4];
    CU_ASSERT_EQUAL(weights_of(RAPTOR, lists, 4, 0.3, w), 0);
    ASSERT_NEAR(w[0], 0.65);
    ASSERT_NEAR(w[1], 0.65);
    ASSERT_NEAR(w[2], 0.39);
    ASSERT_NEAR(w[3], 0.39);
  }
}

static void test_weights_errors(void)
{
  static const char *const ok[] = {"0"};
  static const char *const outside[] = {"0", "1000"};
  omp_ext_topo_t *topo;
  hwloc_bitmap_t b = hwloc_bitmap_alloc();
  hwloc_const_cpuset_t binds[1];
  double w[2];
  CU_ASSERT_EQUAL(weights_of(NEHALEM, ok, 1, -0.1, w), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(weights_of(NEHALEM, ok, 1, 1.5, w), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(weights_of(NEHALEM, ok, 1, NAN, w), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(weights_of(NEHALEM, ok, 0, 0.3, w), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(weights_of(NEHALEM, outside, 2, 0.3, w), omp_ext_err_invalid);
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, NEHALEM, 0) == 0);
  hwloc_bitmap_only(b, 0);
  binds[0] = b;
  CU_ASSERT_EQUAL(omp_ext_capacity_weights(NULL, binds, 1, 0.3, w), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_capacity_weights(topo, NULL, 1, 0.3, w), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_capacity_weights(topo, binds, 1, 0.3, NULL), omp_ext_err_invalid);
  binds[0] = NULL;
  CU_ASSERT_EQUAL(omp_ext_capacity_weights(topo, binds, 1, 0.3, w), omp_ext_err_invalid);
  omp_ext_topo_destroy(topo);
  hwloc_bitmap_free(b);
}

/* -------------------------------------------------------------- split */

/* Every property of a split of [begin, end) by w: bounds start and end
 * right, never go back (contiguous, no overlap, exact cover), each share is
 * within one iteration of its quota, and a second call gives the same. */
static void check_split(long begin, long end, const double *w, unsigned n)
{
  long bounds[MAXT + 1], again[MAXT + 1];
  long double total = 0, len = end > begin ? (long double)end - begin : 0;
  unsigned t;
  CU_ASSERT_FATAL(omp_ext_share_split(begin, end, w, n, bounds) == 0);
  CU_ASSERT_EQUAL(bounds[0], begin);
  CU_ASSERT_EQUAL(bounds[n], end > begin ? end : begin);
  for (t = 0; t < n; t++)
    total += w[t];
  for (t = 0; t < n; t++) {
    long double quota = len * w[t] / total;
    CU_ASSERT(bounds[t + 1] >= bounds[t]);
    CU_ASSERT(fabsl((long double)(bounds[t + 1] - bounds[t]) - quota) < 1);
  }
  CU_ASSERT_EQUAL(omp_ext_share_split(begin, end, w, n, again), 0);
  CU_ASSERT_EQUAL(memcmp(bounds, again, (n + 1) * sizeof(*bounds)), 0);
}

static void test_split_exact(void)
{
  static const double issue[] = {0.5, 0.5, 1.0};
  long b[4];
  CU_ASSERT_EQUAL(omp_ext_share_split(0, 100, issue, 3, b), 0);
  CU_ASSERT_EQUAL(b[1], 25);
  CU_ASSERT_EQUAL(b[2], 50);
  CU_ASSERT_EQUAL(b[3], 100);
  /* quotas 2.5, 2.5, 5: the one left goes to the first largest remainder */
  CU_ASSERT_EQUAL(omp_ext_share_split(0, 10, issue, 3, b), 0);
  CU_ASSERT_EQUAL(b[1], 3);
  CU_ASSERT_EQUAL(b[2], 5);
  CU_ASSERT_EQUAL(b[3], 10);
  /* negative bounds */
  CU_ASSERT_EQUAL(omp_ext_share_split(-10, 10, issue, 3, b), 0);
  CU_ASSERT_EQUAL(b[0], -10);
  CU_ASSERT_EQUAL(b[1], -5);
  CU_ASSERT_EQUAL(b[2], 0);
  CU_ASSERT_EQUAL(b[3], 10);
  /* largest remainder, not cumulative rounding: 7 by 1,1,1 -> 3,2,2 */
  {
    static const double eq[] = {1, 1, 1};
    CU_ASSERT_EQUAL(omp_ext_share_split(0, 7, eq, 3, b), 0);
    CU_ASSERT_EQUAL(b[1], 3);
    CU_ASSERT_EQUAL(b[2], 5);
  }
}

static void test_split_small_and_empty(void)
{
  static const double eq[] = {1, 1, 1, 1, 1};
  static const double zero_one[] = {0, 1, 0};
  long b[6];
  unsigned t;
  /* fewer iterations than threads: 1, 1, then empty shares */
  CU_ASSERT_EQUAL(omp_ext_share_split(3, 5, eq, 5, b), 0);
  CU_ASSERT_EQUAL(b[1], 4);
  CU_ASSERT_EQUAL(b[2], 5);
  for (t = 3; t <= 5; t++)
    CU_ASSERT_EQUAL(b[t], 5);
  /* empty and reversed ranges: every share [begin, begin) */
  CU_ASSERT_EQUAL(omp_ext_share_split(7, 7, eq, 5, b), 0);
  for (t = 0; t <= 5; t++)
    CU_ASSERT_EQUAL(b[t], 7);
  CU_ASSERT_EQUAL(omp_ext_share_split(9, 2, eq, 5, b), 0);
  for (t = 0; t <= 5; t++)
    CU_ASSERT_EQUAL(b[t], 9);
  /* a zero weight gets nothing */
  CU_ASSERT_EQUAL(omp_ext_share_split(0, 10, zero_one, 3, b), 0);
  CU_ASSERT_EQUAL(b[1], 0);
  CU_ASSERT_EQUAL(b[2], 10);
  CU_ASSERT_EQUAL(b[3], 10);
}

static void test_split_properties(void)
{
  unsigned long long x = 88172645463325252ULL; /* xorshift: fixed, reproducible */
  double w[MAXT];
  unsigned round, t;
  for (round = 0; round < 2000; round++) {
    unsigned n = 1 + (unsigned)(x % MAXT);
    long begin, len;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    for (t = 0; t < n; t++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      w[t] = (double)(x % 1000) / 997.0 + (t == 0); /* some 0, never all */
    }
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    begin = (long)(x % 2001) - 1000;
    len = round % 3 == 0 ? (long)(x % 7) : round % 3 == 1 ? (long)(x % 100000) : (long)(x >> 20);
    check_split(begin, begin + len, w, n);
  }
  /* the whole long range minus one */
  {
    static const double eq[] = {1, 3};
    check_split(0, LONG_MAX, eq, 2);
    check_split(LONG_MIN, -1, eq, 2);
  }
}

static void test_split_errors(void)
{
  static const double ok[] = {1, 1};
  static const double neg[] = {1, -1};
  static const double zero[] = {0, 0};
  static const double inf[] = {1, INFINITY};
  double nan2[2] = {1, NAN};
  long b[3];
  CU_ASSERT_EQUAL(omp_ext_share_split(0, 10, NULL, 2, b), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_share_split(0, 10, ok, 2, NULL), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_share_split(0, 10, ok, 0, b), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_share_split(0, 10, neg, 2, b), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_share_split(0, 10, zero, 2, b), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_share_split(0, 10, inf, 2, b), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_share_split(0, 10, nan2, 2, b), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_share_split(LONG_MIN, LONG_MAX, ok, 2, b), omp_ext_err_overflow);
  CU_ASSERT_STRING_EQUAL(omp_ext_strerror(omp_ext_err_overflow),
                         "the range's size (end - begin) overflows a long");
}

/* ---------------------------------------------------- in a real team */

static void test_outside_region(void)
{
  double w[1];
  long lo = -1, hi = -1;
  CU_ASSERT_EQUAL(omp_ext_share(0, 10, &lo, &hi), omp_ext_err_not_in_parallel);
  CU_ASSERT_EQUAL(lo, -1);
  CU_ASSERT_EQUAL(hi, -1);
  CU_ASSERT_EQUAL(omp_ext_team_weights(w, 1), omp_ext_err_not_in_parallel);
  CU_ASSERT_STRING_EQUAL(omp_ext_strerror(omp_ext_err_not_in_parallel),
                         "only allowed inside a parallel region");
}

static void test_sigma(void)
{
  double s = -1;
  CU_ASSERT_EQUAL(omp_ext_get_share_sigma(&s), 0);
  ASSERT_NEAR(s, OMP_EXT_MODEL_SIGMA); /* ctest sets no OMP_EXT_SIGMA */
  CU_ASSERT_EQUAL(omp_ext_set_share_sigma(1.5), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_set_share_sigma(NAN), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_get_share_sigma(NULL), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_set_share_sigma(0), 0);
  CU_ASSERT_EQUAL(omp_ext_get_share_sigma(&s), 0);
  ASSERT_NEAR(s, 0);
  CU_ASSERT_EQUAL(omp_ext_set_share_sigma(OMP_EXT_MODEL_SIGMA), 0);
}

/* A PU of this machine of kind 0 (capacity factor 1), and one on another
 * core of kind 0 if there is one (-1 if not). */
static void two_cores(int *a, int *b)
{
  omp_ext_topo_t *topo;
  unsigned i;
  const omp_ext_pu_t *first = NULL;
  *a = *b = -1;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, NULL, omp_ext_topo_ignore_binding) == 0);
  for (i = 0; i < omp_ext_topo_npus(topo); i++) {
    const omp_ext_pu_t *p = omp_ext_topo_pu(topo, i);
    if (p->kind != 0)
      continue;
    if (!first) {
      first = p;
      *a = (int)p->os_index;
    } else if (p->core != first->core) {
      *b = (int)p->os_index;
      break;
    }
  }
  omp_ext_topo_destroy(topo);
}

/* Run a team of 3 whose threads bind themselves to pu[t], then call the
 * collective API twice; check weights and shares of [0, 100). */
static void team_of_three(const int pu[3], const double want[3], const long want_b[4])
{
  double w[2][3][3];
  long lo[2][3], hi[2][3];
  int err[2][3], team = 0, r, t;
  omp_set_dynamic(0);
#pragma omp parallel num_threads(3)
  {
    int me = omp_get_thread_num(), rr;
    cpu_set_t set, old;
    sched_getaffinity(0, sizeof(old), &old);
    CPU_ZERO(&set);
    CPU_SET(pu[me], &set);
    sched_setaffinity(0, sizeof(set), &set);
#pragma omp single
    team = omp_get_num_threads();
    for (rr = 0; rr < 2; rr++) {
      int e = omp_ext_team_weights(w[rr][me], 3);
      err[rr][me] = e ? e : omp_ext_share(0, 100, &lo[rr][me], &hi[rr][me]);
#pragma omp barrier
    }
    sched_setaffinity(0, sizeof(old), &old);
  }
  CU_ASSERT_EQUAL_FATAL(team, 3);
  for (r = 0; r < 2; r++)
    for (t = 0; t < 3; t++) {
      CU_ASSERT_EQUAL(err[r][t], 0);
      ASSERT_NEAR(w[r][t][0], want[0]);
      ASSERT_NEAR(w[r][t][1], want[1]);
      ASSERT_NEAR(w[r][t][2], want[2]);
      CU_ASSERT_EQUAL(lo[r][t], want_b[t]);
      CU_ASSERT_EQUAL(hi[r][t], want_b[t + 1]);
    }
}

static void test_team_one_pu(void)
{
  static const double third[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
  static const long b[4] = {0, 34, 67, 100};
  int a, other, pu[3];
  two_cores(&a, &other);
  pu[0] = pu[1] = pu[2] = a;
  team_of_three(pu, third, b);
}

static void test_team_two_pus(void)
{
  static const double issue[3] = {0.5, 0.5, 1.0};
  static const long b[4] = {0, 25, 50, 100};
  int a, other, pu[3];
  two_cores(&a, &other);
  if (other < 0) {
    OMP_EXT_SKIP("one core of kind 0 here");
    return;
  }
  pu[0] = pu[1] = a;
  pu[2] = other;
  team_of_three(pu, issue, b);
}

/* A team of one and a nested inactive region: the whole range. */
static void test_team_single(void)
{
  long lo = -1, hi = -1;
  double w[1] = {0};
  int e1 = -100, e2 = -100;
#pragma omp parallel num_threads(1)
  {
    e1 = omp_ext_share(5, 9, &lo, &hi);
    e2 = omp_ext_team_weights(w, 1);
  }
  CU_ASSERT_EQUAL(e1, 0);
  CU_ASSERT_EQUAL(e2, 0);
  CU_ASSERT_EQUAL(lo, 5);
  CU_ASSERT_EQUAL(hi, 9);
  ASSERT_NEAR(w[0], 1.0);
}

/* Argument errors inside a team: each thread reports its own, and the team
 * does not hang (every thread took part in the exchange). */
static void test_team_errors(void)
{
  int err[2] = {-100, -100}, again[2] = {-100, -100}, over[2] = {-100, -100};
  long lo, hi;
  omp_set_dynamic(0);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    double w[2];
    err[me] = omp_ext_team_weights(me == 0 ? NULL : w, 2);
    again[me] = me == 1 ? omp_ext_share(0, 10, &lo, NULL) : omp_ext_share(0, 10, &lo, &hi);
    { /* a range of more than LONG_MAX iterations: every thread says so */
      long l2, h2;
      over[me] = omp_ext_share(LONG_MIN, LONG_MAX, &l2, &h2);
    }
  }
  CU_ASSERT_EQUAL(over[0], omp_ext_err_overflow);
  CU_ASSERT_EQUAL(over[1], omp_ext_err_overflow);
  CU_ASSERT_EQUAL(err[0], omp_ext_err_invalid);
  CU_ASSERT_EQUAL(err[1], 0);
  CU_ASSERT_EQUAL(again[0], 0);
  CU_ASSERT_EQUAL(again[1], omp_ext_err_invalid);
}

/* Threads that pass different ranges to omp_ext_share(): every thread gets
 * omp_ext_err_mismatch and no share (on main: each thread got its share of
 * its own range, iterations left undone without an error); then the same
 * team with one range works again. */
static void test_team_ranges_differ(void)
{
  int err[2] = {-100, -100}, err_end[2] = {-100, -100}, ok[2] = {-100, -100};
  long lo[2] = {-7, -7}, hi[2] = {-7, -7}, got = 0;
  omp_set_dynamic(0);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    long l = -7, h = -7;
    err[me] = omp_ext_share(me == 0 ? 0 : 50, 100, &lo[me], &hi[me]);
    err_end[me] = omp_ext_share(0, me == 0 ? 100 : 101, &l, &h);
    ok[me] = omp_ext_share(0, 100, &l, &h);
    if (!ok[me]) {
#pragma omp atomic
      got += h - l;
    }
  }
  CU_ASSERT_EQUAL(err[0], omp_ext_err_mismatch);
  CU_ASSERT_EQUAL(err[1], omp_ext_err_mismatch);
  CU_ASSERT_EQUAL(err_end[0], omp_ext_err_mismatch);
  CU_ASSERT_EQUAL(err_end[1], omp_ext_err_mismatch);
  CU_ASSERT(lo[0] == -7 && hi[0] == -7 && lo[1] == -7 && hi[1] == -7); /* unchanged */
  CU_ASSERT_EQUAL(ok[0], 0);
  CU_ASSERT_EQUAL(ok[1], 0);
  CU_ASSERT_EQUAL(got, 100);
  CU_ASSERT_STRING_EQUAL(omp_ext_strerror(omp_ext_err_mismatch),
                         "the team's threads passed different ranges");
}

/* ---------------------------------- collective calls inside a construct */

/* Constructs whose both ends the compiler makes calls for (omp_ext/lib/construct.c):
 * clang -> libomp: single (nowait too), masked, master, critical; gcc ->
 * libgomp: single copyprivate and critical only (a plain single and
 * masked/master emit no call at their end, or none at all: not seen, and
 * not tried here, since they would hang). */
#if defined(__clang__)
#define KMPC_CONSTRUCTS 1
#else
#define KMPC_CONSTRUCTS 0
#endif

/* libomp_ext exports a wrapper of \p name that the program's calls do not
 * reach: the runtime comes first in the symbol lookup order (its
 * LD_PRELOAD in test_share_iomp5).  (A libomp_ext without the wrapper --
 * main before issue 22 -- is not such a case: the test then runs, and
 * fails.) */
static int wrapper_bypassed(const char *name)
{
  Dl_info self, found;
  void *lib, *mine, *global = dlsym(RTLD_DEFAULT, name);
  if (!dladdr((void *)(uintptr_t)omp_ext_share, &self) || !self.dli_fname ||
      !(lib = dlopen(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD)))
    return 0;
  mine = dlsym(lib, name);
  dlclose(lib);
  return mine && dladdr(mine, &found) && found.dli_fbase == self.dli_fbase && global != mine;
}

/* A hang here (main before issue 22: the call waits forever in the
 * runtime's barrier for the teammates) fails the test instead of stalling
 * ctest: SIGALRM after 120 s, far above the milliseconds these take. */
static void construct_hung(int sig)
{
  static const char msg[] = "\ntest_share: a collective call inside a single/masked/critical "
                            "construct did not return (it hangs)\n";
  (void)sig;
  if (write(2, msg, sizeof(msg) - 1) < 0) { /* failing anyway */ }
  _exit(1);
}

/* Indexes of the cases below. */
enum { C_SINGLE, C_NOWAIT, C_COPY, C_MASKED, C_MASTER, C_CRITICAL0, C_CRITICAL1, C_CASES };

/* omp_ext_share(), omp_ext_team_weights() and omp_ext_steal_init() inside a
 * single, masked, master or critical construct of a team of 2 return
 * omp_ext_err_in_construct in the thread inside (output arguments
 * unchanged, the steal object's slots untouched), without waiting; the same
 * calls from every thread right after, outside the constructs (also after a
 * single nowait), work and cover the range; a nested team inside a critical
 * construct is a team of its own, where they work. */
static void test_team_in_construct(void)
{
  enum { SHARE, WEIGHTS, STEAL, CALLS };
  int err[C_CASES][CALLS], ran[C_CASES], ok[2] = {-100, -100}, nested[2][2], c, k, nok = 0;
  long lo = -7, hi = -7, got = 0, slo, shi;
  double w[2] = {-1, -1};
  omp_ext_steal_t *s = NULL;
  void (*old)(int);
  if (wrapper_bypassed(KMPC_CONSTRUCTS ? "__kmpc_single" : "GOMP_single_copy_start")) {
    OMP_EXT_SKIP("the OpenMP runtime comes before libomp_ext in the symbol lookup order "
                 "(LD_PRELOAD): the constructs are not seen, the calls would hang");
    return;
  }
  for (c = 0; c < C_CASES; c++)
    for (k = 0; k < CALLS; k++)
      err[c][k] = -100, ran[c] = 0;
  nested[0][0] = nested[0][1] = nested[1][0] = nested[1][1] = -100;
  CU_ASSERT_FATAL(omp_ext_steal_create(2, 1, &s) == 0);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 4, (const double[]){1, 1}, 2), 0);
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  old = signal(SIGALRM, construct_hung);
  alarm(120);
#define CALL_ALL(c)                                                                          \
  do {                                                                                       \
    ran[c]++;                                                                                \
    err[c][SHARE] = omp_ext_share(0, 100, &lo, &hi);                                         \
    err[c][WEIGHTS] = omp_ext_team_weights(w, 2);                                            \
    err[c][STEAL] = omp_ext_steal_init(s, 0, 100);                                           \
  } while (0)
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num(), x = 0;
    long l = -7, h = -7;
    if (omp_get_num_threads() == 2) {
#pragma omp single copyprivate(x)
      {
        CALL_ALL(C_COPY);
        x = 1;
      }
#pragma omp critical
      {
        CALL_ALL(me == 0 ? C_CRITICAL0 : C_CRITICAL1);
        /* a team of its own: allowed there */
#pragma omp parallel num_threads(2)
        {
          long nl, nh;
          nested[me][omp_get_thread_num() & 1] =
            omp_get_num_threads() == 2 ? omp_ext_share(0, 10, &nl, &nh) : -99;
        }
      }
#if KMPC_CONSTRUCTS
#pragma omp single
      CALL_ALL(C_SINGLE);
#pragma omp masked
      CALL_ALL(C_MASKED);
#pragma omp barrier
#pragma omp master
      CALL_ALL(C_MASTER);
#pragma omp barrier
#pragma omp single nowait
      CALL_ALL(C_NOWAIT);
#endif
      /* every thread, outside: works (also right after the single nowait) */
      ok[me] = x == 1 ? omp_ext_share(0, 100, &l, &h) : -98;
      if (!ok[me]) {
#pragma omp atomic
        got += h - l;
      }
    }
  }
#undef CALL_ALL
  alarm(0);
  signal(SIGALRM, old);
  for (c = 0; c < C_CASES; c++) {
    int want = c == C_COPY || c == C_CRITICAL0 || c == C_CRITICAL1 || KMPC_CONSTRUCTS;
    if (!want)
      continue;
    CU_ASSERT_EQUAL(ran[c], 1);
    for (k = 0; k < CALLS; k++) {
      if (err[c][k] != omp_ext_err_in_construct)
        printf("\n  case %d call %d: %d", c, k, err[c][k]);
      CU_ASSERT_EQUAL(err[c][k], omp_ext_err_in_construct);
    }
    nok++;
  }
  CU_ASSERT_EQUAL(nok, KMPC_CONSTRUCTS ? C_CASES : 3);
  CU_ASSERT(lo == -7 && hi == -7 && w[0] == -1 && w[1] == -1); /* unchanged */
  CU_ASSERT_EQUAL(ok[0], 0);
  CU_ASSERT_EQUAL(ok[1], 0);
  CU_ASSERT_EQUAL(got, 100);
  for (k = 0; k < 4; k++)
    CU_ASSERT_EQUAL(nested[k / 2][k % 2], 0);
  /* the slots of the last init_weights, untouched by the refused inits */
  CU_ASSERT(omp_ext_steal_next(s, 0, &slo, &shi) == 1 && slo == 0 && shi == 1);
  CU_ASSERT(omp_ext_steal_next(s, 1, &slo, &shi) == 1 && slo == 2 && shi == 3);
  omp_ext_steal_destroy(s);
  CU_ASSERT_STRING_EQUAL(omp_ext_strerror(omp_ext_err_in_construct),
                         "a collective call inside a single, masked, master or critical "
                         "construct: call it from every thread, outside them");
}

/* Whatever binds the threads (OMP_PLACES in the test_share_places run,
 * nothing in the plain run): the team's weights are those of the bindings
 * each thread really has (sched_getaffinity), and the shares cover the
 * range. */
static void test_team_actual_bindings(void)
{
  omp_ext_topo_t *topo;
  hwloc_bitmap_t binds[MAXT];
  static double team_got[MAXT][MAXT]; /* each thread's own array */
  double got[MAXT], want[MAXT];
  long lo[MAXT], hi[MAXT];
  int err[MAXT], n = 0, t, nthreads = omp_get_max_threads() + 1;
  if (nthreads > MAXT)
    nthreads = MAXT;
  for (t = 0; t < nthreads; t++)
    binds[t] = hwloc_bitmap_alloc();
  omp_set_dynamic(0);
#pragma omp parallel num_threads(nthreads)
  {
    int me = omp_get_thread_num(), cpu, e;
    cpu_set_t set;
#pragma omp single
    n = omp_get_num_threads();
    sched_getaffinity(0, sizeof(set), &set);
    for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
      if (CPU_ISSET(cpu, &set))
        hwloc_bitmap_set(binds[me], (unsigned)cpu);
    e = omp_ext_team_weights(team_got[me], MAXT);
    err[me] = e ? e : omp_ext_share(-7, 1000, &lo[me], &hi[me]);
  }
  memcpy(got, team_got[0], sizeof(got));
  for (t = 1; t < n; t++)
    CU_ASSERT_EQUAL(memcmp(team_got[t], got, (size_t)n * sizeof(*got)), 0);
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, NULL, omp_ext_topo_ignore_binding) == 0);
  CU_ASSERT_FATAL(omp_ext_capacity_weights(topo, (const hwloc_const_cpuset_t *)binds,
                                           (unsigned)n, OMP_EXT_MODEL_SIGMA, want) == 0);
  for (t = 0; t < n; t++) {
    CU_ASSERT_EQUAL(err[t], 0);
    if (fabs(got[t] - want[t]) > 1e-12) {
      char *list = NULL;
      hwloc_bitmap_list_asprintf(&list, binds[t]);
      printf("\n  thread %d of %d bound to %s: weight %g, expected %g", t, n, list, got[t],
             want[t]);
      free(list);
    }
    ASSERT_NEAR(got[t], want[t]);
    CU_ASSERT_EQUAL(lo[t], t == 0 ? -7 : hi[t - 1]);
  }
  CU_ASSERT_EQUAL(hi[n - 1], 1000);
  for (t = 0; t < nthreads; t++)
    hwloc_bitmap_free(binds[t]);
  omp_ext_topo_destroy(topo);
}

/* omp_set_ht_policy()'s placement: the weights of the PUs omp_get_ht_pu()
 * names, thread by thread. */
static void test_team_policy(void)
{
  omp_ext_topo_t *topo;
  hwloc_bitmap_t binds[MAXT];
  static double team_got[MAXT][MAXT];
  double got[MAXT], want[MAXT];
  int n = 0, t, nthreads, e = 0;
  if (getenv("OMP_PLACES")) { /* the runtime's placement is under test there */
    OMP_EXT_SKIP("OMP_PLACES set: the runtime's placement is under test");
    return;
  }
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, NULL, omp_ext_topo_ignore_binding) == 0);
  nthreads = (int)omp_ext_topo_npus(topo) + 1; /* past the PUs: wraps around */
  if (nthreads > MAXT)
    nthreads = MAXT;
  CU_ASSERT_FATAL(omp_set_ht_policy_num_threads(omp_ht_policy_spn, nthreads) == 0);
#pragma omp parallel
  {
#pragma omp single
    n = omp_get_num_threads();
    if (omp_ext_team_weights(team_got[omp_get_thread_num()], MAXT) != 0)
      e = 1;
  }
  memcpy(got, team_got[0], sizeof(got));
  CU_ASSERT_EQUAL(e, 0);
  CU_ASSERT_EQUAL_FATAL(n, nthreads);
  for (t = 0; t < n; t++) {
    binds[t] = hwloc_bitmap_alloc();
    hwloc_bitmap_only(binds[t], (unsigned)omp_get_ht_pu(t));
  }
  CU_ASSERT_FATAL(omp_ext_capacity_weights(topo, (const hwloc_const_cpuset_t *)binds,
                                           (unsigned)n, OMP_EXT_MODEL_SIGMA, want) == 0);
  for (t = 0; t < n; t++) {
    ASSERT_NEAR(got[t], want[t]);
    hwloc_bitmap_free(binds[t]);
  }
  /* thread 0 and thread npus share a PU: half of what it is worth alone */
  CU_ASSERT(got[0] < 0.5 + 1e-12);
  CU_ASSERT_EQUAL(omp_set_ht_policy(omp_ht_policy_os), 0);
  omp_ext_topo_destroy(topo);
}

/* ------------------------------------------------- sigma from OMP_EXT_SIGMA */

/* In a child (sigma is read once per process, at its first use): with
 * OMP_EXT_SIGMA=VALUE, omp_ext_get_share_sigma() gives want (err 0) or
 * fails with want_err.  Returns the child's exit status: 0 when so. */
static int sigma_child(const char *value, double want, int want_err)
{
  int status = -1;
  pid_t pid;
  fflush(NULL);
  pid = fork();
  if (pid == 0) {
    double s = -1;
    int err;
    setenv("OMP_EXT_SIGMA", value, 1);
    err = omp_ext_get_share_sigma(&s);
    _exit(err != want_err ? 1 : err == 0 && fabs(s - want) > 1e-12 ? 2 : 0);
  }
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
    return -1;
  return WEXITSTATUS(status);
}

/* First of all the tests: no sigma may be cached in this process yet. */
static void test_sigma_env(void)
{
  CU_ASSERT_EQUAL(sigma_child("0.55", 0.55, 0), 0);
  CU_ASSERT_EQUAL(sigma_child("1", 1, 0), 0);
  CU_ASSERT_EQUAL(sigma_child("", OMP_EXT_MODEL_SIGMA, 0), 0); /* empty: the default */
  CU_ASSERT_EQUAL(sigma_child("abc", 0, omp_ext_err_parse), 0);
  CU_ASSERT_EQUAL(sigma_child("0", 0, omp_ext_err_parse), 0); /* (0, 1] */
  CU_ASSERT_EQUAL(sigma_child("1.5", 0, omp_ext_err_parse), 0);
}

/* ------------------------------------------------------ the dynamic tail */

/* The cut: round(fraction x length) iterations in the tail; empty ranges. */
static void test_tail_init(void)
{
  omp_ext_tail_t t;
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, 0, 1000, 0.1, 16), 0);
  CU_ASSERT_EQUAL(t.begin, 0);
  CU_ASSERT_EQUAL(t.cut, 900);
  CU_ASSERT_EQUAL(t.end, 1000);
  CU_ASSERT_EQUAL(t.chunk, 16);
  CU_ASSERT_EQUAL(t.taken, 0);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, -5, 5, 0.25, 1), 0); /* 2.5 rounds away from 0 */
  CU_ASSERT_EQUAL(t.cut, 2);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, 10, 20, 0, 3), 0); /* no tail */
  CU_ASSERT_EQUAL(t.cut, 20);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, 10, 20, 1, 3), 0); /* no head */
  CU_ASSERT_EQUAL(t.cut, 10);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, 7, 3, 0.5, 3), 0); /* empty */
  CU_ASSERT(t.begin == 7 && t.cut == 7 && t.end == 7);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, -1, LONG_MAX - 1, 0.5, 4), 0); /* LONG_MAX long */
  CU_ASSERT_EQUAL(t.cut, LONG_MAX - 1 - (1L << 62));
}

static void test_tail_errors(void)
{
  omp_ext_tail_t t;
  long lo = 11, hi = 12;
  CU_ASSERT_EQUAL(omp_ext_tail_init(NULL, 0, 10, 0.1, 1), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, 0, 10, -0.01, 1), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, 0, 10, 1.01, 1), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, 0, 10, NAN, 1), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, 0, 10, 0.1, 0), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, LONG_MIN, LONG_MAX, 0.1, 1), omp_ext_err_overflow);
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, 0, 10, 0.5, 2), 0);
  CU_ASSERT_EQUAL(omp_ext_tail_next(NULL, &lo, &hi), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, NULL, &hi), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, NULL), omp_ext_err_invalid);
  t.chunk = 0; /* not what omp_ext_tail_init() fills */
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), omp_ext_err_invalid);
  t.chunk = 2;
  t.cut = 11;
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), omp_ext_err_invalid);
  t.cut = 5;
  t.taken = 6; /* more than the tail [5, 10) holds: written over */
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), omp_ext_err_invalid);
  t.taken = 5; /* used up */
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), 0);
  CU_ASSERT(lo == 11 && hi == 12); /* unchanged */
}

/* One caller: the chunks in order, the last one short, then 0 for good. */
static void test_tail_serial(void)
{
  omp_ext_tail_t t;
  long lo = 0, hi = 0;
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, 100, 200, 0.23, 10), 0);
  CU_ASSERT_EQUAL(t.cut, 177);
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), 1);
  CU_ASSERT(lo == 177 && hi == 187);
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), 1);
  CU_ASSERT(lo == 187 && hi == 197);
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), 1);
  CU_ASSERT(lo == 197 && hi == 200);
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), 0);
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), 0);
  CU_ASSERT(lo == 197 && hi == 200); /* unchanged */
  CU_ASSERT_EQUAL(t.taken, 23);
  /* a chunk past LONG_MAX never wraps */
  CU_ASSERT_EQUAL(omp_ext_tail_init(&t, LONG_MAX - 5, LONG_MAX, 1, LONG_MAX), 0);
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), 1);
  CU_ASSERT(lo == LONG_MAX - 5 && hi == LONG_MAX);
  CU_ASSERT_EQUAL(omp_ext_tail_next(&t, &lo, &hi), 0);
  CU_ASSERT_EQUAL(t.taken, 5);
}

/* In real teams of this build's runtime: the head by omp_ext_share(), the
 * tail by chunks; every iteration exactly once, over several regions (the
 * tail refilled before each), tails smaller than the team and empty ones. */
static void test_tail_team(void)
{
  static const struct {
    long begin, end;
    double fraction;
    long chunk;
  } cases[] = {{0, 100000, 0.1, 16}, {-50, 50, 1, 1},  {0, 2, 0.5, 1},
               {0, 3, 0.0, 4},       {5, 5, 0.5, 1},   {0, 1000, 0.999, 1000}};
  unsigned c, round;
  for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
    for (round = 0; round < 3; round++) {
      long n = cases[c].end - cases[c].begin, i, bad = 0, chunks = 0;
      unsigned char *hits = calloc(n > 0 ? (size_t)n : 1, 1);
      int err = 0;
      omp_ext_tail_t t;
      CU_ASSERT_FATAL(hits != NULL);
      CU_ASSERT_EQUAL_FATAL(
          omp_ext_tail_init(&t, cases[c].begin, cases[c].end, cases[c].fraction, cases[c].chunk), 0);
#pragma omp parallel num_threads(3) reduction(+ : chunks) reduction(| : err)
      {
        long lo, hi, j;
        int e = omp_ext_share(t.begin, t.cut, &lo, &hi), r;
        err |= e ? 1 : 0;
        for (j = lo; !e && j < hi; j++)
#pragma omp atomic
          hits[j - cases[c].begin]++;
        while ((r = omp_ext_tail_next(&t, &lo, &hi)) > 0) {
          chunks++;
          err |= lo < t.cut || hi > t.end || hi <= lo || hi - lo > t.chunk ? 2 : 0;
          for (j = lo; j < hi; j++)
#pragma omp atomic
            hits[j - cases[c].begin]++;
        }
        err |= r < 0 ? 4 : 0;
      }
      CU_ASSERT_EQUAL(err, 0);
      for (i = 0; i < n; i++)
        bad += hits[i] != 1;
      CU_ASSERT_EQUAL(bad, 0);
      CU_ASSERT_EQUAL(chunks, (t.end - t.cut + t.chunk - 1) / t.chunk);
      CU_ASSERT_EQUAL(t.taken, (unsigned long)(t.end - t.cut));
      free(hits);
    }
}

/* ------------------------------------------------------ work stealing */

/* next() into lo/hi, asserting it gives exactly [want_lo, want_hi). */
#define STEAL_GIVES(s, t, want_lo, want_hi)                                                \
  do {                                                                                     \
    long lo_ = 0, hi_ = 0;                                                                 \
    CU_ASSERT_EQUAL(omp_ext_steal_next((s), (t), &lo_, &hi_), 1);                           \
    CU_ASSERT_EQUAL(lo_, (long)(want_lo));                                                  \
    CU_ASSERT_EQUAL(hi_, (long)(want_hi));                                                  \
  } while (0)
#define STEAL_DONE(s, t)                                                                   \
  do {                                                                                     \
    long lo_ = 123, hi_ = 456;                                                             \
    CU_ASSERT_EQUAL(omp_ext_steal_next((s), (t), &lo_, &hi_), 0);                           \
    CU_ASSERT(lo_ == 123 && hi_ == 456); /* unchanged */                                   \
  } while (0)

static void test_steal_errors(void)
{
  static const double two[2] = {1, 1}, neg[2] = {1, -1}, zero[2] = {0, 0};
  double nan2[2] = {1, NAN};
  omp_ext_steal_t *s = NULL, *keep;
  long lo = 11, hi = 12;
  CU_ASSERT_EQUAL(omp_ext_steal_create(4, 3, NULL), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_create(0, 3, &s), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_create(4, 0, &s), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_create(4, -5, &s), omp_ext_err_invalid);
  /* A negative int as unsigned (Fortran's -1): invalid, not an allocation
   * of billions of slots. */
  CU_ASSERT_EQUAL(omp_ext_steal_create((unsigned)-1, 3, &s), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_create((unsigned)INT_MAX + 1u, 3, &s), omp_ext_err_invalid);
  CU_ASSERT(s == NULL); /* unchanged */
  omp_ext_steal_destroy(NULL);
  CU_ASSERT_EQUAL_FATAL(omp_ext_steal_create(4, 3, &s), 0);
  CU_ASSERT_FATAL(s != NULL);
  keep = s;
  /* a new object: every slot empty */
  STEAL_DONE(s, 0);
  STEAL_DONE(s, 3);
  /* next */
  CU_ASSERT_EQUAL(omp_ext_steal_next(NULL, 0, &lo, &hi), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_next(s, 0, NULL, &hi), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_next(s, 0, &lo, NULL), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_next(s, 4, &lo, &hi), omp_ext_err_invalid); /* 4 slots */
  CU_ASSERT(lo == 11 && hi == 12);
  /* init_weights */
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(NULL, 0, 10, two, 2), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 10, NULL, 2), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 10, two, 0), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 10, 9, two, 2), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 10, neg, 2), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 10, zero, 2), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 10, nan2, 2), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, LONG_MIN, LONG_MAX, two, 2),
                  omp_ext_err_overflow);
  {
    double five[5] = {1, 1, 1, 1, 1};
    CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 10, five, 5), omp_ext_err_invalid);
  }
  STEAL_DONE(s, 0); /* none of them filled anything */
  /* an error leaves the slots as they were */
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 6, two, 2), 0);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 10, neg, 2), omp_ext_err_invalid);
  STEAL_GIVES(s, 0, 0, 3);
  STEAL_GIVES(s, 1, 3, 6);
  STEAL_DONE(s, 2);
  /* init is collective: outside a region it refuses and changes nothing */
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 6, two, 2), 0);
  CU_ASSERT_EQUAL(omp_ext_steal_init(s, 0, 10), omp_ext_err_not_in_parallel);
  CU_ASSERT_EQUAL(omp_ext_steal_init(NULL, 0, 10), omp_ext_err_not_in_parallel);
  STEAL_GIVES(s, 1, 3, 6);
  CU_ASSERT(s == keep);
  omp_ext_steal_destroy(s);
}

/* Errors of the collective init inside teams: every thread returns the
 * same error, nobody hangs, and the slots are left empty. */
static void test_steal_team_errors(void)
{
  omp_ext_steal_t *one = NULL, *s = NULL;
  int err[4][2], t, k;
  for (k = 0; k < 4; k++)
    err[k][0] = err[k][1] = -100;
  CU_ASSERT_FATAL(omp_ext_steal_create(1, 1, &one) == 0);
  CU_ASSERT_FATAL(omp_ext_steal_create(2, 1, &s) == 0);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 4, (const double[]){1, 1}, 2), 0);
  omp_set_dynamic(0);
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    if (omp_get_num_threads() == 2) {
      err[0][me] = omp_ext_steal_init(one, 0, 10);               /* 1 slot, team of 2 */
      err[1][me] = omp_ext_steal_init(s, 10, 9);                 /* begin > end */
      err[2][me] = omp_ext_steal_init(s, LONG_MIN, LONG_MAX);    /* overflow */
      err[3][me] = omp_ext_steal_init(NULL, 0, 10);
    }
  }
  for (t = 0; t < 2; t++) {
    CU_ASSERT_EQUAL(err[0][t], omp_ext_err_invalid);
    CU_ASSERT_EQUAL(err[1][t], omp_ext_err_invalid);
    CU_ASSERT_EQUAL(err[2][t], omp_ext_err_overflow);
    CU_ASSERT_EQUAL(err[3][t], omp_ext_err_invalid);
  }
  STEAL_DONE(s, 0); /* emptied by the failed init */
  STEAL_DONE(s, 1);
  omp_ext_steal_destroy(one);
  omp_ext_steal_destroy(s);
}

/* One caller at a time, in a fixed order: the policy by its values.  Own
 * slot from the front, then the back half (floor(left / 2), at least a
 * chunk) of the fullest other slot, ties to the lowest thread number. */
static void test_steal_serial(void)
{
  static const double four[4] = {1, 1, 1, 1};
  omp_ext_steal_t *s;
  CU_ASSERT_FATAL(omp_ext_steal_create(4, 10, &s) == 0);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 100, four, 4), 0);
  /* slots [0,25) [25,50) [50,75) [75,100) */
  STEAL_GIVES(s, 0, 0, 10);
  STEAL_GIVES(s, 0, 10, 20);
  STEAL_GIVES(s, 0, 20, 25);
  STEAL_GIVES(s, 0, 38, 48); /* slot 1 (25 left, first of three): back 12 = [38,50) */
  STEAL_GIVES(s, 0, 48, 50); /* the rest of what it stole, from its own slot */
  STEAL_GIVES(s, 0, 63, 73); /* slot 2 now the fullest (25 > 13): [63,75) */
  STEAL_GIVES(s, 0, 73, 75);
  STEAL_GIVES(s, 0, 88, 98); /* slot 3: [88,100) */
  STEAL_GIVES(s, 3, 75, 85); /* thread 3 from its own front: [75,88) left */
  STEAL_GIVES(s, 0, 98, 100);
  STEAL_GIVES(s, 0, 28, 38); /* 13, 13, 3 left: slot 1, 13 / 2 < a chunk: a chunk */
  STEAL_GIVES(s, 0, 53, 63); /* slot 2 */
  STEAL_GIVES(s, 0, 25, 28); /* 3, 3, 3: slot 1, less than a chunk: whole */
  STEAL_GIVES(s, 2, 50, 53); /* its own front */
  STEAL_GIVES(s, 2, 85, 88); /* the last ones, from slot 3 */
  STEAL_DONE(s, 1);
  STEAL_DONE(s, 0);
  STEAL_DONE(s, 3);
  STEAL_DONE(s, 2);

  /* weights 1:3 and a chunk above the range: shares [0,2) [2,8); a thief
   * takes a slot of at most one chunk whole */
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 8, (const double[]){1, 3}, 2), 0);
  omp_ext_steal_destroy(s);
  CU_ASSERT_FATAL(omp_ext_steal_create(3, 100, &s) == 0);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 8, (const double[]){1, 3}, 2), 0);
  STEAL_GIVES(s, 0, 0, 2);
  STEAL_GIVES(s, 0, 2, 8);
  STEAL_DONE(s, 1);
  STEAL_DONE(s, 2);
  STEAL_DONE(s, 0);
  omp_ext_steal_destroy(s);

  /* fewer weights than slots: threads 1 and 2 start by stealing */
  CU_ASSERT_FATAL(omp_ext_steal_create(3, 2, &s) == 0);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 9, (const double[]){1}, 1), 0);
  STEAL_GIVES(s, 2, 5, 7); /* [0,9): back 4 = [5,9) */
  STEAL_GIVES(s, 1, 3, 5); /* [0,5) vs [7,9): back 2 of [0,5) */
  STEAL_GIVES(s, 0, 0, 2);
  STEAL_GIVES(s, 0, 2, 3);
  STEAL_GIVES(s, 0, 7, 9); /* thread 2's [7,9): whole */
  STEAL_DONE(s, 0);
  STEAL_DONE(s, 1);
  STEAL_DONE(s, 2);

  /* a range smaller than the team: [0,1) [1,2) and two empty slots */
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 0, 2, (const double[]){1, 1, 1}, 3), 0);
  STEAL_GIVES(s, 2, 0, 1); /* tie: the lowest thread's */
  STEAL_GIVES(s, 0, 1, 2);
  STEAL_DONE(s, 1);
  STEAL_DONE(s, 0);
  STEAL_DONE(s, 2);
  /* an empty range; refilling after a used-up loop */
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, 5, 5, (const double[]){1, 1, 1}, 3), 0);
  STEAL_DONE(s, 0);
  STEAL_DONE(s, 2);
  omp_ext_steal_destroy(s);

  /* near LONG_MAX and LONG_MIN, and a range of LONG_MAX iterations: no wrap */
  CU_ASSERT_FATAL(omp_ext_steal_create(2, LONG_MAX, &s) == 0);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, LONG_MAX - 5, LONG_MAX, (const double[]){1, 1}, 2),
                  0);
  STEAL_GIVES(s, 1, LONG_MAX - 2, LONG_MAX);
  STEAL_GIVES(s, 1, LONG_MAX - 5, LONG_MAX - 2);
  STEAL_DONE(s, 1);
  STEAL_DONE(s, 0);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, LONG_MIN, LONG_MIN + 3, (const double[]){0, 1}, 2),
                  0);
  STEAL_GIVES(s, 0, LONG_MIN, LONG_MIN + 3);
  STEAL_DONE(s, 1);
  CU_ASSERT_EQUAL(omp_ext_steal_init_weights(s, -1, LONG_MAX - 1, (const double[]){1, 1}, 2), 0);
  /* quotas 2^62 - 0.5 each: the odd one to thread 0 */
  STEAL_GIVES(s, 1, (1L << 62) - 1, LONG_MAX - 1);
  STEAL_GIVES(s, 1, -1, (1L << 62) - 1); /* 2^62 left, at most a chunk: whole */
  STEAL_DONE(s, 0);
  STEAL_DONE(s, 1);
  omp_ext_steal_destroy(s);
}

/* Run one loop of [begin, end) in a team of nthreads on s, filled by
 * omp_ext_steal_init() (or by omp_ext_steal_init_weights() in a single when
 * by_weights), `loops` times in the same region; count each iteration's
 * hits and check every chunk.  Returns the bad count (0: each iteration
 * exactly `loops` times, no error, no bad chunk). */
static long steal_team_run(omp_ext_steal_t *s, int nthreads, long begin, long end, long chunk,
                           int loops, int by_weights)
{
  unsigned long n = end > begin ? (unsigned long)end - (unsigned long)begin : 0, i;
  unsigned char *hits = calloc(n ? n : 1, 1);
  long bad = 0;
  int err = 0;
  CU_ASSERT_FATAL(hits != NULL);
  omp_set_dynamic(0);
#pragma omp parallel num_threads(nthreads) reduction(| : err)
  {
    unsigned me = (unsigned)omp_get_thread_num();
    int loop;
    for (loop = 0; loop < loops; loop++) {
      long lo, hi, j;
      int e = 0, r = 0;
      if (by_weights) {
        static int shared_e;
        double w[MAXT];
        unsigned t, nt = (unsigned)omp_get_num_threads();
#pragma omp barrier
#pragma omp single
        {
          for (t = 0; t < nt; t++)
            w[t] = 1 + t % 3; /* uneven on purpose */
          shared_e = omp_ext_steal_init_weights(s, begin, end, w, nt);
        }
        e = shared_e;
      } else {
        e = omp_ext_steal_init(s, begin, end);
      }
      err |= e ? 1 : 0;
      while (!e && (r = omp_ext_steal_next(s, me, &lo, &hi)) > 0) {
        if (lo < begin || hi > end || hi <= lo ||
            (unsigned long)hi - (unsigned long)lo > (unsigned long)chunk)
          err |= 2;
        else
          for (j = lo; j < hi; j++)
#pragma omp atomic
            hits[(unsigned long)j - (unsigned long)begin]++;
      }
      if (r < 0)
        err |= 4;
    }
  }
  CU_ASSERT_EQUAL(err, 0);
  for (i = 0; i < n; i++)
    bad += hits[i] != loops;
  free(hits);
  return bad + (err != 0);
}

/* Real teams of this build's runtime (and under OMP_PLACES=threads with one
 * thread more than the places in test_share_places; libiomp5 in
 * test_share_iomp5): every iteration exactly once, one object reused over
 * regions and loops. */
static void test_steal_team(void)
{
  static const struct {
    long begin, end, chunk;
  } cases[] = {{0, 100000, 16},  {-50, 50, 1},
               {0, 2, 1},        {0, 3, 100},
               {5, 5, 1},        {0, 1, 1},
               {LONG_MAX - 1000, LONG_MAX, 7}, {LONG_MIN, LONG_MIN + 777, 3}};
  int sizes[5] = {1, 2, 3, 4, omp_get_max_threads() + 1};
  unsigned c, z;
  for (z = 0; z < 5; z++) {
    int nt = sizes[z] > MAXT ? MAXT : sizes[z];
    for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
      omp_ext_steal_t *s = NULL;
      long b = cases[c].begin, e = cases[c].end, k = cases[c].chunk, bad;
      CU_ASSERT_FATAL(omp_ext_steal_create((unsigned)nt + 1, k, &s) == 0);
      /* two regions of one loop, then one region of three loops */
      bad = steal_team_run(s, nt, b, e, k, 1, 0);
      bad += steal_team_run(s, nt, b, e, k, 1, 0);
      bad += steal_team_run(s, nt, b, e, k, 3, 0);
      bad += steal_team_run(s, nt, b, e, k, 2, 1);
      if (bad)
        printf("\n  team of %d, [%ld, %ld) chunk %ld: %ld wrong", nt, b, e, k, bad);
      CU_ASSERT_EQUAL(bad, 0);
      omp_ext_steal_destroy(s);
    }
  }
}

/* omp_ext_steal_init() gives the team's capacity split: with one thread
 * that never takes a chunk, the others' chunks are exactly their shares
 * of omp_ext_share_split() on omp_ext_team_weights() until they steal. */
static void test_steal_team_shares(void)
{
  static double w[MAXT][MAXT];
  long first[MAXT], bounds[MAXT + 1];
  int err[MAXT], n = 0, t;
  omp_ext_steal_t *s = NULL;
  CU_ASSERT_FATAL(omp_ext_steal_create(MAXT, 1000000, &s) == 0);
  omp_set_dynamic(0);
#pragma omp parallel num_threads(3)
  {
    int me = omp_get_thread_num(), e;
    long lo = -1, hi = -1;
#pragma omp single
    n = omp_get_num_threads();
    e = omp_ext_team_weights(w[me], MAXT);
    err[me] = e ? e : omp_ext_steal_init(s, -10, 990);
    /* everyone takes the front chunk of its own slot (the chunk is larger
     * than any share) before anyone can steal */
    if (!err[me] && omp_ext_steal_next(s, (unsigned)me, &lo, &hi) == 1)
      first[me] = lo, bounds[me + 1] = hi;
    else
      first[me] = bounds[me + 1] = LONG_MIN;
#pragma omp barrier
  }
  for (t = 0; t < n; t++)
    CU_ASSERT_EQUAL(err[t], 0);
  {
    long want[MAXT + 1];
    CU_ASSERT_FATAL(omp_ext_share_split(-10, 990, w[0], (unsigned)n, want) == 0);
    for (t = 0; t < n; t++)
      if (want[t + 1] > want[t]) {
        CU_ASSERT_EQUAL(first[t], want[t]);
        CU_ASSERT_EQUAL(bounds[t + 1], want[t + 1]);
      }
  }
  for (t = 0; t < n; t++) { /* nothing left */
    long lo = 1, hi = 2;
    CU_ASSERT_EQUAL(omp_ext_steal_next(s, (unsigned)t, &lo, &hi), 0);
  }
  omp_ext_steal_destroy(s);
}

/* Plain threads, no OpenMP: 8 threads, 10^6 iterations, chunks 1 .. 7,
 * uneven weights and a lone owner (the others only steal): every iteration
 * exactly once. */
struct steal_worker {
  omp_ext_steal_t *s;
  unsigned me;
  long chunk;
  unsigned *hits;
  int err;
  long chunks;
};

static void *steal_worker_run(void *arg)
{
  struct steal_worker *w = arg;
  long lo, hi, j;
  int r;
  while ((r = omp_ext_steal_next(w->s, w->me, &lo, &hi)) > 0) {
    w->chunks++;
    if (lo < 0 || hi > 1000000 || hi <= lo || hi - lo > w->chunk) {
      w->err = 1;
      continue;
    }
    for (j = lo; j < hi; j++)
      __atomic_fetch_add(&w->hits[j], 1, __ATOMIC_RELAXED);
    if ((w->chunks & 1023) == 0)
      sched_yield(); /* let others steal mid-way */
  }
  if (r < 0)
    w->err = 2;
  return NULL;
}

static void test_steal_pthreads(void)
{
  enum { NT = 8, N = 1000000 };
  unsigned *hits = malloc(N * sizeof(*hits));
  long chunk, i;
  int lone;
  CU_ASSERT_FATAL(hits != NULL);
  for (lone = 0; lone < 2; lone++)
    for (chunk = 1; chunk <= 7; chunk++) {
      omp_ext_steal_t *s = NULL;
      pthread_t th[NT];
      struct steal_worker w[NT];
      double weights[NT];
      long bad = 0, chunks = 0;
      unsigned t;
      memset(hits, 0, N * sizeof(*hits));
      for (t = 0; t < NT; t++)
        weights[t] = lone ? (t == 3) : 1 + t;
      CU_ASSERT_FATAL(omp_ext_steal_create(NT, chunk, &s) == 0);
      CU_ASSERT_FATAL(omp_ext_steal_init_weights(s, 0, N, weights, NT) == 0);
      for (t = 0; t < NT; t++) {
        w[t] = (struct steal_worker){s, t, chunk, hits, 0, 0};
        CU_ASSERT_FATAL(pthread_create(&th[t], NULL, steal_worker_run, &w[t]) == 0);
      }
      for (t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        CU_ASSERT_EQUAL(w[t].err, 0);
        chunks += w[t].chunks;
      }
      for (i = 0; i < N; i++)
        bad += hits[i] != 1;
      if (bad)
        printf("\n  chunk %ld%s: %ld iterations not run exactly once", chunk,
               lone ? " (one owner)" : "", bad);
      CU_ASSERT_EQUAL(bad, 0);
      CU_ASSERT(chunks >= (N + chunk - 1) / chunk);
      omp_ext_steal_destroy(s);
    }
  free(hits);
}

static CU_TestInfo weights_tests[] = {
  {"sigma from OMP_EXT_SIGMA (first: nothing cached yet)", test_sigma_env},
  {"alone on a core", test_alone},
  {"SMT2 siblings, sigma 0.3, 0, 1", test_smt2_sharing},
  {"SMT4 siblings (KNL)", test_smt4_sharing},
  {"oversubscribed PUs", test_oversubscribed},
  {"bindings wider than a PU", test_wide_bindings},
  {"spn odd N, speedup past the cores, Raptor Lake", test_fixture_policies},
  {"hybrid CPU kinds", test_kinds},
  {"errors", test_weights_errors},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo split_tests[] = {
  {"exact values", test_split_exact},
  {"range smaller than the team, empty range", test_split_small_and_empty},
  {"cover, no overlap, within one iteration, deterministic", test_split_properties},
  {"errors", test_split_errors},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo tail_tests[] = {
  {"the cut, empty ranges", test_tail_init},
  {"errors", test_tail_errors},
  {"one caller: chunks in order, no wrap", test_tail_serial},
  {"in a team: head and tail cover once (" OMP_RUNTIME_NAME ")", test_tail_team},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo steal_tests[] = {
  {"errors", test_steal_errors},
  {"errors of the collective init in a team", test_steal_team_errors},
  {"one caller at a time: exact chunks, steals, LONG_MIN/LONG_MAX", test_steal_serial},
  {"in teams: every iteration once, object reused (" OMP_RUNTIME_NAME ")", test_steal_team},
  {"in a team: the slots are the capacity shares", test_steal_team_shares},
  {"plain threads: 8 x 10^6 iterations, chunks 1-7", test_steal_pthreads},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo team_tests[] = {
  {"outside a parallel region", test_outside_region},
  {"sigma", test_sigma},
  {"three threads on one PU", test_team_one_pu},
  {"three threads on two PUs (the issue's case)", test_team_two_pus},
  {"team of one", test_team_single},
  {"argument errors do not hang the team", test_team_errors},
  {"different ranges in one team: an error in every thread", test_team_ranges_differ},
  {"inside single, masked, master, critical: an error, no hang", test_team_in_construct},
  {"weights of the actual bindings", test_team_actual_bindings},
  {"omp_set_ht_policy placement", test_team_policy},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"capacity weights", NULL, NULL, NULL, NULL, weights_tests},
  {"split", NULL, NULL, NULL, NULL, split_tests},
  {"in a team (" OMP_RUNTIME_NAME ")", NULL, NULL, NULL, NULL, team_tests},
  {"dynamic tail", NULL, NULL, NULL, NULL, tail_tests},
  {"work stealing", NULL, NULL, NULL, NULL, steal_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
