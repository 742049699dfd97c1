/*
 * omp_ext's Slurm SPANK plugin: srun --ht-policy=POLICY[:N], --ht-smt=K,
 * --ht-verbose, --ht-strict.  Slurm loads it in srun (local context: the
 * options are checked, a conflicting binding refused before the step
 * starts) and in slurmstepd (remote context: the node's plan in user_init,
 * each task bound and given OMP_PLACES / OMP_PROC_BIND / OMP_NUM_THREADS, or
 * libomp_ext preloaded for auto, in task_init, after Slurm's own binding and
 * before exec).  The placement itself is spank_plan.c's; this file is
 * Slurm's side: its callbacks, items, environment and stderr.  man
 * omp_ext-slurm(8).
 *
 * Never a job failure because of omp_ext: a task omp_ext cannot place runs
 * as Slurm bound it, with one line on stderr (OMP_EXT_SLURM=unplaced in its
 * environment), unless --ht-strict or plugstack.conf's strict asks to fail
 * it.  Links only the library's pure placement objects (libomp_ext.a's
 * topology, order, places, domain, model...): no OpenMP entry point and no
 * constructor enters srun or slurmstepd, and the plugin exports only the
 * SPANK symbols (omp_ext_spank.map).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/spank.h>

#include "spank_plan.h"
#include "private/util.h"

SPANK_PLUGIN(omp_ext, 1);

enum { OPT_POLICY = 1, OPT_SMT, OPT_VERBOSE, OPT_STRICT };

/* What task_init does with the step's tasks on this node. */
enum hts_state { HTS_IDLE, HTS_PLANNED, HTS_UNPLACED };

/* One step per process: srun and slurmstepd call the plugin on one thread,
 * one callback at a time, so the step's state lives here. */
static struct {
  struct hts_settings site;  /* plugstack.conf */
  struct hts_settings user;  /* srun's options */
  int site_broken;           /* a plugstack.conf argument was refused */
  int asked;                 /* the user gave --ht-policy or --ht-smt */
  struct hts_settings s;     /* the step's (user_init) */
  enum hts_state state;
  char why[HTS_ERRLEN];      /* HTS_UNPLACED: the reason; HTS_IDLE: a note or "" */
  struct hts_node node;
  char preload[1200];        /* auto: libomp_ext's path */
} g;

static int option_cb(int val, const char *optarg, int remote);

static struct spank_option options[] = {
  {"ht-policy", "POLICY[:N]",
   "omp_ext: place each task's OpenMP threads in its share of the node's allocated cores by "
   "POLICY (speedup, spn, spread, os, energy; auto[:time|:energy]; off), N threads",
   1, OPT_POLICY, option_cb},
  {"ht-smt", "K", "omp_ext: use at most K hardware threads (PUs) of each core", 1, OPT_SMT,
   option_cb},
  {"ht-verbose", NULL, "omp_ext: print each task's PUs and OMP_PLACES on stderr", 0,
   OPT_VERBOSE, option_cb},
  {"ht-strict", NULL, "omp_ext: fail a task omp_ext cannot place (default: it runs unplaced)",
   0, OPT_STRICT, option_cb},
  SPANK_OPTIONS_TABLE_END};

static int option_cb(int val, const char *optarg, int remote)
{
  char err[HTS_ERRLEN];
  int ret = 0;
  if (val == OPT_POLICY)
    ret = hts_parse_policy("--ht-policy", optarg ? optarg : "", &g.user, err, sizeof(err));
  else if (val == OPT_SMT)
    ret = hts_parse_smt("--ht-smt", optarg ? optarg : "", &g.user, err, sizeof(err));
  else if (val == OPT_VERBOSE)
    g.user.verbose = 1;
  else if (val == OPT_STRICT)
    g.user.strict = 1;
  if (val == OPT_POLICY || val == OPT_SMT)
    g.asked = 1;
  if (ret < 0 && !remote)
    fprintf(stderr, HTS_PREFIX "%s\n", err);
  return ret < 0 ? -1 : 0;
}

int slurm_spank_init(spank_t sp, int ac, char **av)
{
  char err[HTS_ERRLEN];
  int i;
  for (i = 0; i < ac; i++)
    if (hts_parse_arg(av[i], &g.site, err, sizeof(err)) < 0 && !g.site_broken) {
      g.site_broken = 1;
      slurm_error(HTS_PREFIX "%s; omp_ext places no task", err);
    }
  for (i = 0; options[i].name; i++)
    if (spank_option_register(sp, &options[i]) != ESPANK_SUCCESS)
      slurm_error(HTS_PREFIX "cannot register --%s", options[i].name);
  return 0;
}

