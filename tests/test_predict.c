/*
 * omp_ext_places_predict(): the disagreements of issue 13, per runtime, on a
 * synthetic 2-core machine like the CI one (the live comparison with the
 * real runtimes is test_oracle).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "private/tools.h" /* the tools interface: not exported (libomp_ext.a) */

static omp_ext_topo_t *two;   /* 2 cores, 1 PU each, one NUMA node */
static omp_ext_topo_t *c6100; /* 2 packages x 4 cores x 2 PUs */

static int setup(void)
{
  return omp_ext_topo_load(&two, "pack:1 core:2 pu:1", 0) != 0 ||
         omp_ext_topo_load(&c6100, "pack:2 core:4 pu:2(indexes=core:pack)", 0) != 0;
}
static int teardown(void)
{
  omp_ext_topo_destroy(two);
  omp_ext_topo_destroy(c6100);
  return 0;
}

/* "outcome N:{...}" for one value. */
static char *predict(const omp_ext_topo_t *t, const char *text, omp_ext_syntax_t s,
                     omp_ext_runtime_t rt)
{
  static const char *const names[] = {"places", "ignored", "fallback", "disabled", "crash"};
  omp_ext_prediction_t p;
  char *canon = NULL, *out = NULL;
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_predict(t, text, s, rt, &p), 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p.list);
  CU_ASSERT_EQUAL_FATAL(omp_ext_placelist_canonical(p.list, &canon), 0);
  CU_ASSERT_FATAL(asprintf(&out, "%s %u:%s", names[p.outcome], p.list->nplaces, canon) > 0);
  if (p.outcome != omp_ext_outcome_places || p.why)
    CU_ASSERT_PTR_NOT_NULL(p.why);
  free(canon);
  omp_ext_prediction_clear(&p);
  return out;
}

#define EXPECT(t, s, rt, text, expected)                                      \
  do {                                                                        \
    char *got_ = predict(t, text, s, rt);                                     \
    CU_ASSERT_STRING_EQUAL(got_, expected);                                   \
    if (strcmp(got_, expected))                                               \
      fprintf(stderr, "\n%s '%s' -> %s (expected %s)\n",                     \
              omp_ext_runtime_name(rt), text, got_, expected);                \
    free(got_);                                                               \
  } while (0)
#define GOMP(text, e) EXPECT(two, omp_ext_syntax_omp, omp_ext_runtime_libgomp, text, e)
#define KOMP(text, e) EXPECT(two, omp_ext_syntax_omp, omp_ext_runtime_libomp, text, e)

/* The examples of issue 13, each as the real libgomp 12 / libomp 14 do. */
static void test_issue_examples(void)
{
  KOMP("threads()", "places 2:{0},{1}");
  KOMP("threads(0)", "places 2:{0},{1}");
  GOMP("threads(0)", "ignored 0:");
  KOMP("!{0}:2", "places 1:{1}");
  GOMP("!{0}:2", "ignored 0:");
  KOMP("{0}:2:-1", "places 1:{0}");
  KOMP("{0,1}:2:-1", "places 2:{0,1},{0}");
  KOMP("{0}:2:--1", "places 2:{0},{1}");
  KOMP("{1}:2:+-1", "places 2:{1},{0}");
  GOMP("{0}:2:--1", "ignored 0:");
  GOMP("{0}:25000", "ignored 0:"); /* parses; CPU 64 is beyond libgomp's set */
  KOMP("{0}:25000", "places 2:{0},{1}");
  KOMP("numa_domains", "fallback 2:{0},{1}"); /* "NUMA domain does not exist" */
  KOMP("numa_domains(1)", "fallback 1:{0}");
  GOMP("numa_domains", "places 1:{0,1}");
  KOMP(" threads ( 1 ) ", "fallback 2:{0},{1}");
  GOMP(" threads ( 1 ) ", "places 1:{0}");
  EXPECT(two, omp_ext_syntax_gomp, omp_ext_runtime_libomp, "0x1", "crash 0:");
  EXPECT(two, omp_ext_syntax_gomp, omp_ext_runtime_libgomp, "0x1", "places 1:{1}");
  EXPECT(two, omp_ext_syntax_gomp, omp_ext_runtime_libomp, "x", "disabled 1:{0,1}");
  EXPECT(two, omp_ext_syntax_kmp, omp_ext_runtime_libgomp, "0,1", "ignored 0:");
  EXPECT(two, omp_ext_syntax_kmp, omp_ext_runtime_libomp, "0 1", "places 2:{0},{1}");
  KOMP("{0:2:-1}", "crash 0:");
}

