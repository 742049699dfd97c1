/*
 * omp_set_ht_policy() and friends on this machine's real PUs: after each
 * call, every thread's OS affinity (sched_getaffinity) in several following
 * regions must be exactly what the policy gives its thread number.  Built
 * with the build's compiler and runtime (gcc -> libgomp, clang -> libomp);
 * ctest also runs the gcc build against libiomp5 (LD_PRELOAD) when present.
 * Never assumes more than the allowed PUs nor SMT: expected values come from
 * omp_ext_order() on the allowed PUs read before anything is bound.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "testutil.h"

#define REGIONS 3

static cpu_set_t allowed;   /* the process's affinity before any binding */
static unsigned npus;
static unsigned *orders;    /* OS indexes, npus per policy (sized from the topology) */
#define ORDER(p, t) POLICY_ORDER(orders, npus, p, t)

/* Once per process, before anything is bound.  Fails (the tests do not
 * run, which is a failure: cunit_main.h) when the topology's PUs are not
 * the allowed CPUs. */
static int suite_init(void)
{
  if (npus)
    return 0;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0 || !(orders = policy_orders_new(&npus)))
    return 1;
  if ((unsigned)CPU_COUNT(&allowed) != npus) {
    fprintf(stderr, "test_bind: %u PUs in the topology, %d allowed CPUs\n", npus,
            CPU_COUNT(&allowed));
    return 1;
  }
  return 0;
}

/* What thread t must have under policy p. */
static void expected(omp_ht_policy_t p, unsigned t, cpu_set_t *set)
{
  if (p == omp_ht_policy_os) {
    *set = allowed;
    return;
  }
  CPU_ZERO(set);
  CPU_SET(ORDER(p, t % npus), set);
}

/* Run REGIONS regions of \p nthreads threads (0: no clause) and check each
 * thread's affinity against policy \p p. */
static void check_regions(omp_ht_policy_t p, int nthreads, int want_team)
{
  int most = nthreads > 0 ? nthreads : omp_get_max_threads(); /* the largest team */
  cpu_set_t(*got)[REGIONS] = calloc((size_t)most, sizeof(*got)); /* got[thread][region] */
  int team[REGIONS], r, t;
  CU_ASSERT_PTR_NOT_NULL_FATAL(got);
  for (r = 0; r < REGIONS; r++) {
#pragma omp parallel num_threads(most)
    {
      int me = omp_get_thread_num();
      if (me == 0)
        team[r] = omp_get_num_threads();
      if (me < most && sched_getaffinity(0, sizeof(got[me][r]), &got[me][r]) != 0)
        CPU_ZERO(&got[me][r]);
    }
  }
  for (r = 0; r < REGIONS; r++) {
    CU_ASSERT_EQUAL(team[r], want_team);
    for (t = 0; t < team[r] && t < most; t++) {
      cpu_set_t want;
      expected(p, (unsigned)t, &want);
      if (!CPU_EQUAL(&want, &got[t][r]))
        fprintf(stderr, "\n  policy %s region %d thread %d: %d CPUs, first wanted %u\n",
                omp_ext_policy_name(p), r, t, CPU_COUNT(&got[t][r]), ORDER(p, t % npus));
      CU_ASSERT(CPU_EQUAL(&want, &got[t][r]));
    }
  }
  free(got);
}

static void test_each_policy_binds(void)
{
  unsigned p;
  for (p = 1; p < OMP_EXT_NPOLICIES; p++) {
    CU_ASSERT_EQUAL(omp_set_ht_policy((omp_ht_policy_t)p), 0);
    CU_ASSERT_EQUAL(omp_get_ht_policy(), (omp_ht_policy_t)p);
    check_regions((omp_ht_policy_t)p, 0, omp_get_max_threads());
  }
}

static void test_switch_then_os(void)
{
  cpu_set_t self;
  CU_ASSERT_EQUAL(omp_set_ht_policy(omp_ht_policy_spn), 0);
  check_regions(omp_ht_policy_spn, 0, omp_get_max_threads());
  CU_ASSERT_EQUAL(omp_set_ht_policy(omp_ht_policy_spread), 0);
  check_regions(omp_ht_policy_spread, 0, omp_get_max_threads());
  CU_ASSERT_EQUAL(omp_set_ht_policy(omp_ht_policy_os), 0);
  CU_ASSERT_EQUAL(omp_get_ht_policy(), omp_ht_policy_os);
  check_regions(omp_ht_policy_os, 0, omp_get_max_threads());
  /* The primary thread, between regions, has the whole set again too. */
  CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(self), &self), 0);
  CU_ASSERT(CPU_EQUAL(&self, &allowed));
}