/* srun, before the step starts: refuse what would fight the placement. */
int slurm_spank_local_user_init(spank_t sp, int ac, char **av)
{
  extern char **environ;
  char err[HTS_ERRLEN];
  (void)sp;
  (void)ac;
  (void)av;
  hts_merge(&g.site, &g.user, &g.s);
  if (!hts_active(&g.s) || !g.asked)
    return 0;
  if (g.site_broken) {
    fprintf(stderr, HTS_PREFIX "plugstack.conf has an invalid argument (see the line above): "
            "the tasks are not placed by omp_ext\n");
    return g.s.strict ? -1 : 0;
  }
  if (hts_conflict(&g.s, 1, environ, err, sizeof(err))) {
    fprintf(stderr, HTS_PREFIX "%s\n", err);
    return -1;
  }
  return 0;
}

/* libomp_ext for auto: plugstack.conf's preload=, else the library beside
 * the plugin's folder (LIBDIR/slurm/omp_ext_spank.so -> LIBDIR). */
static int find_preload(char *buf, size_t len)
{
  Dl_info info;
  char self[1024], *dir;
  if (g.s.preload[0])
    snprintf(buf, len, "%s", g.s.preload);
  else if (dladdr((void *)&slurm_spank_init, &info) && info.dli_fname &&
           snprintf(self, sizeof(self), "%s", info.dli_fname) < (int)sizeof(self) &&
           (dir = realpath(dirname(self), NULL)) != NULL) {
    snprintf(buf, len, "%s/libomp_ext.so.%s", dirname(dir), HTS_SOVERSION);
    free(dir);
  } else
    return -1;
  return access(buf, R_OK);
}

static void unplaced(const char *fmt, const char *what)
{
  g.state = HTS_UNPLACED;
  snprintf(g.why, sizeof(g.why), fmt, what);
}

/* The node's plan, from the step's items and environment. */
static void plan_node(spank_t sp, char **env)
{
  struct hts_node_in in = {0};
  char *cores = NULL, err[HTS_ERRLEN];
  const char *tpc = omp_ext_env_get(env, "SLURM_THREADS_PER_CORE");
  unsigned long long v;
  uint32_t ntasks = 0;
  if (spank_get_item(sp, S_STEP_ALLOC_CORES, &cores) != ESPANK_SUCCESS ||
      spank_get_item(sp, S_JOB_LOCAL_TASK_COUNT, &ntasks) != ESPANK_SUCCESS)
    return unplaced("%s", "Slurm did not give the step's cores or task count");
  in.alloc_cores = cores;
  in.ntasks = ntasks;
  if (tpc && omp_ext_parse_uint(tpc, 1, 1000000, &v) == OMP_EXT_UINT_OK)
    in.threads_cap = (unsigned)v;
  if (hts_node_plan(&g.s, &in, &g.node, err, sizeof(err)) < 0)
    return unplaced("%s", err);
  if (g.s.is_auto && find_preload(g.preload, sizeof(g.preload)) != 0)
    return unplaced("auto needs libomp_ext.so, not found at '%.400s' (plugstack.conf preload=PATH)",
                    g.preload);
  g.state = HTS_PLANNED;
}

/* slurmstepd, once per node before the tasks fork: the node's plan. */
int slurm_spank_user_init(spank_t sp, int ac, char **av)
{
  uint32_t step = SLURM_BATCH_SCRIPT;
  char **env = NULL, err[HTS_ERRLEN];
  (void)ac;
  (void)av;
  g.state = HTS_IDLE;
  g.why[0] = '\0';
  hts_merge(&g.site, &g.user, &g.s);
  if (spank_remote(sp) != 1 || spank_get_item(sp, S_JOB_STEPID, &step) != ESPANK_SUCCESS ||
      step >= SLURM_MAX_NORMAL_STEP_ID || !hts_active(&g.s))
    return 0; /* batch script, extern or interactive step: one process, not placed */
  if (g.site_broken)
    return unplaced("%s", "plugstack.conf has an invalid argument (see slurmd's log)"), 0;
  if (spank_get_item(sp, S_JOB_ENV, &env) != ESPANK_SUCCESS)
    return unplaced("%s", "Slurm did not give the job's environment"), 0;
  if (hts_conflict(&g.s, g.asked, env, err, sizeof(err))) {
    if (g.asked)
      unplaced("%s", err);
    else
      snprintf(g.why, sizeof(g.why), "%s", err);
    return 0;
  }
  plan_node(sp, env);
  return 0;
}

