/*
 * Region timing (OMP_EXT_TIMING=FILE) and named measurements: see
 * include/omp_ext/timing.h.  The hooks (hooks.c) call omp_ext_timing_begin()
 * and omp_ext_timing_end() in the thread that starts an outermost region;
 * everything here runs only when timing is on (one relaxed load otherwise).
 * The per-region path is inline in timing_hot.h (no lock: each root thread
 * adds to its own part of a region); here the first instance of a region
 * and team size in a thread, binding records, statistics and the file.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
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
#include "region.h"
#include "runtime.h"
#include "timing_hot.h"

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
  const void *at;  /* the address its name comes from */
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

static void timing_init(void)
{
  const char *f = getenv("OMP_EXT_TIMING");
  t_load = now_s();
  if (f && *f && (timing_file = strdup(f)) != NULL) {
    omp_ext_timing_tsc = kernel_uses_tsc();
    clock_pair(&load_ticks, &load_ns);
    __atomic_store_n(&omp_ext_timing_flag, 1, __ATOMIC_RELEASE);
  }
}

int omp_ext_timing_enabled(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, timing_init);
  return __atomic_load_n(&omp_ext_timing_flag, __ATOMIC_ACQUIRE);
}

/* The entry of \p key / \p name, created if missing; tlock held. */
static struct region *find_locked(const void *key, const char *name)
{
  size_t i;
  struct region *r;
  for (i = 0; i < nregions; i++)
    if (name ? regions[i].name && strcmp(regions[i].name, name) == 0
             : !regions[i].name && regions[i].key == key)
      return &regions[i];
  if (nregions == capregions) {
    size_t cap = capregions ? 2 * capregions : 16;
    struct region *n = realloc(regions, cap * sizeof(*n));
    if (!n)
      return NULL;
    regions = n, capregions = cap;
  }
  r = &regions[nregions];
  memset(r, 0, sizeof(*r));
  r->key = key;
  if (name && !(r->name = strdup(name)))
    return NULL;
  nregions++;
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

/* Room for one more sample in \p p (amortized: the capacity doubles);
 * tlock held. */
static void grow_locked(part_t *p)
{
  size_t cap = p->cap ? 2 * p->cap : 64;
  double *s;
  if (p->n < p->cap)
    return;
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
  if ((r = find_locked(key, NULL)) != NULL) {
    if (!r->at)
      r->at = at;
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
  if ((r = find_locked(tl->key, NULL)) != NULL) {
    if (!r->at)
      r->at = tl->at;
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
    unsigned slot = omp_ext_timing_slot(tl->key, tl->team);
    tl->seen[slot].key = tl->key, tl->seen[slot].part = p;
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
  if ((r = find_locked(NULL, name)) != NULL)
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
  if ((r = find_locked(NULL, name)) != NULL && r->start > 0) {
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

/* Statistics of \p r, its parts merged, in seconds (\p tick_s per unit of
 * a parallel region's parts); tlock held.  Writers of parts may run on:
 * what they add after the snapshot of their n is not counted. */
static void stats_locked(struct region *r, omp_ext_timer_stats_t *s, double tick_s)
{
  const part_t *p, *first = NULL;
  size_t n = 0, m, nparts = 0;
  unsigned long count = 0;
  double *v, val, k = r->name ? 1 : tick_s;
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
    n += pn < p->cap ? pn : p->cap;
    first = p, nparts++;
  }
  s->instances = count;
  if (nparts == 1 && n) { /* its samples in place (their writer adds only past them) */
    s->median_s = median(first->samples, n);
  } else if (n && (v = malloc(n * sizeof(*v))) != NULL) {
    for (m = 0, p = &r->own; p; p = p == &r->own ? r->parts : p->next) {
      unsigned long pn = __atomic_load_n(&p->n, __ATOMIC_ACQUIRE);
      size_t c = pn < p->cap ? pn : p->cap;
      if (c > n - m) /* (it added since) */
        c = n - m;
      if (c)
        memcpy(v + m, p->samples, c * sizeof(*v));
      m += c;
    }
    s->median_s = median(v, m);
    free(v);
  }
  s->total_s *= k, s->min_s *= k, s->max_s *= k, s->median_s *= k;
  s->mean_s = count ? s->total_s / (double)count : 0;
}

int omp_ext_timer_stats(const char *name, omp_ext_timer_stats_t *stats)
{
  size_t i;
  int err = omp_ext_err_invalid;
  if (!name || !stats)
    return err;
  pthread_mutex_lock(&tlock);
  for (i = 0; i < nregions; i++)
    if (regions[i].name && strcmp(regions[i].name, name) == 0 && regions[i].own.n > 0) {
      stats_locked(&regions[i], stats, 1);
      err = omp_ext_success;
      break;
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

/* "module": the object holding \p addr (its path), "offset": addr's
 * address in that object's own terms (minus its load bias), what
 * addr2line -e MODULE takes. */
static void write_module(FILE *f, const void *addr)
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
  fputs(", \"module\": ", f);
  json_str(f, path);
  fprintf(f, ", \"offset\": \"0x%lx\"", (unsigned long)((uintptr_t)addr - lm->l_addr));
}

/* "function+0xOFF" or "file+0xOFF" for a code address. */
static void region_name(const void *addr, char *buf, size_t len)
{
  Dl_info info;
  if (dladdr(addr, &info) && info.dli_sname && info.dli_saddr) {
    uintptr_t off = (uintptr_t)addr - (uintptr_t)info.dli_saddr;
    if (off)
      snprintf(buf, len, "%s+0x%lx", info.dli_sname, (unsigned long)off);
    else
      snprintf(buf, len, "%s", info.dli_sname);
  } else if (dladdr(addr, &info) && info.dli_fname) {
    const char *base = strrchr(info.dli_fname, '/');
    snprintf(buf, len, "%s+0x%lx", base ? base + 1 : info.dli_fname,
             (unsigned long)((uintptr_t)addr - (uintptr_t)info.dli_fbase));
  } else {
    snprintf(buf, len, "%p", addr);
  }
}

__attribute__((destructor)) static void timing_write(void)
{
  FILE *f;
  size_t i;
  double wall, in_regions = 0, tick_s;
  const part_t *p;
  if (!omp_ext_timing_on() || !timing_file)
    return;
  pthread_mutex_lock(&tlock);
  tick_s = tick_seconds();
  wall = now_s() - t_load;
  for (i = 0; i < nregions; i++) /* the outermost regions' time */
    for (p = regions[i].parts; p; p = p->next) {
      double t;
      __atomic_load(&p->total, &t, __ATOMIC_RELAXED);
      in_regions += t * tick_s;
    }
  if (!(f = fopen(timing_file, "w"))) {
    fprintf(stderr, "omp_ext: OMP_EXT_TIMING: cannot write '%s'\n", timing_file);
    pthread_mutex_unlock(&tlock);
    return;
  }
  fprintf(f, "{\"omp_ext_timing\": 1, \"wall_s\": %.9f, \"regions_s\": %.9f, \"serial_s\": %.9f,"
          "\n \"regions\": [", wall, in_regions, wall > in_regions ? wall - in_regions : 0.0);
  for (i = 0; i < nregions; i++) {
    struct region *r = &regions[i];
    omp_ext_timer_stats_t s;
    char name[512];
    unsigned j;
    stats_locked(r, &s, tick_s);
    if (r->name)
      snprintf(name, sizeof(name), "%s", r->name);
    else
      region_name(r->at, name, sizeof(name));
    qsort(r->sizes, r->nsizes, sizeof(unsigned), cmp_unsigned);
    fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
    json_str(f, name);
    fprintf(f, ", \"kind\": \"%s\", \"address\": \"%p\", \"instances\": %lu, \"team_sizes\": [",
            r->name ? "timer" : "parallel", r->name ? NULL : r->at, s.instances);
    for (j = 0; j < r->nsizes; j++)
      fprintf(f, "%s%u", j ? ", " : "", r->sizes[j]);
    fprintf(f, "], \"total_s\": %.9f, \"mean_s\": %.9f, \"median_s\": %.9f, \"min_s\": %.9f, "
            "\"max_s\": %.9f", s.total_s, s.mean_s, s.median_s, s.min_s, s.max_s);
    if (!r->name) {
      write_module(f, r->at);
      omp_ext_region_write_json(f, r->at); /* what per-region control chose */
    }
    write_bindings(f, r);
    fputc('}', f);
  }
  fprintf(f, "\n]}\n");
  if (ferror(f) | fclose(f)) /* (both: the file is closed either way) */
    fprintf(stderr, "omp_ext: OMP_EXT_TIMING: cannot write '%s'\n", timing_file);
  pthread_mutex_unlock(&tlock);
}

__attribute__((constructor)) static void timing_ctor(void)
{
  omp_ext_timing_enabled();
}