/* A team that grows after the call: threads the runtime creates later (from
 * a primary bound to one PU) must get their own PU, wrapping beyond npus. */
static void test_larger_team(void)
{
  int n = (int)npus;
  CU_ASSERT_EQUAL(omp_set_ht_policy_num_threads(omp_ht_policy_spn, 1), 0);
  CU_ASSERT_EQUAL(omp_get_max_threads(), 1);
  check_regions(omp_ht_policy_spn, 0, 1);
  check_regions(omp_ht_policy_spn, 2 * n + 1, 2 * n + 1);
  check_regions(omp_ht_policy_spn, 3 * n + 2, 3 * n + 2);
  check_regions(omp_ht_policy_spn, n, n);
  /* A switch with the larger team already there. */
  CU_ASSERT_EQUAL(omp_set_ht_policy_num_threads(omp_ht_policy_speedup, 3 * n + 2), 0);
  check_regions(omp_ht_policy_speedup, 0, 3 * n + 2);
  CU_ASSERT_EQUAL(omp_set_ht_policy_num_threads(omp_ht_policy_os, n), 0);
  check_regions(omp_ht_policy_os, 3 * n + 2, 3 * n + 2);
}

/* Documented: nested regions are not bound; the inner primary keeps its
 * outer PU, every inner thread stays inside the allowed set; the next
 * level-1 region is bound exactly again. */
static void test_nested(void)
{
  static cpu_set_t got[4][4];
  int outer_n = 2, inner_n = 2, o, i;
  int saved = omp_get_max_active_levels();
  memset(got, 0, sizeof(got));
  omp_set_max_active_levels(2);
  CU_ASSERT_EQUAL(omp_set_ht_policy_num_threads(omp_ht_policy_spn, outer_n), 0);
#pragma omp parallel num_threads(outer_n)
  {
    int outer = omp_get_thread_num();
#pragma omp parallel num_threads(inner_n)
    {
      int inner = omp_get_thread_num();
      if (omp_get_level() == 2 && omp_get_num_threads() == inner_n)
        sched_getaffinity(0, sizeof(got[outer][inner]), &got[outer][inner]);
      /* Not allowed in a (nested) region: error, nothing changed. */
      if (omp_set_ht_policy(omp_ht_policy_os) != omp_ext_err_in_parallel)
        CPU_ZERO(&got[outer][inner]);
    }
  }
  for (o = 0; o < outer_n; o++) {
    cpu_set_t want, both;
    expected(omp_ht_policy_spn, (unsigned)o, &want);
    CU_ASSERT(CPU_EQUAL(&got[o][0], &want));
    for (i = 0; i < inner_n; i++) {
      CPU_AND(&both, &got[o][i], &allowed);
      CU_ASSERT(CPU_COUNT(&got[o][i]) > 0 && CPU_EQUAL(&both, &got[o][i]));
    }
  }
  omp_set_max_active_levels(saved);
  CU_ASSERT_EQUAL(omp_get_ht_policy(), omp_ht_policy_spn);
  check_regions(omp_ht_policy_spn, outer_n, outer_n);
}

static void test_in_parallel_refused(void)
{
  int errs[2] = {0, 0};
  CU_ASSERT_EQUAL(omp_set_ht_policy(omp_ht_policy_speedup), 0);
#pragma omp parallel
  {
#pragma omp single
    errs[0] = omp_set_ht_policy(omp_ht_policy_os);
  }
#pragma omp parallel num_threads(1)
  errs[1] = omp_set_ht_policy_num_threads(omp_ht_policy_spn, 1);
  CU_ASSERT_EQUAL(errs[0], omp_ext_err_in_parallel);
  CU_ASSERT_EQUAL(errs[1], omp_ext_err_in_parallel);
  CU_ASSERT_EQUAL(omp_get_ht_policy(), omp_ht_policy_speedup);
  check_regions(omp_ht_policy_speedup, 0, omp_get_max_threads());
}

