/*
 * htplaces exec POLICY [N] -- PROGRAM: the OpenMP probe of this build's
 * compiler (gcc -> libgomp, clang -> libomp; libiomp5 by LD_PRELOAD in
 * ctest's test_exec_iomp5) must see each thread on its policy PU, and every
 * bad use must fail with one "htplaces: " line and nothing on stdout (exit 2;
 * 127 for a program that does not exist, as env(1)).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "testutil.h"

static unsigned npus;
static unsigned *orders; /* OS indexes, npus per policy (sized from the topology) */

static int suite_init(void)
{
  return !(orders = policy_orders_new(&npus));
}

static struct run_result run_exec(const char *taskset, char *const args[], char *const env[])
{
  char *argv[16];
  unsigned i = taskset_prefix(argv, taskset);
  struct run_result r;
  argv[i++] = HTPLACES_BIN;
  argv[i++] = "exec";
  while (*args && i < 15)
    argv[i++] = *args++;
  argv[i] = NULL;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &r), 0);
  return r;
}

/* "THREAD LIST" lines of the probe: n threads, thread t on want(t). */
static void check_probe(const char *out, omp_ht_policy_t p, unsigned n, const char *only)
{
  const char *line = out;
  unsigned lines = 0;
  int t, used;
  char list[1024], want[1024];
  while (sscanf(line, "%d %1023s%n", &t, list, &used) == 2) {
    if (only)
      snprintf(want, sizeof(want), "%s", only);
    else
      snprintf(want, sizeof(want), "%u", POLICY_ORDER(orders, npus, p, t));
    CU_ASSERT_EQUAL(t, (int)lines);
    CU_ASSERT_STRING_EQUAL(list, want);
    lines++;
    line += used;
    line += strspn(line, "\n");
  }
  CU_ASSERT_EQUAL(lines, n);
}

static void test_each_policy(void)
{
  static const char *names[] = {"os", "speedup", "spn", "spread"};
  unsigned p, n;
  for (p = 0; p < sizeof(names) / sizeof(names[0]); p++)
    for (n = 1; n <= npus; n++) {
      char count[16];
      char *args[] = {(char *)names[p], count, "--", PROBE_BIN, NULL};
      struct run_result r;
      snprintf(count, sizeof(count), "%u", n);
      r = run_exec(NULL, args, NULL);
      CU_ASSERT_EQUAL(r.status, 0);
      CU_ASSERT_STRING_EQUAL(r.err, "");
      check_probe(r.out, (omp_ht_policy_t)p, n, NULL);
      run_free(&r);
    }
}

static void test_default_n_and_taskset(void)
{
  char *args[] = {"spn", "--", PROBE_BIN, NULL};
  struct run_result r = run_exec(NULL, args, NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  check_probe(r.out, omp_ht_policy_spn, npus, NULL);
  run_free(&r);
  if (npus < 2) {
    OMP_EXT_SKIP("one allowed PU: taskset -c 1 not tested");
    return;
  }
  r = run_exec("1", args, NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  check_probe(r.out, omp_ht_policy_spn, 1, "1");
  run_free(&r);
}

static void expect_usage(char *const args[], char *const env[], int status, const char *what)
{
  struct run_result r = run_exec(NULL, args, env);
  CU_ASSERT_EQUAL(r.status, status);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_EQUAL(strncmp(r.err, "htplaces: ", 10), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, what));
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);
}

