/*
 * The Slurm plugin's logic without Slurm (omp_ext/slurm/spank_plan.h): the
 * --ht-policy / --ht-smt values and plugstack.conf arguments, the merge of
 * site and user settings, the conflict rules, and the placement on
 * synthetic machines against hand-computed values -- Slurm's core numbers
 * to PUs, the tasks' domains, --ht-smt and --threads-per-core, N and
 * OMP_NUM_THREADS, the energy policy, and every error.  The plugin inside
 * real slurmstepd processes is test_slurm (tests/test_slurm.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "spank_plan.h"

/* The paper's Dell C6100: 2 packages x 4 cores x 2 PUs, siblings 8 apart. */
#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"

static char err[HTS_ERRLEN];

#define HAS(text, needle)                                                 \
  do {                                                                    \
    CU_ASSERT_PTR_NOT_NULL(strstr(text, needle));                         \
    if (!strstr(text, needle))                                            \
      fprintf(stderr, "\nmissing '%s' in '%s'\n", needle, text);          \
  } while (0)

static struct hts_settings policy(const char *text)
{
  struct hts_settings s;
  memset(&s, 0, sizeof(s));
  CU_ASSERT_EQUAL_FATAL(hts_parse_policy("--ht-policy", text, &s, err, sizeof(err)), 0);
  return s;
}

static void test_parse_policy(void)
{
  static const char *const bad[] = {"", "bogus", "spn:", "spn:0", "spn:x", "spn:4:2", ":4",
                                    "auto:fast", "auto:2", "SPN", "spn 4", "auto:threads:threads"};
  struct hts_settings s = policy("spn");
  unsigned i;
  CU_ASSERT_EQUAL(s.policy, omp_ht_policy_spn);
  CU_ASSERT_EQUAL(s.n, 0);
  CU_ASSERT(hts_active(&s));
  CU_ASSERT_STRING_EQUAL(s.text, "spn");
  s = policy("speedup:4");
  CU_ASSERT_EQUAL(s.policy, omp_ht_policy_speedup);
  CU_ASSERT_EQUAL(s.n, 4);
  s = policy("auto:energy");
  CU_ASSERT(s.is_auto);
  CU_ASSERT_STRING_EQUAL(s.text, "auto:energy");
  s = policy("auto:threads"); /* (team sizes per region: libomp_ext's own opt-in) */
  CU_ASSERT(s.is_auto);
  CU_ASSERT_STRING_EQUAL(s.text, "auto:threads");
  s = policy("auto:energy:threads");
  CU_ASSERT(s.is_auto);
  CU_ASSERT_STRING_EQUAL(s.text, "auto:energy:threads");
  s = policy("off");
  CU_ASSERT(s.policy_set && s.off && !hts_active(&s));
  for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    memset(&s, 0, sizeof(s));
    err[0] = '\0';
    CU_ASSERT_EQUAL(hts_parse_policy("--ht-policy", bad[i], &s, err, sizeof(err)), -1);
    CU_ASSERT(!s.policy_set);
    HAS(err, "--ht-policy '");
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
  }
  hts_parse_policy("--ht-policy", "bogus", &s, err, sizeof(err));
  HAS(err, "unknown policy; allowed: os, speedup, spn, spread, energy, "
           "auto[:time|:energy][:threads], off");
  hts_parse_policy("--ht-policy", "spn:0", &s, err, sizeof(err));
  HAS(err, "N must be a whole number of threads >= 1");
}

