/*
 * The place-list parsers: OMP_PLACES (OpenMP 5.2 grammar), GOMP_CPU_AFFINITY
 * and KMP proclists -- expansions, notes and error positions.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "private/tools.h" /* the tools interface: not exported (libomp_ext.a) */

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"
#define FIXTURE(name) OMP_EXT_TEST_DIR "/topologies/" name

static omp_ext_topo_t *c6100;

static int setup(void) { return omp_ext_topo_load(&c6100, C6100, 0) != 0; }
static int teardown(void)
{
  omp_ext_topo_destroy(c6100);
  return 0;
}

/* Canonical expansion, or "error@POS" (1-based) when unparsable. */
static char *expand(const omp_ext_topo_t *topo, const char *text, omp_ext_syntax_t syntax)
{
  omp_ext_placelist_t *l = NULL;
  omp_ext_parse_error_t e = {0, NULL};
  char *out = NULL;
  int err = omp_ext_places_parse(topo, text, syntax, &l, &e);
  if (err == omp_ext_err_parse) {
    CU_ASSERT_PTR_NOT_NULL(e.what);
    CU_ASSERT_PTR_NULL(l);
    CU_ASSERT_FATAL(asprintf(&out, "error@%zu", e.pos + 1) > 0);
    return out;
  }
  CU_ASSERT_EQUAL_FATAL(err, 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_placelist_canonical(l, &out), 0);
  omp_ext_placelist_destroy(l);
  return out;
}

#define ASSERT_EXPAND(topo, syntax, text, expected)  \
  do {                                               \
    char *got_ = expand(topo, text, syntax);         \
    CU_ASSERT_STRING_EQUAL(got_, expected);          \
    if (strcmp(got_, expected))                      \
      fprintf(stderr, "\n%s -> %s (expected %s)\n", text, got_, expected); \
    free(got_);                                      \
  } while (0)
#define OMP(text, expected) ASSERT_EXPAND(c6100, omp_ext_syntax_omp, text, expected)
#define GOMP(text, expected) ASSERT_EXPAND(NULL, omp_ext_syntax_gomp, text, expected)
#define KMP(text, expected) ASSERT_EXPAND(NULL, omp_ext_syntax_kmp, text, expected)

static void test_explicit(void)
{
  OMP("{0,1},{2,3}", "{0,1},{2,3}");
  OMP("{0:4:2}", "{0,2,4,6}");
  OMP("{0:2:8}:4", "{0,8},{1,9},{2,10},{3,11}");
  OMP("{0,1}:4:2", "{0,1},{2,3},{4,5},{6,7}");
  OMP("{7}:4:-1", "{7},{6},{5},{4}");
  OMP("{6:3:-2}", "{2,4,6}");
  OMP("0,8,1", "{0},{8},{1}");
  OMP("3:4", "{3},{4},{5},{6}");
  OMP("3:2:+4", "{3},{7}");
  OMP(" { 0 , 1 } : 2 : 2 ", "{0,1},{2,3}");
  OMP("{3,1,2}", "{1,2,3}");
  OMP("{1:65536}", "error@2");      /* 1..65536 leaves 0..65535 */
  OMP("{65535}", "{65535}");
}

static void test_explicit_errors(void)
{
  OMP("", "error@1");
  OMP("   ", "error@4");
  OMP("{0,1", "error@5");
  OMP("{0,1},", "error@7");
  OMP("{0;1}", "error@3");
  OMP("{0:0}", "error@4");
  OMP("{0}:0", "error@5");
  OMP("{70000}", "error@2");
  OMP("{0:4:-1}", "error@2");       /* 0, -1, ... */
  OMP("{1}:3:-1", "error@1");       /* place {-1} */
  OMP("{!1:2}", "error@4");
  OMP("!{0}:2", "error@5");
  OMP("{}", "error@2");
  OMP("{0}}", "error@4");
  OMP("{-1}", "error@2");
  OMP("{0:65535}:65536", "error@1"); /* too much */
  OMP("0:65536:1", "error@1");       /* 65536 places fit, but expand past the work budget */
  OMP("{0:1411}:2823", "error@1");   /* 4 million numbers: fuzz_places' slow unit */
}

