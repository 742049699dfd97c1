/*
 * A real MPI run (Open MPI's mpirun, 2 ranks on this machine):
 *   mpirun --bind-to none -np 2 htplaces exec spn -- mpi_probe
 * Each rank's threads must sit on the PUs htplaces gives that rank
 * (--ranks-per-node 2 --local-rank R, and htplaces itself run under the same
 * mpirun), and the ranks' PUs must be disjoint.  Then with the launcher's
 * binding (--bind-to core): htplaces keeps the binding, says so in show, and
 * the threads again match it.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "testutil.h"

#define NRANKS 2
#define MAXT 64

/* What one rank's threads ran on: cpus[t], a list such as "0,8". */
struct rank_seen {
  unsigned nthreads;
  char cpus[MAXT][128];
};

/* Launcher variables of an outer job must not leak into the test. */
static char **clean_env(void)
{
  static const char *const names[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK=", "OMPI_COMM_WORLD_LOCAL_SIZE=", "MPI_LOCALRANKID=",
    "MPI_LOCALNRANKS=", "PMIX_LOCAL_RANK=", "PMIX_LOCAL_SIZE=", "SLURM_LOCALID=",
    "SLURM_STEP_ID=", "SLURM_STEP_TASKS_PER_NODE=", "OMP_PLACES=", "OMP_PROC_BIND=",
    "OMP_NUM_THREADS=", NULL};
  static char *env[16];
  unsigned i;
  for (i = 0; names[i]; i++)
    env[i] = strdup(names[i]);
  env[i] = NULL;
  return env;
}

static void free_env(char **env)
{
  for (; *env; env++)
    free(*env);
}

static struct run_result mpirun(const char *bind, char **cmd)
{
  char *argv[32] = {MPIEXEC_BIN, "--allow-run-as-root", "--oversubscribe", "--bind-to",
                    (char *)bind, "-np", "2"};
  char **env = clean_env();
  unsigned n = 7;
  struct run_result res;
  for (; *cmd && n < 31; cmd++)
    argv[n++] = *cmd;
  argv[n] = NULL;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &res), 0);
  free_env(env);
  if (res.status != 0)
    fprintf(stderr, "\n  mpirun --bind-to %s failed (%d): %s%s", bind, res.status, res.out,
            res.err);
  return res;
}

/* Parse mpi_probe's "RANK LOCAL THREAD LIST" lines. */
static void parse_probe(const char *out, struct rank_seen seen[NRANKS])
{
  const char *p = out;
  memset(seen, 0, NRANKS * sizeof(*seen));
  while (*p) {
    unsigned rank, local, t;
    char cpus[128];
    CU_ASSERT_EQUAL_FATAL(sscanf(p, "%u %u %u %127s", &rank, &local, &t, cpus), 4);
    CU_ASSERT_FATAL(rank < NRANKS && local == rank && t < MAXT);
    snprintf(seen[local].cpus[t], sizeof(seen[local].cpus[t]), "%s", cpus);
    if (t + 1 > seen[local].nthreads)
      seen[local].nthreads = t + 1;
    p = strchr(p, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    p++;
  }
}

/* htplaces -f list spn under mpirun: expected[r] = rank r's list. */
static void htplaces_under_mpirun(const char *bind, char expected[NRANKS][512])
{
  char *cmd[] = {"sh", "-c", "echo \"$OMPI_COMM_WORLD_LOCAL_RANK $(\"$0\" -f list spn)\"",
                 HTPLACES_BIN, NULL};
  struct run_result r = mpirun(bind, cmd);
  const char *p = r.out;
  unsigned rank, seen = 0;
  char list[512];
  CU_ASSERT_EQUAL_FATAL(r.status, 0);
  while (sscanf(p, "%u %511s", &rank, list) == 2 && rank < NRANKS) {
    snprintf(expected[rank], 512, "%s", list);
    seen |= 1u << rank;
    p = strchr(p, '\n');
    if (!p)
      break;
    p++;
  }
  CU_ASSERT_EQUAL(seen, (1u << NRANKS) - 1);
  run_free(&r);
}

/* htplaces --ranks-per-node 2 --local-rank R -f list spn, outside mpirun. */
static void htplaces_explicit(unsigned rank, char *out, size_t len)
{
  char r[8];
  char *argv[] = {HTPLACES_BIN, "--ranks-per-node", "2", "--local-rank", r, "-f", "list", "spn",
                  NULL};
  char **env = clean_env();
  struct run_result res;
  snprintf(r, sizeof(r), "%u", rank);
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &res), 0);
  free_env(env);
  CU_ASSERT_EQUAL(res.status, 0);
  res.out[strcspn(res.out, "\n")] = '\0';
  snprintf(out, len, "%s", res.out);
  run_free(&res);
}