static void test_machine_rules(void)
{
  GOMP("{0},{2}", "places 1:{0}");
  GOMP("{2}", "ignored 0:");
  GOMP("{64}", "ignored 0:");
  GOMP("+1", "places 1:{1}");
  GOMP("{0:2,!3}", "ignored 0:");
  GOMP("{0},{1},!{0}", "places 1:{1}");
  KOMP("{0},{1},!{0}", "places 3:{0},{1},{1}");
  KOMP("{0:2},!{0:2}", "places 2:{0,1},{}");
  KOMP("{2}", "disabled 1:{0,1}");
  KOMP("{0:2,!1}", "fallback 2:{0},{1}");
  KOMP("threads(1)x", "places 1:{0}");
  KOMP("threads(1,2)", "fallback 2:{0},{1}");
  EXPECT(two, omp_ext_syntax_gomp, omp_ext_runtime_libgomp, "0-3", "places 4:{0},{1},{2},{3}");
  EXPECT(two, omp_ext_syntax_gomp, omp_ext_runtime_libomp, "0-3", "places 2:{0},{1}");
  EXPECT(two, omp_ext_syntax_kmp, omp_ext_runtime_libomp, "3-23033", "disabled 1:{0,1}");
  /* Abstract names on a multi-package fixture: counts and NUMA. */
  EXPECT(c6100, omp_ext_syntax_omp, omp_ext_runtime_libgomp, "cores(2)",
         "places 2:{0,8},{1,9}");
}

/* libomp's explicit places on an allowed set with a hole (the cpuset SMT
 * guest: CPUs 0-4,6 of 0-7 allowed), as the real libomp 14 builds them
 * there and under taskset -c 1 on a 2-PU machine (kmp_affinity.cpp,
 * __kmp_affinity_process_placelist): place i+1 of "P:n:s" is built from
 * place i, each CPU moved by s; a CPU whose move is not allowed is dropped
 * for good and an empty place ends the interval; an interval inside braces
 * ends at its first CPU that is not allowed (before it can go below 0); a
 * place with no allowed CPU, complemented or not, is dropped. */
static void test_kmp_allowed_hole(void)
{
  omp_ext_topo_t *t = NULL;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  CU_ASSERT_PTR_NOT_NULL_FATAL(set);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&t, "pack:1 core:8 pu:1", 0), 0);
  CU_ASSERT_EQUAL_FATAL(hwloc_bitmap_list_sscanf(set, "0-4,6"), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_restrict(t, set), 0);
#define HOLE(text, e) EXPECT(t, omp_ext_syntax_omp, omp_ext_runtime_libomp, text, e)
  /* Seen in the cpuset guest: the chain stops at CPU 5, CPU 6 never comes. */
  HOLE("{0}:25000", "places 5:{0},{1},{2},{3},{4}");
  HOLE("{0}:65536", "places 5:{0},{1},{2},{3},{4}");
  HOLE("{3}:4", "places 2:{3},{4}");
  HOLE("{3,4}:3", "places 2:{3,4},{4}");
  HOLE("{2,4}:3:2", "places 3:{2,4},{4,6},{6}");
  HOLE("{1,4}:3:1", "places 3:{1,4},{2},{3}");
  HOLE("{3:4}", "places 1:{3,4}");
  HOLE("{6:4:-1},{1}", "places 2:{6},{1}");
  HOLE("{5},{1}", "places 1:{1}");
  HOLE("!{5},{1}", "places 1:{1}");
  HOLE("!{0,1,2,3,4,6}", "places 1:{}");
  HOLE("!{0}:3", "places 3:{1,2,3,4,6},{2,3,4},{3,4}");
  HOLE("{5:2:-1}", "disabled 1:{0,1,2,3,4,6}");
  HOLE("{0:2:-1}", "crash 0:");
