/*
 * A real run on this machine: an OpenMP program built with this build's
 * compiler (gcc -> libgomp, clang -> libomp) is launched with
 * OMP_PLACES=$(htplaces POLICY N); each thread's affinity
 * (sched_getaffinity) must equal its place.  Also under taskset -c 1.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "testutil.h"

static unsigned allowed_cpus(void)
{
  cpu_set_t set;
  CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(set), &set), 0);
  return (unsigned)CPU_COUNT(&set);
}

/* "{1},{0}" -> "0 1\n1 0\n": what the probe must print. */
static void expected_lines(const char *places, char *out, size_t len)
{
  unsigned t = 0, pu;
  size_t used = 0;
  const char *p = places;
  out[0] = '\0';
  while (sscanf(p, "{%u}", &pu) == 1) {
    used += (size_t)snprintf(out + used, len - used, "%u %u\n", t++, pu);
    p = strchr(p, '}') + 1;
    if (*p == ',')
      p++;
  }
}

static char *htplaces_places(const char *policy, const char *n, const char *taskset)
{
  char *argv[8];
  unsigned i = taskset_prefix(argv, taskset);
  struct run_result r;
  argv[i++] = HTPLACES_BIN;
  argv[i++] = (char *)policy;
  if (n)
    argv[i++] = (char *)n;
  argv[i] = NULL;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, NULL, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  free(r.err);
  r.out[strcspn(r.out, "\n")] = '\0';
  return r.out;
}

/* Run the probe with OMP_PLACES=places and the given OMP_PROC_BIND ("" =
 * unset); return what it printed. */
static char *probe(const char *places, const char *n, const char *bind, const char *taskset)
{
  char env_places[4096], env_n[64], env_bind[64];
  char *env[] = {env_places, env_n, env_bind, NULL};
  char *argv[6];
  unsigned i = taskset_prefix(argv, taskset);
  struct run_result r;
  snprintf(env_places, sizeof(env_places), "OMP_PLACES=%s", places);
  snprintf(env_n, sizeof(env_n), "OMP_NUM_THREADS=%s", n);
  snprintf(env_bind, sizeof(env_bind), "OMP_PROC_BIND=%s", bind);
  argv[i++] = PROBE_BIN;
  argv[i] = NULL;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  free(r.err);
  return r.out;
}

static void check(const char *policy, unsigned n, const char *bind)
{
  char nbuf[16], want[4096];
  char *places, *got;
  snprintf(nbuf, sizeof(nbuf), "%u", n);
  places = htplaces_places(policy, nbuf, NULL);
  expected_lines(places, want, sizeof(want));
  CU_ASSERT_EQUAL(count_lines(want), n); /* one place per thread */
  got = probe(places, nbuf, bind, NULL);
  CU_ASSERT_STRING_EQUAL(got, want);
  if (strcmp(got, want) != 0)
    fprintf(stderr, "\n  %s %u bind='%s' places %s: want\n%s  got\n%s", policy, n, bind, places,
            want, got);
  free(places);
  free(got);
}

static void test_every_policy(void)
{
  static const char *const policies[] = {"os", "speedup", "spn", "spread"};
  static const char *const binds[] = {"", "close", "true"};
  unsigned npus = allowed_cpus(), n, p, b;
  CU_ASSERT_FATAL(npus >= 1);
  for (p = 0; p < 4; p++)
    for (n = 1; n <= npus; n++)
      for (b = 0; b < 3; b++)
        check(policies[p], n, binds[b]);
}

static void test_taskset(void)
{
  char *places, *got;
  struct run_result r;
  char *argv[] = {"taskset", "-c", "1", HTPLACES_BIN, "spn", "2", NULL};
  cpu_set_t set;
  CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(set), &set), 0);
  CU_ASSERT_FATAL(CPU_ISSET(1, &set)); /* this test needs PU 1 (2-PU machines) */
  places = htplaces_places("spn", NULL, "1");
  CU_ASSERT_STRING_EQUAL(places, "{1}");
  got = probe(places, "1", "", "1");
  CU_ASSERT_STRING_EQUAL(got, "0 1\n");
  free(got);
  free(places);
  /* only one PU is allowed there: N=2 is refused */
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, NULL, &r), 0);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "larger than the 1 allowed PUs"));
  run_free(&r);
}

static CU_TestInfo tests[] = {
  {"each thread runs on its place, every policy and N", test_every_policy},
  {"taskset -c 1: only PU 1", test_taskset},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"real binding with " OMP_RUNTIME_NAME, NULL, NULL, NULL, NULL, tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
