/*
 * Region timing (OMP_EXT_TIMING=FILE) and named measurements: see
 * include/omp_ext/timing.h.  The hooks (hooks.c) call omp_ext_timing_begin()
 * and omp_ext_timing_end() in the thread that starts an outermost region;
 * everything here runs only when timing is on (one relaxed load otherwise).
 * The per-region path is inline in timing_inline.h (no lock: each root thread
 * adds to its own part of a region); here the state, the first instance
 * of a region and team size in a thread, the binding records and the named
 * measurements (timing_int.h; statistics in timing_stats.c, the file in
 * timing_file.c).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "omp_ext.h"
#include "private/runtime.h"
#include "private/timing_int.h"

typedef struct omp_ext_timing_part part_t;

static pthread_mutex_t tlock = PTHREAD_MUTEX_INITIALIZER;
static struct omp_ext_timing_region *regions;
static size_t nregions, capregions;
/* Index of regions by (construct, place) or name: open addressing, linear probing;
 * slot = region index + 1, 0 empty; nslots a power of two, at most half
 * full. */
static size_t *slots, nslots;
int omp_ext_timing_flag; /* atomic: OMP_EXT_TIMING set */
static char *timing_file;
static double t_load;
int omp_ext_timing_tsc;
static int64_t load_ticks, load_ns; /* omp_ext_timing_ticks() and CLOCK_MONOTONIC at load */

__thread struct omp_ext_timing_tls omp_ext_timing_tl OMP_EXT_TLS;

/* The team being recorded (one at a time in the process): its threads'
 * slots, published with release before the fork. */
static struct tbind *rec_th; /* atomic */
static unsigned rec_n;

static double now_s(void)
{
  return (double)omp_ext_timing_ns() * 1e-9;
}

/* Does the kernel keep time with the TSC (see omp_ext_timing_ticks())? */
static int kernel_uses_tsc(void)
{
#if defined(__x86_64__)
  char buf[32] = "";
  FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
  if (!f)
    return 0;
  if (!fgets(buf, sizeof(buf), f))
    buf[0] = '\0';
  fclose(f);
  return strcmp(buf, "tsc\n") == 0;
#else
  return 0;
#endif
}

/* A (ticks, ns) pair read together: the ticks halfway through the ns read. */
static void clock_pair(int64_t *ticks, int64_t *ns)
{
  int64_t a = omp_ext_timing_ticks();
  *ns = omp_ext_timing_ns();
  *ticks = a + (omp_ext_timing_ticks() - a) / 2;
}

/* Seconds per tick: the ticks against CLOCK_MONOTONIC since load, over 2 ms
 * at least (a shorter run waits the rest: the rate's error from reading
 * the two clocks is then below 1e-4). */
static double tick_seconds(void)
{
  int64_t ticks, ns;
  if (!omp_ext_timing_tsc)
    return 1e-9;
  do
    clock_pair(&ticks, &ns);
  while (ns - load_ns < 2000000);
  return ticks > load_ticks ? (double)(ns - load_ns) * 1e-9 / (double)(ticks - load_ticks) : 1e-9;
}

static void fork_prepare(void)
{
  pthread_mutex_lock(&tlock);
}

static void fork_parent(void)
{
  pthread_mutex_unlock(&tlock);
}

/* A forked child starts its own record (its own file at exit, under "%p"):
 * the parent's regions, parts and bindings are dropped, and the forking
 * thread's cache of parts (the child's only thread). */
static void fork_child(void)
{
  struct omp_ext_timing_tls *tl = &omp_ext_timing_tl;
  struct tbind *th = __atomic_load_n(&rec_th, __ATOMIC_RELAXED);
  size_t i;
  unsigned b;
  for (i = 0; i < nregions; i++) {
    struct omp_ext_timing_region *r = &regions[i];
    part_t *p, *next;
    for (p = r->parts; p; p = next)
      next = p->next, free(p->samples), free(p);
    for (b = 0; b < r->nbinds; b++)
      if (r->binds[b].th != th)
        free(r->binds[b].th);
    free(r->own.samples);
    free(r->name);
  }
  free(th);
  __atomic_store_n(&rec_th, NULL, __ATOMIC_RELAXED);
  free(regions), free(slots);
  regions = NULL, slots = NULL, nregions = capregions = nslots = 0;
  memset(tl->seen, 0, sizeof(tl->seen));
  tl->part = NULL, tl->rec = 0;
  t_load = now_s();
  pthread_mutex_unlock(&tlock);
}

