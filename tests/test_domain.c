/*
 * Per-rank domains (hybrid MPI + OpenMP): omp_ext_domain_split on every
 * fixture and synthetic machine for K = 1..8, the launcher variables
 * (omp_ext_rank_from_env), and htplaces --ranks-per-node/--local-rank, the
 * launcher-variable mode, show and every bad input.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "private/tools.h" /* the tools interface: not exported (libomp_ext.a) */
#include "testutil.h"

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"
#define OPTERON "amd-opteron-6134-4s-8c-nosmt-cgroup2-disallowed.xml"

static const char *const synthetic[] = {
  C6100,
  "pack:2 [numa] l3:1 l2:6 l1d:1 core:1 pu:2(indexes=core:pack)", /* DL380p */
  "pack:2 numa:2 core:3 pu:2(indexes=core:numa:pack)",
  "pack:4 [numa] core:3 pu:3",
  "pack:3 core:5 pu:2",
  "pack:1 core:8 pu:4(indexes=core)",
  "pack:2 core:4 pu:1",
};
#define NSYNTHETIC (sizeof(synthetic) / sizeof(synthetic[0]))

static char *fixture_path(const char *name)
{
  char *path;
  CU_ASSERT_FATAL(asprintf(&path, "%s/topologies/%s", OMP_EXT_TEST_DIR, name) > 0);
  return path;
}

/* ---- the split: properties ---------------------------------------------- */

/* Value of PU i at a level: 0 package, 1 NUMA node. */
static long level_of(const omp_ext_pu_t *pu, int level)
{
  return level == 0 ? (long)pu->package : (long)pu->numa;
}

/* Whether the level's groups (packages, NUMA nodes) all have the same
 * number of allowed cores; their number in *ngroups. */
static int equal_groups(const omp_ext_topo_t *topo, int level, unsigned *ngroups)
{
  long value[4096];
  unsigned count[4096], n = 0, i, g;
  for (i = 0; i < omp_ext_topo_npus(topo); i++) {
    const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, i);
    for (g = 0; g < n && value[g] != level_of(pu, level); g++)
      ;
    if (g == n) {
      value[n] = level_of(pu, level);
      count[n++] = 0;
    }
    count[g] += pu->sibling == 0;
  }
  *ngroups = n;
  for (g = 1; g < n; g++)
    if (count[g] != count[0])
      return 0;
  return 1;
}

/* Aligned: with k >= groups every domain lies in one group; with k <= groups
 * every group lies in one domain. */
static int aligned(const omp_ext_topo_t *topo, const int *owner, unsigned k, unsigned ngroups,
                   int level)
{
  unsigned i, j, npus = omp_ext_topo_npus(topo);
  for (i = 0; i < npus; i++)
    for (j = i + 1; j < npus; j++) {
      int same_group = level_of(omp_ext_topo_pu(topo, i), level) ==
                       level_of(omp_ext_topo_pu(topo, j), level);
      if (k >= ngroups && owner[i] == owner[j] && !same_group)
        return 0;
      if (k <= ngroups && same_group && owner[i] != owner[j])
        return 0;
    }
  return 1;
}

static unsigned nfailed;

static void check(int ok, const char *what, const char *name, unsigned k)
{
  CU_ASSERT(ok);
  if (!ok && nfailed++ < 20)
    fprintf(stderr, "\n  %s: K=%u: %s", name, k, what);
}

/* owner[i] = domain of PU i (topology order); cores[r] = cores of domain r. */
static void split_all(const omp_ext_topo_t *topo, unsigned k, int *owner, unsigned *cores,
                      const char *name)
{
  unsigned npus = omp_ext_topo_npus(topo), i, r;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  for (i = 0; i < npus; i++)
    owner[i] = -1;
  for (r = 0; r < k; r++) {
    cores[r] = 0;
    CU_ASSERT_EQUAL_FATAL(omp_ext_domain_split(topo, k, r, set), 0);
    check(hwloc_bitmap_isincluded(set, omp_ext_topo_allowed(topo)), "PU outside the allowed set",
          name, k);
    for (i = 0; i < npus; i++) {
      const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, i);
      if (!hwloc_bitmap_isset(set, pu->os_index))
        continue;
      check(owner[i] == -1, "domains overlap", name, k);
      owner[i] = (int)r;
      cores[r] += pu->sibling == 0;
    }
  }
  hwloc_bitmap_free(set);
}

