/*
 * Calibrate: measure the paper's §2.1 power model on this machine.
 *
 *   reader  -- omp_ext_rapl_*: the package energy counters of a Linux
 *              powercap tree (a folder; tests give a fake one), wrap-corrected;
 *   driver  -- omp_ext_calibrate(): busy loops on growing prefixes of policy
 *              orders, power = energy / time from an injectable source;
 *   fit     -- omp_ext_power_fit(): least squares, a pure function of samples.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "private/internal.h"

/* ---- reader ------------------------------------------------------------ */

struct rapl_zone {
  char *path;                  /* ROOT/intel-rapl:N */
  unsigned long long max_uj;   /* max_energy_range_uj: the counter wraps past it */
  unsigned long long last_uj;  /* last energy_uj read */
};

struct omp_ext_rapl {
  struct rapl_zone *zones;
  unsigned nzones;
  unsigned long long total_uj; /* energy since open, all zones */
};

/* An unsigned decimal counter from DIR/FILE; errno EINVAL if not a number. */
static int read_counter(const char *dir, const char *file, unsigned long long *v)
{
  char buf[64];
  if (omp_ext_read_line(dir, file, buf, sizeof(buf)) != 0)
    return -1;
  if (omp_ext_parse_uint(buf, 0, ~0ULL, v) != OMP_EXT_UINT_OK) {
    errno = EINVAL;
    return -1;
  }
  return 0;
}

/* "intel-rapl:N" exactly: a package-level zone (subzones have a second colon). */
static int is_package_dir(const char *name)
{
  const char *p = "intel-rapl:";
  size_t len = strlen(p);
  if (strncmp(name, p, len) != 0 || !name[len])
    return 0;
  return strspn(name + len, "0123456789") == strlen(name + len);
}

static int add_zone(omp_ext_rapl_t *r, const char *root, const char *name, char *why,
                    size_t whylen)
{
  struct rapl_zone z, *zones;
  char label[64];
  if (asprintf(&z.path, "%s/%s", root, name) < 0)
    return omp_ext_err_nomem;
  if (omp_ext_read_line(z.path, "name", label, sizeof(label)) != 0 ||
      strncmp(label, "package-", 8) != 0) {
    free(z.path); /* psys, dram at top level, or no name: not a package */
    return omp_ext_success;
  }
  if (read_counter(z.path, "max_energy_range_uj", &z.max_uj) != 0 ||
      read_counter(z.path, "energy_uj", &z.last_uj) != 0) {
    omp_ext_say(why, whylen, "cannot read the RAPL counters of %s (energy_uj, max_energy_range_uj): %s%s",
        z.path, strerror(errno), errno == EACCES ? " (root is needed since Linux 5.10)" : "");
    free(z.path);
    return omp_ext_err_unsupported;
  }
  if (!(zones = realloc(r->zones, (r->nzones + 1) * sizeof(*zones)))) {
    free(z.path);
    return omp_ext_err_nomem;
  }
  r->zones = zones;
  r->zones[r->nzones++] = z;
  return omp_ext_success;
}

int omp_ext_rapl_open(const char *root, omp_ext_rapl_t **rapl, char *why, size_t whylen)
{
  omp_ext_rapl_t *r;
  struct dirent *d;
  DIR *dir;
  int err = omp_ext_success;
  if (!rapl)
    return omp_ext_err_invalid;
  if (!root || !*root)
    root = getenv("OMP_EXT_POWERCAP_ROOT");
  if (!root || !*root)
    root = OMP_EXT_POWERCAP_ROOT;
  if (!(dir = opendir(root))) {
    omp_ext_say(why, whylen, "no RAPL energy counters: cannot open %s: %s", root, strerror(errno));
    return omp_ext_err_unsupported;
  }
  if (!(r = calloc(1, sizeof(*r)))) {
    closedir(dir);
    return omp_ext_err_nomem;
  }
  while (!err && (d = readdir(dir)) != NULL)
    if (is_package_dir(d->d_name))
      err = add_zone(r, root, d->d_name, why, whylen);
  closedir(dir);
  if (!err && r->nzones == 0) {
    omp_ext_say(why, whylen, "no RAPL package zone under %s (expected intel-rapl:N folders named "
        "package-N: needs the intel_rapl_common driver and an Intel or AMD CPU)", root);
    err = omp_ext_err_unsupported;
  }
  if (err) {
    omp_ext_rapl_close(r);
    return err;
  }
  *rapl = r;
  return omp_ext_success;
}

unsigned omp_ext_rapl_nzones(const omp_ext_rapl_t *rapl)
{
  return rapl ? rapl->nzones : 0;
}