static void test_parse_smt_args(void)
{
  static const char *const bad_smt[] = {"0", "", "x", "-1", "1.5"};
  struct hts_settings s;
  unsigned i;
  memset(&s, 0, sizeof(s));
  CU_ASSERT_EQUAL(hts_parse_smt("--ht-smt", "2", &s, err, sizeof(err)), 0);
  CU_ASSERT(s.smt == 2 && s.smt_set);
  for (i = 0; i < sizeof(bad_smt) / sizeof(bad_smt[0]); i++) {
    CU_ASSERT_EQUAL(hts_parse_smt("--ht-smt", bad_smt[i], &s, err, sizeof(err)), -1);
    HAS(err, "K must be a whole number >= 1");
  }
  memset(&s, 0, sizeof(s));
  CU_ASSERT_EQUAL(hts_parse_arg("default=spn:2", &s, err, sizeof(err)), 0);
  CU_ASSERT_EQUAL(hts_parse_arg("smt=1", &s, err, sizeof(err)), 0);
  CU_ASSERT_EQUAL(hts_parse_arg("verbose", &s, err, sizeof(err)), 0);
  CU_ASSERT_EQUAL(hts_parse_arg("strict", &s, err, sizeof(err)), 0);
  CU_ASSERT_EQUAL(hts_parse_arg("preload=/opt/lib/libomp_ext.so.0", &s, err, sizeof(err)), 0);
  CU_ASSERT(s.policy == omp_ht_policy_spn && s.n == 2 && s.smt == 1 && s.verbose && s.strict);
  CU_ASSERT_STRING_EQUAL(s.preload, "/opt/lib/libomp_ext.so.0");
  CU_ASSERT_EQUAL(hts_parse_arg("preload=lib.so", &s, err, sizeof(err)), -1);
  HAS(err, "PATH must be an absolute path");
  CU_ASSERT_EQUAL(hts_parse_arg("default=fast", &s, err, sizeof(err)), -1);
  HAS(err, "plugstack.conf default 'fast': unknown policy");
  CU_ASSERT_EQUAL(hts_parse_arg("smt=0", &s, err, sizeof(err)), -1);
  HAS(err, "plugstack.conf smt '0'");
  CU_ASSERT_EQUAL(hts_parse_arg("policy=spn", &s, err, sizeof(err)), -1);
  HAS(err, "unknown argument 'policy=spn'; allowed: default=POLICY[:N], smt=K, verbose, strict, "
           "preload=PATH");
}

static void test_merge(void)
{
  struct hts_settings site, user, out;
  memset(&site, 0, sizeof(site));
  memset(&user, 0, sizeof(user));
  hts_merge(&site, &user, &out);
  CU_ASSERT(!hts_active(&out)); /* nothing asked, no default: the plugin sleeps */
  user.verbose = 1;
  hts_merge(&site, &user, &out);
  CU_ASSERT(!hts_active(&out) && out.verbose);
  hts_parse_smt("--ht-smt", "1", &user, err, sizeof(err));
  hts_merge(&site, &user, &out);
  CU_ASSERT(hts_active(&out) && out.policy == omp_ht_policy_speedup && out.smt == 1);
  hts_parse_arg("default=spn", &site, err, sizeof(err));
  hts_parse_arg("smt=2", &site, err, sizeof(err));
  hts_parse_arg("strict", &site, err, sizeof(err));
  memset(&user, 0, sizeof(user));
  hts_merge(&site, &user, &out);
  CU_ASSERT(out.policy == omp_ht_policy_spn && out.smt == 2 && out.strict);
  hts_parse_policy("--ht-policy", "off", &user, err, sizeof(err));
  hts_parse_smt("--ht-smt", "1", &user, err, sizeof(err));
  hts_merge(&site, &user, &out);
  CU_ASSERT(!hts_active(&out) && out.smt == 1);
  CU_ASSERT_STRING_EQUAL(out.text, "off");
}