/* Thread t of each rank runs on the t-th PU of the rank's list, the
 * threads are as many as the list's PUs, and no PU is in two ranks. */
static void check_threads(const struct rank_seen seen[NRANKS], char expected[NRANKS][512])
{
  cpu_set_t used;
  unsigned r, t;
  CPU_ZERO(&used);
  for (r = 0; r < NRANKS; r++) {
    char copy[512], *save = NULL, *pu;
    snprintf(copy, sizeof(copy), "%s", expected[r]);
    for (t = 0, pu = strtok_r(copy, ",", &save); pu; pu = strtok_r(NULL, ",", &save), t++) {
      int cpu = atoi(pu);
      CU_ASSERT(t < seen[r].nthreads);
      if (t < seen[r].nthreads)
        CU_ASSERT_STRING_EQUAL(seen[r].cpus[t], pu);
      CU_ASSERT_FALSE(CPU_ISSET(cpu, &used));
      CPU_SET(cpu, &used);
    }
    CU_ASSERT_EQUAL(seen[r].nthreads, t);
    if (seen[r].nthreads != t)
      fprintf(stderr, "\n  rank %u: %u threads, expected %u (%s)", r, seen[r].nthreads, t,
              expected[r]);
  }
}

static int enough_cpus(void)
{
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) >= NRANKS)
    return 1;
  OMP_EXT_SKIP("needs 2 allowed CPUs (NRANKS)");
  return 0;
}

static void run_exec(const char *bind, char expected[NRANKS][512])
{
  char *cmd[] = {HTPLACES_BIN, "exec", "spn", "--", MPI_PROBE_BIN, NULL};
  struct rank_seen seen[NRANKS];
  struct run_result r = mpirun(bind, cmd);
  CU_ASSERT_EQUAL_FATAL(r.status, 0);
  parse_probe(r.out, seen);
  check_threads(seen, expected);
  run_free(&r);
}

static void test_bind_none(void)
{
  char launcher[NRANKS][512], explicit_[NRANKS][512];
  unsigned r;
  if (!enough_cpus())
    return;
  htplaces_under_mpirun("none", launcher);
  for (r = 0; r < NRANKS; r++) {
    htplaces_explicit(r, explicit_[r], sizeof(explicit_[r]));
    CU_ASSERT_STRING_EQUAL(launcher[r], explicit_[r]);
  }
  run_exec("none", explicit_);
}

static void test_bind_core(void)
{
  char *cmd[] = {HTPLACES_BIN, "show", "spn", NULL};
  char launcher[NRANKS][512];
  struct run_result r;
  const char *p;
  unsigned n = 0;
  if (!enough_cpus())
    return;
  htplaces_under_mpirun("core", launcher);
  run_exec("core", launcher);
  /* Every rank says it kept the launcher's binding. */
  r = mpirun("core", cmd);
  CU_ASSERT_EQUAL(r.status, 0);
  for (p = r.out; (p = strstr(p, "already bound by the launcher")) != NULL; p++)
    n++;
  CU_ASSERT_EQUAL(n, NRANKS);
  run_free(&r);
}

static CU_TestInfo mpi_tests[] = {
  {"mpirun --bind-to none: split by htplaces", test_bind_none},
  {"mpirun --bind-to core: launcher's binding kept", test_bind_core},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"Open MPI", NULL, NULL, NULL, NULL, mpi_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