/* The calling process's CPU binding, or NULL. */
static hwloc_bitmap_t current_binding(void)
{
  size_t ncpus;
  for (ncpus = 1024; ncpus <= (1u << 20); ncpus *= 4) {
    cpu_set_t *set = CPU_ALLOC(ncpus);
    size_t size = CPU_ALLOC_SIZE(ncpus), i;
    hwloc_bitmap_t out;
    if (!set)
      return NULL;
    if (sched_getaffinity(0, size, set) != 0) {
      CPU_FREE(set);
      if (errno == EINVAL)
        continue;
      return NULL;
    }
    if ((out = hwloc_bitmap_alloc()) != NULL)
      for (i = 0; i < ncpus; i++)
        if (CPU_ISSET_S(i, size, set))
          hwloc_bitmap_set(out, (unsigned)i);
    CPU_FREE(set);
    return out;
  }
  return NULL;
}

static int bind_to(hwloc_const_bitmap_t pus)
{
  int last = hwloc_bitmap_last(pus), i, ret;
  size_t size;
  cpu_set_t *set;
  if (last < 0 || !(set = CPU_ALLOC((size_t)last + 1)))
    return -1;
  size = CPU_ALLOC_SIZE((size_t)last + 1);
  CPU_ZERO_S(size, set);
  hwloc_bitmap_foreach_begin(i, pus) CPU_SET_S((size_t)i, size, set);
  hwloc_bitmap_foreach_end();
  ret = sched_setaffinity(0, size, set);
  CPU_FREE(set);
  return ret;
}

/* The task's variables; 0, or -1 when Slurm refused one. */
static int set_env(spank_t sp, const struct hts_task *t)
{
  char old[4096], count[16], *preload = NULL;
  int ok;
  if (g.s.is_auto) {
    if (spank_getenv(sp, "LD_PRELOAD", old, sizeof(old)) == ESPANK_SUCCESS && old[0]
            ? asprintf(&preload, "%s:%s", g.preload, old) < 0
            : !(preload = strdup(g.preload)))
      return -1;
    spank_unsetenv(sp, "OMP_PLACES");
    spank_unsetenv(sp, "OMP_PROC_BIND");
    ok = spank_setenv(sp, "LD_PRELOAD", preload, 1) == ESPANK_SUCCESS &&
         spank_setenv(sp, "OMP_EXT_HT_POLICY", g.s.text, 1) == ESPANK_SUCCESS;
    free(preload);
    return ok ? 0 : -1;
  }
  snprintf(count, sizeof(count), "%u", t->nthreads);
  ok = spank_setenv(sp, "OMP_PLACES", t->places, 1) == ESPANK_SUCCESS &&
       spank_setenv(sp, "OMP_PROC_BIND", "close", 1) == ESPANK_SUCCESS &&
       (!t->nthreads || spank_setenv(sp, "OMP_NUM_THREADS", count, 1) == ESPANK_SUCCESS);
  return ok ? 0 : -1;
}

/* The task's node name, for messages. */
static const char *node_name(char **env)
{
  const char *name = omp_ext_env_get(env, "SLURMD_NODENAME");
  return name ? name : "this node";
}

/* A task omp_ext does not place: one line (from local task 0 only when the
 * reason is the node's), OMP_EXT_SLURM=unplaced; failed only when strict. */
static int not_placed(spank_t sp, char **env, int local, uint32_t global, const char *why,
                      int node_level)
{
  const char *then = g.s.strict ? "strict mode: the task fails" : "it runs as Slurm bound it";
  if (!node_level)
    fprintf(stderr, HTS_PREFIX "task %u on %s not placed (%s): %s\n", global, node_name(env),
            then, why);
  else if (local == 0)
    fprintf(stderr, HTS_PREFIX "the step's tasks on %s are not placed (%s): %s\n",
            node_name(env), g.s.strict ? "strict mode: they fail" : "they run as Slurm bound "
            "them", why);
  spank_setenv(sp, "OMP_EXT_SLURM", "unplaced", 1);
  return g.s.strict ? -1 : 0;
}

