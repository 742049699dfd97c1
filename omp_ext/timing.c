/*
 * Region timing (OMP_EXT_TIMING=FILE) and named measurements: see
 * include/omp_ext/timing.h.  The hooks (hooks.c) call omp_ext_timing_begin()
 * and omp_ext_timing_end() in the thread that starts an outermost region;
 * everything here runs only when timing is on (one relaxed load otherwise).
 * The per-region path is inline in timing.h (no lock: each root thread
 * adds to its own part of a region); here the first instance of a region
 * and team size in a thread, binding records, statistics and the file.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "omp_ext.h"
#include "runtime.h"
#include "timing.h"

#define MAXSIZES 16

/* One thread of a recorded team. */
struct tbind {
  pid_t tid;       /* 0: the thread did not report (a smaller team) */
  int pu;          /* sched_getcpu() as it started its part; -1 unknown */
  int have_cpus;   /* cpus read */
  cpu_set_t cpus;  /* its affinity mask after the join */
};

/* The binding of the first instance of one (region, team size). */
struct bindrec {
  unsigned team;
  struct tbind *th; /* th[0 .. team-1] */
};

typedef struct omp_ext_timing_part part_t;

struct region {
  const void *key; /* the construct (code address); NULL for a named measurement */
  const void *at;  /* where it starts (the address its name comes from): a
                    * construct started from two places (a function holding
                    * it inlined twice) is two regions, as per-region control
                    * (region.c) sees them */
  char *name;      /* named measurement's name */
  part_t own;      /* a named measurement's instances */
  part_t *parts;   /* a parallel region's: per root thread and team size */
  double start;
  unsigned sizes[MAXSIZES], nsizes;
  struct bindrec binds[MAXSIZES];
  unsigned nbinds;
};

static pthread_mutex_t tlock = PTHREAD_MUTEX_INITIALIZER;
static struct region *regions;
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
    struct region *r = &regions[i];
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

static int same(const struct region *r, const void *key, const void *at, const char *name)
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
static struct region *lookup_locked(const void *key, const void *at, const char *name)
{
  size_t slot;
  if (nslots && slots[slot = slot_of(key, at, name)])
    return &regions[slots[slot] - 1];
  return NULL;
}