static void check_topology(const omp_ext_topo_t *topo, const char *name)
{
  unsigned npus = omp_ext_topo_npus(topo), k, i, r, level, ngroups;
  int *owner = malloc(npus * sizeof(*owner));
  unsigned cores[8], lo, hi;
  CU_ASSERT_FATAL(owner != NULL);
  for (k = 1; k <= 8 && k <= omp_ext_topo_ncores(topo); k++) {
    split_all(topo, k, owner, cores, name);
    for (i = 0; i < npus; i++) {
      check(owner[i] >= 0, "an allowed PU is in no domain", name, k);
      if (i > 0 && omp_ext_topo_pu(topo, i)->sibling > 0)
        check(owner[i] == owner[i - 1], "a core is split between domains", name, k);
    }
    lo = hi = cores[0];
    for (r = 1; r < k; r++) {
      lo = cores[r] < lo ? cores[r] : lo;
      hi = cores[r] > hi ? cores[r] : hi;
    }
    check(lo >= 1 && hi - lo <= 1, "not balanced to within one core", name, k);
    for (level = 0; level < 2; level++)
      if (equal_groups(topo, (int)level, &ngroups) && (k % ngroups == 0 || ngroups % k == 0))
        check(aligned(topo, owner, k, ngroups, (int)level),
              level ? "not aligned to NUMA nodes" : "not aligned to packages", name, k);
  }
  free(owner);
}

static void test_fixtures(void)
{
  char dir[512];
  DIR *d;
  struct dirent *e;
  unsigned seen = 0;
  snprintf(dir, sizeof(dir), "%s/topologies", OMP_EXT_TEST_DIR);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d = opendir(dir));
  while ((e = readdir(d)) != NULL) {
    omp_ext_topo_t *topo;
    char *path;
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".xml") != 0)
      continue;
    path = fixture_path(e->d_name);
    CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, path, 0), 0);
    check_topology(topo, e->d_name);
    omp_ext_topo_destroy(topo);
    free(path);
    seen++;
  }
  closedir(d);
  CU_ASSERT(seen >= 15);
}

static void test_synthetic(void)
{
  unsigned f;
  for (f = 0; f < NSYNTHETIC; f++) {
    omp_ext_topo_t *topo;
    CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, synthetic[f], 0), 0);
    check_topology(topo, synthetic[f]);
    omp_ext_topo_destroy(topo);
  }
}

/* ---- the split: exact domains ------------------------------------------- */

static char *domain_text(const char *input, unsigned k, unsigned r)
{
  omp_ext_topo_t *topo;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  char *text = NULL;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, input, 0), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_domain_split(topo, k, r, set), 0);
  CU_ASSERT_FATAL(hwloc_bitmap_list_asprintf(&text, set) >= 0);
  hwloc_bitmap_free(set);
  omp_ext_topo_destroy(topo);
  return text;
}

#define ASSERT_DOMAIN(input, k, r, expected)  \
  do {                                        \
    char *got_ = domain_text(input, k, r);    \
    CU_ASSERT_STRING_EQUAL(got_, expected);   \
    free(got_);                               \
  } while (0)

/* The example: rank 0 of 2 under spn, then rank 1. */
static void test_c6100_spn(void)
{
  omp_ext_topo_t *topo;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  omp_ext_pu_t order[8];
  char *text;
  const char *expected[2] = {"{0},{8},{1},{9},{2},{10},{3},{11}",
                             "{4},{12},{5},{13},{6},{14},{7},{15}"};
  unsigned r;
  for (r = 0; r < 2; r++) {
    CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, C6100, 0), 0);
    CU_ASSERT_EQUAL_FATAL(omp_ext_domain_split(topo, 2, r, set), 0);
    CU_ASSERT_EQUAL_FATAL(omp_ext_topo_restrict(topo, set), 0);
    CU_ASSERT_EQUAL(omp_ext_topo_npus(topo), 8);
    CU_ASSERT_EQUAL_FATAL(omp_ext_order(topo, NULL, omp_ht_policy_spn, 8, order), 0);
    CU_ASSERT_EQUAL_FATAL(omp_ext_places_format(order, 8, omp_ext_format_omp, &text), 0);
    CU_ASSERT_STRING_EQUAL(text, expected[r]);
    free(text);
    omp_ext_topo_destroy(topo);
  }
  hwloc_bitmap_free(set);
}

