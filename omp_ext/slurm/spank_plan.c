/*
 * The Slurm plugin's placement: the step's PUs on a node from Slurm's core
 * numbering, one domain of whole cores per task (omp_ext_domain_split(), as
 * MPI ranks get), and each task's order and places in its domain
 * (omp_ext_order(), omp_ext_places_format()) -- what
 *   htplaces -r STEP_PUS --ranks-per-node K --local-rank R POLICY
 * prints for the same PUs.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spank_plan.h"
#include "private/tools.h"
#include "private/util.h"

/* The whole machine as Slurm numbers it: every PU, allowed or not. */
static int load_whole(const char *input, hwloc_topology_t *hw)
{
  struct stat st;
  if (hwloc_topology_init(hw) < 0)
    return -1;
  if (hwloc_topology_set_flags(*hw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) < 0 ||
      (input && (stat(input, &st) == 0 && S_ISREG(st.st_mode)
                     ? hwloc_topology_set_xml(*hw, input)
                     : hwloc_topology_set_synthetic(*hw, input)) < 0) ||
      hwloc_topology_load(*hw) < 0) {
    hwloc_topology_destroy(*hw);
    return -1;
  }
  return 0;
}

/* The PUs of Slurm's cores \p cores ("0-3,8") that the process may use. */
static int alloc_pus(const char *input, const char *cores, hwloc_bitmap_t out, char *err,
                     size_t len)
{
  hwloc_topology_t hw;
  hwloc_bitmap_t list = hwloc_bitmap_alloc();
  char q[4 * OMP_EXT_QUOTE_MAX + 32];
  int c, ncores, ret = 0;
  omp_ext_quote(cores ? cores : "", q, sizeof(q));
  if (!list)
    return hts_fail(err, len, "out of memory");
  if (!cores || !*cores ||
      omp_ext_parse_cpulist(cores, OMP_EXT_CPULIST_ANY, list, NULL) != OMP_EXT_UINT_OK ||
      hwloc_bitmap_iszero(list) || hwloc_bitmap_weight(list) < 0) {
    hwloc_bitmap_free(list);
    return hts_fail(err, len, "Slurm gave no readable core list for the step (S_STEP_ALLOC_CORES "
                    "'%s')", q);
  }
  if (load_whole(input, &hw) < 0) {
    hwloc_bitmap_free(list);
    return hts_fail(err, len, "cannot read this machine's topology (hwloc)");
  }
  ncores = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_CORE);
  hwloc_bitmap_zero(out);
  hwloc_bitmap_foreach_begin(c, list)
  {
    hwloc_obj_t core = hwloc_get_obj_by_type(hw, HWLOC_OBJ_CORE, (unsigned)c);
    if (!core) {
      ret = hts_fail(err, len, "Slurm's core %d of the step (S_STEP_ALLOC_CORES '%s') is past "
                     "this machine's %d cores: slurm.conf's node line does not match the machine "
                     "(compare slurmd -C)", c, q, ncores);
      break;
    }
    hwloc_bitmap_or(out, out, core->cpuset);
  }
  hwloc_bitmap_foreach_end();
  if (!ret)
    hwloc_bitmap_and(out, out, hwloc_topology_get_allowed_cpuset(hw));
  if (!ret && hwloc_bitmap_iszero(out))
    ret = hts_fail(err, len, "none of the step's cores (S_STEP_ALLOC_CORES '%s') is allowed to "
                   "this process (cgroup, offline CPUs)", q);
  hwloc_topology_destroy(hw);
  hwloc_bitmap_free(list);
  return ret;
}

/* The PUs per core the step may use: --ht-smt and Slurm's --threads-per-core. */
static unsigned smt_cap(const struct hts_settings *s, unsigned threads_cap)
{
  if (s->smt && threads_cap)
    return s->smt < threads_cap ? s->smt : threads_cap;
  return s->smt ? s->smt : threads_cap;
}

static int split_domains(omp_ext_topo_t *topo, struct hts_node *node, char *err, size_t len)
{
  unsigned r, ncores = omp_ext_topo_ncores(topo);
  int e;
  if (node->ntasks > ncores)
    return hts_fail(err, len, "the step runs %u tasks on this node but has %u allocated core%s: "
                    "omp_ext gives each task whole cores (ask Slurm for a core per task: "
                    "--ntasks-per-core=1, or -c with the PUs of a core)", node->ntasks, ncores,
                    ncores == 1 ? "" : "s");
  if (!(node->domain = calloc(node->ntasks, sizeof(*node->domain))))
    return hts_fail(err, len, "out of memory");
  for (r = 0; r < node->ntasks; r++) {
    if (!(node->domain[r] = hwloc_bitmap_alloc()))
      return hts_fail(err, len, "out of memory");
    if ((e = omp_ext_domain_split(topo, node->ntasks, r, node->domain[r])) != 0)
      return hts_fail(err, len, "cannot split the step's %u cores between %u tasks: %s", ncores,
                      node->ntasks, omp_ext_strerror(e));
  }
  return 0;
}

