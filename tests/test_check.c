/*
 * htplaces check: expansions, exit codes and each reported problem, on the
 * paper's C6100 string and the real-machine fixtures.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "private/tools.h" /* the tools interface: not exported (libomp_ext.a) */
#include "testutil.h"

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"
#define FIXTURE(name) OMP_EXT_TEST_DIR "/topologies/" name

/* Run htplaces with the NULL-terminated arguments. */
static struct run_result run(const char *first, ...)
{
  char *argv[32];
  struct run_result r = {NULL, NULL, -1};
  unsigned n = 0;
  va_list ap;
  argv[n++] = HTPLACES_BIN;
  argv[n++] = (char *)first;
  va_start(ap, first);
  while (n < 31 && (argv[n] = va_arg(ap, char *)) != NULL)
    n++;
  va_end(ap);
  argv[n] = NULL;
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  return r;
}

#define CONTAINS(hay, needle)                                      \
  do {                                                             \
    CU_ASSERT_PTR_NOT_NULL(strstr(hay, needle));                   \
    if (!strstr(hay, needle))                                      \
      fprintf(stderr, "\nmissing '%s' in:\n%s\n", needle, hay);    \
  } while (0)
#define LACKS(hay, needle) CU_ASSERT_PTR_NULL(strstr(hay, needle))