/* The entry of \p key at \p at / \p name, created if missing; tlock held. */
static struct region *find_locked(const void *key, const void *at, const char *name)
{
  struct region *r = lookup_locked(key, at, name);
  if (r)
    return r;
  if (index_grow_locked() != 0)
    return NULL;
  if (nregions == capregions) {
    size_t cap = capregions ? 2 * capregions : 16;
    struct region *n = realloc(regions, cap * sizeof(*n));
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
static part_t *part_locked(struct region *r, unsigned team)
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
static void add_size_locked(struct region *r, unsigned team)
{
  unsigned i;
  for (i = 0; i < r->nsizes && r->sizes[i] != team; i++)
    ;
  if (i == r->nsizes && r->nsizes < MAXSIZES)
    r->sizes[r->nsizes++] = team;
}

static struct bindrec *bindrec_of(struct region *r, unsigned team)
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
  struct region *r;
  struct tbind *th = NULL;
  int recorded = 0;
  if (team == 0)
    return 0;
  pthread_mutex_lock(&tlock);
  if ((r = find_locked(key, at, NULL)) != NULL) {
    recorded = bindrec_of(r, team) != NULL || r->nbinds == MAXSIZES;
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
static void finish_record_locked(struct region *r)
{
  struct tbind *th = __atomic_load_n(&rec_th, __ATOMIC_ACQUIRE);
  unsigned i;
  if (!th)
    return;
  for (i = 0; i < rec_n; i++)
    if (th[i].tid)
      th[i].have_cpus = sched_getaffinity(th[i].tid, sizeof(th[i].cpus), &th[i].cpus) == 0;
  if (r && r->nbinds < MAXSIZES && !bindrec_of(r, omp_ext_timing_tl.team)) {
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
  struct region *r;
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
  if (p && (bindrec_of(r, tl->team) || r->nbinds == MAXSIZES)) {
    /* Recorded, size noted: later instances need no lock. */
    unsigned slot = omp_ext_timing_slot(tl->key, tl->at, tl->team);
    tl->seen[slot].key = tl->key, tl->seen[slot].at = tl->at, tl->seen[slot].part = p;
  }
  pthread_mutex_unlock(&tlock);
  return done;
}

int omp_ext_timer_start(const char *name)
{
  struct region *r;
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
  struct region *r;
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

static int cmp_unsigned(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

/* The k-th smallest of v[0 .. n-1] (k < n), v reordered so that none
 * before it is larger (Wirth's selection, as in "Algorithms + Data
 * Structures = Programs", 1976). */
static double select_kth(double *v, size_t n, size_t k)
{
  long lo = 0, hi = (long)n - 1, kk = (long)k;
  while (lo < hi) {
    double x = v[kk], t;
    long i = lo, j = hi;
    do {
      while (v[i] < x)
        i++;
      while (x < v[j])
        j--;
      if (i <= j) {
        t = v[i], v[i] = v[j], v[j] = t;
        i++, j--;
      }
    } while (i <= j);
    if (j < kk)
      lo = i;
    if (kk < i)
      hi = j;
  }
  return v[kk];
}

/* The median of v[0 .. n-1] (n > 0), v reordered. */
static double median(double *v, size_t n)
{
  double hi = select_kth(v, n, n / 2), lo;
  size_t i;
  if (n % 2)
    return hi;
  /* v[0 .. n/2-1] hold the n/2 smallest now: the largest of them. */
  for (lo = v[0], i = 1; i < n / 2; i++)
    lo = v[i] > lo ? v[i] : lo;
  return (lo + hi) / 2;
}

struct wsample {
  double v, w; /* a sample and the instances it stands for */
};

static int cmp_wsample(const void *a, const void *b)
{
  double x = ((const struct wsample *)a)->v, y = ((const struct wsample *)b)->v;
  return (x > y) - (x < y);
}

/* The weighted median of v[0 .. n-1] (n > 0), v sorted: the first value
 * where the running weight reaches half the total. */
static double weighted_median(struct wsample *v, size_t n)
{
  double total = 0, run = 0;
  size_t i;
  qsort(v, n, sizeof(*v), cmp_wsample);
  for (i = 0; i < n; i++)
    total += v[i].w;
  for (i = 0; i < n; i++)
    if ((run += v[i].w) >= total / 2)
      return v[i].v;
  return v[n - 1].v;
}

/* Stored samples of part \p p with \p pn instances. */
static size_t stored(const part_t *p, unsigned long pn)
{
  return pn < p->cap ? pn : p->cap;
}

/* Median of \p r's parts: exact while every part holds all its instances
 * (their samples merged); else each part's samples weighted by the
 * instances they stand for (a uniform sample per part).  \p n samples in
 * all; tlock held. */
static double parts_median(const struct region *r, size_t n, int sampled)
{
  const part_t *p;
  size_t m = 0, c, i;
  double med = 0, *v;
  struct wsample *w;
  if (!sampled) {
    if (!(v = malloc(n * sizeof(*v))))
      return 0;
    for (p = &r->own; p; p = p == &r->own ? r->parts : p->next) {
      if ((c = stored(p, __atomic_load_n(&p->n, __ATOMIC_ACQUIRE))) > n - m)
        c = n - m; /* (it added since) */
      if (c) /* (samples is NULL while a part has none) */
        memcpy(v + m, p->samples, c * sizeof(*v));
      m += c;
    }
    med = m ? median(v, m) : 0;
    free(v);
    return med;
  }
  if (!(w = malloc(n * sizeof(*w))))
    return 0;
  for (p = &r->own; p; p = p == &r->own ? r->parts : p->next) {
    unsigned long pn = __atomic_load_n(&p->n, __ATOMIC_ACQUIRE);
    if ((c = stored(p, pn)) > n - m)
      c = n - m;
    for (i = 0; i < c; i++)
      w[m + i].v = p->samples[i], w[m + i].w = (double)pn / (double)c;
    m += c;
  }
  med = m ? weighted_median(w, m) : 0;
  free(w);
  return med;
}

/* Statistics of \p r, its parts merged, in seconds (\p tick_s per unit of
 * a parallel region's parts); *\p nsamples (unless NULL) the samples the
 * median comes from; tlock held.  Writers of parts may run on: what they
 * add after the snapshot of their n is not counted. */
static void stats_locked(struct region *r, omp_ext_timer_stats_t *s, double tick_s,
                         size_t *nsamples)
{
  const part_t *p;
  size_t n = 0;
  unsigned long count = 0;
  int sampled = 0;
  double val, k = r->name ? 1 : tick_s;
  s->total_s = 0, s->min_s = 0, s->max_s = 0, s->median_s = 0;
  for (p = &r->own; p; p = p == &r->own ? r->parts : p->next) {
    unsigned long pn = __atomic_load_n(&p->n, __ATOMIC_ACQUIRE);
    if (!pn)
      continue;
    __atomic_load(&p->total, &val, __ATOMIC_RELAXED);
    s->total_s += val;
    __atomic_load(&p->min, &val, __ATOMIC_RELAXED);
    s->min_s = count == 0 || val < s->min_s ? val : s->min_s;
    __atomic_load(&p->max, &val, __ATOMIC_RELAXED);
    s->max_s = count == 0 || val > s->max_s ? val : s->max_s;
    count += pn;
    n += stored(p, pn);
    sampled |= pn > p->cap;
  }
  s->instances = count;
  if (n)
    s->median_s = parts_median(r, n, sampled);
  if (nsamples)
    *nsamples = n;
  s->total_s *= k, s->min_s *= k, s->max_s *= k, s->median_s *= k;
  s->mean_s = count ? s->total_s / (double)count : 0;
}

int omp_ext_timer_stats(const char *name, omp_ext_timer_stats_t *stats)
{
  struct region *r;
  int err = omp_ext_err_invalid;
  if (!name || !stats)
    return err;
  pthread_mutex_lock(&tlock);
  if ((r = lookup_locked(NULL, NULL, name)) != NULL && r->own.n > 0) {
    stats_locked(r, stats, 1, NULL);
    err = omp_ext_success;
  }
  pthread_mutex_unlock(&tlock);
  return err;
}

/* JSON string body of \p s (names are symbols or the user's text). */
static void json_str(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      fprintf(f, "\\u%04x", *s);
    else
      fputc(*s, f);
  }
  fputc('"', f);
}

/* A CPU set as a list: "0-3,8". */
static void cpulist(FILE *f, const cpu_set_t *set)
{
  int cpu, first = -1, sep = 0;
  for (cpu = 0; cpu <= CPU_SETSIZE; cpu++) {
    int in = cpu < CPU_SETSIZE && CPU_ISSET(cpu, set);
    if (in && first < 0)
      first = cpu;
    else if (!in && first >= 0) {
      fprintf(f, sep ? ",%d" : "%d", first);
      if (cpu - 1 > first)
        fprintf(f, "-%d", cpu - 1);
      sep = 1, first = -1;
    }
  }
}

/* "bindings": [{"team": 2, "threads": [{"cpus": "0", "pu": 0}, null]}] */
static void write_bindings(FILE *f, const struct region *r)
{
  unsigned b, i;
  fputs(", \"bindings\": [", f);
  for (b = 0; b < r->nbinds; b++) {
    const struct bindrec *br = &r->binds[b];
    fprintf(f, "%s{\"team\": %u, \"threads\": [", b ? ", " : "", br->team);
    for (i = 0; i < br->team; i++) {
      const struct tbind *t = &br->th[i];
      fputs(i ? ", " : "", f);
      if (!t->tid) {
        fputs("null", f);
        continue;
      }
      fputs("{\"cpus\": \"", f);
      if (t->have_cpus)
        cpulist(f, &t->cpus);
      fprintf(f, "\", \"pu\": %d}", t->pu);
    }
    fputs("]}", f);
  }
  fputc(']', f);
}

/* "PREFIXmodule": the object holding \p addr (its path), "PREFIXoffset":
 * addr's address in that object's own terms (minus its load bias), what
 * addr2line -e MODULE takes. */
static void write_module(FILE *f, const void *addr, const char *prefix)
{
  Dl_info info;
  struct link_map *lm = NULL;
  char exe[4096];
  const char *path;
  ssize_t n;
  if (!addr || !dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
    return;
  path = lm->l_name;
  if (!path || !*path) { /* the executable */
    if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) <= 0)
      return;
    exe[n] = '\0';
    path = exe;
  }
  fprintf(f, ", \"%smodule\": ", prefix);
  json_str(f, path);
  fprintf(f, ", \"%soffset\": \"0x%lx\"", prefix, (unsigned long)((uintptr_t)addr - lm->l_addr));
}

/* "function+0xOFF" or "file+0xOFF" for a code address (malloc'd, or
 * NULL). */
static char *region_name(const void *addr)
{
  Dl_info info;
  char *name = NULL;
  int n = -1;
  if (dladdr(addr, &info) && info.dli_sname && info.dli_saddr) {
    uintptr_t off = (uintptr_t)addr - (uintptr_t)info.dli_saddr;
    if (off)
      n = asprintf(&name, "%s+0x%lx", info.dli_sname, (unsigned long)off);
    else
      n = asprintf(&name, "%s", info.dli_sname);
  } else if (dladdr(addr, &info) && info.dli_fname) {
    const char *base = strrchr(info.dli_fname, '/');
    n = asprintf(&name, "%s+0x%lx", base ? base + 1 : info.dli_fname,
                 (unsigned long)((uintptr_t)addr - (uintptr_t)info.dli_fbase));
  } else {
    n = asprintf(&name, "%p", addr);
  }
  return n < 0 ? NULL : name;
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

/* The file's JSON object; tlock held. */
/* region.c's writer of what per-region control did (omp_ext_timing_set_control). */
static omp_ext_timing_control_fn control_fn;

void omp_ext_timing_set_control(omp_ext_timing_control_fn fn)
{
  __atomic_store_n(&control_fn, fn, __ATOMIC_RELEASE);
}

static void write_json(FILE *f, double tick_s)
{
  size_t i;
  double wall, in_regions = 0;
  const part_t *p;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  exe[n > 0 ? n : 0] = '\0';
  wall = now_s() - t_load;
  for (i = 0; i < nregions; i++) /* the outermost regions' time */
    for (p = regions[i].parts; p; p = p->next) {
      double t;
      __atomic_load(&p->total, &t, __ATOMIC_RELAXED);
      in_regions += t * tick_s;
    }
  fprintf(f, "{\"omp_ext_timing\": 1, \"wall_s\": %.9f, \"regions_s\": %.9f, \"serial_s\": %.9f,"
          "\n \"pid\": %ld, \"program\": ", wall, in_regions,
          wall > in_regions ? wall - in_regions : 0.0, (long)getpid());
  json_str(f, exe);
  fprintf(f, ", \"started_s\": %.9f,\n \"regions\": [", t_load);
  for (i = 0; i < nregions; i++) {
    struct region *r = &regions[i];
    omp_ext_timer_stats_t s;
    char *name = r->name ? r->name : region_name(r->at);
    size_t nsamples;
    unsigned j;
    stats_locked(r, &s, tick_s, &nsamples);
    qsort(r->sizes, r->nsizes, sizeof(unsigned), cmp_unsigned);
    fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
    json_str(f, name ? name : "?");
    if (name != r->name)
      free(name);
    fprintf(f, ", \"kind\": \"%s\", \"address\": \"%p\", \"instances\": %lu, \"team_sizes\": [",
            r->name ? "timer" : "parallel", r->name ? NULL : r->at, s.instances);
    for (j = 0; j < r->nsizes; j++)
      fprintf(f, "%s%u", j ? ", " : "", r->sizes[j]);
    fprintf(f, "], \"total_s\": %.9f, \"mean_s\": %.9f, \"median_s\": %.9f, \"min_s\": %.9f, "
            "\"max_s\": %.9f, \"median_samples\": %lu", s.total_s, s.mean_s, s.median_s, s.min_s,
            s.max_s, (unsigned long)nsamples);
    if (!r->name) {
      omp_ext_timing_control_fn control = __atomic_load_n(&control_fn, __ATOMIC_ACQUIRE);
      write_module(f, r->at, "");
      if (r->key && r->key != r->at) /* libgomp: the outlined body, which names the region */
        write_module(f, r->key, "outlined_");
      if (control)
        control(f, r->at); /* what per-region control chose */
    }
    write_bindings(f, r);
    fputc('}', f);
  }
  fprintf(f, "\n]}\n");
}

/* OMP_EXT_TIMING's file name for this process: each "%p" the process ID
 * (malloc'd, or NULL). */
static char *file_name(void)
{
  size_t len = strlen(timing_file) + 1, k = 0;
  const char *s;
  char *out, pid[24];
  int plen = snprintf(pid, sizeof(pid), "%ld", (long)getpid());
  for (s = timing_file; (s = strstr(s, "%p")) != NULL; s += 2)
    len += (size_t)plen;
  if (!(out = malloc(len)))
    return NULL;
  for (s = timing_file; *s; s++)
    if (s[0] == '%' && s[1] == 'p')
      memcpy(out + k, pid, (size_t)plen), k += (size_t)plen, s++;
    else
      out[k++] = *s;
  out[k] = '\0';
  return out;
}

/* Write len bytes of buf to fd.  0, or -1 with errno set. */
static int write_all(int fd, const char *buf, size_t len)
{
  while (len) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return n == 0 ? (errno = EIO, -1) : -1;
    buf += n, len -= (size_t)n;
  }
  return 0;
}

/* Write \p text to the file \p path through a temporary file in its
 * folder, renamed over it when complete (a reader never sees half a file;
 * a full device leaves the old one); a path that exists and is not a
 * regular file (/dev/stdout, a FIFO) is written in place.  0, or -1 with
 * errno set. */
static int write_file(const char *path, const char *text, size_t len)
{
  struct stat st;
  char *tmp = NULL;
  int fd, err = 0;
  mode_t mask;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0)
      return -1;
  } else {
    if (asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0)
      return errno = ENOMEM, -1;
    if ((fd = mkstemp(tmp)) < 0) {
      err = errno;
      free(tmp);
      return errno = err, -1;
    }
    mask = umask(0); /* (the mode fopen would give) */
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0)
      err = errno;
  }
  if (!err && write_all(fd, text, len) != 0)
    err = errno;
  if (close(fd) != 0 && !err)
    err = errno;
  if (!err && tmp && rename(tmp, path) != 0)
    err = errno;
  if (tmp) {
    if (err)
      unlink(tmp);
    free(tmp);
  }
  return err ? (errno = err, -1) : 0;
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
  char *path;
  if (!omp_ext_timing_on() || !timing_file)
    return;
  pthread_mutex_lock(&tlock);
  if (recorded_locked() || watched_openmp()) {
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    int ok = m != NULL;
    if (m) {
      write_json(m, tick_seconds());
      ok = fclose(m) == 0;
    }
    if (!(path = file_name()) || !ok)
      fprintf(stderr, "omp_ext: OMP_EXT_TIMING: cannot write '%s': %s\n",
              path ? path : timing_file, strerror(ENOMEM));
    else if (write_file(path, text, len) != 0)
      fprintf(stderr, "omp_ext: OMP_EXT_TIMING: cannot write '%s': %s\n", path, strerror(errno));
    free(path);
    free(text);
  }
  pthread_mutex_unlock(&tlock);
}

__attribute__((constructor)) static void timing_ctor(void)
{
  omp_ext_timing_enabled();
}