static void test_invalid_policy(void)
{
  CU_ASSERT_EQUAL(omp_set_ht_policy(omp_ht_policy_spn), 0);
  CU_ASSERT_EQUAL(omp_set_ht_policy((omp_ht_policy_t)-1), omp_ext_err_policy);
  CU_ASSERT_EQUAL(omp_set_ht_policy((omp_ht_policy_t)OMP_EXT_NPOLICIES), omp_ext_err_policy);
  CU_ASSERT_EQUAL(omp_set_ht_policy_num_threads((omp_ht_policy_t)99, 2), omp_ext_err_policy);
  CU_ASSERT_EQUAL(omp_set_ht_policy_num_threads(omp_ht_policy_os, 0), omp_ext_err_range);
  CU_ASSERT_EQUAL(omp_get_ht_policy(), omp_ht_policy_spn);
  check_regions(omp_ht_policy_spn, 0, omp_get_max_threads());
}

static void test_query(void)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  unsigned t;
  CU_ASSERT_FATAL(set != NULL);
  CU_ASSERT_EQUAL(omp_set_ht_policy(omp_ht_policy_spread), 0);
  for (t = 0; t < 2 * npus + 1; t++) {
    CU_ASSERT_EQUAL(omp_get_ht_pu((int)t), (int)ORDER(omp_ht_policy_spread, t % npus));
    CU_ASSERT_EQUAL(omp_get_ht_cpuset((int)t, set), 0);
    CU_ASSERT(hwloc_bitmap_weight(set) == 1 &&
              hwloc_bitmap_first(set) == (int)ORDER(omp_ht_policy_spread, t % npus));
  }
  CU_ASSERT_EQUAL(omp_get_ht_pu(-1), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_get_ht_cpuset(-1, set), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_get_ht_cpuset(0, NULL), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_set_ht_policy(omp_ht_policy_os), 0);
  CU_ASSERT_EQUAL(omp_get_ht_pu(0), omp_ext_err_unsupported);
  CU_ASSERT_EQUAL(omp_get_ht_cpuset(1, set), 0);
  CU_ASSERT_EQUAL((unsigned)hwloc_bitmap_weight(set), npus);
  for (t = 0; t < npus; t++)
    CU_ASSERT(hwloc_bitmap_isset(set, ORDER(omp_ht_policy_os, t)));
  hwloc_bitmap_free(set);
}

/* Several pthreads, each the initial thread of its own contention group,
 * set policies and run regions at the same time. */
static int concurrent_failures;

