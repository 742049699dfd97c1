/*
 * Per-region control: each outermost parallel region (its code address)
 * gets a configuration -- a team size and a place per thread -- from a plan
 * (OMP_EXT_PLAN: plan.c) or from the online tuner (OMP_EXT_HT_POLICY=auto:
 * auto.c).  See region.h.  The hooks (hooks.c) call omp_ext_region_pick()
 * before each outermost region while omp_ext_region_mode is set, bind each
 * thread of its team with omp_ext_region_bind(), and report the join with
 * omp_ext_region_done().
 *
 * The configurations and their places are region_config.c's.  Regions live in an open-addressing table keyed by code address: inserted
 * under a lock (once per region), looked up without one.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omp_ext.h"
#include "private/region.h"
#include "private/bind.h"
#include "private/region_int.h"
#include "private/timing_inline.h"

int omp_ext_region_mode; /* atomic */

static pthread_mutex_t region_lock = PTHREAD_MUTEX_INITIALIZER;

/* ----------------------------------------------------------- regions --- */

#define NSLOTS 4096 /* a power of two */
struct region_slot {
  const void *ra;            /* atomic: published after r */
  struct omp_ext_region *r;
};
static struct region_slot table[NSLOTS];
static unsigned nregions; /* region_lock */

static unsigned slot_of(const void *ra)
{
  uintptr_t h = (uintptr_t)ra;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return (unsigned)(h >> 40) & (NSLOTS - 1);
}

static struct omp_ext_region *lookup(const void *ra)
{
  unsigned i, s = slot_of(ra);
  for (i = 0; i < NSLOTS; i++, s = (s + 1) & (NSLOTS - 1)) {
    const void *k = __atomic_load_n(&table[s].ra, __ATOMIC_ACQUIRE);
    if (k == ra)
      return table[s].r;
    if (!k)
      return NULL;
  }
  return NULL;
}

/* The module (file name without folder) and offset of code address \p ra,
 * as the timing file writes them ("module", "offset"). */
static void module_of(const void *ra, char *name, size_t len, unsigned long *offset)
{
  Dl_info info;
  struct link_map *lm = NULL;
  char exe[4096];
  const char *path = NULL, *base;
  ssize_t n;
  *offset = 0;
  name[0] = '\0';
  if (!dladdr1(ra, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
    return;
  path = lm->l_name;
  if (!path || !*path) {
    if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) <= 0)
      return;
    exe[n] = '\0';
    path = exe;
  }
  base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (strlen(base) < len)
    memcpy(name, base, strlen(base) + 1);
  *offset = (unsigned long)((uintptr_t)ra - lm->l_addr);
}

/* A new region at \p ra, its configuration from the plan or auto's state
 * (made before the lock: both may intern places); NULL when the table is
 * full (the region is then left alone). */
__attribute__((noinline, cold)) static struct omp_ext_region *create(const void *ra)
{
  struct omp_ext_region *r, *old;
  unsigned i, s;
  if (!(r = calloc(1, sizeof(*r))))
    return NULL;
  r->ra = ra;
  module_of(ra, r->module, sizeof(r->module), &r->offset);
  if (!omp_ext_plan_on() && omp_ext_auto_on()) {
    const struct omp_ext_plan_line *lines[OMP_EXT_LEARN_TEAMS];
    r->au = omp_ext_auto_new(lines, omp_ext_learn_lines(r->module, r->offset, lines));
  }
  pthread_mutex_lock(&region_lock);
  if ((old = lookup(ra)) != NULL || nregions >= NSLOTS / 2) {
    pthread_mutex_unlock(&region_lock);
    free(r->au);
    free(r);
    return old;
  }
  for (i = 0, s = slot_of(ra); i < NSLOTS && table[s].ra; i++)
    s = (s + 1) & (NSLOTS - 1);
  table[s].r = r;
  __atomic_store_n(&table[s].ra, ra, __ATOMIC_RELEASE);
  nregions++;
  pthread_mutex_unlock(&region_lock);
  return r;
}