static void test_exact(void)
{
  char *knl = fixture_path("intel-xeonphi-7250-knl-68c-smt4-far68-flat.xml");
  char *spr = fixture_path("dell-xe8640-xeon-8480p-sapphirerapids-2s-56c-smt2-far112-snc4.xml");
  char *opteron = fixture_path(OPTERON);
  /* 8 cores in 3: 3, 3, 2, extra cores to the low ranks. */
  ASSERT_DOMAIN(C6100, 3, 0, "0-2,8-10");
  ASSERT_DOMAIN(C6100, 3, 1, "3-5,11-13");
  ASSERT_DOMAIN(C6100, 3, 2, "6-7,14-15");
  /* 4 packages of 3 cores in 2: two whole packages each. */
  ASSERT_DOMAIN("pack:4 core:3 pu:1", 2, 1, "6-11");
  /* KNL, 68 cores in 3: 23, 23, 22 with their 4 siblings each. */
  ASSERT_DOMAIN(knl, 3, 2, "46-67,114-135,182-203,250-271");
  /* Sapphire Rapids SNC4, K = 8: one NUMA node (14 cores) each. */
  ASSERT_DOMAIN(spr, 8, 1, "14-27,126-139");
  ASSERT_DOMAIN(spr, 8, 7, "98-111,210-223");
  /* Opteron cgroup: NUMA nodes of 4 and 2 allowed cores.  K = 2 cannot be
   * both aligned and balanced: balance wins, 3 + 3.  K = 3 is both. */
  ASSERT_DOMAIN(opteron, 2, 0, "0-2");
  ASSERT_DOMAIN(opteron, 2, 1, "3-5");
  ASSERT_DOMAIN(opteron, 3, 1, "2-3");
  ASSERT_DOMAIN(opteron, 3, 2, "4-5");
  free(knl);
  free(spr);
  free(opteron);
}

static void test_split_errors(void)
{
  omp_ext_topo_t *topo;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, C6100, 0), 0);
  CU_ASSERT_EQUAL(omp_ext_domain_split(topo, 0, 0, set), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_domain_split(topo, 2, 2, set), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_domain_split(topo, 9, 0, set), omp_ext_err_range);
  CU_ASSERT_EQUAL(omp_ext_domain_split(NULL, 1, 0, set), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_domain_split(topo, 1, 0, NULL), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_domain_split(topo, 8, 7, set), 0);
  CU_ASSERT_EQUAL(hwloc_bitmap_weight(set), 2);
  omp_ext_topo_destroy(topo);
  hwloc_bitmap_free(set);
}

/* ---- launcher variables ------------------------------------------------- */

/* omp_ext_rank_from_env on a NULL-terminated list of "NAME=VALUE". */
static int from_env(omp_ext_rank_t *info, ...)
{
  char *env[16];
  unsigned n = 0;
  va_list ap;
  va_start(ap, info);
  while (n < 15 && (env[n] = va_arg(ap, char *)) != NULL)
    n++;
  va_end(ap);
  env[n] = NULL;
  return omp_ext_rank_from_env(env, info);
}

#define ASSERT_RANK(rank_, size_, launcher_, ...)                    \
  do {                                                               \
    omp_ext_rank_t i_;                                               \
    CU_ASSERT_EQUAL(from_env(&i_, __VA_ARGS__, NULL), 0);            \
    CU_ASSERT_EQUAL(i_.rank, rank_);                                 \
    CU_ASSERT_EQUAL(i_.size, size_);                                 \
    CU_ASSERT_PTR_NOT_NULL(i_.launcher);                             \
    if (i_.launcher)                                                 \
      CU_ASSERT_STRING_EQUAL(i_.launcher, launcher_);                \
  } while (0)

#define ASSERT_RANK_ERR(err_, bad_, ...)                             \
  do {                                                               \
    omp_ext_rank_t i_;                                               \
    CU_ASSERT_EQUAL(from_env(&i_, __VA_ARGS__, NULL), err_);         \
    CU_ASSERT_PTR_NOT_NULL(i_.bad_var);                              \
    if (i_.bad_var)                                                  \
      CU_ASSERT_STRING_EQUAL(i_.bad_var, bad_);                      \
  } while (0)

static void test_env_launchers(void)
{
  omp_ext_rank_t info;
  ASSERT_RANK(1, 2, "Open MPI", "OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_COMM_WORLD_LOCAL_SIZE=2");
  ASSERT_RANK(3, 4, "MPICH/Intel MPI", "MPI_LOCALRANKID=3", "MPI_LOCALNRANKS=4");
  ASSERT_RANK(0, 8, "PMIx", "PMIX_LOCAL_RANK=0", "PMIX_LOCAL_SIZE=8");
  /* mpirun inside a Slurm job: the launcher's own variables win. */
  ASSERT_RANK(1, 2, "Open MPI", "SLURM_LOCALID=0", "SLURM_STEP_ID=0",
              "SLURM_STEP_TASKS_PER_NODE=1", "OMPI_COMM_WORLD_LOCAL_RANK=1",
              "OMPI_COMM_WORLD_LOCAL_SIZE=2");
  /* Nothing set: one process. */
  CU_ASSERT_EQUAL(from_env(&info, "PATH=/bin", NULL), 0);
  CU_ASSERT_PTR_NULL(info.launcher);
  CU_ASSERT_EQUAL(info.rank, 0);
  CU_ASSERT_EQUAL(info.size, 1);
}