static void *contender(void *arg)
{
  unsigned seed = (unsigned)(size_t)arg, i;
  for (i = 0; i < 100; i++) {
    omp_ht_policy_t p = (omp_ht_policy_t)(rand_r(&seed) % OMP_EXT_NPOLICIES);
    if (omp_set_ht_policy(p) != 0)
      __atomic_fetch_add(&concurrent_failures, 1, __ATOMIC_RELAXED);
#pragma omp parallel num_threads(2)
    {
      cpu_set_t got, both;
      int ok = sched_getaffinity(0, sizeof(got), &got) == 0;
      CPU_AND(&both, &got, &allowed);
      ok = ok && CPU_EQUAL(&both, &got) &&
           (CPU_COUNT(&got) == 1 || CPU_EQUAL(&got, &allowed));
      if (!ok)
        __atomic_fetch_add(&concurrent_failures, 1, __ATOMIC_RELAXED);
    }
    if ((int)omp_get_ht_policy() < 0 || omp_get_ht_policy() >= OMP_EXT_NPOLICIES)
      __atomic_fetch_add(&concurrent_failures, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

static void test_concurrent_contention_groups(void)
{
  pthread_t th[4];
  size_t i;
  for (i = 0; i < 4; i++)
    CU_ASSERT_EQUAL_FATAL(pthread_create(&th[i], NULL, contender, (void *)(i + 1)), 0);
  for (i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  CU_ASSERT_EQUAL(concurrent_failures, 0);
  /* State intact: one more call binds exactly. */
  CU_ASSERT_EQUAL(omp_set_ht_policy_num_threads(omp_ht_policy_spn, (int)npus), 0);
  check_regions(omp_ht_policy_spn, 0, (int)npus);
}

/* The hook that keeps the binding is live: OMPT where the runtime has the
 * kmp_* API (libomp, libiomp5), the GOMP_parallel wrapper otherwise. */
static void test_hook_path(void)
{
  int hooks;
  CU_ASSERT_EQUAL(omp_set_ht_policy(omp_ht_policy_spn), 0);
  check_regions(omp_ht_policy_spn, 0, omp_get_max_threads());
  hooks = omp_ext_ht_hooks();
  if (dlsym(RTLD_DEFAULT, "kmp_set_affinity")) {
    /* clang's regions reach the __kmpc_fork_call wrapper; a gcc program
     * with libiomp5 preloaded is seen through OMPT. */
    Dl_info info;
    void *fork = dlsym(RTLD_DEFAULT, "__kmpc_fork_call");
    if (fork && dladdr(fork, &info) && info.dli_fname && strstr(info.dli_fname, "omp_ext")) {
      CU_ASSERT((hooks & omp_ext_hook_kmpc_ready) && (hooks & omp_ext_hook_kmpc));
    } else {
      CU_ASSERT((hooks & omp_ext_hook_ompt_ready) && (hooks & omp_ext_hook_ompt));
    }
  } else {
    CU_ASSERT(hooks & omp_ext_hook_gomp);
  }
}

/* ------------------------------------------------ separate processes --- */

static struct run_result probe(const char *taskset, const char *policy, const char *n,
                               char *const env[])
{
  char *argv[8];
  unsigned i = taskset_prefix(argv, taskset);
  struct run_result r;
  argv[i++] = HT_PROBE_BIN;
  if (policy)
    argv[i++] = (char *)policy;
  if (n)
    argv[i++] = (char *)n;
  argv[i] = NULL;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &r), 0);
  return r;
}

/* OMP_EXT_HT_POLICY's value in the warning: escaped (one line, no terminal
 * control byte), shortened (a 100 KB value), once per process, and only in
 * an OpenMP program (on main: echoed raw, whole, in every process). */
static void test_env_value_shown(void)
{
  static char big[100032];
  char *env_big[] = {big, NULL};
  char *env_esc[] = {"OMP_EXT_HT_POLICY=\033[31mred\nline2'", NULL};
  static char no_preload[] = "LD_PRELOAD="; /* (run_capture writes into it) */
  char *env_noomp[] = {env_esc[0], no_preload, NULL}; /* (test_bind_iomp5 preloads a runtime) */
  char *noomp[] = {NOOMP_PROBE_BIN, NULL};
  struct run_result r;
  snprintf(big, sizeof(big), "OMP_EXT_HT_POLICY=");
  memset(big + 18, 'x', 100000);
  r = probe(NULL, NULL, NULL, env_big);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  CU_ASSERT(strlen(r.err) < 400);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "omp_ext: ignoring OMP_EXT_HT_POLICY='xxxxxxxx"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "x... (100000 bytes)': expected POLICY[:N]"));
  run_free(&r);
  r = probe(NULL, NULL, NULL, env_esc);
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  CU_ASSERT_PTR_NULL(strchr(r.err, '\033'));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "OMP_EXT_HT_POLICY='\\x1b[31mred\\nline2\\''"));
  run_free(&r);
  CU_ASSERT_EQUAL_FATAL(run_capture(noomp, env_noomp, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  run_free(&r);
}

/* A bad OMP_EXT_POWER_MODEL: omp_ext_share fails (omp_ext_err_parse) and
 * the variable is named once, its value escaped (on main: only "the text
 * could not be parsed"). */
static void test_share_names_variable(void)
{
  char *argv[] = {HT_PROBE_BIN, "share", NULL};
  char *env[] = {"OMP_EXT_POWER_MODEL=bogus\033", NULL};
  struct run_result r;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &r), 0);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "omp_ext: OMP_EXT_POWER_MODEL='bogus\\x1b' is invalid"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "ht_probe: omp_ext_share: the text could not be parsed"));
  CU_ASSERT_EQUAL(count_lines(r.err), 2); /* named once, though both threads failed */
  run_free(&r);
}