#undef HOLE
  /* taskset -c 1 on a 2-PU machine (test_oracle_taskset). */
  CU_ASSERT_EQUAL_FATAL(hwloc_bitmap_list_sscanf(set, "1"), 0);
  omp_ext_topo_destroy(t);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&t, "pack:1 core:2 pu:1", 0), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_restrict(t, set), 0);
  EXPECT(t, omp_ext_syntax_omp, omp_ext_runtime_libomp, "{0,1}:2", "places 1:{1}");
  EXPECT(t, omp_ext_syntax_omp, omp_ext_runtime_libomp, "{0},{1},!{0}", "places 1:{1}");
  EXPECT(t, omp_ext_syntax_omp, omp_ext_runtime_libomp, "{0:2:-1}", "disabled 1:{1}");
  EXPECT(t, omp_ext_syntax_omp, omp_ext_runtime_libomp, "{0:2},!{0:2}", "disabled 1:{1}");
  omp_ext_topo_destroy(t);
  hwloc_bitmap_free(set);
}

#define FIXTURE(name) OMP_EXT_TEST_DIR "/topologies/" name

/* "{..},{..}" of an abstract name in libgomp's order; "+bug" when the
 * libgomp 12 ll_caches bug shaped it. */
static char *gomp_order(const omp_ext_topo_t *t, omp_ext_abstract_t a, unsigned long count)
{
  omp_ext_placelist_t *l = NULL;
  char *canon = NULL, *out = NULL;
  int bug = -1;
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_gomp_order(t, a, count, &l, &bug), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_placelist_canonical(l, &canon), 0);
  CU_ASSERT_FATAL(asprintf(&out, "%s%s", canon, bug ? "+bug" : "") >= 0);
  free(canon);
  omp_ext_placelist_destroy(l);
  return out;
}

#define ORDER(t, a, n, expected)                                             \
  do {                                                                       \
    char *got_ = gomp_order(t, a, n);                                        \
    CU_ASSERT_STRING_EQUAL(got_, expected);                                  \
    if (strcmp(got_, expected))                                              \
      fprintf(stderr, "\n%s(%lu) -> %s (expected %s)\n",                     \
              omp_ext_abstract_name(a), (unsigned long)(n), got_, expected); \
    free(got_);                                                              \
  } while (0)

/* libgomp orders abstract places by lowest OS index, ignoring packages. */
static void test_gomp_order(void)
{
  omp_ext_topo_t *t = NULL;
  omp_ext_placelist_t *l = NULL;
  omp_ext_parse_error_t e;
  char *canon = NULL;
  /* 2 packages whose OS indexes interleave (even: package 0), SMT siblings
   * 12 apart. */
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&t, FIXTURE("hp-sl390s-xeon-westmere-2s-6c-smt2-far12-interleaved.xml"), 0), 0);
  ORDER(t, omp_ext_abstract_cores, 4, "{0,12},{1,13},{2,14},{3,15}");
  /* threads: a core's siblings together, cores by their lowest OS index (as
   * the real libgomp 12 builds them in the smt2x2 guest: {0},{4},{1},{5}...;
   * tests/smtvm/checks.sh compares every abstract name with the runtime) */
  ORDER(t, omp_ext_abstract_threads, 4, "{0},{12},{1},{13}");
  ORDER(t, omp_ext_abstract_sockets, 0,
        "{0,2,4,6,8,10,12,14,16,18,20,22},{1,3,5,7,9,11,13,15,17,19,21,23}");
  ORDER(t, omp_ext_abstract_ll_caches, 0, "{0,2,4,6,8,10,12,14,16,18,20,22}+bug");
  /* hwloc's (and libomp's) topology order differs: package 0 first. */
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_parse(t, "cores(4)", omp_ext_syntax_omp, &l, &e), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_placelist_canonical(l, &canon), 0);
  CU_ASSERT_STRING_EQUAL(canon, "{0,12},{2,14},{4,16},{6,18}");
  free(canon);
  omp_ext_placelist_destroy(l);
  EXPECT(t, omp_ext_syntax_omp, omp_ext_runtime_libgomp, "cores(2)",
         "places 2:{0,12},{1,13}");
  EXPECT(t, omp_ext_syntax_omp, omp_ext_runtime_libomp, "cores(2)",
         "places 2:{0,12},{2,14}");
  omp_ext_topo_destroy(t);
  /* One package: the orders agree; ll_caches has one cache: no bug. */
  ORDER(c6100, omp_ext_abstract_cores, 2, "{0,8},{1,9}");
  ORDER(two, omp_ext_abstract_ll_caches, 0, "{0,1}");
}

/* 1 when the runtime does not build the value as written. */
static int changed(const omp_ext_topo_t *t, const char *text, omp_ext_syntax_t s,
                   omp_ext_runtime_t rt)
{
  omp_ext_prediction_t p;
  int c;
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_predict(t, text, s, rt, &p), 0);
  c = p.changed;
  omp_ext_prediction_clear(&p);
  return c;
}