static void test_bad_uses(void)
{
  static char kmp[] = "KMP_AFFINITY=compact", gomp[] = "GOMP_CPU_AFFINITY=0", ht[] =
    "OMP_EXT_HT_POLICY=spn";
  char *no_sep[] = {"spn", PROBE_BIN, NULL};
  char *no_prog[] = {"spn", "--", NULL};
  char *no_policy[] = {"--", PROBE_BIN, NULL};
  char *bad_policy[] = {"fastest", "--", PROBE_BIN, NULL};
  char *too_many[] = {"spn", "100000", "--", PROBE_BIN, NULL};
  char *extra[] = {"spn", "1", "2", "--", PROBE_BIN, NULL};
  char *missing[] = {"spn", "--", "/nonexistent/program", NULL};
  char *good[] = {"spn", "--", PROBE_BIN, NULL};
  char *env_kmp[] = {kmp, NULL}, *env_gomp[] = {gomp, NULL}, *env_ht[] = {ht, NULL};
  expect_usage(no_sep, NULL, 2, "missing '-- PROGRAM'");
  expect_usage(no_prog, NULL, 2, "missing '-- PROGRAM'");
  expect_usage(no_policy, NULL, 2, "missing POLICY");
  expect_usage(bad_policy, NULL, 2, "unknown policy 'fastest'");
  expect_usage(too_many, NULL, 2, "larger than the");
  expect_usage(extra, NULL, 2, "unexpected argument '2'");
  expect_usage(missing, NULL, 127, "cannot run '/nonexistent/program'");
  expect_usage(good, env_kmp, 2, "KMP_AFFINITY is set");
  expect_usage(good, env_gomp, 2, "GOMP_CPU_AFFINITY is set");
  expect_usage(good, env_ht, 2, "OMP_EXT_HT_POLICY is set");
}

/* The program sees the user's environment plus the places: nothing that
 * htplaces set for itself (HWLOC_PLUGINS_BLACKLIST), and the user's own
 * HWLOC_PLUGINS_BLACKLIST kept as it was. */
static void test_program_environment(void)
{
  static char unset[] = "HWLOC_PLUGINS_BLACKLIST=", mine[] = "HWLOC_PLUGINS_BLACKLIST=mine";
  char *args[] = {"os", "1", "--", "env", NULL};
  char *env_unset[] = {unset, NULL}, *env_mine[] = {mine, NULL};
  struct run_result r = run_exec(NULL, args, env_unset);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "OMP_PLACES="));
  CU_ASSERT_PTR_NULL(strstr(r.out, "HWLOC_PLUGINS_BLACKLIST"));
  run_free(&r);
  r = run_exec(NULL, args, env_mine);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "HWLOC_PLUGINS_BLACKLIST=mine\n"));
  run_free(&r);
}

/* The same for per-region control: exec auto and exec --plan (a plan file:
 * it leaked htplaces' own HWLOC_PLUGINS_BLACKLIST into the program, whose
 * libomp_ext then took it for the user's and loaded libxml2 and ICU). */
static void test_program_environment_per_region(void)
{
  static char unset[] = "HWLOC_PLUGINS_BLACKLIST=";
  char plan[] = "/tmp/test_exec_planXXXXXX";
  char *auto_args[] = {"auto", "--", "env", NULL};
  char *plan_args[] = {"--plan", plan, "--", "env", NULL};
  char *env_unset[] = {unset, NULL};
  struct run_result r;
  int fd;
#ifdef OMP_EXT_SANITIZED
  OMP_EXT_SKIP("sanitizer build: libomp_ext preloaded into env needs ASan first in the library list");
  if (1)
    return;
#endif
  fd = mkstemp(plan);
  CU_ASSERT_FATAL(fd >= 0);
  CU_ASSERT_FATAL(write(fd, "omp_ext_plan 2\n", 15) == 15);
  close(fd);
  r = run_exec(NULL, auto_args, env_unset);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "OMP_EXT_HT_POLICY=auto\n"));
  CU_ASSERT_PTR_NULL(strstr(r.out, "HWLOC_PLUGINS_BLACKLIST"));
  run_free(&r);
  r = run_exec(NULL, plan_args, env_unset);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "OMP_EXT_PLAN="));
  CU_ASSERT_PTR_NULL(strstr(r.out, "HWLOC_PLUGINS_BLACKLIST"));
  run_free(&r);
  unlink(plan);
}

/* exec auto and --plan move the user's OMP_PLACES where no runtime reads
 * it (OMP_EXT_PLACES): htplaces checks it as a runtime would.  Text that is
 * no place list: one line, exit 2, the program not run (it ran, the value
 * ignored in silence); a PU outside the allowed ones: one warning line. */