static void test_env_slurm(void)
{
  omp_ext_rank_t info;
  const char *step = "SLURM_STEP_ID=0";
  ASSERT_RANK(2, 4, "Slurm", "SLURM_LOCALID=2", step, "SLURM_STEP_TASKS_PER_NODE=4(x2),3",
              "SLURM_NODEID=1");
  ASSERT_RANK(2, 3, "Slurm", "SLURM_LOCALID=2", step, "SLURM_STEP_TASKS_PER_NODE=4(x2),3",
              "SLURM_NODEID=2");
  ASSERT_RANK(1, 2, "Slurm", "SLURM_LOCALID=1", step, "SLURM_TASKS_PER_NODE=2(x3)");
  ASSERT_RANK(1, 2, "Slurm", "SLURM_LOCALID=1", step, "SLURM_NTASKS_PER_NODE=2");
  /* The step's list beats the job's. */
  ASSERT_RANK(0, 2, "Slurm", "SLURM_LOCALID=0", "SLURM_STEP_TASKS_PER_NODE=2",
              "SLURM_TASKS_PER_NODE=8", "SLURM_NODEID=0");
  /* A batch script: SLURM_LOCALID without a step is one process. */
  CU_ASSERT_EQUAL(from_env(&info, "SLURM_LOCALID=0", "SLURM_TASKS_PER_NODE=4", NULL), 0);
  CU_ASSERT_PTR_NULL(info.launcher);
  ASSERT_RANK_ERR(omp_ext_err_parse, "SLURM_NODEID", "SLURM_LOCALID=0", step,
                  "SLURM_TASKS_PER_NODE=4(x2),3");
  ASSERT_RANK_ERR(omp_ext_err_range, "SLURM_NODEID", "SLURM_LOCALID=0", step,
                  "SLURM_TASKS_PER_NODE=4(x2),3", "SLURM_NODEID=3");
  ASSERT_RANK_ERR(omp_ext_err_parse, "SLURM_TASKS_PER_NODE", "SLURM_LOCALID=0", step,
                  "SLURM_TASKS_PER_NODE=4(2)", "SLURM_NODEID=0");
  ASSERT_RANK_ERR(omp_ext_err_parse, "SLURM_STEP_TASKS_PER_NODE", "SLURM_LOCALID=0", step);
  ASSERT_RANK_ERR(omp_ext_err_range, "SLURM_LOCALID", "SLURM_LOCALID=3", step,
                  "SLURM_STEP_TASKS_PER_NODE=3");
}

static void test_env_errors(void)
{
  ASSERT_RANK_ERR(omp_ext_err_range, "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK=2",
                  "OMPI_COMM_WORLD_LOCAL_SIZE=2");
  ASSERT_RANK_ERR(omp_ext_err_parse, "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK=x",
                  "OMPI_COMM_WORLD_LOCAL_SIZE=2");
  ASSERT_RANK_ERR(omp_ext_err_parse, "MPI_LOCALNRANKS", "MPI_LOCALRANKID=0",
                  "MPI_LOCALNRANKS=-1");
  ASSERT_RANK_ERR(omp_ext_err_parse, "MPI_LOCALNRANKS", "MPI_LOCALRANKID=0");
  ASSERT_RANK_ERR(omp_ext_err_parse, "PMIX_LOCAL_RANK", "PMIX_LOCAL_SIZE=4");
  ASSERT_RANK_ERR(omp_ext_err_range, "PMIX_LOCAL_SIZE", "PMIX_LOCAL_RANK=0", "PMIX_LOCAL_SIZE=0");
  ASSERT_RANK_ERR(omp_ext_err_parse, "PMIX_LOCAL_SIZE", "PMIX_LOCAL_RANK=0",
                  "PMIX_LOCAL_SIZE=4 ");
  CU_ASSERT_EQUAL(omp_ext_rank_from_env(NULL, NULL), omp_ext_err_invalid);
}