/* Each "REGION THREAD LIST" line has LIST == want(THREAD); returns lines. */
static unsigned check_probe_lines(const char *out, omp_ht_policy_t p, const char *only)
{
  const char *line = out;
  unsigned lines = 0;
  int r, t, used;
  char list[256];
  while (sscanf(line, "%d %d %255s%n", &r, &t, list, &used) == 3) {
    char want[32];
    if (only)
      snprintf(want, sizeof(want), "%s", only);
    else
      snprintf(want, sizeof(want), "%u", ORDER(p, (unsigned)t % npus));
    if (strcmp(list, want) != 0)
      fprintf(stderr, "\n  region %d thread %d: %s, wanted %s\n", r, t, list, want);
    CU_ASSERT_STRING_EQUAL(list, want);
    lines++;
    line += used;
    line += strspn(line, "\n");
  }
  CU_ASSERT_EQUAL(*line, '\0');
  return lines;
}

static void test_taskset_one_pu(void)
{
  struct run_result r;
  if (!CPU_ISSET(1, &allowed)) {
    OMP_EXT_SKIP("PU 1 not allowed here: taskset -c 1 not tested");
    return;
  }
  r = probe("1", "spn", "3", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_EQUAL(check_probe_lines(r.out, omp_ht_policy_spn, "1"), 3 * 3);
  /* Three threads on one PU: the wrap-around warning, once. */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "wrap around"));
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);
  r = probe("1", "os", NULL, NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT(check_probe_lines(r.out, omp_ht_policy_os, "1") >= 3);
  run_free(&r);
}

/* Nested teams under a policy set in code (tests/nested_probe: spn, 2
 * threads, each with a nested team of 2, two rounds), what each runtime
 * really does: the level-1 threads on their PUs; a nested team's thread 0
 * is its outer thread, on the outer PU; the other nested threads --
 * libgomp: the outer thread's PU (a nested thread is created by the outer
 * thread for each region and inherits its mask); libomp: the process's
 * whole mask (libomp gives a new thread the mask it found at start-up).
 * Under taskset -c 1 every thread of both on PU 1: never outside. */
static void check_nested(const char *taskset)
{
  char *argv[8], allowed_list[256], list[256], outer_pu[2][32];
  unsigned i = taskset_prefix(argv, taskset), lines = 0;
  int libomp = dlsym(RTLD_DEFAULT, "kmp_set_affinity") != NULL, round, level, outer, t, used;
  struct run_result r;
  const char *line;
  argv[i++] = NESTED_PROBE_BIN;
  argv[i++] = "spn";
  argv[i] = NULL;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, NULL, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_FATAL(sscanf(r.out, "allowed %255s%n", allowed_list, &used) == 1);
  CU_ASSERT_STRING_EQUAL(allowed_list, taskset ? taskset : "0,1");
  for (t = 0; t < 2; t++)
    snprintf(outer_pu[t], sizeof(outer_pu[t]), "%u", taskset ? 1u : ORDER(omp_ht_policy_spn, t));
  for (line = r.out + used + 1;
       sscanf(line, "%d %d %d %d %255s%n", &round, &level, &outer, &t, list, &used) == 5;
       line += used + (line[used] == '\n')) {
    const char *want;
    CU_ASSERT_FATAL(outer >= 0 && outer < 2);
    if (level == 1 || t == 0)
      want = outer_pu[outer];
    else
      want = libomp ? allowed_list : outer_pu[outer];
    if (strcmp(list, want) != 0)
      fprintf(stderr, "\n  round %d level %d outer %d thread %d: %s, want %s\n", round, level,
              outer, t, list, want);
    CU_ASSERT_STRING_EQUAL(list, want);
    lines++;
  }
  CU_ASSERT_EQUAL(lines, 2u * 2 * 3);
  run_free(&r);
}

static void test_nested_teams(void)
{
  if (npus != 2 || !CPU_ISSET(0, &allowed) || !CPU_ISSET(1, &allowed)) { /* the probe's "0,1" */
    OMP_EXT_SKIP("not PUs 0 and 1 only: nested teams not tested");
    return;
  }
  check_nested(NULL);
  check_nested("1");
}