static void test_expand(void)
{
  struct run_result r = run("-i", C6100, "check", "--expand", "{0:2:8}:4", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{0,8},{1,9},{2,10},{3,11}\n");
  CU_ASSERT_STRING_EQUAL(r.err, "");
  run_free(&r);
  r = run("-i", C6100, "check", "--expand", "threads(4)", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{0},{8},{1},{9}\n");
  run_free(&r);
  r = run("-i", C6100, "check", "--as", "gomp", "--expand", "0 3 1-2", NULL);
  CU_ASSERT_STRING_EQUAL(r.out, "{0},{3},{1},{2}\n");
  run_free(&r);
  r = run("-i", C6100, "check", "--as", "kmp", "--expand", "explicit,proclist=[0,{1,9}]", NULL);
  CU_ASSERT_STRING_EQUAL(r.out, "{0},{1,9}\n");
  run_free(&r);
}

static void test_exit_codes(void)
{
  struct run_result r = run("-i", C6100, "check", "{0},{1},{2},{3}", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "no problems found");
  CONTAINS(r.out, "matches 'htplaces speedup 4'");
  run_free(&r);

  r = run("-i", C6100, "check", "{0,1},{2,3", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CONTAINS(r.err, "htplaces: cannot parse OMP_PLACES value '{0,1},{2,3' at character 11: "
                  "expected ',' or '}'");
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);

  r = run("-i", C6100, "check", "bogus(3)", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CONTAINS(r.err, "at character 1: unknown abstract name");
  run_free(&r);

  {
    char *argv[] = {HTPLACES_BIN, "-i", C6100, "check", NULL};
    char unset[] = "OMP_PLACES=", set[] = "OMP_PLACES={0},{8}", kmp[] = "KMP_AFFINITY=";
    char *env_unset[] = {unset, NULL}, *env_set[] = {set, NULL}, *env_kmp[] = {kmp, NULL};
    char *argv_kmp[] = {HTPLACES_BIN, "-i", C6100, "check", "--as", "kmp", NULL};
    CU_ASSERT_FATAL(run_capture(argv, env_unset, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 2);
    CONTAINS(r.err, "htplaces: missing PLACES and OMP_PLACES is not set");
    run_free(&r);
    /* PLACES defaults to $OMP_PLACES ({0},{8}: siblings first). */
    CU_ASSERT_FATAL(run_capture(argv, env_set, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 0);
    CONTAINS(r.out, "OMP_PLACES={0},{8}\n2 places on");
    run_free(&r);
    CU_ASSERT_FATAL(run_capture(argv_kmp, env_kmp, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 2);
    CONTAINS(r.err, "KMP_AFFINITY is not set");
    run_free(&r);
  }

  r = run("-i", C6100, "check", "--as", "intel", "0", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CONTAINS(r.err, "unknown --as 'intel'");
  CU_ASSERT_STRING_EQUAL(r.out, "");
  run_free(&r);

  r = run("-i", C6100, "check", "-f", "gomp", "0", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  run_free(&r);
}

static void test_outside_machine(void)
{
  /* 70 >= libgomp's 64-CPU cpuset: the whole variable is rejected. */
  struct run_result r = run("-i", C6100, "check", "{0},{70}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "CPU 70 is outside the machine (its CPUs: 0-15)");
  CONTAINS(r.out, "libgomp: CPU 70 is beyond its 64-CPU cpuset: it rejects the whole OMP_PLACES");
  CONTAINS(r.out, "libomp: ignores those CPUs");
  run_free(&r);

  /* 20 < 64: libgomp drops it and the place left empty. */
  r = run("-i", C6100, "check", "{0},{20}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "libgomp: removes those CPUs from their places and drops places left empty: "
                  "1 of 2 places remain");
  run_free(&r);

  /* GOMP_CPU_AFFINITY: libgomp skips CPUs beyond its cpuset silently. */
  r = run("-i", C6100, "check", "--as", "gomp", "0 100", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "libgomp: skips CPUs from 64 up (beyond its cpuset) without a message");
  run_free(&r);
}

static void test_restricted(void)
{
  /* -r: a restricted cpuset. */
  struct run_result r = run("-i", C6100, "-r", "0-3", "check", "{0},{8}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "CPU 8 is not in the allowed set 0-3");
  CONTAINS(r.out, "1 of 2 places remain");
  LACKS(r.out, "outside the machine");
  run_free(&r);

  /* A cgroup v2 fixture: PUs 0-5 of 32 allowed. */
  r = run("-i", FIXTURE("amd-opteron-6134-4s-8c-nosmt-cgroup2-disallowed.xml"), "check",
          "{0},{6},{31}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "CPUs 6,31 are not in the allowed set 0-5");
  run_free(&r);

  /* SMT siblings offline (Broadwell fixture): 36-71 exist but are not allowed. */
  r = run("-i", FIXTURE("intel-xeon-e5-2695v4-broadwell-2s-18c-smt-offlined.xml"), "check",
          "{0,36}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "CPU 36 is not in the allowed set 0-35");
  run_free(&r);
}

static void test_exclusion_differences(void)
{
  struct run_result r = run("-i", C6100, "check", "{0:4,!2}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "'!' before a number inside braces (character 6)");
  CONTAINS(r.out, "libomp rejects the whole OMP_PLACES value as a syntax error, warns and falls "
                  "back to OMP_PLACES=cores");
  run_free(&r);

  r = run("-i", C6100, "check", "{0},{1},!{1}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "libomp instead makes a place of every other CPU");
  run_free(&r);

  r = run("-i", C6100, "check", "{0},!{5}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "Trying to remove a non-existing place");
  run_free(&r);

  r = run("-i", C6100, "check", "{0:2,!7}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "Logical CPU 7 to be removed is not in the set");
  run_free(&r);

  r = run("-i", C6100, "check", "--as", "gomp", "010", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "libgomp reads it as 8");
  run_free(&r);
}

static void test_duplicates_spans(void)
{
  struct run_result r = run("-i", C6100, "check", "{0},{1},{0}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "PU 0 is in several places (0, 2)");
  run_free(&r);

  /* C6100 siblings are +8: {0,1} is two cores, {0,4} two packages. */
  r = run("-i", C6100, "check", "{0,1}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "place 0 {0-1} spans 2 cores");
  run_free(&r);
  r = run("-i", C6100, "check", "{0,4}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "place 0 {0,4} spans packages");
  run_free(&r);
  r = run("-i", C6100, "check", "{0,8},{1,9}", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  run_free(&r);

  /* Adjacent siblings (Itanium fixture): {0,1} is one core. */
  r = run("-i", FIXTURE("intel-itanium2-montecito-2s-2c-smt2-adjacent.xml"), "check", "{0,1},{2,3}",
          NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "no problems found");
  run_free(&r);

  /* Hybrid Raptor Lake: P-core PU 0 and E-core PU 12 in one place. */
  r = run("-i", FIXTURE("intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml"), "check", "{0,12}",
          NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "place 0 {0,12} mixes CPU kinds");
  run_free(&r);
}

static void test_siblings_first(void)
{
  /* 9 is core 1's second PU while cores 2-7 are idle. */
  struct run_result r = run("-i", C6100, "check", "{0},{1},{9}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "place 2 (PU 9) is an SMT sibling of an earlier place while 6 of 8 cores have "
                  "no thread yet");
  CONTAINS(r.out, "omp_ext policy: none matches");
  run_free(&r);

  /* The spn policy does it by design: a note, not a problem. */
  r = run("-i", C6100, "check", "{0},{8},{1},{9}", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "note: place 1 uses a second PU of a busy core");
  CONTAINS(r.out, "omp_ext policy: matches 'htplaces spn 4'");
  run_free(&r);

  /* On the Nehalem fixture threads(2) is {0},{8}: siblings first. */
  r = run("-i", FIXTURE("intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml"), "check",
          "{0},{8},{4}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "place 1 (PU 8) is an SMT sibling");
  run_free(&r);
}

static void test_policy_match(void)
{
  struct run_result r = run("-i", C6100, "check", "{0},{4},{1},{5},{2},{6},{3},{7}", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "omp_ext policy: matches 'htplaces spread 8'");
  LACKS(r.out, "'htplaces speedup 8'");
  run_free(&r);
  r = run("-i", C6100, "check", "cores", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "8 places on");
  CONTAINS(r.out, "omp_ext policy: none matches");
  run_free(&r);
  r = run("-i", C6100, "check", "cores(20)", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "cores(20) asks for more places than the 8 this topology has");
  run_free(&r);
}

/* The same PU twice is a duplicate, not "an SMT sibling of an earlier
 * place" (it said both). */
static void test_same_pu_twice(void)
{
  struct run_result r = run("-i", "pack:1 core:2 pu:2", "check", "{0},{0}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "PU 0 is in several places (0, 1)");
  LACKS(r.out, "SMT sibling");
  run_free(&r);
}

/* --runtime: what each real runtime builds (omp_ext_places_predict, whose
 * rules test_oracle checks against the real runtimes), in its own order. */
static void test_runtime(void)
{
  struct run_result r = run("-i", "pack:1 core:2 pu:1", "check", "--runtime", "both",
                            "threads(0)", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "libgomp: ignores the value");
  /* libgomp then binds by its default places when OMP_PROC_BIND is set
   * (seen with ll_caches on a VM without sysfs cache folders). */
  CONTAINS(r.out, "(with OMP_PROC_BIND set: one place per allowed CPU)");
  CONTAINS(r.out, "libomp: builds 2 places: {0},{1}");
  CONTAINS(r.out, "the two runtimes build different place lists from this value");
  run_free(&r);
  r = run("-i", "pack:1 core:2 pu:1", "check", "--runtime", "both", "{0},{1}", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "both runtimes build the same place list");
  run_free(&r);
  /* one place, one PU, one core: singular */
  r = run("-i", "pack:1 core:1 pu:1", "check", "--runtime", "libomp", "{0}", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "libomp: builds 1 place: {0}\n");
  run_free(&r);
  r = run("-i", "pack:1 core:1 pu:1", "check", "--runtime", "libomp", "x", NULL);
  CONTAINS(r.out, "libomp: rejects the value and builds places of its own instead; 1 place: {0}");
  run_free(&r);
  r = run("-i", "pack:1 core:1 pu:1", "check", "{0}", NULL);
  CONTAINS(r.out, "OMP_PLACES={0}\n1 place on pack:1 core:1 pu:1 (1 allowed PU, 1 core)\n");
  run_free(&r);
  /* libgomp orders cores by their lowest OS index, ignoring packages */
  r = run("-i", OMP_EXT_TEST_DIR "/topologies/hp-sl390s-xeon-westmere-2s-6c-smt2-far12-interleaved.xml",
          "check", "--runtime", "libgomp", "--expand", "cores(4)", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{0,12},{1,13},{2,14},{3,15}\n");
  run_free(&r);
  r = run("-i", OMP_EXT_TEST_DIR "/topologies/hp-sl390s-xeon-westmere-2s-6c-smt2-far12-interleaved.xml",
          "check", "--runtime", "libomp", "--expand", "cores(4)", NULL);
  CU_ASSERT_STRING_EQUAL(r.out, "{0,12},{2,14},{4,16},{6,18}\n");
  run_free(&r);
  r = run("-i", "pack:1 core:2 pu:1", "check", "--runtime", "both", "-f", "json", "{0}:2:-1",
          NULL);
  CONTAINS(r.out, "{\"runtime\": \"libgomp\", \"outcome\": \"ignored\"");
  CONTAINS(r.out, "\"differ\": true}");
  run_free(&r);
  r = run("check", "--runtime", "gcc", "{0}", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CONTAINS(r.err, "unknown --runtime 'gcc'; allowed: libgomp, libomp, both");
  run_free(&r);
  r = run("check", "--runtime", "both", "--expand", "{0}", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  run_free(&r);
}

/* htplaces-check(1)'s exit status, one rule at a time (issue 24), on a
 * 2-core machine like the CI VM; the runtimes' answers are the real
 * libgomp 12 / libomp 14's there (test_predict, places-corpus). */
#define TWO "pack:1 core:2 pu:1"
/* The oracle's places for OMP_PLACES=name ("{0},{1}", each place's ids
 * ascending), from this build's runtime; NULL if it failed. */
static char *oracle_places(const char *name)
{
  char *argv[] = {ORACLE_BIN, NULL}, env[64], *envp[] = {env, NULL}, *colon, *out;
  struct run_result r;
  snprintf(env, sizeof(env), "OMP_PLACES=%s", name);
  if (run_capture(argv, envp, &r) != 0 || r.status != 0 || !(colon = strchr(r.out, ':'))) {
    run_free(&r);
    return NULL;
  }
  colon[1 + strcspn(colon + 1, "\n")] = '\0';
  out = strdup(colon + 1);
  run_free(&r);
  return out;
}

/* check --runtime notes where the runtime's own topology detection sees
 * this machine otherwise than hwloc (issue 33: libomp 14 on an AMD VM
 * without cpuid leaf 11 built OMP_PLACES=threads as {1},{0}, and check
 * said nothing): the note is there exactly when the real runtime (the
 * oracle) builds threads or cores otherwise than predicted, with the
 * runtime's places; never for another machine (-i). */
static void test_runtime_view(void)
{
  static const char *const names[] = {"threads", "cores"};
  omp_ext_topo_t *topo;
  const char *rt = omp_ext_runtime_name(ORACLE_RUNTIME);
  char *expect = NULL;
  unsigned i;
  struct run_result r;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, NULL, 0) == 0);
  for (i = 0; i < 2 && !expect; i++) {
    omp_ext_prediction_t p;
    char *real = oracle_places(names[i]), *pred = NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(real);
    CU_ASSERT_FATAL(omp_ext_places_predict(topo, names[i], omp_ext_syntax_omp, ORACLE_RUNTIME,
                                           &p) == 0);
    CU_ASSERT_FATAL(omp_ext_placelist_canonical(p.list, &pred) == 0);
    if (strcmp(real, pred) != 0)
      CU_ASSERT_FATAL(asprintf(&expect, "\"view\": {\"name\": \"%s\", \"runtime_places\": "
                               "\"%s\", \"predicted\": \"%s\"}", names[i], real, pred) > 0);
    omp_ext_prediction_clear(&p);
    free(real);
    free(pred);
  }
  omp_ext_topo_destroy(topo);
  r = run("check", "--runtime", rt, "-f", "json", "threads", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  if (expect) {
    fprintf(stderr, "\n  (%s sees this machine otherwise than hwloc: %s) ", rt, expect);
    CONTAINS(r.out, expect);
  } else {
    CONTAINS(r.out, "\"view\": null");
  }
  run_free(&r);
  r = run("check", "--runtime", rt, "threads", NULL);
  if (expect)
    CONTAINS(r.out, "sees this machine otherwise than hwloc (its own topology detection)");
  else
    LACKS(r.out, "note:");
  run_free(&r);
  r = run("-i", C6100, "check", "--runtime", "both", "-f", "json", "threads", NULL);
  LACKS(r.out, "\"view\": {");
  CONTAINS(r.out, "\"view\": null");
  run_free(&r);
  free(expect);
}

static void test_exit_rules(void)
{
  struct run_result r;
  /* --runtime: 0 when the runtime builds the places as written ... */
  r = run("-i", TWO, "check", "--runtime", "libgomp", "{0},{1}", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  run_free(&r);
  /* ... and when only libgomp's own order of an abstract name is said */
  r = run("-i", TWO, "check", "--runtime", "libgomp", "cores", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "(libgomp: places ordered by their lowest OS index)");
  run_free(&r);
  /* 1 when it drops something (libgomp: "Number of places reduced") */
  r = run("-i", TWO, "check", "--runtime", "libgomp", "{0},{5}", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "libgomp: builds 1 place: {0}");
  run_free(&r);
  /* 1 on a warning that changes the value (libomp #250: "syntax error,
   * using socket"), though it builds places */
  r = run("-i", TWO, "check", "--runtime", "libomp", "sockets(", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "syntax error, using socket");
  run_free(&r);
  /* 1 when the two differ; 2 on a usage error */
  r = run("-i", TWO, "check", "--runtime", "both", "numa_domains", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  run_free(&r);
  r = run("-i", TWO, "check", "--runtime", "nope", "{0}", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  run_free(&r);
  /* --expand: 0 whenever the value parses, 2 when not */
  r = run("-i", TWO, "check", "--expand", "{0},{5}", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  run_free(&r);
  r = run("-i", TWO, "check", "--expand", "{0", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  run_free(&r);
  /* plain check: 1 when a runtime does not build it as written, saying
   * what each does (libomp falls back on a leading blank) */
  r = run("-i", TWO, "check", " threads ( 1 ) ", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "  - libomp: rejects the value and builds places of its own instead; 2 places: "
                  "{0},{1}");
  LACKS(r.out, "no problems found");
  run_free(&r);
  r = run("-i", TWO, "check", "numa_domains", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "NUMA domain does not exist in topology");
  run_free(&r);
  r = run("-i", TWO, "check", "{1},{0}", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "no problems found");
  run_free(&r);
  /* plain check --as kmp agrees with --runtime libomp on a whole value */
  r = run("-i", TWO, "check", "--as", "kmp", "explicit,proclist=[0,1]", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "no problems found");
  run_free(&r);
  r = run("-i", TWO, "check", "--as", "kmp", "--runtime", "libomp", "explicit,proclist=[0,1]",
          NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "libomp: builds 2 places: {0},{1}\n");
  run_free(&r);
  /* -f json: a parse error is an object too, with the stderr line */
  r = run("-i", TWO, "check", "-f", "json", "{0,1},{2,3", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "{\"command\": \"check\", \"variable\": \"OMP_PLACES\", "
                         "\"value\": \"{0,1},{2,3\", \"error\": \"parse\", \"position\": 11, "
                         "\"message\": \"expected ',' or '}'\"}\n");
  CONTAINS(r.err, "at character 11: expected ',' or '}'");
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);
  r = run("-i", TWO, "check", "--runtime", "libgomp", "-f", "json", "{0},{5}", NULL);
  CONTAINS(r.out, "\"changed\": true");
  run_free(&r);
}
#undef TWO

static CU_TestInfo check_tests[] = {
  {"exit status per rule, plain check's runtimes, json errors (issue 24)", test_exit_rules},
  {"--runtime: each real runtime's list", test_runtime},
  {"--runtime: the runtime's own view of this machine, against the oracle", test_runtime_view},
  {"the same PU twice: a duplicate, no sibling", test_same_pu_twice},
  {"--expand is canonical", test_expand},
  {"exit 0 / 1 / 2 and error positions", test_exit_codes},
  {"numbers outside the machine: libgomp vs libomp", test_outside_machine},
  {"restricted cpuset, cgroup fixture, SMT offline", test_restricted},
  {"'!' and radix: libgomp vs libomp", test_exclusion_differences},
  {"duplicates, spans, hybrid kinds", test_duplicates_spans},
  {"siblings before every core has a thread", test_siblings_first},
  {"policy match", test_policy_match},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"htplaces check", NULL, NULL, NULL, NULL, check_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