static void test_user_places_per_region(void)
{
  static char bad[] = "OMP_PLACES={0";
  char outside[64], want[96];
  char *auto_args[] = {"auto", "--", "true", NULL};
  char *env_bad[] = {bad, NULL}, *env_outside[] = {outside, NULL};
  omp_ext_topo_t *topo = NULL;
  struct run_result r = run_exec(NULL, auto_args, env_bad);
  int first, last;
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "htplaces: OMP_PLACES {0: expected"));
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);
#ifdef OMP_EXT_SANITIZED
  OMP_EXT_SKIP("sanitizer build: libomp_ext preloaded into true needs ASan first in the library list");
  if (1)
    return;
#endif
  /* the PU after the last allowed one (none: no machine assumed) */
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, NULL, 0), 0);
  first = hwloc_bitmap_first(omp_ext_topo_allowed(topo));
  last = hwloc_bitmap_last(omp_ext_topo_allowed(topo));
  omp_ext_topo_destroy(topo);
  CU_ASSERT_FATAL(first >= 0 && last < 65535);
  snprintf(outside, sizeof(outside), "OMP_PLACES={%d},{%d}", first, last + 1);
  snprintf(want, sizeof(want), "htplaces: warning: OMP_PLACES names PUs %d, outside the allowed "
           "PUs", last + 1);
  r = run_exec(NULL, auto_args, env_outside);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);
}

/* exec auto and --plan keep the user's OMP_NUM_THREADS (nthreads-var):
 * a value that is no list of positive integers, empty or blank included,
 * is refused with one line, exit 2, the program not run (libomp aborts on
 * it); a list with blanks is one. */
static void test_user_threads_per_region(void)
{
  static char *bad[] = {"OMP_NUM_THREADS=abc", "OMP_NUM_THREADS=0", "OMP_NUM_THREADS=2,",
                        "OMP_NUM_THREADS=-1", "OMP_NUM_THREADS= "};
  static char good[] = "OMP_NUM_THREADS= 1 , 1";
  char plan[] = "omp_ext_plan 2\ndefault 0 -\n";
  char *auto_args[] = {"auto", "--", "sh", "-c", "echo ran", NULL};
  char *plan_args[] = {"--plan", plan, "--", "sh", "-c", "echo ran", NULL};
  char *env[] = {NULL, NULL};
  unsigned i, k;
  for (k = 0; k < 2; k++)
    for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
      struct run_result r;
      env[0] = bad[i];
      r = run_exec(NULL, k ? plan_args : auto_args, env);
      CU_ASSERT_EQUAL(r.status, 2);
      CU_ASSERT_STRING_EQUAL(r.out, "");
      CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "a positive integer, or a comma list of them"));
      CU_ASSERT_PTR_NOT_NULL(strstr(r.err, bad[i] + strlen("OMP_NUM_THREADS=")));
      CU_ASSERT_EQUAL(count_lines(r.err), 1);
      run_free(&r);
    }
  { /* set but empty ("NAME=" unsets in run_capture: env(1) sets it) */
    char *argv[] = {"env", "OMP_NUM_THREADS=", HTPLACES_BIN, "exec", "auto", "--", "sh", "-c",
                    "echo ran", NULL};
    struct run_result r;
    CU_ASSERT_EQUAL_FATAL(run_capture(argv, NULL, &r), 0);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "OMP_NUM_THREADS '': a positive integer"));
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_free(&r);
  }
#ifdef OMP_EXT_SANITIZED
  OMP_EXT_SKIP("sanitizer build: libomp_ext preloaded into sh needs ASan first in the library list");
  if (1)
    return;
#endif
  env[0] = good;
  {
    struct run_result r = run_exec(NULL, auto_args, env);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.out, "ran\n");
    run_free(&r);
  }
}

static CU_TestInfo exec_tests[] = {
  {"exec auto and --plan: the user's OMP_NUM_THREADS checked", test_user_threads_per_region},
  {"exec auto: the user's OMP_PLACES checked as a runtime would", test_user_places_per_region},
  {"the program's environment: nothing of htplaces' own", test_program_environment},
  {"the same under exec auto and exec --plan", test_program_environment_per_region},
  {"every policy and N: each thread on its PU", test_each_policy},
  {"N defaults to all allowed PUs; taskset -c 1", test_default_n_and_taskset},
  {"bad uses: one error line, exit 2 or 127", test_bad_uses},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"htplaces exec (" OMP_RUNTIME_NAME ")", suite_init, NULL, NULL, NULL, exec_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