static void test_env_policy(void)
{
  static char unset_n[] = "OMP_NUM_THREADS="; /* run_capture writes into it */
  char *env_spn[] = {"OMP_EXT_HT_POLICY=spn:3", unset_n, NULL};
  char *env_bad[] = {"OMP_EXT_HT_POLICY=fastest", NULL};
  char *env_badn[] = {"OMP_EXT_HT_POLICY=spn:0", NULL};
  struct run_result r = probe(NULL, NULL, NULL, env_spn);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_EQUAL(check_probe_lines(r.out, omp_ht_policy_spn, NULL), 3 * 3);
  if (npus < 3)
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);
  r = probe(NULL, NULL, NULL, env_bad);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "omp_ext: ignoring OMP_EXT_HT_POLICY='fastest'"));
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  /* the allowed values include the per-region auto (on main: omitted) */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "; or auto, auto:time, auto:energy, each optionally "
                                       "followed by :threads (per region)"));
  run_free(&r);
  r = probe(NULL, NULL, NULL, env_badn);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "omp_ext: ignoring OMP_EXT_HT_POLICY='spn:0'"));
  run_free(&r);
}

/* The energy meta-policy binds in the base order of the model the library
 * read from the environment at load (omp_ext_model_from_env()); an invalid
 * model variable makes OMP_EXT_HT_POLICY=energy be ignored, with why. */
static void test_env_energy(void)
{
  static char unset_n[] = "OMP_NUM_THREADS=";
  char *env_energy[] = {"OMP_EXT_HT_POLICY=energy:2", unset_n, NULL};
  char *env_bad_model[] = {"OMP_EXT_HT_POLICY=energy", "OMP_EXT_POWER_MODEL=1,2,3", NULL};
  struct run_result r = probe(NULL, NULL, NULL, env_energy);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_EQUAL(check_probe_lines(r.out, omp_ht_policy_energy, NULL), 3 * 2);
  run_free(&r);
  r = probe(NULL, NULL, NULL, env_bad_model);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "omp_ext: ignoring OMP_EXT_HT_POLICY='energy': the text "
                                       "could not be parsed"));
  run_free(&r);
}

/* Under an MPI launcher the in-code API uses the rank's domain, as htplaces
 * exec does: rank 1 of 2 on this 2-PU machine gets PU 1 only. */
static void test_rank_domain(void)
{
  static char unset_n[] = "OMP_NUM_THREADS=";
  char *env[] = {"OMP_EXT_HT_POLICY=spn:2", "OMPI_COMM_WORLD_LOCAL_RANK=1",
                 "OMPI_COMM_WORLD_LOCAL_SIZE=2", unset_n, NULL};
  char *bad[] = {"OMP_EXT_HT_POLICY=spn", "OMPI_COMM_WORLD_LOCAL_RANK=2",
                 "OMPI_COMM_WORLD_LOCAL_SIZE=2", NULL};
  struct run_result r;
  const char *line;
  unsigned lines = 0;
  cpu_set_t set;
  CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(set), &set), 0);
  if (CPU_COUNT(&set) != 2 || !CPU_ISSET(0, &set) || !CPU_ISSET(1, &set)) {
    OMP_EXT_SKIP("not PUs 0 and 1 only (the domains checked are a 2-PU machine's)");
    return;
  }
  r = probe(NULL, NULL, NULL, env);
  CU_ASSERT_EQUAL(r.status, 0);
  for (line = r.out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    unsigned reg, t;
    char cpus[64];
    CU_ASSERT_EQUAL(sscanf(line, "%u %u %63s", &reg, &t, cpus), 3);
    CU_ASSERT_STRING_EQUAL(cpus, "1");
    lines++;
  }
  CU_ASSERT_EQUAL(lines, 3 * 2);
  run_free(&r);
  r = probe(NULL, NULL, NULL, bad); /* rank >= size: reported, nothing bound */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "omp_ext"));
  run_free(&r);
}

/* The user's OMP_PROC_BIND / OMP_PLACES as documented: libomp and libiomp5
 * start late enough, the policy wins (and libomp must not trip over
 * kmp_set_affinity); libgomp, when loaded at all (also a gcc program run
 * with libiomp5 preloaded), pins the initial thread before omp_ext loads:
 * omp_ext takes the PUs of libgomp's place list instead of that one place
 * (before, every thread of the team ran on the first place), and the policy
 * wins there too. */
