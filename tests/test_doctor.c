/*
 * htplaces doctor on fake sysfs and cgroup trees (built in a temporary
 * folder): SMT off, offline CPUs, restricted cpusets, CPU quotas of cgroup
 * v1 and v2, conflicting variables, the hybrid fixture, and the saturation
 * test's report (its figures are not asserted: no timing in tests).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hwloc.h>

#include "cunit_main.h"
#include "fakefs.h"
#include "testutil.h"

#define FIXTURE(name) OMP_EXT_TEST_DIR "/topologies/" name

static char root[] = "/tmp/htplaces-doctor-XXXXXX";

static int setup(void)
{
  int err = 0;
  if (!mkdtemp(root))
    return 1;
  /* A 2-CPU machine like CI's, SMT not supported. */
  err |= fakefs_put(root, "sys-plain/devices/system/cpu/smt/control", "notsupported");
  err |= fakefs_put(root, "sys-plain/devices/system/cpu/online", "0-1");
  err |= fakefs_put(root, "sys-plain/devices/system/cpu/offline", "");
  err |= fakefs_put(root, "sys-plain/devices/system/cpu/present", "0-1");
  /* SMT switched off: siblings 2-3 offline. */
  err |= fakefs_put(root, "sys-smtoff/devices/system/cpu/smt/control", "off");
  err |= fakefs_put(root, "sys-smtoff/devices/system/cpu/smt/active", "0");
  err |= fakefs_put(root, "sys-smtoff/devices/system/cpu/online", "0-1");
  err |= fakefs_put(root, "sys-smtoff/devices/system/cpu/offline", "2-3");
  err |= fakefs_put(root, "sys-smtoff/devices/system/cpu/present", "0-3");
  /* 8 CPUs of which 6 were taken offline. */
  err |= fakefs_put(root, "sys-offline/devices/system/cpu/smt/control", "on");
  err |= fakefs_put(root, "sys-offline/devices/system/cpu/online", "0-1");
  err |= fakefs_put(root, "sys-offline/devices/system/cpu/offline", "2-7");
  err |= fakefs_put(root, "sys-offline/devices/system/cpu/present", "0-7");
  /* Possible but never present CPUs (possible_cpus=, hotplug slots): the
   * kernel's offline list names them; they limit nothing. */
  err |= fakefs_put(root, "sys-slots/devices/system/cpu/smt/control", "notsupported");
  err |= fakefs_put(root, "sys-slots/devices/system/cpu/online", "0-1");
  err |= fakefs_put(root, "sys-slots/devices/system/cpu/offline", "2-7");
  err |= fakefs_put(root, "sys-slots/devices/system/cpu/present", "0-1");
  /* 4096 online CPUs: this process (2 CPUs in CI) sees a restricted set. */
  err |= fakefs_put(root, "sys-wide/devices/system/cpu/online", "0-4095");
  err |= fakefs_put(root, "sys-wide/devices/system/cpu/present", "0-4095");
  err |= fakefs_cgroups(root); /* cg2, cg2n, cg2c, cg1, cg1none */
  err |= fakefs_put(root, "cg2/job/cpuset.cpus.effective", "0-1");
  return err != 0;
}

static int teardown(void)
{
  return fakefs_remove(root) != 0;
}

/* htplaces doctor --sysfs ROOT/SYS --cgroup ROOT/CG --no-saturation [ARGS...],
 * with ENV (NULL-terminated list, may be NULL); a NULL sys or cg is left out. */
static struct run_result doctor(const char *sys, const char *cg, char *const env[], ...)
{
  char sysarg[512], cgarg[512], *argv[32];
  struct run_result r = {NULL, NULL, -1};
  unsigned n = 0;
  const char *a;
  va_list ap;
  argv[n++] = HTPLACES_BIN;
  argv[n++] = "doctor";
  if (sys) {
    snprintf(sysarg, sizeof(sysarg), "--sysfs=%s/%s", root, sys);
    argv[n++] = sysarg;
  }
  if (cg) {
    snprintf(cgarg, sizeof(cgarg), "--cgroup=%s/%s", root, cg);
    argv[n++] = cgarg;
  }
  va_start(ap, env);
  while (n < 31 && (a = va_arg(ap, const char *)) != NULL)
    argv[n++] = (char *)a;
  va_end(ap);
  argv[n] = NULL;
  {
    /* run_capture edits "NAME=" entries in place: give it writable copies. */
    char *copy[16] = {NULL};
    unsigned k;
    for (k = 0; env && env[k] && k < 15; k++)
      copy[k] = strdup(env[k]);
    CU_ASSERT_FATAL(run_capture(argv, copy, &r) == 0);
    for (k = 0; copy[k]; k++)
      free(copy[k]);
  }
  return r;
}

