/*
 * The online per-region tuner's decisions (omp_ext/auto.c), driven with
 * made-up instance times: each instance's start is set back by the time
 * the test says the candidate takes, so what auto measures is that time.
 * The candidates come from a fixture topology (HWLOC_XMLFILE: 2 packages x
 * 4 cores x 2 PUs, 16 PUs), whatever this machine has; nothing is bound.
 * Linked with the static library (auto.c's hidden functions).
 *
 * What must hold:
 *  - a solver's many similar regions learn a clearly worse team size once:
 *    the first two pay one instance for it, the others none (peers);
 *  - a region of another length learns for itself, one instance each
 *    (early drop), and still settles on its best;
 *  - a candidate that is better is never dropped by peers and wins;
 *  - tiny regions explore as before (no early drop, no peers).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "region_int.h"
#include "timing.h"

#define NPUS 16
#define NCORES 8

/* The time one instance takes on a team of \p threads (0: the program's,
 * all PUs): a compute-bound loop that wants every core. */
typedef double (*cost_fn)(unsigned threads, double base);

static double wants_cores(unsigned threads, double base)
{
  if (threads == 0 || threads >= NCORES)
    return base;
  return threads >= NCORES / 2 ? base * 1.8 : base * 6;
}

/* A loop that one thread runs best (a tiny critical section, say). */
static double wants_one(unsigned threads, double base)
{
  return threads == 1 ? base * 0.5 : base;
}

struct tally {
  unsigned worse;  /* instances run on a clearly worse team (fewer than the cores) */
  unsigned total;
};

/* One instance of region \p a: pick, "run" for cost(), done. */
static void instance(struct omp_ext_auto *a, cost_fn cost, double base, struct tally *t)
{
  struct omp_ext_rpick p;
  unsigned threads;
  double dt;
  memset(&p, 0, sizeof(p));
  omp_ext_auto_pick(a, 0, &p);
  threads = p.cfg ? p.cfg->threads : 0;
  dt = cost(threads, base);
  if (threads && threads < NCORES)
    t->worse++;
  t->total++;
  p.t0 = omp_ext_timing_ns() - (int64_t)(dt * 1e9);
  omp_ext_auto_done(a, &p);
}

/* Region \p a's "control" object, as the timing file writes it. */
static char *control_json(const struct omp_ext_auto *a)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return NULL;
  omp_ext_auto_write_json(f, a);
  fclose(f);
  return buf;
}

static unsigned long json_count(const char *js, const char *key)
{
  char pat[64];
  const char *at;
  snprintf(pat, sizeof(pat), "\"%s\": ", key);
  at = js ? strstr(js, pat) : NULL;
  return at ? strtoul(at + strlen(pat), NULL, 10) : (unsigned long)-1;
}

/* The configuration the region settled on ("" when not settled). */
static void settled_config(const struct omp_ext_auto *a, char *out, size_t len)
{
  char *js = control_json(a), *at;
  out[0] = 0;
  if (js && strstr(js, "\"settled\": true") && (at = strstr(js, "\"config\": \""))) {
    at += strlen("\"config\": \"");
    snprintf(out, len, "%.*s", (int)strcspn(at, "\""), at);
  }
  free(js);
}

/* The number of candidates that run fewer threads than the cores. */
static unsigned worse_candidates(const struct omp_ext_auto *a)
{
  char *js = control_json(a), *at = js;
  unsigned n = 0;
  while (at && (at = strstr(at, "{\"config\": \""))) {
    const char *colon;
    at += strlen("{\"config\": \"");
    colon = strchr(at, ':');
    if (colon && colon < strchr(at, '"') && strtoul(colon + 1, NULL, 10) < NCORES)
      n++;
  }
  free(js);
  return n;
}

static int setup(void)
{
  setenv("HWLOC_XMLFILE", OMP_EXT_TEST_DIR "/topologies/intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml",
         1);
  setenv("HWLOC_THISSYSTEM", "1", 1);
  return 0;
}

