/*
 * Region timing (OMP_EXT_TIMING=FILE) and named measurements: see
 * include/omp_ext/timing.h.  The hooks (hooks.c) call omp_ext_timing_begin()
 * and omp_ext_timing_end() in the thread that starts an outermost region;
 * everything here runs only when timing is on (one relaxed load otherwise).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "omp_ext.h"
#include "runtime.h"

#define MAXSIZES 16

struct region {
  const void *key; /* the construct (code address); NULL for a named measurement */
  const void *at;  /* the address its name comes from */
  char *name;      /* named measurement's name */
  unsigned long n;
  double total, min, max, start;
  double *samples; /* every instance, for the median */
  size_t cap;
  unsigned sizes[MAXSIZES], nsizes;
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

void omp_ext_timing_begin(const void *key, const void *at, unsigned team)
{
  if (tl_open++) /* a region nested in the open one, by its primary thread */
    return;
  tl_key = key;
  tl_at = at;
  tl_team = team;
  tl_t0 = now_s();
}

void omp_ext_timing_end(void)
{
  double dt = now_s() - tl_t0;
  struct region *r;
  if (!tl_open || --tl_open)
    return;
  pthread_mutex_lock(&tlock);
  if ((r = find_locked(tl_key, NULL)) != NULL) {
    if (!r->at)
      r->at = tl_at;
    add_locked(r, dt, tl_team);
  }
  in_regions += dt;
  pthread_mutex_unlock(&tlock);
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
            "\"max_s\": %.9f}", s.total_s, s.mean_s, s.median_s, s.min_s, s.max_s);
  }
  fprintf(f, "\n]}\n");
  fclose(f);
  pthread_mutex_unlock(&tlock);
}

__attribute__((constructor)) static void timing_ctor(void)
{
  omp_ext_timing_enabled();
}