static void test_exclusion(void)
{
  omp_ext_placelist_t *l;
  omp_ext_parse_error_t e;
  OMP("{0:4,!2}", "{0,1,3}");
  OMP("{!2,0:4}", "{0,1,3}");      /* additions first, then exclusions (libgomp) */
  OMP("{0},{1},!{0}", "{1}");
  OMP("{0,!0}", "{}");

  CU_ASSERT_EQUAL_FATAL(omp_ext_places_parse(c6100, "{0:4,!2}", omp_ext_syntax_omp, &l, &e), 0);
  CU_ASSERT_EQUAL(l->nnotes, 1);
  CU_ASSERT_EQUAL(l->notes[0].kind, omp_ext_note_exclude_resource);
  CU_ASSERT_EQUAL(l->notes[0].pos, 5);
  omp_ext_placelist_destroy(l);

  CU_ASSERT_EQUAL_FATAL(omp_ext_places_parse(c6100, "{0:4,!7}", omp_ext_syntax_omp, &l, &e), 0);
  CU_ASSERT_EQUAL_FATAL(l->nnotes, 2);
  CU_ASSERT_EQUAL(l->notes[1].kind, omp_ext_note_exclude_missing);
  CU_ASSERT_EQUAL(l->notes[1].value, 7);
  omp_ext_placelist_destroy(l);

  CU_ASSERT_EQUAL_FATAL(omp_ext_places_parse(c6100, "{0},!{5}", omp_ext_syntax_omp, &l, &e), 0);
  CU_ASSERT_EQUAL(l->nplaces, 1);
  CU_ASSERT_EQUAL_FATAL(l->nnotes, 2);
  CU_ASSERT_EQUAL(l->notes[0].kind, omp_ext_note_exclude_place);
  CU_ASSERT_EQUAL(l->notes[1].kind, omp_ext_note_exclude_place_missing);
  CU_ASSERT_EQUAL(l->notes[1].pos, 4);
  omp_ext_placelist_destroy(l);
}

static void test_positions(void)
{
  omp_ext_placelist_t *l;
  omp_ext_parse_error_t e;
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_parse(NULL, "{0,1}, 7:2", omp_ext_syntax_omp, &l, &e), 0);
  CU_ASSERT_EQUAL_FATAL(l->nplaces, 3);
  CU_ASSERT_EQUAL(l->pos[0], 0);
  CU_ASSERT_EQUAL(l->pos[1], 7);
  CU_ASSERT_EQUAL(l->pos[2], 7);
  CU_ASSERT_EQUAL(l->abstract, omp_ext_abstract_none);
  omp_ext_placelist_destroy(l);
  CU_ASSERT_EQUAL(omp_ext_places_parse(NULL, "{0,x}", omp_ext_syntax_omp, &l, &e),
                  omp_ext_err_parse);
  CU_ASSERT_EQUAL(e.pos, 3);
  CU_ASSERT_STRING_EQUAL(e.what, "expected a CPU number");
}

static void test_abstract(void)
{
  omp_ext_topo_t *t;
  omp_ext_placelist_t *l;
  omp_ext_parse_error_t e;
  OMP("threads(4)", "{0},{8},{1},{9}");
  OMP("cores(2)", "{0,8},{1,9}");
  OMP("Cores ( 2 ) ", "{0,8},{1,9}");
  OMP("SOCKETS", "{0,1,2,3,8,9,10,11},{4,5,6,7,12,13,14,15}");
  OMP("ll_caches", "{0,1,2,3,8,9,10,11},{4,5,6,7,12,13,14,15}"); /* no caches: packages */
  OMP("numa_domains", "{0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15}");
  OMP("cores(0)", "error@7");
  OMP("cores(2", "error@8");
  OMP("cores()", "error@7");
  OMP("cores 2", "error@7");
  OMP("hyperthreads", "error@1");
  OMP("threads2", "error@1");

  CU_ASSERT_EQUAL_FATAL(omp_ext_places_parse(c6100, "cores(100)", omp_ext_syntax_omp, &l, &e), 0);
  CU_ASSERT_EQUAL(l->nplaces, 8);
  CU_ASSERT_EQUAL(l->abstract, omp_ext_abstract_cores);
  CU_ASSERT_EQUAL(l->count, 100);
  CU_ASSERT_EQUAL_FATAL(l->nnotes, 1);
  CU_ASSERT_EQUAL(l->notes[0].kind, omp_ext_note_count_capped);
  omp_ext_placelist_destroy(l);
  CU_ASSERT_EQUAL(omp_ext_places_parse(NULL, "cores", omp_ext_syntax_omp, &l, &e),
                  omp_ext_err_invalid);

  /* EPYC 7742 NPS4: 8 NUMA nodes, 32 L3 (one per 4-core CCX). */
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&t, FIXTURE("amd-epyc-7742-rome-2s-64c-smt2-far128-nps4.xml"), 0), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_parse(t, "numa_domains", omp_ext_syntax_omp, &l, &e), 0);
  CU_ASSERT_EQUAL(l->nplaces, 8);
  CU_ASSERT_EQUAL(hwloc_bitmap_weight(l->places[0]), 32);
  omp_ext_placelist_destroy(l);
  ASSERT_EXPAND(t, omp_ext_syntax_omp, "ll_caches(2)",
                "{0,1,2,3,128,129,130,131},{4,5,6,7,132,133,134,135}");
  omp_ext_topo_destroy(t);

  /* KNL: the MCDRAM node has the DDR node's cpuset: one place, not two. */
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&t, FIXTURE("intel-xeonphi-7250-knl-68c-smt4-far68-flat.xml"), 0), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_parse(t, "numa_domains", omp_ext_syntax_omp, &l, &e), 0);
  CU_ASSERT_EQUAL(l->nplaces, 1);
  CU_ASSERT_EQUAL(hwloc_bitmap_weight(l->places[0]), 272);
  omp_ext_placelist_destroy(l);
  ASSERT_EXPAND(t, omp_ext_syntax_omp, "threads(5)", "{0},{68},{136},{204},{1}");
  omp_ext_topo_destroy(t);

  /* cgroup-restricted Opteron: only PUs 0-5 are allowed. */
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&t, FIXTURE("amd-opteron-6134-4s-8c-nosmt-cgroup2-disallowed.xml"), 0), 0);
  ASSERT_EXPAND(t, omp_ext_syntax_omp, "sockets", "{0,1,2,3,4,5}");
  ASSERT_EXPAND(t, omp_ext_syntax_omp, "numa_domains", "{0,1,2,3},{4,5}");
  ASSERT_EXPAND(t, omp_ext_syntax_omp, "threads", "{0},{1},{2},{3},{4},{5}");
  omp_ext_topo_destroy(t);
}