static void verbose_line(char **env, int local, uint32_t global, const struct hts_task *t)
{
  char count[32] = "";
  if (!g.s.verbose)
    return;
  if (g.s.is_auto) {
    fprintf(stderr, HTS_PREFIX "task %u (%s, local %d of %u): %s: PUs %s, LD_PRELOAD=%s "
            "OMP_EXT_HT_POLICY=%s\n", global, node_name(env), local, g.node.ntasks, g.s.text,
            t->pus_text, g.preload, g.s.text);
    return;
  }
  if (t->nthreads)
    snprintf(count, sizeof(count), " OMP_NUM_THREADS=%u", t->nthreads);
  fprintf(stderr, HTS_PREFIX "task %u (%s, local %d of %u): %s: PUs %s, OMP_PLACES=%s "
          "OMP_PROC_BIND=close%s\n", global, node_name(env), local, g.node.ntasks, g.s.text,
          t->pus_text, t->places, count);
}

/* --ht-verbose without a placement: where Slurm put the task, and why not omp_ext. */
static void verbose_idle(char **env, uint32_t global)
{
  hwloc_bitmap_t cur = current_binding();
  char *text = NULL;
  if (cur)
    hwloc_bitmap_list_asprintf(&text, cur);
  fprintf(stderr, HTS_PREFIX "task %u (%s): not placed by omp_ext (%s): PUs %s as Slurm bound "
          "it\n", global, node_name(env), g.why[0] ? g.why : "no --ht-policy",
          text ? text : "?");
  free(text);
  hwloc_bitmap_free(cur);
}

/* OMP_EXT_SLURM: what the plugin did, for htplaces doctor and the user:
 * "policy=P smt=K|all task=L/K pus=LIST step=LIST places=OMP_PLACES" (no
 * places= under auto). */
static int set_summary(spank_t sp, int local, const struct hts_task *t)
{
  char *step = NULL, *text = NULL, smt[16] = "all";
  int ret;
  if (hwloc_bitmap_list_asprintf(&step, g.node.alloc) < 0)
    return -1;
  if (g.s.smt)
    snprintf(smt, sizeof(smt), "%u", g.s.smt);
  ret = asprintf(&text, "policy=%s smt=%s task=%d/%u pus=%s step=%s%s%s", g.s.text, smt, local,
                 g.node.ntasks, t->pus_text, step, t->places ? " places=" : "",
                 t->places ? t->places : "");
  free(step);
  if (ret < 0)
    return -1;
  ret = spank_setenv(sp, "OMP_EXT_SLURM", text, 1) == ESPANK_SUCCESS ? 0 : -1;
  free(text);
  return ret;
}

/* Each task, after Slurm bound it and before exec: bind it to its domain,
 * set its variables. */
int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
  int local = 0;
  uint32_t global = 0;
  char **env = NULL, err[HTS_ERRLEN];
  struct hts_task t;
  hwloc_bitmap_t cur;
  (void)ac;
  (void)av;
  spank_get_item(sp, S_TASK_ID, &local);
  spank_get_item(sp, S_TASK_GLOBAL_ID, &global);
  spank_get_item(sp, S_JOB_ENV, &env);
  if (g.state == HTS_IDLE) {
    if (g.s.verbose)
      verbose_idle(env, global);
    return 0;
  }
  if (g.state == HTS_UNPLACED)
    return not_placed(sp, env, local, global, g.why, 1);
  cur = current_binding();
  if (hts_task_plan(&g.s, &g.node, (unsigned)local, NULL, env, cur, &t, err, sizeof(err)) < 0) {
    hwloc_bitmap_free(cur);
    return not_placed(sp, env, local, global, err, 0);
  }
  if (bind_to(t.pus) != 0) {
    snprintf(err, sizeof(err), "cannot bind it to PUs %s: %s", t.pus_text, strerror(errno));
  } else if (set_env(sp, &t) != 0 || set_summary(sp, local, &t) != 0) {
    snprintf(err, sizeof(err), "Slurm did not set its environment");
    if (cur)
      bind_to(cur);
  } else {
    err[0] = '\0';
    verbose_line(env, local, global, &t);
  }
  hwloc_bitmap_free(cur);
  hts_task_free(&t);
  return err[0] ? not_placed(sp, env, local, global, err, 0) : 0;
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
  (void)sp;
  (void)ac;
  (void)av;
  hts_node_free(&g.node);
  return 0;
}