static char *clean_env[] = {"OMP_PLACES=", "OMP_PROC_BIND=", "OMP_NUM_THREADS=", "KMP_AFFINITY=",
                            "GOMP_CPU_AFFINITY=", "SLURM_JOB_ID=", "OMP_EXT_SLURM=", NULL};

#define CONTAINS(hay, needle)                                      \
  do {                                                             \
    CU_ASSERT_PTR_NOT_NULL(strstr(hay, needle));                   \
    if (!strstr(hay, needle))                                      \
      fprintf(stderr, "\nmissing '%s' in:\n%s\n", needle, hay);    \
  } while (0)
#define LACKS(hay, needle) CU_ASSERT_PTR_NULL(strstr(hay, needle))

static void test_clean(void)
{
  struct run_result r = doctor("sys-plain", "cg1none", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "SMT:        control=notsupported");
  CONTAINS(r.out, "CPUs:       present 0-1, online 0-1, offline none");
  CONTAINS(r.out, "CPU quota:  none");
  CONTAINS(r.out, "no OMP_*, KMP_* or GOMP_* variable is set");
  CONTAINS(r.out, "nothing found that limits parallel execution");
  LACKS(r.out, "limit:");
  CU_ASSERT_STRING_EQUAL(r.err, "");
  run_free(&r);
}

static void test_smt_off(void)
{
  struct run_result r = doctor("sys-smtoff", "cg1none", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "limit: SMT is switched off (smt/control=off)");
  CONTAINS(r.out, "limit: CPUs 2-3 are offline: 2 of 4 present CPUs can run threads");
  run_free(&r);
}

static void test_not_present(void)
{
  struct run_result r = doctor("sys-slots", "cg1none", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "CPUs:       present 0-1, online 0-1, offline none (possible, not present: 2-7)");
  CONTAINS(r.out, "nothing found that limits parallel execution");
  LACKS(r.out, "limit:");
  run_free(&r);
}

static void test_offline(void)
{
  struct run_result r = doctor("sys-offline", "cg1none", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "limit: CPUs 2-7 are offline: 2 of 8 present CPUs can run threads");
  LACKS(r.out, "SMT is switched off");
  run_free(&r);
}

static void test_restricted(void)
{
  /* 4096 online CPUs; this process has fewer. */
  struct run_result r = doctor("sys-wide", "cg1none", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "limit: this process may run on ");
  CONTAINS(r.out, "of the 4096 online CPUs");
  run_free(&r);

  r = doctor("sys-plain", "cg2c", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "cgroup cpuset 1");
  CONTAINS(r.out, "limit: the cgroup cpuset allows CPUs 1 only, of 2 online");
  run_free(&r);
}

static void test_quota(void)
{
  struct run_result r = doctor("sys-plain", "cg2/job", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "CPU quota:  1.50 CPUs (cpu.max '150000 100000'");
  CONTAINS(r.out, "limit: the cgroup CPU quota of 1.50 CPUs is below the 2 usable CPUs");
  CONTAINS(r.out, "use OMP_NUM_THREADS=1");
  run_free(&r);

  r = doctor("sys-plain", "cg1", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "CPU quota:  1.50 CPUs (cpu.cfs_quota_us 150000 / cpu.cfs_period_us 100000");
  run_free(&r);

  /* The parent's 0.5 CPU limits the unlimited leaf. */
  r = doctor("sys-plain", "cg2n/leaf", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "CPU quota:  0.50 CPUs (cpu.max '50000 100000'");
  run_free(&r);

  /* HTPLACES_CGROUP / HTPLACES_SYSFS instead of options. */
  {
    char cgenv[600], sysenv[600];
    char *env[] = {cgenv, sysenv, "OMP_PLACES=", "KMP_AFFINITY=", NULL};
    snprintf(cgenv, sizeof(cgenv), "HTPLACES_CGROUP=%s/cg1", root);
    snprintf(sysenv, sizeof(sysenv), "HTPLACES_SYSFS=%s/sys-smtoff", root);
    r = doctor(NULL, NULL, env, "--no-saturation", NULL);
    CONTAINS(r.out, "CPU quota:  1.50 CPUs");
    CONTAINS(r.out, "smt/control=off");
    run_free(&r);
  }
}