int omp_ext_rapl_read(omp_ext_rapl_t *rapl, double *joules)
{
  unsigned long long *now, delta = 0;
  unsigned i;
  int err = omp_ext_success;
  if (!rapl || !joules)
    return omp_ext_err_invalid;
  if (!(now = malloc(rapl->nzones * sizeof(*now))))
    return omp_ext_err_nomem;
  for (i = 0; !err && i < rapl->nzones; i++) {
    struct rapl_zone *z = &rapl->zones[i];
    if (read_counter(z->path, "energy_uj", &now[i]) != 0 || now[i] > z->max_uj)
      err = omp_ext_err_unsupported;
    /* Below the last value: the counter passed max_energy_range_uj. */
    else
      delta += now[i] >= z->last_uj ? now[i] - z->last_uj : z->max_uj - z->last_uj + now[i];
  }
  /* Commit only when every zone was read. */
  for (i = 0; !err && i < rapl->nzones; i++)
    rapl->zones[i].last_uj = now[i];
  free(now);
  if (err)
    return err;
  rapl->total_uj += delta;
  *joules = (double)rapl->total_uj / 1e6;
  return omp_ext_success;
}

void omp_ext_rapl_close(omp_ext_rapl_t *rapl)
{
  unsigned i;
  if (!rapl)
    return;
  for (i = 0; i < rapl->nzones; i++)
    free(rapl->zones[i].path);
  free(rapl->zones);
  free(rapl);
}

OMP_EXT_ENERGY_SOURCE(omp_ext_rapl_source, omp_ext_rapl_t, omp_ext_rapl_read)

/* ---- fit --------------------------------------------------------------- */

/* The sample's count for coefficient j: 1 (Pn), packages, cores, extra. */
static double regressor(const omp_ext_power_sample_t *s, unsigned j)
{
  switch (j) {
  case 0: return 1;
  case 1: return s->usage.packages;
  case 2: return s->usage.cores;
  default: return s->usage.extra;
  }
}

/* Solve the k x k system a x = b in place (Gaussian elimination, partial
 * pivoting); -1 if singular. */
static int solve(double a[4][4], double b[4], unsigned k, double x[4])
{
  unsigned i, j, r, p;
  double scale = 0;
  for (i = 0; i < k; i++)
    scale = fabs(a[i][i]) > scale ? fabs(a[i][i]) : scale;
  for (i = 0; i < k; i++) {
    for (p = i, r = i + 1; r < k; r++)
      if (fabs(a[r][i]) > fabs(a[p][i]))
        p = r;
    if (fabs(a[p][i]) <= 1e-9 * scale)
      return -1;
    for (j = 0; j < k; j++) {
      double t = a[i][j];
      a[i][j] = a[p][j];
      a[p][j] = t;
    }
    {
      double t = b[i];
      b[i] = b[p];
      b[p] = t;
    }
    for (r = i + 1; r < k; r++) {
      double f = a[r][i] / a[i][i];
      for (j = i; j < k; j++)
        a[r][j] -= f * a[i][j];
      b[r] -= f * b[i];
    }
  }
  for (i = k; i-- > 0;) {
    x[i] = b[i];
    for (j = i + 1; j < k; j++)
      x[i] -= a[i][j] * x[j];
    x[i] /= a[i][i];
  }
  return 0;
}

int omp_ext_power_fit(const omp_ext_power_sample_t *samples, unsigned n,
                      omp_ext_power_model_t *pm, unsigned *determined)
{
  double ata[4][4] = {{0}}, atb[4] = {0}, x[4] = {0}, coef[4] = {0};
  unsigned col[4], k = 0, i, j, l;
  if (!samples || !n || !pm)
    return omp_ext_err_invalid;
  for (i = 0; i < n; i++)
    if (!isfinite(samples[i].watts))
      return omp_ext_err_invalid;
  /* Columns that some sample exercises; Pn (the constant) always. */
  for (j = 0; j < 4; j++) {
    int used = j == 0;
    for (i = 0; i < n && !used; i++)
      used = regressor(&samples[i], j) != 0;
    if (used)
      col[k++] = j;
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < k; j++) {
      for (l = 0; l < k; l++)
        ata[j][l] += regressor(&samples[i], col[j]) * regressor(&samples[i], col[l]);
      atb[j] += regressor(&samples[i], col[j]) * samples[i].watts;
    }
  if (solve(ata, atb, k, x) != 0)
    return omp_ext_err_invalid;
  for (j = 0; j < k; j++)
    coef[col[j]] = x[j];
  *pm = (omp_ext_power_model_t){coef[0], coef[1], coef[2], coef[3]};
  if (determined)
    for (*determined = 0, j = 0; j < k; j++)
      *determined |= 1u << col[j];
  return omp_ext_success;
}

/* ---- driver ------------------------------------------------------------ */

