/*
 * Rank: which local rank this process is, and how many ranks share the
 * node, from the variables MPI launchers put in each rank's environment.
 */
#include <stdlib.h>
#include <string.h>

#include "private/internal.h"

/* Ranks per node above this are taken for garbage. */
#define MAX_LOCAL 1000000UL

/* One launcher: the variable naming the local rank and the one naming the
 * ranks on this node.  Checked in this order: a launcher's own variables
 * before the PMIx and Slurm ones that may leak into its ranks. */
static const struct launcher {
  const char *name, *rank_var, *size_var;
} launchers[] = {
  {"Open MPI", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
  {"MPICH/Intel MPI", "MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
  {"PMIx", "PMIX_LOCAL_RANK", "PMIX_LOCAL_SIZE"},
};
#define NLAUNCHERS (sizeof(launchers) / sizeof(launchers[0]))

#define env_get omp_ext_env_get

/* A whole decimal number 0 .. MAX_LOCAL, digits only; *end after it. */
static int parse_num(const char *s, const char **end, unsigned *v)
{
  unsigned long long x;
  if (omp_ext_scan_uint(s, end, MAX_LOCAL, &x) != OMP_EXT_UINT_OK)
    return -1;
  *v = (unsigned)x;
  return 0;
}

static int parse_whole(const char *s, unsigned *v)
{
  unsigned long long x;
  if (omp_ext_parse_uint(s, 0, MAX_LOCAL, &x) != OMP_EXT_UINT_OK)
    return -1;
  *v = (unsigned)x;
  return 0;
}

/* Entry \p node of a Slurm tasks-per-node list such as "4(x2),3"; with
 * node < 0 the single value all entries share.  -1 if malformed, -2 if
 * node < 0 and the entries differ, -3 if node is past the list. */
static int slurm_tasks(const char *list, long node, unsigned *v)
{
  unsigned count, times, seen = 0, first = 0;
  const char *p = list;
  while (1) {
    if (parse_num(p, &p, &count) < 0)
      return -1;
    times = 1;
    if (*p == '(') {
      if (p[1] != 'x' || parse_num(p + 2, &p, &times) < 0 || *p != ')' || times == 0)
        return -1;
      p++;
    }
    if (node >= 0 && (unsigned long)node < (unsigned long)seen + times) {
      *v = count;
      return 0;
    }
    if (node < 0 && seen > 0 && count != first)
      return -2;
    first = seen ? first : count;
    seen += times;
    if (*p == '\0')
      break;
    if (*p++ != ',')
      return -1;
  }
  if (node >= 0)
    return -3;
  *v = first;
  return 0;
}

/* Slurm: SLURM_LOCALID inside an srun step.  A batch script or salloc shell
 * also has SLURM_LOCALID but no SLURM_STEP_ID; it is one process, not a rank. */
static int from_slurm(char *const *envp, omp_ext_rank_t *info)
{
  static const char *const size_vars[] = {"SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE",
                                          "SLURM_NTASKS_PER_NODE"};
  const char *nodeid = env_get(envp, "SLURM_NODEID");
  unsigned i, node = 0;
  int r;
  if (!env_get(envp, "SLURM_LOCALID") ||
      (!env_get(envp, "SLURM_STEP_ID") && !env_get(envp, "SLURM_STEP_TASKS_PER_NODE")))
    return 1;
  info->launcher = "Slurm";
  info->rank_var = "SLURM_LOCALID";
  if (parse_whole(env_get(envp, "SLURM_LOCALID"), &info->rank) < 0)
    return info->bad_var = "SLURM_LOCALID", omp_ext_err_parse;
  if (nodeid && parse_whole(nodeid, &node) < 0)
    return info->bad_var = "SLURM_NODEID", omp_ext_err_parse;
  for (i = 0; i < 3; i++) {
    const char *list = env_get(envp, size_vars[i]);
    if (!list)
      continue;
    info->size_var = size_vars[i];
    r = slurm_tasks(list, nodeid ? (long)node : -1, &info->size);
    if (r == 0)
      return omp_ext_success;
    info->bad_var = r == -1 ? size_vars[i] : "SLURM_NODEID";
    return r == -3 ? omp_ext_err_range : omp_ext_err_parse;
  }
  info->size_var = size_vars[0];
  info->bad_var = size_vars[0];
  return omp_ext_err_parse;
}

static int from_launcher(char *const *envp, const struct launcher *l, omp_ext_rank_t *info)
{
  const char *rank = env_get(envp, l->rank_var), *size = env_get(envp, l->size_var);
  if (!rank && !size)
    return 1;
  info->launcher = l->name;
  info->rank_var = l->rank_var;
  info->size_var = l->size_var;
  if (parse_whole(rank, &info->rank) < 0)
    return info->bad_var = l->rank_var, omp_ext_err_parse;
  if (parse_whole(size, &info->size) < 0)
    return info->bad_var = l->size_var, omp_ext_err_parse;
  return omp_ext_success;
}

int omp_ext_rank_from_env(char *const *envp, omp_ext_rank_t *info)
{
  unsigned i;
  int err = 1;
  if (!info)
    return omp_ext_err_invalid;
  memset(info, 0, sizeof(*info));
  for (i = 0; i < NLAUNCHERS && err == 1; i++)
    err = from_launcher(envp, &launchers[i], info);
  if (err == 1)
    err = from_slurm(envp, info);
  if (err == 1) {
    memset(info, 0, sizeof(*info));
    info->size = 1;
    return omp_ext_success;
  }
  if (err == 0 && info->size == 0)
    return info->bad_var = info->size_var, omp_ext_err_range;
  if (err == 0 && info->rank >= info->size)
    return info->bad_var = info->rank_var, omp_ext_err_range;
  return err;
}