static void test_env_conflicts(void)
{
  char *kmp[] = {"KMP_AFFINITY=compact", "OMP_PLACES=cores", "OMP_PROC_BIND=", "GOMP_CPU_AFFINITY=",
                 "OMP_NUM_THREADS=", NULL};
  char *gomp[] = {"GOMP_CPU_AFFINITY=0 1", "OMP_PLACES={0},{1}", "KMP_AFFINITY=",
                  "OMP_PROC_BIND=", "OMP_NUM_THREADS=", NULL};
  char *bad[] = {"OMP_PLACES={0,", "OMP_PROC_BIND=sideways", "OMP_NUM_THREADS=64",
                 "KMP_AFFINITY=", "GOMP_CPU_AFFINITY=", NULL};
  char *unbound[] = {"OMP_PLACES={0},{1}", "OMP_PROC_BIND=false", "KMP_AFFINITY=",
                     "GOMP_CPU_AFFINITY=", "OMP_NUM_THREADS=", NULL};
  struct run_result r = doctor("sys-plain", "cg1none", kmp, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "  KMP_AFFINITY=compact\n");
  CONTAINS(r.out, "conflict: KMP_AFFINITY is set together with OMP_PLACES: libomp lets "
                  "KMP_AFFINITY win and ignores it");
  run_free(&r);

  r = doctor("sys-plain", "cg1none", gomp, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "conflict: GOMP_CPU_AFFINITY and a valid OMP_PLACES are both set: libgomp "
                  "ignores GOMP_CPU_AFFINITY");
  run_free(&r);

  r = doctor("sys-plain", "cg1none", bad, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "conflict: OMP_PLACES is invalid at character 4");
  CONTAINS(r.out, "libomp warns and uses OMP_PLACES=cores");
  CONTAINS(r.out, "conflict: OMP_PROC_BIND='sideways' is invalid");
  CONTAINS(r.out, "conflict: OMP_NUM_THREADS=64 is above the");
  run_free(&r);

  r = doctor("sys-plain", "cg1none", unbound, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "conflict: OMP_PROC_BIND=false with OMP_PLACES set");
  run_free(&r);

  /* a value with a newline forges no line of the report (printed escaped);
   * an invalid OMP_EXT_HT_POLICY is a conflict */
  {
    char *forged[] = {"OMP_PROC_BIND=x\nconflict: forged", "OMP_EXT_HT_POLICY=fast",
                      "OMP_PLACES=", "KMP_AFFINITY=", "GOMP_CPU_AFFINITY=", "OMP_NUM_THREADS=",
                      NULL};
    r = doctor("sys-plain", "cg1none", forged, "--no-saturation", NULL);
    CU_ASSERT_EQUAL(r.status, 1);
    LACKS(r.out, "\nconflict: forged");
    CONTAINS(r.out, "  OMP_PROC_BIND=x\\nconflict: forged\n");
    CONTAINS(r.out, "conflict: OMP_PROC_BIND='x\\nconflict: forged' is invalid");
    CONTAINS(r.out, "conflict: OMP_EXT_HT_POLICY='fast' is invalid: libomp_ext ignores it");
    run_free(&r);
  }
}