static void test_conflict(void)
{
  struct hts_settings s = policy("spn");
  char *cores[] = {"SLURM_CPU_BIND_TYPE=cores", "SLURM_CPU_BIND=quiet,cores", NULL};
  char *none[] = {"SLURM_CPU_BIND_TYPE=none", "OMP_PLACES=cores", "OMP_PROC_BIND=true", NULL};
  char *empty[] = {"SLURM_CPU_BIND_TYPE=", NULL};
  char *kmp[] = {"KMP_AFFINITY=compact", NULL};
  CU_ASSERT_EQUAL(hts_conflict(&s, 1, cores, err, sizeof(err)), 1);
  HAS(err, "--ht-policy=spn refused: Slurm binds the tasks itself (SLURM_CPU_BIND_TYPE=cores");
  HAS(err, "use --cpu-bind=none");
  CU_ASSERT_EQUAL(hts_conflict(&s, 0, cores, err, sizeof(err)), 1);
  HAS(err, "the site's default spn is not applied");
  CU_ASSERT_EQUAL(hts_conflict(&s, 1, none, err, sizeof(err)), 0); /* asked: places replaced */
  CU_ASSERT_EQUAL(hts_conflict(&s, 0, none, err, sizeof(err)), 1); /* the default steps aside */
  HAS(err, "OMP_PLACES=cores is set");
  CU_ASSERT_EQUAL(hts_conflict(&s, 1, empty, err, sizeof(err)), 0);
  {
    /* srun --ntasks-per-core=1 implies "cores", --ntasks-per-socket
     * "sockets": not a binding the user asked for; with the other level it is. */
    char *per_core[] = {"SLURM_CPU_BIND_TYPE=cores", "SLURM_NTASKS_PER_CORE=1", NULL};
    char *per_socket[] = {"SLURM_CPU_BIND_TYPE=sockets", "SLURM_NTASKS_PER_SOCKET=2", NULL};
    char *threads[] = {"SLURM_CPU_BIND_TYPE=threads", "SLURM_NTASKS_PER_CORE=1", NULL};
    char *mask[] = {"SLURM_CPU_BIND_TYPE=mask_cpu:", "SLURM_NTASKS_PER_CORE=1", NULL};
    CU_ASSERT_EQUAL(hts_conflict(&s, 1, per_core, err, sizeof(err)), 0);
    CU_ASSERT_EQUAL(hts_conflict(&s, 1, per_socket, err, sizeof(err)), 0);
    CU_ASSERT_EQUAL(hts_conflict(&s, 1, threads, err, sizeof(err)), 1);
    CU_ASSERT_EQUAL(hts_conflict(&s, 1, mask, err, sizeof(err)), 1);
    HAS(err, "SLURM_CPU_BIND_TYPE=mask_cpu:");
  }
  CU_ASSERT_EQUAL(hts_conflict(&s, 1, kmp, err, sizeof(err)), 1);
  HAS(err, "KMP_AFFINITY=compact is set and would override the places");
}

/* hts_node_plan on \p topo; domains compared as lists. */
static int node(const struct hts_settings *s, const char *topo, const char *cores, unsigned k,
                unsigned cap, struct hts_node *n)
{
  struct hts_node_in in = {topo, cores, k, cap};
  err[0] = '\0';
  return hts_node_plan(s, &in, n, err, sizeof(err));
}

static void check_set(hwloc_const_bitmap_t set, const char *want)
{
  char *got = NULL;
  hwloc_bitmap_list_asprintf(&got, set);
  CU_ASSERT_STRING_EQUAL(got, want);
  if (strcmp(got, want) != 0)
    fprintf(stderr, "\nwant %s, got %s\n", want, got);
  free(got);
}

static void test_node_domains(void)
{
  struct hts_settings s = policy("spn");
  struct hts_node n;
  /* Slurm's cores 0-7 are the machine's: two tasks, one package each. */
  CU_ASSERT_EQUAL_FATAL(node(&s, C6100, "0-7", 2, 0, &n), 0);
  check_set(n.alloc, "0-15");
  check_set(n.domain[0], "0-3,8-11");
  check_set(n.domain[1], "4-7,12-15");
  hts_node_free(&n);
  /* cores 2-5: the last two of package 0 and the first two of package 1. */
  CU_ASSERT_EQUAL_FATAL(node(&s, C6100, "2-5", 2, 0, &n), 0);
  check_set(n.alloc, "2-5,10-13");
  check_set(n.domain[0], "2-3,10-11");
  check_set(n.domain[1], "4-5,12-13");
  hts_node_free(&n);
  /* --ht-smt=1: the first PU of each core; --threads-per-core=1 the same. */
  s.smt = 1;
  CU_ASSERT_EQUAL_FATAL(node(&s, C6100, "0-7", 4, 0, &n), 0);
  check_set(n.alloc, "0-15"); /* the step's PUs: what Slurm may have bound a task to */
  check_set(n.domain[0], "0-1");
  check_set(n.domain[3], "6-7");
  hts_node_free(&n);
  s.smt = 2;
  CU_ASSERT_EQUAL_FATAL(node(&s, C6100, "1,6", 2, 1, &n), 0);
  check_set(n.domain[0], "1");
  check_set(n.domain[1], "6");
  hts_node_free(&n);
  /* 3 tasks on 5 cores: 2, 2, 1 cores, the larger domains first. */
  s.smt = 0;
  CU_ASSERT_EQUAL_FATAL(node(&s, "pack:1 core:5 pu:2", "0-4", 3, 0, &n), 0);
  check_set(n.domain[0], "0-3");
  check_set(n.domain[1], "4-7");
  check_set(n.domain[2], "8-9");
  hts_node_free(&n);
}