/* Whole KMP_AFFINITY values (issue 24), each as the real libomp 14 builds
 * it on this project's 2-core VM with KMP_TOPOLOGY_METHOD=cpuinfo (the
 * kmpa lines of tests/places-corpus.txt run them live in test_oracle). */
static void test_kmp_whole_value(void)
{
#define KMP(t, text, e) EXPECT(t, omp_ext_syntax_kmp, omp_ext_runtime_libomp, text, e)
  omp_ext_topo_t *smt = NULL;
  KMP(two, "explicit,proclist=[0,1]", "places 2:{0},{1}");                   /* real: 2:{0},{1} */
  KMP(two, "granularity=fine,explicit,proclist=[0,1]", "places 2:{0},{1}");  /* 2:{0},{1} */
  KMP(two, "explicit,proclist=[0-1]", "places 2:{0},{1}");                   /* 2:{0},{1} */
  KMP(two, "explicit,proclist=[1-0:-1]", "places 2:{1},{0}");                /* 2:{1},{0} */
  KMP(two, "explicit,proclist=[{0,1}]", "places 1:{0,1}");                   /* 1:{0,1} */
  KMP(two, "explicit,proclist=[0-3:2]", "places 1:{0}");                     /* 1:{0}, #124 */
  KMP(two, "granularity=fine,explicit,proclist=[ 1 , 0 ]", "places 2:{1},{0}");
  KMP(two, "proclist=[1,0],explicit", "places 2:{1},{0}");                   /* warning #63 */
  KMP(two, "EXPLICIT,PROCLIST=[1,0]", "places 2:{1},{0}");
  KMP(two, "explicit,proclist=[1,0]junk", "places 2:{1},{0}");               /* warning #81 */
  KMP(two, "explicit,proclist=[0,1", "disabled 1:{0,1}");                   /* #58, #62 */
  KMP(two, "explicit,proclist=[]", "disabled 1:{0,1}");                     /* #65, #62 */
  KMP(two, "explicit,proclist=[5]", "disabled 1:{0,1}");                    /* #124, #125 */
  KMP(two, "explicit,proclist=[1,0,x]", "disabled 1:{0,1}");                /* #58, #62 */
  KMP(two, "explicit", "disabled 1:{0,1}");                                 /* #62 */
  KMP(two, "granularity=socket,explicit,proclist=[1]", "places 1:{0,1}");    /* 1:{0,1} */
  KMP(two, "[1,0]", "places 2:{1},{0}");
  /* Granularity core by default: without KMP_TOPOLOGY_METHOD=cpuinfo the
   * VM's libomp saw 1 core of 2 threads and built "explicit,proclist=[0,1]"
   * as 2:{0,1},{0,1}, "granularity=fine,..." as 2:{0},{1}. */
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&smt, "pack:1 core:1 pu:2", 0), 0);
  KMP(smt, "explicit,proclist=[0,1]", "places 2:{0,1},{0,1}");
  KMP(smt, "granularity=fine,explicit,proclist=[0,1]", "places 2:{0},{1}");
  CU_ASSERT_EQUAL(changed(smt, "explicit,proclist=[0,1]", omp_ext_syntax_kmp,
                          omp_ext_runtime_libomp), 1);
  omp_ext_topo_destroy(smt);
  {
    omp_ext_prediction_t p;
    CU_ASSERT_EQUAL(omp_ext_places_predict(two, "granularity=fine,compact", omp_ext_syntax_kmp,
                                           omp_ext_runtime_libomp, &p), omp_ext_err_parse);
    CU_ASSERT_EQUAL(omp_ext_places_predict(two, "granularity=tile,explicit,proclist=[0]",
                                           omp_ext_syntax_kmp, omp_ext_runtime_libomp, &p),
                    omp_ext_err_parse);
  }
  KMP(c6100, "explicit,proclist=[0,1]", "places 2:{0,8},{1,9}");
  KMP(c6100, "granularity=thread,explicit,proclist=[0,1]", "places 2:{0},{1}");
  CU_ASSERT_EQUAL(changed(two, "explicit,proclist=[0,1]", omp_ext_syntax_kmp,
                          omp_ext_runtime_libomp), 0);
#undef KMP
}

/* libomp's warnings on abstract names and the changed flag (issue 24),
 * as the real libomp 14 / libgomp 12 answer on the 2-core VM. */