static void test_user_proc_bind(void)
{
  static char bind_true[] = "OMP_PROC_BIND=true", by_env[] = "OMP_EXT_HT_POLICY=spn:2";
  size_t size = (size_t)npus * 12 + 16;
  char *places = malloc(size);
  char *env_call[] = {bind_true, places, NULL}, *env_var[] = {bind_true, places, by_env, NULL};
  struct run_result r;
  size_t used;
  unsigned i;
  int how;
  /* The allowed PUs in reverse: unlike every policy's order on a machine
   * without SMT, so the test sees who won. */
  CU_ASSERT_PTR_NOT_NULL_FATAL(places);
  used = (size_t)snprintf(places, size, "OMP_PLACES=");
  for (i = npus; i-- > 0;)
    used += (size_t)snprintf(places + used, size - used, "%s{%u}",
                             i + 1 < npus ? "," : "", ORDER(omp_ht_policy_os, i));
  for (how = 0; how < 2; how++) { /* the API call, then OMP_EXT_HT_POLICY */
    r = how == 0 ? probe(NULL, "spn", "2", env_call) : probe(NULL, NULL, NULL, env_var);
    CU_ASSERT_EQUAL(r.status, 0);
    /* the policy wins in every runtime: under libgomp, which pinned the
     * initial thread to the first place, over the PUs of its place list */
    CU_ASSERT_EQUAL(check_probe_lines(r.out, omp_ht_policy_spn, NULL), 3 * 2);
    if (npus >= 2) /* (nothing from omp_ext; libiomp5 under a gcc program warns
                    * of the places libgomp's pinning hid from it) */
      CU_ASSERT_PTR_NULL(strstr(r.err, "omp_ext"));
    run_free(&r);
  }
  free(places);
}

/* libgomp linked before libomp_ext: no hook sees the program's regions;
 * omp_ext says so, and the team bound by the call itself stays bound.
 * (With libiomp5 preloaded the OMPT hook applies: no message.) */
static void test_gomp_link_order(void)
{
#ifdef HT_PROBE_GOMP_FIRST_BIN
  char *argv[] = {HT_PROBE_GOMP_FIRST_BIN, "spn", NULL};
  struct run_result r;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, NULL, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  if (dlsym(RTLD_DEFAULT, "kmp_set_affinity")) { /* libiomp5 preloaded: OMPT hook */
    CU_ASSERT_STRING_EQUAL(r.err, "");
  } else {
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "libgomp comes before libomp_ext in the link order"));
  }
  CU_ASSERT_EQUAL(check_probe_lines(r.out, omp_ht_policy_spn, NULL), 3 * npus);
  run_free(&r);
#endif
}

/* fork() after the policy was set and a region ran: the child's regions
 * are bound as omp_get_ht_policy() says, thread 0 included.  libomp only:
 * libgomp hangs in a child's first region once the parent ran one (its
 * thread pool does not survive fork; not omp_ext's doing). */
static void test_fork_child_bound(void)
{
  static char fork_env[] = "HT_PROBE_FORK=1";
  char *argv[] = {HT_PROBE_BIN, "spn", NULL}, *env[] = {fork_env, NULL};
  struct run_result r;
  if (!dlsym(RTLD_DEFAULT, "kmp_set_affinity")) {
    OMP_EXT_SKIP("libgomp does not run parallel regions in a forked child");
    return;
  }
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_EQUAL(check_probe_lines(r.out, omp_ht_policy_spn, NULL), 3 * npus);
  run_free(&r);
}

/* omp_ext_ht_hooks() right after the first omp_set_ht_policy(), before
 * any region of the program: the hook that will keep the binding is known
 * already (libomp: the OMPT tool started; libgomp: the program's
 * GOMP_parallel is omp_ext's), and it differs from a wrong link order's. */
static int hooks_after_set(const char *bin)
{
  static char hooks_env[] = "HT_PROBE_HOOKS=1";
  char *argv[] = {(char *)bin, "spn", NULL}, *env[] = {hooks_env, NULL};
  struct run_result r;
  const char *p;
  int hooks = -1;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  if ((p = strstr(r.err, "ht_probe: hooks ")) != NULL)
    hooks = atoi(p + strlen("ht_probe: hooks "));
  run_free(&r);
  return hooks;
}