static void timing_init(void)
{
  const char *f = getenv("OMP_EXT_TIMING");
  t_load = now_s();
  if (f && *f && (timing_file = strdup(f)) != NULL) {
    omp_ext_timing_tsc = kernel_uses_tsc();
    clock_pair(&load_ticks, &load_ns);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    __atomic_store_n(&omp_ext_timing_flag, 1, __ATOMIC_RELEASE);
  }
}

int omp_ext_timing_enabled(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, timing_init);
  return __atomic_load_n(&omp_ext_timing_flag, __ATOMIC_ACQUIRE);
}

static size_t hash_of(const void *key, const void *at, const char *name)
{
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  if (name) {
    for (; *name; name++)
      h = (h ^ (unsigned char)*name) * 1099511628211ULL;
    return (size_t)h;
  }
  h = ((uint64_t)(uintptr_t)key ^ ((uint64_t)(uintptr_t)at * 0xff51afd7ed558ccdULL)) *
      0x9e3779b97f4a7c15ULL;
  return (size_t)(h ^ (h >> 29));
}

static int same(const struct omp_ext_timing_region *r, const void *key, const void *at, const char *name)
{
  return name ? r->name && strcmp(r->name, name) == 0
              : !r->name && r->key == key && r->at == at;
}

/* Slot of \p key at \p at / \p name: its region's, or the empty one where it
 * goes. */
static size_t slot_of(const void *key, const void *at, const char *name)
{
  size_t i = hash_of(key, at, name) & (nslots - 1);
  while (slots[i] && !same(&regions[slots[i] - 1], key, at, name))
    i = (i + 1) & (nslots - 1);
  return i;
}

/* Room in the index for one more region; tlock held.  0 or -1. */
static int index_grow_locked(void)
{
  size_t n = nslots ? 2 * nslots : 64, i, *old = slots, oldn = nslots;
  if (2 * (nregions + 1) <= nslots)
    return 0;
  if (!(slots = calloc(n, sizeof(*slots)))) {
    slots = old;
    return -1;
  }
  nslots = n;
  for (i = 0; i < oldn; i++)
    if (old[i])
      slots[slot_of(regions[old[i] - 1].key, regions[old[i] - 1].at, regions[old[i] - 1].name)] =
        old[i];
  free(old);
  return 0;
}

/* The entry of \p key at \p at / \p name, or NULL; tlock held. */
static struct omp_ext_timing_region *lookup_locked(const void *key, const void *at, const char *name)
{
  size_t slot;
  if (nslots && slots[slot = slot_of(key, at, name)])
    return &regions[slots[slot] - 1];
  return NULL;
}

/* The entry of \p key at \p at / \p name, created if missing; tlock held. */
static struct omp_ext_timing_region *find_locked(const void *key, const void *at, const char *name)
{
  struct omp_ext_timing_region *r = lookup_locked(key, at, name);
  if (r)
    return r;
  if (index_grow_locked() != 0)
    return NULL;
  if (nregions == capregions) {
    size_t cap = capregions ? 2 * capregions : 16;
    struct omp_ext_timing_region *n = realloc(regions, cap * sizeof(*n));
    if (!n)
      return NULL;
    regions = n, capregions = cap;
  }
  r = &regions[nregions];
  memset(r, 0, sizeof(*r));
  r->key = key, r->at = name ? NULL : at;
  if (name && !(r->name = strdup(name)))
    return NULL;
  slots[slot_of(key, r->at, name)] = ++nregions;
  return r;
}

/* The calling thread's part of parallel region \p r for teams of \p team,
 * created if missing; tlock held. */
static part_t *part_locked(struct omp_ext_timing_region *r, unsigned team)
{
  part_t *p;
  for (p = r->parts; p; p = p->next)
    if (p->owner == &omp_ext_timing_tl && p->team == team)
      return p;
  if (!(p = calloc(1, sizeof(*p))))
    return NULL;
  p->owner = &omp_ext_timing_tl;
  p->team = team;
  p->next = r->parts;
  r->parts = p;
  return p;
}

/* Room for one more sample in \p p (amortized: the capacity doubles, up
 * to OMP_EXT_TIMING_MAXSAMPLES: then omp_ext_timing_add() samples);
 * tlock held. */