static void test_warnings_changed(void)
{
  /* a syntax error after a name: libomp rejects it and builds all places of
   * that kind -- a fallback (labelled "places" until issue 33) */
  KOMP("sockets(", "fallback 1:{0,1}");    /* #250 "syntax error, using socket" */
  KOMP("cores(+1)", "fallback 2:{0},{1}"); /* #250 "syntax error, using core" */
  KOMP("cores x", "fallback 2:{0},{1}");   /* #250 */
  KOMP("cores(1)x", "places 1:{0}");       /* #81 "extra trailing characters ignored" */
  KOMP("threads ( 1 ) ", "places 1:{0}");  /* no warning */
  GOMP("sockets(", "ignored 0:");          /* "Invalid value for environment variable" */
  GOMP("cores(+1)", "places 1:{0}");
#define CH(rt, text) changed(two, text, omp_ext_syntax_omp, rt)
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libomp, "sockets("), 1);
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libomp, "cores(1)x"), 1);
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libomp, "threads ( 1 ) "), 0);
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libomp, " threads ( 1 ) "), 1);
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libomp, "numa_domains"), 1);
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libomp, "{0},{1}"), 0);
  /* libgomp drops {5} on 2 CPUs ("Number of places reduced"): changed. */
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libgomp, "{0},{5}"), 1);
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libgomp, "{0},{1}"), 0);
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libgomp, "cores"), 0);
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libgomp, "numa_domains"), 0);
  CU_ASSERT_EQUAL(CH(omp_ext_runtime_libgomp, "sockets("), 1);
#undef CH
  /* GOMP_CPU_AFFINITY "0 64": libgomp skips 64 silently (corpus line
   * "gomp 0 64": the real libgomp 12 builds 1:{0}). */
  EXPECT(two, omp_ext_syntax_gomp, omp_ext_runtime_libgomp, "0 64", "places 1:{0}");
  CU_ASSERT_EQUAL(changed(two, "0 64", omp_ext_syntax_gomp, omp_ext_runtime_libgomp), 1);
  CU_ASSERT_EQUAL(changed(two, "0 1", omp_ext_syntax_gomp, omp_ext_runtime_libgomp), 0);
  /* libgomp's own order of abstract names is not a change. */
  CU_ASSERT_EQUAL(changed(c6100, "threads", omp_ext_syntax_omp, omp_ext_runtime_libgomp), 0);
}

/* libgomp's numa_domains: /sys/devices/system/node/online ascending, each
 * node's cpulist within the CPUs not placed yet (config/linux/affinity.c,
 * gomp_affinity_init_numa_domains, GCC 12); not runnable here (one node),
 * so read from the source. */
static void test_gomp_numa_order(void)
{
  omp_ext_topo_t *t = NULL;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  CU_ASSERT_PTR_NOT_NULL_FATAL(set);
  /* Node 1 owns CPUs 0-1, node 0 CPUs 2-3. */
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&t, "pack:3 [numa(indexes=1,0,2)] core:1 pu:2", 0), 0);
  ORDER(t, omp_ext_abstract_numa_domains, 0, "{2,3},{0,1},{4,5}");
  ORDER(t, omp_ext_abstract_numa_domains, 2, "{2,3},{0,1}");
  EXPECT(t, omp_ext_syntax_omp, omp_ext_runtime_libgomp, "numa_domains",
         "places 3:{2,3},{0,1},{4,5}");
  /* Nodes partly outside the cpuset stay apart, by node number. */
  CU_ASSERT_EQUAL_FATAL(hwloc_bitmap_list_sscanf(set, "1-2,4"), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_restrict(t, set), 0);
  EXPECT(t, omp_ext_syntax_omp, omp_ext_runtime_libgomp, "numa_domains",
         "places 3:{2},{1},{4}");
  omp_ext_topo_destroy(t);
  hwloc_bitmap_free(set);
}

/* libgomp's ll_caches needs cpuN/cache/indexM/shared_cpu_list: without it
 * (IA-64 kernels; fixtures without caches) it places no CPU: "Error reading
 * core/socket topology", the variable ignored (seen with the real libgomp
 * 12 on a VM whose kernel shows no cache folders). */
static void test_gomp_ll_caches_none(void)
{
  omp_ext_topo_t *t = NULL;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&t, FIXTURE("intel-itanium2-montecito-2s-2c-smt2-adjacent.xml"), 0), 0);
  ORDER(t, omp_ext_abstract_ll_caches, 0, "");
  EXPECT(t, omp_ext_syntax_omp, omp_ext_runtime_libgomp, "ll_caches", "ignored 0:");
  omp_ext_topo_destroy(t);
  /* A synthetic machine names no caches: its first cache stands for one. */
  ORDER(two, omp_ext_abstract_ll_caches, 0, "{0,1}");
}