static void test_hybrid_fixture(void)
{
  struct run_result r = doctor("sys-plain", "cg1none", clean_env, "-i",
                               FIXTURE("intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml"), NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CONTAINS(r.out, "14 cores, 20 allowed PUs, up to 2 PUs per core, 2 CPU kinds");
  CONTAINS(r.out, "note: hybrid CPU: 12 of 20 PUs are of the most performant kind");
  CONTAINS(r.out, "saturation: skipped (the topology is not this machine's)");
  run_free(&r);
}

static void test_saturation_report(void)
{
  /* Only the shape of the report: figures depend on the machine's load. */
  struct run_result r = doctor("sys-plain", "cg1none", clean_env, "--duration", "0.1", "os", "2",
                               NULL);
  CU_ASSERT(r.status == 0 || r.status == 1);
  CONTAINS(r.out, "saturation: 2 threads placed by 'os' spinning 0.10 s");
  CONTAINS(r.out, "       0  0      ");
  CONTAINS(r.out, "       1  1      ");
  CONTAINS(r.out, "effective parallelism: ");
  LACKS(r.out, "not bound");
  run_free(&r);
}

static void test_real_roots(void)
{
  /* This machine's /sys and /proc/self/cgroup: only the report's shape. */
  char *argv[] = {HTPLACES_BIN, "doctor", "--no-saturation", NULL};
  char unset_sys[] = "HTPLACES_SYSFS=", unset_cg[] = "HTPLACES_CGROUP=";
  struct run_result r;
  char *envs[3] = {unset_sys, unset_cg, NULL};
  CU_ASSERT_FATAL(run_capture(argv, envs, &r) == 0);
  CU_ASSERT(r.status == 0 || r.status == 1);
  CONTAINS(r.out, "SMT:        control=");
  CONTAINS(r.out, "(/sys/devices/system/cpu/smt)");
  CONTAINS(r.out, "CPU quota:  ");
  CONTAINS(r.out, "allowed:    process affinity ");
  CU_ASSERT_STRING_EQUAL(r.err, "");
  run_free(&r);
}

/* This process's affinity as a list ("0-1"), for the plugin's pus= word;
 * its first CPU in *first. */
static void own_affinity(char *buf, size_t len, int *first)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  hwloc_topology_t t;
  char *text = NULL;
  buf[0] = '\0';
  if (hwloc_topology_init(&t) == 0 && hwloc_topology_load(t) == 0 &&
      hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS) == 0 &&
      hwloc_bitmap_list_asprintf(&text, set) >= 0)
    snprintf(buf, len, "%s", text);
  *first = hwloc_bitmap_first(set);
  free(text);
  hwloc_topology_destroy(t);
  hwloc_bitmap_free(set);
}

static void test_slurm_step(void)
{
  char aff[256], plugin[512], other[512], places[64];
  int first = 0;
  char *step[] = {"SLURM_JOB_ID=42", "SLURM_STEP_ID=0", "SLURMD_NODENAME=n1", "SLURM_PROCID=1",
                  "SLURM_LOCALID=0", "SLURM_STEP_TASKS_PER_NODE=1", "SLURM_CPUS_ON_NODE=2",
                  "SLURM_CPU_BIND_TYPE=mask_cpu:",
                  "SLURM_CPU_BIND_LIST=0x2", plugin, places, "OMP_PROC_BIND=close",
                  "KMP_AFFINITY=", "GOMP_CPU_AFFINITY=", "OMP_NUM_THREADS=", NULL};
  char *changed[] = {"SLURM_JOB_ID=42", "SLURM_STEP_ID=0", other, "OMP_PLACES=cores",
                     "OMP_PROC_BIND=", "KMP_AFFINITY=", "GOMP_CPU_AFFINITY=", "OMP_NUM_THREADS=",
                     NULL};
  char *unplaced[] = {"SLURM_JOB_ID=42", "SLURM_STEP_ID=3", "OMP_EXT_SLURM=unplaced",
                      "OMP_PLACES=", "OMP_PROC_BIND=", "KMP_AFFINITY=", "GOMP_CPU_AFFINITY=",
                      "OMP_NUM_THREADS=", NULL};
  char *batch[] = {"SLURM_JOB_ID=42", "SLURM_STEP_ID=", "SLURM_STEPID=", "OMP_EXT_SLURM=",
                   "OMP_PLACES=", "KMP_AFFINITY=", "GOMP_CPU_AFFINITY=", "OMP_NUM_THREADS=",
                   NULL};
  struct run_result r;
  own_affinity(aff, sizeof(aff), &first);
  snprintf(plugin, sizeof(plugin),
           "OMP_EXT_SLURM=policy=spn smt=all task=1/2 pus=%s step=0-1 places={%d}", aff, first);
  snprintf(places, sizeof(places), "OMP_PLACES={%d}", first);
  /* What the plugin set is what the task has: the step, no conflict. */
  r = doctor("sys-plain", "cg1none", step, "--no-saturation", NULL);
  CONTAINS(r.out, "Slurm step: job 42 step 0 on n1, task 1 (local 0), 2 CPUs on the node; "
                  "Slurm's binding: mask_cpu: 0x2\n");
  CONTAINS(r.out, "Slurm plugin: policy=spn smt=all task=1/2 pus=");
  LACKS(r.out, "conflict: ");
  run_free(&r);
  r = doctor("sys-plain", "cg1none", step, "--no-saturation", "-f", "json", NULL);
  CONTAINS(r.out, "\"slurm\": {\"job\": \"42\", \"step\": \"0\", \"node\": \"n1\", \"task\": "
                  "\"1\", \"local_task\": \"0\", \"cpus_on_node\": \"2\", \"cpu_bind_type\": "
                  "\"mask_cpu:\", \"cpu_bind_list\": \"0x2\", \"plugin\": \"policy=spn");
  run_free(&r);
  /* OMP_PLACES replaced and the task rebound after the plugin. */
  snprintf(other, sizeof(other),
           "OMP_EXT_SLURM=policy=speedup smt=1 task=0/1 pus=9999 step=9999 places={9999}");
  r = doctor("sys-plain", "cg1none", changed, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "Slurm step: job 42 step 0 on ?, task ? (local ?), ? CPUs on the node; "
                  "Slurm's binding: none\n");
  CONTAINS(r.out, "  conflict: OMP_PLACES='cores' is not what omp_ext's Slurm plugin set for "
                  "--ht-policy=speedup ({9999}): something after srun");
  CONTAINS(r.out, "  conflict: this process runs on PUs ");
  CONTAINS(r.out, ", not on 9999 where omp_ext's Slurm plugin bound the task");
  run_free(&r);
  r = doctor("sys-plain", "cg1none", changed, "--no-saturation", "-f", "json", NULL);
  CONTAINS(r.out, "\"kind\": \"slurm_places_changed\"");
  CONTAINS(r.out, "\"kind\": \"slurm_binding_changed\"");
  run_free(&r);
  r = doctor("sys-plain", "cg1none", unplaced, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 1);
  CONTAINS(r.out, "Slurm plugin: unplaced (OMP_EXT_SLURM)\n  conflict: omp_ext's Slurm plugin "
                  "was asked to place this task and did not");
  run_free(&r);
  /* A batch script: no step; and outside Slurm nothing at all. */
  r = doctor("sys-plain", "cg1none", batch, "--no-saturation", NULL);
  LACKS(r.out, "conflict: ");
  CONTAINS(r.out, "Slurm step: none: job 42's batch script or allocation shell");
  LACKS(r.out, "Slurm plugin:");
  run_free(&r);
  r = doctor("sys-plain", "cg1none", clean_env, "--no-saturation", "-f", "json", NULL);
  CONTAINS(r.out, "\"slurm\": null,");
  LACKS(r.out, "Slurm");
  run_free(&r);
}