/* omp_ext_rank_restrict on a fixture: too many ranks, then a real split. */
static void test_rank_restrict(void)
{
  char *env2[] = {"OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_COMM_WORLD_LOCAL_SIZE=2", NULL};
  char *env9[] = {"OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_COMM_WORLD_LOCAL_SIZE=9", NULL};
  char *none[] = {NULL};
  omp_ext_topo_t *topo;
  omp_ext_rank_t info;
  char *text;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, C6100, 0), 0);
  CU_ASSERT_EQUAL(omp_ext_rank_restrict(topo, none, &info), 0);
  CU_ASSERT_EQUAL(info.mode, omp_ext_rank_none);
  CU_ASSERT_EQUAL(omp_ext_topo_npus(topo), 16);
  CU_ASSERT_EQUAL(omp_ext_rank_restrict(topo, env9, &info), omp_ext_err_range);
  CU_ASSERT_EQUAL(omp_ext_topo_npus(topo), 16);
  CU_ASSERT_EQUAL(omp_ext_rank_restrict(topo, env2, &info), 0);
  CU_ASSERT_EQUAL(info.mode, omp_ext_rank_split);
  CU_ASSERT_FATAL(hwloc_bitmap_list_asprintf(&text, omp_ext_topo_allowed(topo)) >= 0);
  CU_ASSERT_STRING_EQUAL(text, "4-7,12-15");
  free(text);
  /* A synthetic machine is never bound. */
  CU_ASSERT_EQUAL(omp_ext_process_bound(topo, NULL), 0);
  omp_ext_topo_destroy(topo);
}

/* ---- htplaces ----------------------------------------------------------- */

/* Launcher variables unset, then `sets` (NULL-terminated "NAME=VALUE").
 * Copies: run_capture() writes into "NAME=" entries. */
static void launcher_env(char **env, char *const *sets)
{
  static char *const names[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK=", "OMPI_COMM_WORLD_LOCAL_SIZE=", "MPI_LOCALRANKID=",
    "MPI_LOCALNRANKS=", "PMIX_LOCAL_RANK=", "PMIX_LOCAL_SIZE=", "SLURM_LOCALID=",
    "SLURM_STEP_ID=", "SLURM_STEP_TASKS_PER_NODE=", "SLURM_TASKS_PER_NODE=",
    "SLURM_NTASKS_PER_NODE=", "SLURM_NODEID=", NULL};
  unsigned n = 0, i;
  for (i = 0; names[i]; i++)
    env[n++] = strdup(names[i]);
  for (i = 0; sets && sets[i]; i++)
    env[n++] = strdup(sets[i]);
  env[n] = NULL;
}

/* Run [taskset -c CPUS] htplaces ARGS... with launcher variables `sets`. */
static struct run_result run_htplaces(char *const *sets, const char *taskset, ...)
{
  char *argv[24], *env[32];
  struct run_result res;
  unsigned i = 0;
  va_list ap;
  const char *a;
  if (taskset) {
    argv[i++] = "taskset";
    argv[i++] = "-c";
    argv[i++] = (char *)taskset;
  }
  argv[i++] = HTPLACES_BIN;
  va_start(ap, taskset);
  while (i < 23 && (a = va_arg(ap, const char *)) != NULL)
    argv[i++] = (char *)a;
  va_end(ap);
  argv[i] = NULL;
  launcher_env(env, sets);
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &res), 0);
  for (i = 0; env[i]; i++)
    free(env[i]);
  return res;
}

#define ASSERT_CLI(sets, expected, ...)                                   \
  do {                                                                    \
    struct run_result r_ = run_htplaces(sets, NULL, __VA_ARGS__, NULL);   \
    CU_ASSERT_EQUAL(r_.status, 0);                                        \
    CU_ASSERT_STRING_EQUAL(r_.out, expected);                             \
    CU_ASSERT_STRING_EQUAL(r_.err, "");                                   \
    if (r_.status || strcmp(r_.out, expected))                            \
      fprintf(stderr, "\n  got %d: %s%s", r_.status, r_.out, r_.err);     \
    run_free(&r_);                                                        \
  } while (0)

#define ASSERT_CLI_BAD(sets, needle, ...)                                 \
  do {                                                                    \
    struct run_result r_ = run_htplaces(sets, NULL, __VA_ARGS__, NULL);   \
    CU_ASSERT_EQUAL(r_.status, 2);                                        \
    CU_ASSERT_STRING_EQUAL(r_.out, "");                                   \
    CU_ASSERT_EQUAL(strncmp(r_.err, "htplaces: ", 10), 0);                \
    CU_ASSERT_EQUAL(count_lines(r_.err), 1);                              \
    CU_ASSERT_PTR_NOT_NULL(strstr(r_.err, needle));                       \
    if (r_.status != 2 || !strstr(r_.err, needle))                        \
      fprintf(stderr, "\n  got %d: %s", r_.status, r_.err);               \
    run_free(&r_);                                                        \
  } while (0)

static char *const ompi_r1[] = {"OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_COMM_WORLD_LOCAL_SIZE=2",
                                NULL};