static void test_gomp(void)
{
  omp_ext_placelist_t *l;
  omp_ext_parse_error_t e;
  GOMP("0 3 1-2 4-15:4", "{0},{3},{1},{2},{4},{8},{12}");
  GOMP("0,1, 2", "{0},{1},{2}");
  GOMP("010", "{8}");
  GOMP("0x10", "{16}");
  GOMP("08", "{0},{8}");
  GOMP("", "error@1");
  GOMP("1,,2", "error@3");
  GOMP("1,", "error@3");
  GOMP("5-3", "error@1");
  GOMP("0-4:0", "error@5");
  GOMP("65536", "error@1");
  GOMP("a", "error@1");
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_parse(NULL, "1 010", omp_ext_syntax_gomp, &l, &e), 0);
  CU_ASSERT_EQUAL_FATAL(l->nnotes, 1);
  CU_ASSERT_EQUAL(l->notes[0].kind, omp_ext_note_radix);
  CU_ASSERT_EQUAL(l->notes[0].pos, 2);
  CU_ASSERT_EQUAL(l->notes[0].value, 8);
  omp_ext_placelist_destroy(l);
}

static void test_kmp(void)
{
  omp_ext_placelist_t *l;
  omp_ext_parse_error_t e;
  KMP("0,{1,2},4-7:2", "{0},{1,2},{4},{6}");
  KMP("[3-0:-1]", "{3},{2},{1},{0}");
  KMP("explicit,proclist=[0,8,1]", "{0},{8},{1}");
  KMP("granularity=fine,proclist=[ 0 , 1 ],explicit", "{0},{1}");
  KMP("0,,1", "error@3");
  KMP("proclist=[0", "error@12");
  KMP("proclist=0", "error@10");
  KMP("3-0", "error@1");
  KMP("0-3:0", "error@5");
  KMP("[]", "error@2");
  KMP("explicit,proclist=[0,x]", "error@22");
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_parse(NULL, "explicit,proclist=[0,9]", omp_ext_syntax_kmp,
                                             &l, &e), 0);
  CU_ASSERT_EQUAL(l->pos[1], 21);
  omp_ext_placelist_destroy(l);
}

static void test_api(void)
{
  omp_ext_placelist_t *l;
  char *text;
  CU_ASSERT_EQUAL(omp_ext_places_parse(NULL, NULL, omp_ext_syntax_omp, &l, NULL),
                  omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_places_parse(NULL, "0", omp_ext_syntax_omp, NULL, NULL),
                  omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_places_parse(NULL, "0", (omp_ext_syntax_t)7, &l, NULL),
                  omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_places_parse(NULL, "{", omp_ext_syntax_omp, &l, NULL),
                  omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_placelist_canonical(NULL, &text), omp_ext_err_invalid);
  CU_ASSERT_STRING_EQUAL(omp_ext_abstract_name(omp_ext_abstract_ll_caches), "ll_caches");
  CU_ASSERT_PTR_NULL(omp_ext_abstract_name(omp_ext_abstract_none));
  CU_ASSERT_PTR_NULL(omp_ext_abstract_name((omp_ext_abstract_t)9));
  omp_ext_placelist_destroy(NULL);
}