/* ------------------------------------------------------------ teams --- */

/* The team region instance gets, by the contract (region_int.h): the
 * clause, else nthreads-var -- both read from the runtime at each region
 * (the program may change them: omp_set_num_threads, omp_set_dynamic). */
static void team_of(unsigned clause, struct omp_ext_team *t)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  int n = rt && rt->get_max_threads ? rt->get_max_threads() : 0;
  int optin = omp_ext_plan_on() ? omp_ext_plan_team_free() : omp_ext_auto_threads();
  t->n = clause ? clause : n > 0 ? (unsigned)n : 1;
  t->free = !clause && (optin || (rt && rt->get_dynamic && rt->get_dynamic())) &&
            !omp_ext_team_size_asked();
}

/* The plan's configuration of region \p r for team \p t: remembered per
 * team (up to NFIXED of them, appended under region_lock, read without). */
static const struct omp_ext_rcfg *plan_pick(struct omp_ext_region *r, const struct omp_ext_team *t)
{
  unsigned i, n = __atomic_load_n(&r->nfixed, __ATOMIC_ACQUIRE);
  const struct omp_ext_rcfg *c;
  for (i = 0; i < n; i++)
    if (r->fixed[i].team.n == t->n && r->fixed[i].team.free == t->free)
      return r->fixed[i].cfg;
  c = omp_ext_plan_config(r->module, r->offset, t);
  pthread_mutex_lock(&region_lock);
  if ((n = r->nfixed) < OMP_EXT_REGION_NFIXED) {
    r->fixed[n].team = *t, r->fixed[n].cfg = c;
    __atomic_store_n(&r->nfixed, n + 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&region_lock);
  return c;
}

/* ----------------------------------------------- control of a region --- */

/* Every region, to \p fn (learn.c's writer, at exit). */
static void region_each(omp_ext_region_fn fn, void *arg)
{
  unsigned s;
  for (s = 0; s < NSLOTS; s++)
    if (__atomic_load_n(&table[s].ra, __ATOMIC_ACQUIRE))
      fn(table[s].r, arg);
}

/* At the first region of the process (the environment was read as the
 * library loaded): the plan read and checked, or auto's learnt state. */
static char *env_plan;
static pthread_once_t first_once = PTHREAD_ONCE_INIT;
static int first_done; /* atomic */

static void first_region(void)
{
  const char *learn = getenv("OMP_EXT_LEARN");
  if (env_plan) {
    if (omp_ext_plan_load(env_plan) != 0)
      __atomic_store_n(&omp_ext_region_mode, 0, __ATOMIC_RELEASE);
  } else if (omp_ext_auto_on() && learn && *learn) {
    omp_ext_learn_init(learn, region_each);
  }
  __atomic_store_n(&first_done, 1, __ATOMIC_RELEASE);
}

void omp_ext_region_pick(const void *ra, unsigned clause, struct omp_ext_rpick *p)
{
  struct omp_ext_region *r;
  struct omp_ext_team team;
  p->cfg = NULL, p->threads = 0, p->t0 = 0, p->cand = -1, p->switched = 0, p->region = NULL;
  if (!__atomic_load_n(&first_done, __ATOMIC_ACQUIRE)) {
    pthread_once(&first_once, first_region);
    if (!__atomic_load_n(&omp_ext_region_mode, __ATOMIC_ACQUIRE))
      return; /* (the plan was refused) */
  }
  if (!(r = lookup(ra)) && !(r = create(ra)))
    return;
  p->region = r;
  __atomic_fetch_add(&r->instances, 1, __ATOMIC_RELAXED);
  team_of(clause, &team);
  if (omp_ext_plan_on()) {
    p->cfg = plan_pick(r, &team);
    p->threads = p->cfg && team.free && p->cfg->threads && p->cfg->threads < team.n
                   ? p->cfg->threads : 0;
  } else if (r->au) {
    omp_ext_auto_pick(r->au, &team, p);
  }
  __atomic_store_n(&r->applied, p->cfg, __ATOMIC_RELAXED);
  __atomic_store_n(&r->applied_free, team.free, __ATOMIC_RELAXED);
}

void omp_ext_region_done(struct omp_ext_rpick *p)
{
  struct omp_ext_region *r = p->region;
  if (r && r->au && p->t0)
    omp_ext_auto_done(r->au, p);
}

void omp_ext_region_write_json(FILE *f, const void *at)
{
  struct omp_ext_region *r = at ? lookup(at) : NULL;
  const struct omp_ext_rcfg *c;
  if (!r)
    return;
  if (r->au) {
    omp_ext_auto_write_json(f, r->au);
  } else if ((c = __atomic_load_n(&r->applied, __ATOMIC_RELAXED)) != NULL) {
    fputs(", \"control\": {\"source\": \"plan\", \"config\": \"", f);
    fputs(c->label, f);
    fprintf(f, "\", \"team_kept\": %s}",
            __atomic_load_n(&r->applied_free, __ATOMIC_RELAXED) ? "false" : "true");
  }
}

int omp_ext_region_auto_start(void)
{
  const omp_ext_topo_t *topo;
  int err = omp_ext_bind_topology(&topo);
  if (err)
    return err;
  omp_ext_auto_enable();
  /* Regions seen so far (a plan's, or none) keep what they have. */
  __atomic_store_n(&omp_ext_region_mode, 1, __ATOMIC_RELEASE);
  return omp_ext_success;
}

void omp_ext_region_stop(void)
{
  __atomic_store_n(&omp_ext_region_mode, 0, __ATOMIC_RELEASE);
}

/* Per-region control changes team sizes from region to region.  libomp
 * and libiomp5 keep a root's level-1 team ("hot team") between regions,
 * but by default (KMP_HOT_TEAMS_MODE=0) a smaller team gives its surplus
 * threads back to the thread pool (kmp_runtime.cpp __kmp_allocate_team:
 * __kmp_free_thread), and the next larger team takes them again and
 * re-initialises each one (__kmp_allocate_thread, __kmp_initialize_info);
 * KMP_HOT_TEAMS_MODE=1 keeps them in the hot team, waiting on their own
 * flags, so a change of size costs next to nothing (a team of one is a
 * serialized region under either mode: __kmp_fork_call).  Set for the
 * program unless the user set it: the runtime reads its environment at
 * its first OpenMP call, after this constructor.  (libgomp has no such
 * setting: a smaller team of more than one ends its surplus threads and a
 * larger one creates new ones -- team.c gomp_team_start; auto counts that
 * cost, auto.c.) */
static void keep_hot_team_threads(void)
{
  if (setenv("KMP_HOT_TEAMS_MODE", "1", 0) != 0) { /* (0: only if unset) */
    /* no memory: the runtime's default then */
  }
}

/* OMP_EXT_PLAN=VALUE or OMP_EXT_HT_POLICY=auto...: read as the library
 * loads (the environment only at the edges), but nothing opened, loaded or
 * said then: a process that runs no region (ls, timeout) pays nothing.
 * The plan is read at the first region (first_region); an invalid auto
 * value is said by bind.c's constructor and leaves auto off. */
__attribute__((constructor)) static void region_env_init(void)
{
  const char *plan = getenv("OMP_EXT_PLAN"), *policy = getenv("OMP_EXT_HT_POLICY");
  omp_ext_timing_set_control(omp_ext_region_write_json); /* timing files: "control" */
  if (plan && *plan) {
    if (!(env_plan = strdup(plan)))
      return;
  } else if (!policy || omp_ext_auto_init(policy) != 0) {
    return;
  }
  keep_hot_team_threads();
  __atomic_store_n(&omp_ext_region_mode, 1, __ATOMIC_RELEASE);
}