static void grow_locked(part_t *p)
{
  size_t cap = p->cap ? 2 * p->cap : 64;
  double *s;
  if (p->n < p->cap || p->cap >= OMP_EXT_TIMING_MAXSAMPLES)
    return;
  if (cap > OMP_EXT_TIMING_MAXSAMPLES)
    cap = OMP_EXT_TIMING_MAXSAMPLES;
  if ((s = realloc(p->samples, cap * sizeof(*s))) != NULL)
    p->samples = s, p->cap = cap;
}

/* Team size \p team seen in \p r; tlock held. */
static void add_size_locked(struct omp_ext_timing_region *r, unsigned team)
{
  unsigned i;
  for (i = 0; i < r->nsizes && r->sizes[i] != team; i++)
    ;
  if (i == r->nsizes && r->nsizes < OMP_EXT_TIMING_MAXSIZES)
    r->sizes[r->nsizes++] = team;
}

static struct bindrec *bindrec_of(struct omp_ext_timing_region *r, unsigned team)
{
  unsigned i;
  for (i = 0; i < r->nbinds; i++)
    if (r->binds[i].team == team)
      return &r->binds[i];
  return NULL;
}

/* The first instance of (key, team) in this thread (or one whose part the
 * thread does not have in hand): record its team's binding unless it is
 * recorded already or another team is being recorded.  Returns 1 when
 * recording. */