/* NPB CG under clang: 20 regions of 600 us, each run 16 times, in turn. */
static void test_similar_regions(void)
{
  struct omp_ext_auto *a[20];
  struct tally t = {0, 0};
  unsigned i, k, nworse, paid = 0, skipped = 0;
  for (i = 0; i < 20; i++)
    CU_ASSERT_PTR_NOT_NULL_FATAL(a[i] = omp_ext_auto_new());
  nworse = worse_candidates(a[0]);
  CU_ASSERT_FATAL(nworse >= 2); /* (1 and half the cores, in some orders) */
  for (k = 0; k < 16; k++)
    for (i = 0; i < 20; i++)
      instance(a[i], wants_cores, 600e-6, &t);
  for (i = 0; i < 20; i++) {
    char *js = control_json(a[i]);
    paid += json_count(js, "early_drops");
    skipped += json_count(js, "peer_skips");
    free(js);
  }
  /* Each worse candidate: run once by the first two regions, then skipped by
   * the other 18 (before: 3 instances by each of the 20). */
  CU_ASSERT_EQUAL(t.worse, 2 * nworse);
  CU_ASSERT_EQUAL(paid, 2 * nworse);
  CU_ASSERT_EQUAL(skipped, 18 * nworse);
  CU_ASSERT_EQUAL(t.total, 320);
  for (i = 0; i < 20; i++)
    free(a[i]); /* (as region.c: a region's state is one allocation) */
}

/* A region of another length (20 ms, another bucket) learns for itself:
 * one instance per worse candidate; then it settles on all the cores. */
static void test_other_length(void)
{
  struct omp_ext_auto *a = omp_ext_auto_new();
  struct tally t = {0, 0};
  char cfg[48];
  unsigned k, nworse;
  char *js;
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  nworse = worse_candidates(a);
  for (k = 0; k < 200; k++)
    instance(a, wants_cores, 20e-3, &t);
  js = control_json(a);
  CU_ASSERT_EQUAL(json_count(js, "peer_skips"), 0);
  CU_ASSERT_EQUAL(json_count(js, "early_drops"), nworse);
  free(js);
  CU_ASSERT_EQUAL(t.worse, nworse);
  settled_config(a, cfg, sizeof(cfg));
  CU_ASSERT(strcmp(cfg, "default") == 0 || strtoul(strchr(cfg, ':') ? strchr(cfg, ':') + 1 : "0",
                                                   NULL, 10) >= NCORES);
  free(a);
}

/* Regions that one thread runs best, near the length of the first test's
 * (its peers dropped the one-thread candidates): never skipped, and won. */
static void test_better_not_skipped(void)
{
  struct omp_ext_auto *a[4];
  struct tally t = {0, 0};
  unsigned i, k;
  for (i = 0; i < 4; i++)
    CU_ASSERT_PTR_NOT_NULL_FATAL(a[i] = omp_ext_auto_new());
  for (k = 0; k < 200; k++)
    for (i = 0; i < 4; i++)
      instance(a[i], wants_one, 700e-6, &t);
  for (i = 0; i < 4; i++) {
    char cfg[48], *js = control_json(a[i]);
    /* (peers may skip the half-cores candidates: no better here) */
    settled_config(a[i], cfg, sizeof(cfg));
    CU_ASSERT_STRING_EQUAL(strchr(cfg, ':') ? strchr(cfg, ':') : cfg, ":1");
    free(js);
    free(a[i]);
  }
}

/* Tiny regions (10 us) explore with many samples, no early drop, no
 * peers; they still settle on their best. */
static void test_tiny(void)
{
  struct omp_ext_auto *a[3];
  struct tally t = {0, 0};
  unsigned i, k;
  for (i = 0; i < 3; i++)
    CU_ASSERT_PTR_NOT_NULL_FATAL(a[i] = omp_ext_auto_new());
  for (k = 0; k < 2000; k++)
    for (i = 0; i < 3; i++)
      instance(a[i], wants_one, 10e-6, &t);
  for (i = 0; i < 3; i++) {
    char cfg[48], *js = control_json(a[i]);
    CU_ASSERT_EQUAL(json_count(js, "early_drops"), 0);
    CU_ASSERT_EQUAL(json_count(js, "peer_skips"), 0);
    free(js);
    settled_config(a[i], cfg, sizeof(cfg));
    CU_ASSERT_STRING_EQUAL(strchr(cfg, ':') ? strchr(cfg, ':') : cfg, ":1");
    free(a[i]);
  }
}

static CU_TestInfo auto_tests[] = {
  {"similar regions learn a worse team once (peers)", test_similar_regions},
  {"a region of another length: one instance per worse candidate", test_other_length},
  {"a better candidate is not skipped by peers", test_better_not_skipped},
  {"tiny regions: no early drop, no peers", test_tiny},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"auto's decisions (fixture: 2 x 4 cores x 2 PUs)", setup, NULL, NULL, NULL, auto_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