struct spinner {
  pthread_t thread;
  hwloc_topology_t hw;
  unsigned pu;          /* OS index to bind to */
  atomic_int *stop;     /* set by the driver to end the loop */
  atomic_int *ready;    /* counts threads bound and spinning */
  int bind_failed;
};

static void *spin(void *arg)
{
  struct spinner *s = arg;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  volatile unsigned long work = 0;
  if (!set || hwloc_bitmap_only(set, s->pu) < 0 ||
      hwloc_set_cpubind(s->hw, set, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT) < 0)
    s->bind_failed = 1;
  hwloc_bitmap_free(set);
  atomic_fetch_add(s->ready, 1);
  while (!s->bind_failed && !atomic_load_explicit(s->stop, memory_order_relaxed))
    work++;
  return NULL;
}

static double source_now(const omp_ext_energy_source_t *src)
{
  struct timespec ts;
  if (src->now)
    return src->now(src->arg);
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_for(double seconds)
{
  struct timespec ts = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
    ;
}

/* Mean power (watts) over `seconds` while the spinners run. */
static int measure(const omp_ext_energy_source_t *src, double seconds, double *watts)
{
  double t0, t1, e0, e1;
  int err;
  sleep_for(seconds / 4 < 0.1 ? seconds / 4 : 0.1); /* let the loops settle */
  t0 = source_now(src);
  if ((err = src->read(src->arg, &e0)) != 0)
    return err;
  sleep_for(seconds);
  if ((err = src->read(src->arg, &e1)) != 0)
    return err;
  t1 = source_now(src);
  *watts = t1 > t0 ? (e1 - e0) / (t1 - t0) : 0;
  return omp_ext_success;
}

/* One sample with the first n PUs of order busy (n may be 0). */
static int sample(const omp_ext_topo_t *topo, const omp_ext_pu_t *order, unsigned n,
                  double seconds, const omp_ext_energy_source_t *src, double *watts)
{
  struct spinner *s = calloc(n ? n : 1, sizeof(*s));
  atomic_int stop = 0, ready = 0;
  unsigned i, started = 0;
  int err = omp_ext_success;
  if (!s)
    return omp_ext_err_nomem;
  for (i = 0; i < n && !err; i++) {
    s[i] = (struct spinner){0, omp_ext_topo_hwloc(topo), order[i].os_index, &stop, &ready, 0};
    if (pthread_create(&s[i].thread, NULL, spin, &s[i]) != 0)
      err = omp_ext_err_nomem;
    else
      started++;
  }
  while (!err && (unsigned)atomic_load(&ready) < started)
    sleep_for(0.001);
  for (i = 0; !err && i < started; i++)
    if (s[i].bind_failed)
      err = omp_ext_err_bind;
  if (!err)
    err = measure(src, seconds, watts);
  atomic_store(&stop, 1);
  for (i = 0; i < started; i++)
    pthread_join(s[i].thread, NULL);
  free(s);
  return err;
}

int omp_ext_calibrate(const omp_ext_topo_t *topo, const omp_ht_policy_t *policies,
                      unsigned npolicies, double seconds, omp_ext_energy_source_t src,
                      omp_ext_power_sample_t *samples, unsigned *nsamples)
{
  unsigned npus, i, k, count = 0;
  omp_ext_pu_t *order;
  int err;
  if (!topo || !policies || !npolicies || !samples || !nsamples || !src.read ||
      !(seconds > 0) || !isfinite(seconds))
    return omp_ext_err_invalid;
  for (i = 0; i < npolicies; i++)
    if ((unsigned)policies[i] >= OMP_EXT_NPOLICIES)
      return omp_ext_err_policy;
    else if (omp_ext_policy_is_base(policies[i]) != 1)
      return omp_ext_err_invalid; /* a meta-policy has no order of its own */
  if (!omp_ext_topo_is_thissystem(topo))
    return omp_ext_err_unsupported;
  npus = omp_ext_topo_npus(topo);
  if (!(order = malloc(npus * sizeof(*order))))
    return omp_ext_err_nomem;
  samples[0].usage = (omp_ext_usage_t){0, 0, 0, 0};
  samples[0].policy = policies[0];
  err = sample(topo, order, 0, seconds, &src, &samples[0].watts);
  count = !err;
  for (i = 0; !err && i < npolicies; i++) {
    err = omp_ext_base_order(topo, policies[i], npus, order);
    for (k = 1; !err && k <= npus; k++) {
      samples[count].policy = policies[i];
      if ((err = omp_ext_usage_of(order, k, &samples[count].usage)) == 0)
        err = sample(topo, order, k, seconds, &src, &samples[count].watts);
      count += !err;
    }
  }
  free(order);
  *nsamples = count; /* the complete ones, also on error */
  return err;
}