static int start_record(const void *key, const void *at, unsigned team)
{
  struct omp_ext_timing_region *r;
  struct tbind *th = NULL;
  int recorded = 0;
  if (team == 0)
    return 0;
  pthread_mutex_lock(&tlock);
  if ((r = find_locked(key, at, NULL)) != NULL) {
    recorded = bindrec_of(r, team) != NULL || r->nbinds == OMP_EXT_TIMING_MAXSIZES;
  }
  if (r && !recorded && !__atomic_load_n(&rec_th, __ATOMIC_RELAXED) &&
      (th = calloc(team, sizeof(*th))) != NULL) {
    rec_n = team;
    __atomic_store_n(&rec_th, th, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&tlock);
  return omp_ext_timing_tl.rec = th != NULL;
}

/* The first instance of (key, team) in this thread, or one whose part the
 * thread does not have in hand (the region's open count is taken). */
int omp_ext_timing_begin_slow(const void *key, const void *at, unsigned team)
{
  struct omp_ext_timing_tls *tl = &omp_ext_timing_tl;
  int rec;
  tl->key = key, tl->at = at, tl->team = team, tl->part = NULL;
  rec = start_record(key, at, team);
  tl->t0 = omp_ext_timing_ticks();
  return rec;
}

int omp_ext_timing_recording(void)
{
  return __atomic_load_n(&rec_th, __ATOMIC_RELAXED) != NULL;
}

void omp_ext_timing_thread(unsigned index)
{
  struct tbind *th = __atomic_load_n(&rec_th, __ATOMIC_ACQUIRE);
  if (!th || index >= rec_n)
    return;
  th[index].pu = sched_getcpu();
  th[index].tid = (pid_t)syscall(SYS_gettid);
}

/* The recorded team's CPU sets (its threads wait in the runtime's pool or
 * barrier now), kept in \p r; tlock held. */
static void finish_record_locked(struct omp_ext_timing_region *r)
{
  struct tbind *th = __atomic_load_n(&rec_th, __ATOMIC_ACQUIRE);
  unsigned i;
  if (!th)
    return;
  for (i = 0; i < rec_n; i++)
    if (th[i].tid)
      th[i].have_cpus = sched_getaffinity(th[i].tid, sizeof(th[i].cpus), &th[i].cpus) == 0;
  if (r && r->nbinds < OMP_EXT_TIMING_MAXSIZES && !bindrec_of(r, omp_ext_timing_tl.team)) {
    r->binds[r->nbinds].team = omp_ext_timing_tl.team;
    r->binds[r->nbinds++].th = th;
  } else {
    free(th);
  }
  __atomic_store_n(&rec_th, NULL, __ATOMIC_RELEASE);
}

/* The end of an instance (\p dt ticks) that the inline path does not take:
 * the first of its (region, team size) in this thread, or its part full. */
int omp_ext_timing_end_slow(double dt)
{
  struct omp_ext_timing_tls *tl = &omp_ext_timing_tl;
  struct omp_ext_timing_region *r;
  part_t *p = tl->part;
  int done = 0;
  pthread_mutex_lock(&tlock);
  if (p) { /* room for more samples */
    grow_locked(p);
    omp_ext_timing_add(p, dt);
    pthread_mutex_unlock(&tlock);
    return 0;
  }
  if ((r = find_locked(tl->key, tl->at, NULL)) != NULL) {
    add_size_locked(r, tl->team);
    if ((p = part_locked(r, tl->team)) != NULL) {
      grow_locked(p);
      omp_ext_timing_add(p, dt);
    }
  }
  if (tl->rec) {
    finish_record_locked(r);
    tl->rec = 0;
    done = 1;
  }
  if (p && (bindrec_of(r, tl->team) || r->nbinds == OMP_EXT_TIMING_MAXSIZES)) {
    /* Recorded, size noted: later instances need no lock. */
    unsigned slot = omp_ext_timing_slot(tl->key, tl->at, tl->team);
    tl->seen[slot].key = tl->key, tl->seen[slot].at = tl->at, tl->seen[slot].part = p;
  }
  pthread_mutex_unlock(&tlock);
  return done;
}

int omp_ext_timer_start(const char *name)
{
  struct omp_ext_timing_region *r;
  double t;
  if (!name || !*name)
    return omp_ext_err_invalid;
  t = now_s();
  pthread_mutex_lock(&tlock);
  if ((r = find_locked(NULL, NULL, name)) != NULL)
    r->start = t;
  pthread_mutex_unlock(&tlock);
  return r ? omp_ext_success : omp_ext_err_nomem;
}

int omp_ext_timer_stop(const char *name)
{
  double t = now_s();
  struct omp_ext_timing_region *r;
  int err = omp_ext_err_invalid;
  if (!name || !*name)
    return err;
  pthread_mutex_lock(&tlock);
  if ((r = find_locked(NULL, NULL, name)) != NULL && r->start > 0) {
    grow_locked(&r->own);
    omp_ext_timing_add(&r->own, t - r->start);
    add_size_locked(r, 1);
    r->start = 0;
    err = omp_ext_success;
  }
  pthread_mutex_unlock(&tlock);
  return err;
}

int omp_ext_timer_stats(const char *name, omp_ext_timer_stats_t *stats)
{
  struct omp_ext_timing_region *r;
  int err = omp_ext_err_invalid;
  if (!name || !stats)
    return err;
  pthread_mutex_lock(&tlock);
  if ((r = lookup_locked(NULL, NULL, name)) != NULL && r->own.n > 0) {
    omp_ext_timing_region_stats(r, stats, 1, NULL);
    err = omp_ext_success;
  }
  pthread_mutex_unlock(&tlock);
  return err;
}

/* Has the process recorded anything (a region or measurement instance)?
 * tlock held. */
static int recorded_locked(void)
{
  size_t i;
  const part_t *p;
  for (i = 0; i < nregions; i++)
    for (p = &regions[i].own; p; p = p == &regions[i].own ? regions[i].parts : p->next)
      if (__atomic_load_n(&p->n, __ATOMIC_ACQUIRE))
        return 1;
  return 0;
}

/* A process that recorded nothing keeps off the file, except an OpenMP
 * process under a per-process name ("%p"): its file, with no region, tells
 * a reader (htplaces tune) that the program was watched and ran no parallel
 * region, apart from a program the layer never saw (statically linked).  A
 * shell, timeout or time in front of the program has no OpenMP runtime and
 * writes nothing; without "%p" nothing is written either, so that such a
 * process cannot replace the file of the one that recorded. */
static int watched_openmp(void)
{
  return strstr(timing_file, "%p") != NULL && omp_ext_runtime() != NULL;
}

__attribute__((destructor)) static void timing_write(void)
{
  if (!omp_ext_timing_on() || !timing_file)
    return;
  pthread_mutex_lock(&tlock);
  if (recorded_locked() || watched_openmp()) {
    double tick_s = tick_seconds();
    omp_ext_timing_write_file(timing_file, regions, nregions, t_load, now_s() - t_load, tick_s);
  }
  pthread_mutex_unlock(&tlock);
}

__attribute__((constructor)) static void timing_ctor(void)
{
  omp_ext_timing_enabled();
}