static void test_node_errors(void)
{
  struct hts_settings s = policy("spn");
  struct hts_node n;
  CU_ASSERT_EQUAL(node(&s, C6100, "0-1", 3, 0, &n), -1);
  HAS(err, "the step runs 3 tasks on this node but has 2 allocated cores");
  CU_ASSERT_PTR_NULL(n.alloc);
  CU_ASSERT_EQUAL(node(&s, C6100, "6-8", 1, 0, &n), -1);
  HAS(err, "Slurm's core 8 of the step (S_STEP_ALLOC_CORES '6-8') is past this machine's 8 "
           "cores: slurm.conf's node line does not match the machine");
  CU_ASSERT_EQUAL(node(&s, C6100, "", 1, 0, &n), -1);
  HAS(err, "no readable core list");
  CU_ASSERT_EQUAL(node(&s, C6100, "x", 1, 0, &n), -1);
  HAS(err, "S_STEP_ALLOC_CORES 'x'");
  CU_ASSERT_EQUAL(node(&s, C6100, NULL, 1, 0, &n), -1);
  CU_ASSERT_EQUAL(node(&s, C6100, "0", 0, 0, &n), -1);
  HAS(err, "no task on this node");
}

/* Task r's plan in node n; returns its status. */
static int task(const struct hts_settings *s, const struct hts_node *n, unsigned r,
                char *const *envp, const char *current, struct hts_task *t)
{
  hwloc_bitmap_t cur = NULL;
  int ret;
  if (current) {
    cur = hwloc_bitmap_alloc();
    hwloc_bitmap_list_sscanf(cur, current);
  }
  err[0] = '\0';
  ret = hts_task_plan(s, n, r, C6100, envp, cur, t, err, sizeof(err));
  hwloc_bitmap_free(cur);
  return ret;
}

static void test_task_places(void)
{
  struct hts_settings s = policy("spn"), sp = policy("speedup:3"), a = policy("auto");
  char *none[] = {NULL};
  char *three[] = {"OMP_NUM_THREADS=3", NULL};
  char *many[] = {"OMP_NUM_THREADS=64,2", NULL};
  char *nested[] = {"OMP_NUM_THREADS=2,4", NULL};
  struct hts_node n;
  struct hts_task t;
  CU_ASSERT_EQUAL_FATAL(node(&s, C6100, "0-7", 2, 0, &n), 0);
  /* README's rank 1 of 2: {4},{12},{5},{13},{6},{14},{7},{15}. */
  CU_ASSERT_EQUAL_FATAL(task(&s, &n, 1, none, "4-5", &t), 0);
  CU_ASSERT_STRING_EQUAL(t.places, "{4},{12},{5},{13},{6},{14},{7},{15}");
  CU_ASSERT_EQUAL(t.nthreads, 8);
  CU_ASSERT_STRING_EQUAL(t.pus_text, "4-7,12-15");
  hts_task_free(&t);
  CU_ASSERT_EQUAL_FATAL(task(&sp, &n, 0, none, NULL, &t), 0);
  CU_ASSERT_STRING_EQUAL(t.places, "{0},{1},{2}");
  CU_ASSERT_EQUAL(t.nthreads, 3);
  hts_task_free(&t);
  /* The job's OMP_NUM_THREADS: its first level is N, and it stays. */
  CU_ASSERT_EQUAL_FATAL(task(&s, &n, 0, three, NULL, &t), 0);
  CU_ASSERT_STRING_EQUAL(t.places, "{0},{8},{1}");
  CU_ASSERT_EQUAL(t.nthreads, 0);
  hts_task_free(&t);
  CU_ASSERT_EQUAL_FATAL(task(&s, &n, 0, many, NULL, &t), 0);
  CU_ASSERT_STRING_EQUAL(t.places, "{0},{8},{1},{9},{2},{10},{3},{11}");
  CU_ASSERT_EQUAL(t.nthreads, 0);
  hts_task_free(&t);
  CU_ASSERT_EQUAL_FATAL(task(&s, &n, 0, nested, NULL, &t), 0);
  CU_ASSERT_STRING_EQUAL(t.places, "{0},{8}");
  hts_task_free(&t);
  /* POLICY:N wins over OMP_NUM_THREADS, and is set. */
  CU_ASSERT_EQUAL_FATAL(task(&sp, &n, 1, three, NULL, &t), 0);
  CU_ASSERT_STRING_EQUAL(t.places, "{4},{5},{6}");
  CU_ASSERT_EQUAL(t.nthreads, 3);
  hts_task_free(&t);
  /* auto: the domain, no places. */
  CU_ASSERT_EQUAL_FATAL(task(&a, &n, 1, none, NULL, &t), 0);
  CU_ASSERT_PTR_NULL(t.places);
  CU_ASSERT_STRING_EQUAL(t.pus_text, "4-7,12-15");
  hts_task_free(&t);
  hts_node_free(&n);
}