static void test_api(void)
{
  omp_ext_prediction_t p;
  CU_ASSERT_EQUAL(omp_ext_places_predict(NULL, "0", omp_ext_syntax_omp,
                                         omp_ext_runtime_libgomp, &p), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_places_predict(two, "0", omp_ext_syntax_omp,
                                         (omp_ext_runtime_t)5, &p), omp_ext_err_invalid);
  CU_ASSERT_STRING_EQUAL(omp_ext_runtime_name(omp_ext_runtime_libomp), "libomp");
  CU_ASSERT_PTR_NULL(omp_ext_runtime_name((omp_ext_runtime_t)5));
  /* The table: OMP_EXT_NRUNTIMES named rows, none after. */
  CU_ASSERT_EQUAL(OMP_EXT_NRUNTIMES, 2);
  CU_ASSERT_STRING_EQUAL(omp_ext_runtime_name(omp_ext_runtime_libgomp), "libgomp");
  CU_ASSERT_PTR_NULL(omp_ext_runtime_name((omp_ext_runtime_t)OMP_EXT_NRUNTIMES));
  CU_ASSERT_PTR_NULL(omp_ext_runtime_name((omp_ext_runtime_t)-1));
  /* Which variables each reads: libgomp not KMP_AFFINITY, libomp all three. */
  CU_ASSERT_EQUAL(omp_ext_runtime_reads(omp_ext_runtime_libgomp, omp_ext_syntax_omp), 1);
  CU_ASSERT_EQUAL(omp_ext_runtime_reads(omp_ext_runtime_libgomp, omp_ext_syntax_gomp), 1);
  CU_ASSERT_EQUAL(omp_ext_runtime_reads(omp_ext_runtime_libgomp, omp_ext_syntax_kmp), 0);
  CU_ASSERT_EQUAL(omp_ext_runtime_reads(omp_ext_runtime_libomp, omp_ext_syntax_omp), 1);
  CU_ASSERT_EQUAL(omp_ext_runtime_reads(omp_ext_runtime_libomp, omp_ext_syntax_gomp), 1);
  CU_ASSERT_EQUAL(omp_ext_runtime_reads(omp_ext_runtime_libomp, omp_ext_syntax_kmp), 1);
  CU_ASSERT_EQUAL(omp_ext_runtime_reads((omp_ext_runtime_t)OMP_EXT_NRUNTIMES,
                                        omp_ext_syntax_omp), 0);
  CU_ASSERT_EQUAL(omp_ext_runtime_reads(omp_ext_runtime_libomp, (omp_ext_syntax_t)7), 0);
  /* The one a runtime does not read: ignored, a change. */
  CU_ASSERT_EQUAL(omp_ext_places_predict(two, "0", omp_ext_syntax_kmp, omp_ext_runtime_libgomp,
                                         &p), 0);
  CU_ASSERT_EQUAL(p.outcome, omp_ext_outcome_ignored);
  CU_ASSERT_EQUAL(p.changed, 1);
  CU_ASSERT_EQUAL(p.list->nplaces, 0);
  omp_ext_prediction_clear(&p);
  omp_ext_prediction_clear(NULL);
  CU_ASSERT_EQUAL(omp_ext_places_gomp_order(two, omp_ext_abstract_none, 0, NULL, NULL),
                  omp_ext_err_invalid);
}

static CU_TestInfo predict_tests[] = {
  {"issue 13's examples per runtime", test_issue_examples},
  {"machine rules: allowed CPUs, CPU-set size, complements", test_machine_rules},
  {"libomp's explicit places on an allowed set with a hole", test_kmp_allowed_hole},
  {"libgomp's order of abstract names on fixtures", test_gomp_order},
  {"whole KMP_AFFINITY values (issue 24)", test_kmp_whole_value},
  {"libomp's warnings and the changed flag (issue 24)", test_warnings_changed},
  {"libgomp's numa_domains by node number (issue 24)", test_gomp_numa_order},
  {"libgomp's ll_caches without sysfs caches (issue 24)", test_gomp_ll_caches_none},
  {"API arguments", test_api},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"predict", setup, teardown, NULL, NULL, predict_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