int hts_node_plan(const struct hts_settings *s, const struct hts_node_in *in,
                  struct hts_node *node, char *err, size_t len)
{
  omp_ext_topo_t *topo = NULL;
  int e, ret;
  memset(node, 0, sizeof(*node));
  node->ntasks = in->ntasks;
  if (in->ntasks == 0)
    return hts_fail(err, len, "Slurm gave the step no task on this node");
  if (!(node->alloc = hwloc_bitmap_alloc()))
    return hts_fail(err, len, "out of memory");
  ret = alloc_pus(in->topo_input, in->alloc_cores, node->alloc, err, len);
  if (!ret) { /* the step's PUs, at most smt of each core */
    struct omp_ext_scope sc = {.input = in->topo_input, .flags = omp_ext_topo_ignore_binding,
                               .within = node->alloc, .max_smt = smt_cap(s, in->threads_cap)};
    omp_ext_scope_step_t step;
    if ((e = omp_ext_scope_load(&sc, &topo, &step)) != 0 && step == omp_ext_scope_load_step)
      ret = hts_fail(err, len, "cannot load the topology: %s", omp_ext_strerror(e));
    else if (e)
      ret = hts_fail(err, len, "cannot restrict the topology to the step's PUs: %s",
                     omp_ext_strerror(e));
  }
  if (!ret)
    ret = split_domains(topo, node, err, len);
  omp_ext_topo_destroy(topo);
  if (ret)
    hts_node_free(node);
  return ret;
}

void hts_node_free(struct hts_node *node)
{
  unsigned r;
  if (node->domain)
    for (r = 0; r < node->ntasks; r++)
      hwloc_bitmap_free(node->domain[r]);
  free(node->domain);
  hwloc_bitmap_free(node->alloc);
  memset(node, 0, sizeof(*node));
}

/* The thread count: N, else the job's OMP_NUM_THREADS (first level), else
 * \p all.  *set: whether OMP_NUM_THREADS is to be set. */
static int thread_count(const struct hts_settings *s, char *const *envp, unsigned npus,
                        unsigned all, unsigned *n, int *set, unsigned r, char *err, size_t len)
{
  const char *user = omp_ext_env_get(envp, "OMP_NUM_THREADS");
  unsigned long long v;
  const char *end;
  *set = 1;
  *n = all;
  if (s->n) {
    if (s->n > npus)
      return hts_fail(err, len, "--ht-policy=%s: N is above the %u PUs of task %u", s->text, npus,
                      r);
    *n = s->n;
    return 0;
  }
  if (!user)
    return 0;
  *set = 0; /* the job's own value stays */
  if (omp_ext_scan_uint(user, &end, ~0ULL, &v) == OMP_EXT_UINT_OK && v >= 1 &&
      (*end == '\0' || *end == ','))
    *n = v < npus ? (unsigned)v : npus;
  return 0;
}

static int task_order(const struct hts_settings *s, omp_ext_topo_t *topo, char *const *envp,
                      unsigned r, struct hts_task *task, char *err, size_t len)
{
  omp_ext_model_t model;
  const char *bad = NULL;
  omp_ht_policy_t base;
  omp_ext_pu_t *order;
  unsigned all, n;
  int e, set;
  if ((e = omp_ext_model_from_env(envp, &model, &bad)) != 0)
    return hts_fail(err, len, "the job's %s is invalid (energy model): %s", bad ? bad : "model",
                    omp_ext_strerror(e));
  if ((e = omp_ext_policy_resolve(topo, &model, s->policy, &base, &all)) != 0)
    return hts_fail(err, len, "policy %s: %s", s->text, omp_ext_strerror(e));
  if (thread_count(s, envp, omp_ext_topo_npus(topo), all, &n, &set, r, err, len) < 0)
    return -1;
  if (!(order = malloc(n * sizeof(*order))))
    return hts_fail(err, len, "out of memory");
  if ((e = omp_ext_order(topo, &model, s->policy, n, order)) == 0)
    e = omp_ext_places_format(order, n, omp_ext_format_omp, &task->places);
  free(order);
  if (e)
    return hts_fail(err, len, "policy %s for task %u: %s", s->text, r, omp_ext_strerror(e));
  task->nthreads = set ? n : 0;
  return 0;
}

int hts_task_plan(const struct hts_settings *s, const struct hts_node *node, unsigned r,
                  const char *topo_input, char *const *envp, hwloc_const_cpuset_t current,
                  struct hts_task *task, char *err, size_t len)
{
  omp_ext_topo_t *topo = NULL;
  char *cur = NULL, *all = NULL;
  int e, ret = 0;
  memset(task, 0, sizeof(*task));
  if (r >= node->ntasks)
    return hts_fail(err, len, "task %u is past the step's %u tasks on this node", r, node->ntasks);
  if (current && !hwloc_bitmap_isincluded(current, node->alloc)) {
    hwloc_bitmap_list_asprintf(&cur, current);
    hwloc_bitmap_list_asprintf(&all, node->alloc);
    ret = hts_fail(err, len, "Slurm bound task %u to PUs %s, outside the step's PUs %s as omp_ext "
                   "reads Slurm's core numbers: slurm.conf's node line may not match the machine "
                   "(compare slurmd -C)", r, cur ? cur : "?", all ? all : "?");
    free(cur);
    free(all);
    return ret;
  }
  struct omp_ext_scope sc = {.input = topo_input, .flags = omp_ext_topo_ignore_binding,
                             .within = node->domain[r]};
  if ((e = omp_ext_scope_load(&sc, &topo, NULL)) != 0)
    ret = hts_fail(err, len, "cannot load task %u's domain: %s", r, omp_ext_strerror(e));
  if (!ret && !(task->pus = hwloc_bitmap_dup(omp_ext_topo_allowed(topo))))
    ret = hts_fail(err, len, "out of memory");
  if (!ret && hwloc_bitmap_list_asprintf(&task->pus_text, task->pus) < 0)
    ret = hts_fail(err, len, "out of memory");
  if (!ret && !s->is_auto)
    ret = task_order(s, topo, envp, r, task, err, len);
  omp_ext_topo_destroy(topo);
  if (ret)
    hts_task_free(task);
  return ret;
}

void hts_task_free(struct hts_task *task)
{
  hwloc_bitmap_free(task->pus);
  free(task->places);
  free(task->pus_text);
  memset(task, 0, sizeof(*task));
}