static void test_cli_options(void)
{
  ASSERT_CLI(NULL, "{0},{8},{1},{9},{2},{10},{3},{11}\n", "-i", C6100, "--ranks-per-node", "2",
             "--local-rank", "0", "spn");
  ASSERT_CLI(NULL, "{4},{12},{5},{13},{6},{14},{7},{15}\n", "-i", C6100, "--ranks-per-node",
             "2", "--local-rank", "1", "spn");
  /* N counts inside the domain; options after the command too. */
  ASSERT_CLI(NULL, "4 5 6\n", "-i", C6100, "--ranks-per-node=2", "--local-rank=1", "-f", "gomp",
             "speedup", "3");
  ASSERT_CLI(NULL, "{4},{12}\n", "-i", C6100, "--ranks-per-node", "2", "--local-rank", "1",
             "spn", "2");
  /* -r first, then the split of what is left. */
  ASSERT_CLI(NULL, "{2},{10},{3},{11}\n", "-i", C6100, "-r", "0-3,8-11", "--ranks-per-node", "2",
             "--local-rank", "1", "spn");
}

static void test_cli_env(void)
{
  char *const mpich[] = {"MPI_LOCALRANKID=0", "MPI_LOCALNRANKS=2", NULL};
  char *const slurm[] = {"SLURM_LOCALID=1", "SLURM_STEP_ID=3",
                         "SLURM_STEP_TASKS_PER_NODE=4(x2),2", "SLURM_NODEID=2", NULL};
  char *const batch[] = {"SLURM_LOCALID=0", "SLURM_TASKS_PER_NODE=4", NULL};
  ASSERT_CLI(ompi_r1, "{4},{12},{5},{13},{6},{14},{7},{15}\n", "-i", C6100, "spn");
  ASSERT_CLI(mpich, "{0},{8},{1},{9},{2},{10},{3},{11}\n", "-i", C6100, "spn");
  ASSERT_CLI(slurm, "{4},{12},{5},{13},{6},{14},{7},{15}\n", "-i", C6100, "spn");
  ASSERT_CLI(batch, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n", "-i", C6100, "-f", "list", "os");
  /* Options beat the variables; --ranks-per-node alone takes R from them. */
  ASSERT_CLI(ompi_r1, "{0},{8},{1},{9}\n", "-i", C6100, "--ranks-per-node", "4", "--local-rank",
             "0", "spn");
  ASSERT_CLI(ompi_r1, "{2},{10},{3},{11}\n", "-i", C6100, "--ranks-per-node", "4", "spn");
}

static void test_cli_errors(void)
{
  char *const big[] = {"OMPI_COMM_WORLD_LOCAL_RANK=0", "OMPI_COMM_WORLD_LOCAL_SIZE=9", NULL};
  char *const over[] = {"OMPI_COMM_WORLD_LOCAL_RANK=2", "OMPI_COMM_WORLD_LOCAL_SIZE=2", NULL};
  char *const word[] = {"MPI_LOCALRANKID=one", "MPI_LOCALNRANKS=2", NULL};
  char *const half[] = {"PMIX_LOCAL_RANK=1", NULL};
  char *const nodeid[] = {"SLURM_LOCALID=1", "SLURM_STEP_ID=0", "SLURM_TASKS_PER_NODE=4(x2),3",
                          NULL};
  char *const list[] = {"SLURM_LOCALID=1", "SLURM_STEP_ID=0", "SLURM_STEP_TASKS_PER_NODE=4x2",
                        NULL};
  ASSERT_CLI_BAD(over, "OMPI_COMM_WORLD_LOCAL_RANK=2 is not below OMPI_COMM_WORLD_LOCAL_SIZE=2",
                 "-i", C6100, "spn");
  ASSERT_CLI_BAD(word, "MPI_LOCALRANKID='one' is not a whole number", "-i", C6100, "spn");
  ASSERT_CLI_BAD(half, "PMIX_LOCAL_RANK is set but PMIX_LOCAL_SIZE is not", "-i", C6100, "spn");
  ASSERT_CLI_BAD(big, "runs 9 ranks on this node (OMPI_COMM_WORLD_LOCAL_SIZE=9) but only 8 cores",
                 "-i", C6100, "spn");
  ASSERT_CLI_BAD(nodeid, "differs between nodes and SLURM_NODEID is not set", "-i", C6100, "spn");
  ASSERT_CLI_BAD(list, "SLURM_STEP_TASKS_PER_NODE='4x2' is not a task list", "-i", C6100, "spn");
  ASSERT_CLI_BAD(over, "OMPI_COMM_WORLD_LOCAL_RANK=2 is not below", "-i", C6100, "show", "spn");
  ASSERT_CLI_BAD(NULL, "--ranks-per-node 9 is larger than the 8 allowed cores", "-i", C6100,
                 "--ranks-per-node", "9", "--local-rank", "0", "spn");
  ASSERT_CLI_BAD(NULL, "--ranks-per-node must be a whole number 1..8", "-i", C6100,
                 "--ranks-per-node", "two", "--local-rank", "0", "spn");
  ASSERT_CLI_BAD(NULL, "--ranks-per-node must be a whole number 1..8", "-i", C6100,
                 "--ranks-per-node", "0", "--local-rank", "0", "spn");
  ASSERT_CLI_BAD(NULL, "--local-rank must be a whole number 0..1", "-i", C6100,
                 "--ranks-per-node", "2", "--local-rank", "2", "spn");
  ASSERT_CLI_BAD(NULL, "--local-rank must be a whole number 0..1", "-i", C6100,
                 "--ranks-per-node", "2", "--local-rank", "-1", "spn");
  ASSERT_CLI_BAD(NULL, "--local-rank needs --ranks-per-node", "-i", C6100, "--local-rank", "0",
                 "spn");
  ASSERT_CLI_BAD(NULL, "--ranks-per-node needs --local-rank R, or a launcher", "-i", C6100,
                 "--ranks-per-node", "2", "spn");
  ASSERT_CLI_BAD(NULL, "N=5 is larger than the 4 allowed PUs", "-i", C6100, "--ranks-per-node",
                 "4", "--local-rank", "0", "spn", "5");
  ASSERT_CLI_BAD(NULL, "N=5 is larger than the 4 allowed PUs", "-i", C6100, "show",
                 "--ranks-per-node", "4", "spn", "5");
  /* This machine: more ranks than its cores. */
  ASSERT_CLI_BAD(NULL, "is larger than the", "--ranks-per-node", "64", "--local-rank", "0", "spn");
}

static void test_cli_show(void)
{
  char *path;
  struct run_result r = run_htplaces(NULL, NULL, "-i", C6100, "show", "--ranks-per-node", "2",
                                     "spn", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "spn: 2 ranks per node on 16 allowed PUs (8 cores)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "rank 0: 8 threads, 4 cores, PUs 0-3,8-11 (package 0, "
                                       "NUMA node 0): "
                                       "OMP_PLACES={0},{8},{1},{9},{2},{10},{3},{11}\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "rank 1: 8 threads, 4 cores, PUs 4-7,12-15 (package 1, "
                                       "NUMA node 0): "
                                       "OMP_PLACES={4},{12},{5},{13},{6},{14},{7},{15}\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Core L#5    PU P#5    r1.t2     PU P#13   r1.t3"));
  CU_ASSERT_EQUAL(count_lines(r.out), 3 + 2 + 8); /* header, ranks, packages, cores */
  run_free(&r);
  r = run_htplaces(ompi_r1, NULL, "-i", C6100, "show", "spn", "2", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "rank 1 of 2 (Open MPI OMPI_COMM_WORLD_LOCAL_RANK, "
                                       "OMPI_COMM_WORLD_LOCAL_SIZE): domain of 4 cores, PUs "
                                       "4-7,12-15 (package 1, NUMA node 0)\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Core L#4    PU P#4    t0     PU P#12   t1"));
  CU_ASSERT_PTR_NULL(strstr(r.out, "Core L#0"));
  run_free(&r);
  /* NUMA nodes of 4 and 2 cores, 2 ranks: balanced, and show tells the span. */
  path = fixture_path(OPTERON);
  r = run_htplaces(NULL, NULL, "-i", path, "show", "--ranks-per-node", "2", "os", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "rank 1: 3 threads, 3 cores, PUs 3-5 (package 0, NUMA "
                                       "nodes 0-1): OMP_PLACES={3},{4},{5}\n"));
  run_free(&r);
  free(path);
}