static void test_hooks_known_at_set(void)
{
  int hooks = hooks_after_set(HT_PROBE_BIN);
  if (dlsym(RTLD_DEFAULT, "kmp_set_affinity")) {
    Dl_info info;
    void *fork = dlsym(RTLD_DEFAULT, "__kmpc_fork_call");
    if (fork && dladdr(fork, &info) && info.dli_fname && strstr(info.dli_fname, "omp_ext")) {
      /* clang-built probe: its regions reach the __kmpc_fork_call wrapper,
       * which needs no OMPT tool. */
      CU_ASSERT(hooks >= 0 && (hooks & omp_ext_hook_kmpc_ready) &&
                !(hooks & omp_ext_hook_gomp_ready) && !(hooks & omp_ext_hook_ompt_ready));
    } else { /* (The set's own region already went through the OMPT hook.) */
      CU_ASSERT(hooks >= 0 && (hooks & omp_ext_hook_ompt_ready) &&
                !(hooks & omp_ext_hook_gomp_ready));
    }
  } else {
    CU_ASSERT_EQUAL(hooks, omp_ext_hook_gomp_ready);
  }
#ifdef HT_PROBE_GOMP_FIRST_BIN
  hooks = hooks_after_set(HT_PROBE_GOMP_FIRST_BIN);
  if (dlsym(RTLD_DEFAULT, "kmp_set_affinity")) {
    CU_ASSERT(hooks >= 0 && (hooks & omp_ext_hook_ompt_ready) && !(hooks & omp_ext_hook_gomp_ready));
  } else {
    CU_ASSERT_EQUAL(hooks, 0); /* the wrappers will never run */
  }
#endif
}

/* Children inherit the primary thread's mask: give it the whole set back. */
static int process_suite_init(void)
{
  cpu_set_t self;
  if (suite_init() != 0 || omp_set_ht_policy(omp_ht_policy_os) != 0 ||
      sched_getaffinity(0, sizeof(self), &self) != 0)
    return 1;
  return !CPU_EQUAL(&self, &allowed);
}

static CU_TestInfo bind_tests[] = {
  {"every policy binds each thread to its PU, in every region", test_each_policy_binds},
  {"switch policies, then os gives the whole allowed set back", test_switch_then_os},
  {"a later, larger team is bound too (wrap-around)", test_larger_team},
  {"nested regions: inner primary keeps its PU, all inside allowed", test_nested},
  {"inside a parallel region: error, nothing changed", test_in_parallel_refused},
  {"invalid policy or team size: error, nothing changed", test_invalid_policy},
  {"omp_get_ht_pu / omp_get_ht_cpuset", test_query},
  {"concurrent calls from 4 contention groups", test_concurrent_contention_groups},
  {"the runtime's hook path is live", test_hook_path},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo process_tests[] = {
  {"taskset -c 1: only PU 1 is ever used", test_taskset_one_pu},
  {"nested teams: libgomp the outer PU, libomp the process's mask", test_nested_teams},
  {"OMP_EXT_HT_POLICY=spn:3 and invalid values", test_env_policy},
  {"OMP_EXT_HT_POLICY's value: escaped, shortened, OpenMP programs only", test_env_value_shown},
  {"a bad OMP_EXT_POWER_MODEL named by omp_ext_share", test_share_names_variable},
  {"OMP_EXT_HT_POLICY=energy under the model of the environment", test_env_energy},
  {"under an MPI launcher: the rank's domain", test_rank_domain},
  {"user OMP_PROC_BIND=true, OMP_PLACES reversed (call and env)", test_user_proc_bind},
  {"gcc: libgomp linked first is reported; called team stays bound", test_gomp_link_order},
  {"omp_ext_ht_hooks() is right at once, before any region", test_hooks_known_at_set},
  {"fork: the child's regions are bound as the policy says (libomp)", test_fork_child_bound},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"in-code policy (" OMP_RUNTIME_NAME ")", suite_init, NULL, NULL, NULL, bind_tests},
  {"probe processes (" OMP_RUNTIME_NAME ")", process_suite_init, NULL, NULL, NULL, process_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
