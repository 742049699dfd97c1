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
#include "region.h"
#include "bind.h"
#include "region_int.h"
#include "timing.h"

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
  if (omp_ext_plan_on())
    r->fixed = omp_ext_plan_config(r->module, r->offset);
  else if (omp_ext_auto_on())
    r->au = omp_ext_auto_new();
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

/* nthreads-var: the team a region without a clause gets (0: unknown). */
static unsigned program_threads(void)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  int n = rt && rt->get_max_threads ? rt->get_max_threads() : 0;
  return n > 0 ? (unsigned)n : 0;
}

void omp_ext_region_pick(const void *ra, unsigned clause, struct omp_ext_rpick *p)
{
  struct omp_ext_region *r = lookup(ra);
  p->cfg = NULL, p->threads = 0, p->t0 = 0, p->cand = -1, p->switched = 0;
  if (!r && !(r = create(ra))) {
    p->region = NULL;
    return;
  }
  p->region = r;
  __atomic_fetch_add(&r->instances, 1, __ATOMIC_RELAXED);
  if (!clause && omp_ext_team_size_asked()) /* (as a num_threads clause of nthreads-var) */
    clause = program_threads();
  if (r->fixed) {
    p->cfg = r->fixed;
    p->threads = clause ? 0 : r->fixed->threads;
  } else if (r->au) {
    omp_ext_auto_pick(r->au, clause, p);
  }
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
  if (!r)
    return;
  if (r->fixed) {
    fputs(", \"control\": {\"source\": \"plan\", \"config\": \"", f);
    fputs(r->fixed->label, f);
    fprintf(f, "\", \"team_kept\": %s}", omp_ext_team_size_asked() ? "true" : "false");
  } else if (r->au) {
    omp_ext_auto_write_json(f, r->au);
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

/* OMP_EXT_PLAN=FILE or OMP_EXT_HT_POLICY=auto[:time|energy]: read when the
 * library is loaded (the environment only at the edges). */
__attribute__((constructor)) static void region_env_init(void)
{
  const char *plan = getenv("OMP_EXT_PLAN"), *policy = getenv("OMP_EXT_HT_POLICY");
  omp_ext_timing_set_control(omp_ext_region_write_json); /* timing files: "control" */
  if (plan && *plan) {
    if (omp_ext_plan_init(plan) == 0) {
      keep_hot_team_threads();
      __atomic_store_n(&omp_ext_region_mode, 1, __ATOMIC_RELEASE);
    }
  } else if (policy && strncmp(policy, "auto", 4) == 0 &&
             (policy[4] == '\0' || policy[4] == ':')) {
    if (omp_ext_auto_init(policy) == 0) {
      keep_hot_team_threads();
      __atomic_store_n(&omp_ext_region_mode, 1, __ATOMIC_RELEASE);
    }
  }
}