/* This machine: unbound, rank 1 of 2 gets the second half of the cores;
 * bound by taskset (what srun --cpu-bind and mpirun --bind-to do), the
 * binding is used as it is and show says so. */
static void test_cli_bound(void)
{
  char size_var[64], warning[160];
  char *ompi_over[] = {"OMPI_COMM_WORLD_LOCAL_RANK=2", size_var, NULL};
  cpu_set_t set;
  struct run_result r;
  unsigned ncpus, over;
  CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(set), &set), 0);
  ncpus = (unsigned)CPU_COUNT(&set);
  /* One rank more than the machine has CPUs (at least 3): ranks bound to 1
   * PU each cannot each have their own, whatever the machine. */
  over = (unsigned)sysconf(_SC_NPROCESSORS_CONF);
  over = (over > ncpus ? over : ncpus) + 1;
  over = over < 3 ? 3 : over;
  snprintf(size_var, sizeof(size_var), "OMPI_COMM_WORLD_LOCAL_SIZE=%u", over);
  snprintf(warning, sizeof(warning), "htplaces: warning: the launcher bound this rank to 1 PUs; "
           "%u ranks on this node cannot each have their own 1", over);
  if (ncpus < 2 || !CPU_ISSET(0, &set) || !CPU_ISSET(1, &set)) {
    OMP_EXT_SKIP("needs CPUs 0 and 1");
    return;
  }
  r = run_htplaces(ompi_r1, "0", "-f", "list", "spn", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "0\n");
  run_free(&r);
  r = run_htplaces(ompi_r1, "0", "show", "spn", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "rank 1 of 2 (Open MPI OMPI_COMM_WORLD_LOCAL_RANK, "
                                       "OMPI_COMM_WORLD_LOCAL_SIZE): already bound by the "
                                       "launcher to PUs 0; working inside that set, not "
                                       "splitting it again\n"));
  CU_ASSERT_STRING_EQUAL(r.err, "");
  run_free(&r);
  /* CPUs + 1 ranks bound to 1 PU each: some share, and htplaces warns. */
  r = run_htplaces(ompi_over, "0", "exec", "spn", "--", "sh", "-c", "echo $OMP_PLACES", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{0}\n");
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, warning));
  run_free(&r);
  if (ncpus == 2) {
    /* The whole machine is allowed: the split applies. */
    r = run_htplaces(ompi_r1, NULL, "-f", "list", "spn", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.out, "1\n");
    run_free(&r);
  }
}