static void test_usage(void)
{
  struct run_result r = doctor("sys-plain", "cg1none", clean_env, "--duration", "0", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CONTAINS(r.err, "htplaces: --duration must be seconds in (0, 60]");
  CU_ASSERT_STRING_EQUAL(r.out, "");
  run_free(&r);
  r = doctor("sys-plain", "cg1none", clean_env, "fastest", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CONTAINS(r.err, "unknown policy 'fastest'");
  CU_ASSERT_STRING_EQUAL(r.out, "");
  run_free(&r);
  r = doctor("sys-plain", "cg1none", clean_env, "spn", "99", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  run_free(&r);
  /* N is checked with --no-saturation too (was accepted). */
  r = doctor("sys-plain", "cg1none", clean_env, "--no-saturation", "spn", "100000", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CONTAINS(r.err, "N=100000 is larger than the");
  CU_ASSERT_STRING_EQUAL(r.out, "");
  run_free(&r);
  /* A sysfs or cgroup root that is not there: an error naming it (was exit
   * 0, "nothing found that limits parallel execution", values unknown). */
  r = doctor("no-such-sysfs", "cg1none", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CONTAINS(r.err, "cannot read --sysfs '");
  CONTAINS(r.err, "no-such-sysfs': No such file or directory");
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);
  r = doctor("sys-plain", "no-such-cgroup", clean_env, "--no-saturation", NULL);
  CU_ASSERT_EQUAL(r.status, 2);
  CONTAINS(r.err, "cannot read --cgroup '");
  CU_ASSERT_STRING_EQUAL(r.out, "");
  run_free(&r);
}

static CU_TestInfo doctor_tests[] = {
  {"plain machine: nothing found", test_clean},
  {"SMT off", test_smt_off},
  {"offline CPUs", test_offline},
  {"possible CPUs that are not present limit nothing", test_not_present},
  {"restricted cpuset (affinity, cgroup)", test_restricted},
  {"quota 1.5 CPUs (v2, v1, nested)", test_quota},
  {"variable conflicts", test_env_conflicts},
  {"hybrid fixture", test_hybrid_fixture},
  {"saturation report", test_saturation_report},
  {"this machine's own sysfs and cgroup", test_real_roots},
  {"inside a Slurm step: the step, the plugin, its conflicts", test_slurm_step},
  {"usage errors", test_usage},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"htplaces doctor", setup, teardown, NULL, NULL, doctor_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
