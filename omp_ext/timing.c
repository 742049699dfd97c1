/*
 * Region timing (OMP_EXT_TIMING=FILE) and named measurements: see
 * include/omp_ext/timing.h.  The hooks (hooks.c) call omp_ext_timing_begin()
 * and omp_ext_timing_end() in the thread that starts an outermost region;
 * everything here runs only when timing is on (one relaxed load otherwise).
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
#include "runtime.h"

#define MAXSIZES 16
#define NSEEN 16 /* (region, team size) pairs a thread remembers as recorded */

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

struct region {
  const void *key; /* the construct (code address); NULL for a named measurement */
  const void *at;  /* the address its name comes from */
  char *name;      /* named measurement's name */
  unsigned long n;
  double total, min, max, start;
  double *samples; /* every instance, for the median */
  size_t cap;
  unsigned sizes[MAXSIZES], nsizes;
  struct bindrec binds[MAXSIZES];
  unsigned nbinds;
};

static pthread_mutex_t tlock = PTHREAD_MUTEX_INITIALIZER;
static struct region *regions;
static size_t nregions, capregions;
static int timing_on; /* atomic: OMP_EXT_TIMING set */
static char *timing_file;
static double t_load, in_regions;

/* The outermost region the calling thread has open. */
static __thread double tl_t0 __attribute__((tls_model("initial-exec")));
static __thread const void *tl_key __attribute__((tls_model("initial-exec")));
static __thread const void *tl_at __attribute__((tls_model("initial-exec")));
static __thread unsigned tl_team __attribute__((tls_model("initial-exec")));
static __thread int tl_open __attribute__((tls_model("initial-exec")));  /* depth */
static __thread int tl_rec __attribute__((tls_model("initial-exec")));   /* recording */
/* (region, team size) pairs whose binding is recorded: no lock to skip them. */
static __thread struct seen {
  const void *key;
  unsigned team;
} tl_seen[NSEEN] __attribute__((tls_model("initial-exec")));

/* The team being recorded (one at a time in the process): its threads'
 * slots, published with release before the fork. */
static struct tbind *rec_th; /* atomic */
static unsigned rec_n;

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void timing_init(void)
{
  const char *f = getenv("OMP_EXT_TIMING");
  t_load = now_s();
  if (f && *f && (timing_file = strdup(f)) != NULL)
    __atomic_store_n(&timing_on, 1, __ATOMIC_RELEASE);
}

int omp_ext_timing_enabled(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, timing_init);
  return __atomic_load_n(&timing_on, __ATOMIC_ACQUIRE);
}

int omp_ext_timing_on(void)
{
  return __atomic_load_n(&timing_on, __ATOMIC_RELAXED);
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

/* Add one instance of \p dt seconds with team \p team; tlock held. */
static void add_locked(struct region *r, double dt, unsigned team)
{
  unsigned i;
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 64;
    double *s = realloc(r->samples, cap * sizeof(*s));
    if (s)
      r->samples = s, r->cap = cap;
  }
  if (r->n < r->cap)
    r->samples[r->n] = dt;
  r->min = r->n == 0 || dt < r->min ? dt : r->min;
  r->max = r->n == 0 || dt > r->max ? dt : r->max;
  r->total += dt;
  r->n++;
  for (i = 0; i < r->nsizes && r->sizes[i] != team; i++)
    ;
  if (i == r->nsizes && r->nsizes < MAXSIZES)
    r->sizes[r->nsizes++] = team;
}

int omp_ext_timing_open(void)
{
  return tl_open != 0;
}

static unsigned seen_slot(const void *key, unsigned team)
{
  uintptr_t h = (uintptr_t)key >> 4;
  return (unsigned)((h ^ (h >> 7) ^ team) % NSEEN);
}

static struct bindrec *bindrec_of(struct region *r, unsigned team)
{
  unsigned i;
  for (i = 0; i < r->nbinds; i++)
    if (r->binds[i].team == team)
      return &r->binds[i];
  return NULL;
}

/* The first instance of (key, team) in this thread: record its team's
 * binding unless it is recorded already or another team is being recorded.
 * Returns 1 when recording. */
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
  if (recorded) {
    struct seen *s = &tl_seen[seen_slot(key, team)];
    s->key = key, s->team = team;
  }
  return tl_rec = th != NULL;
}

int omp_ext_timing_begin(const void *key, const void *at, unsigned team)
{
  const struct seen *s;
  int rec = 0;
  if (tl_open++) /* a region nested in the open one, by its primary thread */
    return 0;
  tl_key = key;
  tl_at = at;
  tl_team = team;
  s = &tl_seen[seen_slot(key, team)];
  if (__builtin_expect(s->key != key || s->team != team, 0))
    rec = start_record(key, at, team);
  tl_t0 = now_s();
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
  if (r && r->nbinds < MAXSIZES && !bindrec_of(r, tl_team)) {
    r->binds[r->nbinds].team = tl_team;
    r->binds[r->nbinds++].th = th;
  } else {
    free(th);
  }
  __atomic_store_n(&rec_th, NULL, __ATOMIC_RELEASE);
}

int omp_ext_timing_end(void)
{
  double dt = now_s() - tl_t0;
  struct region *r;
  int done = 0;
  if (!tl_open || --tl_open)
    return 0;
  pthread_mutex_lock(&tlock);
  if ((r = find_locked(tl_key, NULL)) != NULL) {
    if (!r->at)
      r->at = tl_at;
    add_locked(r, dt, tl_team);
  }
  in_regions += dt;
  if (tl_rec) {
    finish_record_locked(r);
    tl_rec = 0;
    done = 1;
  }
  pthread_mutex_unlock(&tlock);
  if (done) {
    struct seen *s = &tl_seen[seen_slot(tl_key, tl_team)];
    s->key = tl_key, s->team = tl_team;
  }
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
    add_locked(r, t - r->start, 1);
    r->start = 0;
    err = omp_ext_success;
  }
  pthread_mutex_unlock(&tlock);
  return err;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int cmp_unsigned(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

/* Statistics of \p r; tlock held (sorts its samples). */
static void stats_locked(struct region *r, omp_ext_timer_stats_t *s)
{
  size_t n = r->n < r->cap ? r->n : r->cap;
  s->instances = r->n;
  s->total_s = r->total;
  s->mean_s = r->n ? r->total / (double)r->n : 0;
  s->min_s = r->min;
  s->max_s = r->max;
  s->median_s = 0;
  if (n) {
    qsort(r->samples, n, sizeof(double), cmp_double);
    s->median_s = n % 2 ? r->samples[n / 2] : (r->samples[n / 2 - 1] + r->samples[n / 2]) / 2;
  }
}

int omp_ext_timer_stats(const char *name, omp_ext_timer_stats_t *stats)
{
  size_t i;
  int err = omp_ext_err_invalid;
  if (!name || !stats)
    return err;
  pthread_mutex_lock(&tlock);
  for (i = 0; i < nregions; i++)
    if (regions[i].name && strcmp(regions[i].name, name) == 0 && regions[i].n > 0) {
      stats_locked(&regions[i], stats);
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
  double wall;
  if (!omp_ext_timing_on() || !timing_file)
    return;
  pthread_mutex_lock(&tlock);
  wall = now_s() - t_load;
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
    stats_locked(r, &s);
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
    if (!r->name)
      write_module(f, r->at);
    write_bindings(f, r);
    fputc('}', f);
  }
  fprintf(f, "\n]}\n");
  fclose(f);
  pthread_mutex_unlock(&tlock);
}

__attribute__((constructor)) static void timing_ctor(void)
{
  omp_ext_timing_enabled();
}