static void test_task_energy_smt(void)
{
  struct hts_settings e = policy("energy"), s = policy("spn");
  char *half[] = {"OMP_EXT_SERIAL_FRACTION=0.5", NULL};
  char *badmodel[] = {"OMP_EXT_SIGMA=7", NULL};
  struct hts_node n;
  struct hts_task t;
  /* README: htplaces -e energy with serial fraction 0.5 on the C6100 is
   * spn's first 5 PUs. */
  CU_ASSERT_EQUAL_FATAL(node(&e, C6100, "0-7", 1, 0, &n), 0);
  CU_ASSERT_EQUAL_FATAL(task(&e, &n, 0, half, NULL, &t), 0);
  CU_ASSERT_STRING_EQUAL(t.places, "{0},{8},{1},{9},{2}");
  CU_ASSERT_EQUAL(t.nthreads, 5);
  hts_task_free(&t);
  CU_ASSERT_EQUAL(task(&e, &n, 0, badmodel, NULL, &t), -1);
  HAS(err, "OMP_EXT_SIGMA");
  hts_node_free(&n);
  /* spn with --ht-smt=1 is one PU per core. */
  s.smt = 1;
  CU_ASSERT_EQUAL_FATAL(node(&s, C6100, "0-7", 2, 0, &n), 0);
  CU_ASSERT_EQUAL_FATAL(task(&s, &n, 1, NULL, NULL, &t), 0);
  CU_ASSERT_STRING_EQUAL(t.places, "{4},{5},{6},{7}");
  hts_task_free(&t);
  hts_node_free(&n);
}

static void test_task_errors(void)
{
  struct hts_settings s = policy("spn"), big = policy("spn:9");
  struct hts_node n;
  struct hts_task t;
  CU_ASSERT_EQUAL_FATAL(node(&s, C6100, "0-3", 2, 0, &n), 0); /* package 0: PUs 0-3,8-11 */
  CU_ASSERT_EQUAL(task(&s, &n, 0, NULL, "4", &t), -1);
  HAS(err, "Slurm bound task 0 to PUs 4, outside the step's PUs 0-3,8-11");
  CU_ASSERT_PTR_NULL(t.places);
  CU_ASSERT_EQUAL(task(&s, &n, 0, NULL, "0-3,8-11", &t), 0); /* --cpu-bind=none */
  hts_task_free(&t);
  CU_ASSERT_EQUAL(task(&big, &n, 1, NULL, NULL, &t), -1);
  HAS(err, "--ht-policy=spn:9: N is above the 4 PUs of task 1");
  CU_ASSERT_EQUAL(task(&s, &n, 2, NULL, NULL, &t), -1);
  HAS(err, "task 2 is past the step's 2 tasks");
  hts_node_free(&n);
}

static CU_TestInfo settings_tests[] = {
  {"--ht-policy values", test_parse_policy},
  {"--ht-smt values, plugstack.conf arguments", test_parse_smt_args},
  {"site defaults and user options", test_merge},
  {"conflicts: Slurm's binding, runtime variables", test_conflict},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo plan_tests[] = {
  {"Slurm's cores, domains, --ht-smt, --threads-per-core", test_node_domains},
  {"node errors: tasks, cores past the machine, bad lists", test_node_errors},
  {"places: policy, N, OMP_NUM_THREADS, auto", test_task_places},
  {"energy and --ht-smt places", test_task_energy_smt},
  {"task errors: binding outside the step, N, task", test_task_errors},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"settings", NULL, NULL, NULL, NULL, settings_tests},
  {"plan", NULL, NULL, NULL, NULL, plan_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