/* exec: the rank's places in the environment, the process bound to its
 * domain; bad uses. */
static void test_cli_exec(void)
{
  struct run_result r;
  cpu_set_t set;
  CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(set), &set), 0);
  /* another machine's places are never used to run a program here */
  ASSERT_CLI_BAD(NULL, "exec runs the program on this machine: -i does not apply", "-i", C6100,
                 "--ranks-per-node", "2", "--local-rank", "1", "exec", "spn", "3", "--", "true");
  if (CPU_COUNT(&set) == 2 && CPU_ISSET(0, &set) && CPU_ISSET(1, &set)) {
    r = run_htplaces(ompi_r1, NULL, "exec", "spn", "--", "sh", "-c",
                     "echo $OMP_PLACES $OMP_NUM_THREADS; taskset -pc $$", NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "{1} 1\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "current affinity list: 1\n"));
    run_free(&r);
  }
  ASSERT_CLI_BAD(NULL, "missing '-- PROGRAM'", "exec", "spn");
  ASSERT_CLI_BAD(NULL, "missing '-- PROGRAM'", "exec", "spn", "--");
  ASSERT_CLI_BAD(ompi_r1, "unknown policy 'spm'", "exec", "spm", "--", "true");
  r = run_htplaces(NULL, NULL, "exec", "spn", "--", "/nonexistent/program", NULL);
  CU_ASSERT_EQUAL(r.status, 127);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "htplaces: cannot run '/nonexistent/program'"));
  run_free(&r);
}

static CU_TestInfo split_tests[] = {
  {"C6100: rank 0 and 1 of 2 under spn", test_c6100_spn},
  {"exact domains (C6100, KNL, SPR SNC4, Opteron cgroup)", test_exact},
  {"K = 1..8 on every fixture: disjoint, whole cores, balanced, aligned", test_fixtures},
  {"K = 1..8 on synthetic machines", test_synthetic},
  {"bad arguments", test_split_errors},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo env_tests[] = {
  {"Open MPI, MPICH, PMIx, precedence", test_env_launchers},
  {"Slurm task lists, steps and batch scripts", test_env_slurm},
  {"missing and inconsistent variables", test_env_errors},
  {"omp_ext_rank_restrict", test_rank_restrict},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo cli_tests[] = {
  {"--ranks-per-node --local-rank", test_cli_options},
  {"launcher variables", test_cli_env},
  {"bad input: one line, exit 2, empty stdout", test_cli_errors},
  {"show: every rank, and one rank", test_cli_show},
  {"this machine: bound ranks are not split", test_cli_bound},
  {"exec: rank's places and binding; bad uses", test_cli_exec},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"domain split", NULL, NULL, NULL, NULL, split_tests},
  {"launcher variables", NULL, NULL, NULL, NULL, env_tests},
  {"htplaces ranks", NULL, NULL, NULL, NULL, cli_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