/* Parse text, then its canonical text as OMP_PLACES: the same list. */
static void assert_round_trip(const char *text, omp_ext_syntax_t syntax, unsigned nplaces)
{
  omp_ext_placelist_t *l = NULL, *again = NULL;
  omp_ext_parse_error_t e = {0, NULL};
  char *canon = NULL, *canon2 = NULL;
  int err = omp_ext_places_parse(c6100, text, syntax, &l, &e);
  if (err)
    fprintf(stderr, "\n%s: %s at %zu\n", text, e.what ? e.what : "?", e.pos);
  CU_ASSERT_EQUAL_FATAL(err, 0);
  CU_ASSERT_EQUAL(l->nplaces, nplaces);
  CU_ASSERT_EQUAL_FATAL(omp_ext_placelist_canonical(l, &canon), 0);
  err = omp_ext_places_parse(c6100, canon, omp_ext_syntax_omp, &again, &e);
  if (err)
    fprintf(stderr, "\ncanonical of %s: %s at %zu\n", text, e.what ? e.what : "?", e.pos);
  CU_ASSERT_EQUAL_FATAL(err, 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_placelist_canonical(again, &canon2), 0);
  CU_ASSERT_STRING_EQUAL(canon, canon2);
  free(canon);
  free(canon2);
  omp_ext_placelist_destroy(l);
  omp_ext_placelist_destroy(again);
}

/* The expansion budgets (issue 13): charged alike in every syntax, so a
 * canonical text parses back; limits as documented, messages naming them. */
static void test_budget(void)
{
  omp_ext_placelist_t *l = NULL;
  omp_ext_parse_error_t e = {0, NULL};
  /* fuzz_kmp's crash: 23031 one-CPU places whose canonical text was refused. */
  assert_round_trip("[3-23033]-", omp_ext_syntax_kmp, 23031);
  assert_round_trip("3-23033", omp_ext_syntax_gomp, 23031);
  /* libgomp accepts place-interval lengths below 65536: 25000 numbers. */
  assert_round_trip("{0}:25000", omp_ext_syntax_omp, 25000);
  assert_round_trip("0:25000", omp_ext_syntax_omp, 25000);
  /* 65536 places of one CPU each, below 8192 (64 MiB of cpusets at most). */
  assert_round_trip("{0:8192}:128:0", omp_ext_syntax_omp, 128);
  assert_round_trip("{8191}:65536:0", omp_ext_syntax_omp, 65536);
  /* Over the limits: each message names its limit. */
  CU_ASSERT_EQUAL(omp_ext_places_parse(c6100, "{0}:65535", omp_ext_syntax_omp, &l, &e),
                  omp_ext_err_parse);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e.what);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.what, "64 MiB"));
  CU_ASSERT_EQUAL(omp_ext_places_parse(c6100, "{0:1411}:2823", omp_ext_syntax_omp, &l, &e),
                  omp_ext_err_parse);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.what, "1048576 CPU numbers"));
  CU_ASSERT_PTR_NULL(strstr(e.what, "million"));
  CU_ASSERT_EQUAL(omp_ext_places_parse(c6100, "{0}:65536:0,{0}", omp_ext_syntax_omp, &l, &e),
                  omp_ext_err_parse);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.what, "65536 places"));
}

/* KMP_AFFINITY without a proclist (issue 13): say there is none to check. */
static void test_kmp_no_proclist(void)
{
  omp_ext_placelist_t *l = NULL;
  omp_ext_parse_error_t e = {0, NULL};
  CU_ASSERT_EQUAL(omp_ext_places_parse(NULL, "compact", omp_ext_syntax_kmp, &l, &e),
                  omp_ext_err_parse);
  CU_ASSERT_EQUAL(e.pos, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e.what);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.what, "no explicit proclist"));
  CU_ASSERT_EQUAL(omp_ext_places_parse(NULL, " granularity=fine,scatter", omp_ext_syntax_kmp,
                                       &l, &e), omp_ext_err_parse);
  CU_ASSERT_EQUAL(e.pos, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e.what);
  CU_ASSERT_PTR_NOT_NULL(strstr(e.what, "no explicit proclist"));
  KMP("granularity=fine,explicit,proclist=[0,1]", "{0},{1}");
}

static CU_TestInfo parse_tests[] = {
  {"explicit places and intervals", test_explicit},
  {"explicit: error positions", test_explicit_errors},
  {"exclusion '!'", test_exclusion},
  {"source positions of places", test_positions},
  {"abstract names on fixtures", test_abstract},
  {"GOMP_CPU_AFFINITY", test_gomp},
  {"KMP_AFFINITY proclist", test_kmp},
  {"API arguments", test_api},
  {"expansion budgets and round trips", test_budget},
  {"KMP_AFFINITY without a proclist", test_kmp_no_proclist},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"parse", setup, teardown, NULL, NULL, parse_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
