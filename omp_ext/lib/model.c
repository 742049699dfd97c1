/*
 * Model: the paper's quantitative side (§2).  Power of a placement (§2.1),
 * capacity with SMT siblings worth sigma of a core, Amdahl speed-up, SPN
 * (§2.2), energy to solution, the Karp-Flatt serial fraction and the §2.3
 * rule "one more unit is worth it iff T1/T0 < P0/P1".
 *
 * Everything here is a pure function of an order prefix and a model, except
 * omp_ext_model_from_env(), which reads the model's variables from an
 * environment.  Orders come from the base rules (order.c); meta-policies
 * (energy) are resolved in policy.c, which calls the *_base functions here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "private/internal.h"

static const struct {
  const char *name;
  omp_ext_power_model_t pm;
} presets[] = {
  /* Paper §2.1, table of measured coefficients. */
  {"c6100", {76.11, 25.19, 9.68, 2.61}},
  {"dl380p", {106.41, 39.74, 11.13, 2.83}},
};

static double absd(double x)
{
  return x < 0 ? -x : x;
}

/* Equal up to rounding: the figures compared come from the same formulas. */
static int same(double x, double y)
{
  double scale = absd(x) > absd(y) ? absd(x) : absd(y);
  return absd(x - y) <= 1e-9 * (scale > 1 ? scale : 1);
}

/* A whole finite number from text[0..len), strtod syntax. */
static int parse_double(const char *text, size_t len, double *v)
{
  char buf[64], *end;
  if (len == 0 || len >= sizeof(buf))
    return omp_ext_err_parse;
  memcpy(buf, text, len);
  buf[len] = '\0';
  *v = strtod(buf, &end);
  if (*end || end == buf || !isfinite(*v))
    return omp_ext_err_parse;
  return omp_ext_success;
}

static int watts_ok(double w)
{
  return isfinite(w) && w >= 0 && w <= OMP_EXT_MODEL_MAX_WATTS;
}

/* Bounded watts keep every modelled power finite (found by fuzz_model:
 * "1e308,1e308,1e308,1e308" made P overflow to infinity). */
static int power_ok(const omp_ext_power_model_t *pm)
{
  return watts_ok(pm->pn) && watts_ok(pm->ps) && watts_ok(pm->pc) && watts_ok(pm->pt) &&
         pm->pn + pm->ps + pm->pc > 0;
}

int omp_ext_power_model_parse(const char *text, omp_ext_power_model_t *pm)
{
  double v[4];
  unsigned i;
  const char *p;
  omp_ext_power_model_t out;
  if (!text || !pm)
    return omp_ext_err_invalid;
  for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
    if (strcmp(text, presets[i].name) == 0) {
      *pm = presets[i].pm;
      return omp_ext_success;
    }
  for (i = 0, p = text; i < 4; i++) {
    size_t len = strcspn(p, ",");
    if (parse_double(p, len, &v[i]) != 0)
      return omp_ext_err_parse;
    p += len;
    if (i < 3 && *p++ != ',')
      return omp_ext_err_parse; /* fewer than four numbers */
  }
  if (*p)
    return omp_ext_err_parse; /* more than four */
  out = (omp_ext_power_model_t){v[0], v[1], v[2], v[3]};
  if (!power_ok(&out))
    return omp_ext_err_parse;
  *pm = out;
  return omp_ext_success;
}

int omp_ext_model_check(const omp_ext_model_t *m)
{
  if (!m || !power_ok(&m->power) || !(m->sigma > 0 && m->sigma <= 1) ||
      !(m->serial >= 0 && m->serial < 1))
    return omp_ext_err_invalid;
  return omp_ext_success;
}

/* A number in [lo, hi] with the ends open as asked from variable \p name of
 * envp; unset or empty leaves *v alone. */
static int env_number(char *const *envp, const char *name, double lo, int lo_open, double hi,
                      int hi_open, double *v)
{
  const char *text = omp_ext_env_get(envp, name);
  double x;
  if (!text || !*text)
    return omp_ext_success;
  if (parse_double(text, strlen(text), &x) != 0 || x < lo || (lo_open && x == lo) || x > hi ||
      (hi_open && x == hi))
    return omp_ext_err_parse;
  *v = x;
  return omp_ext_success;
}

int omp_ext_model_default(omp_ext_model_t *m)
{
  if (!m)
    return omp_ext_err_invalid;
  m->sigma = OMP_EXT_MODEL_SIGMA;
  m->serial = OMP_EXT_MODEL_SERIAL;
  return omp_ext_power_model_parse(OMP_EXT_MODEL_PRESET, &m->power);
}

int omp_ext_model_from_env(char *const *envp, omp_ext_model_t *m, const char **bad_variable)
{
  omp_ext_model_t out;
  const char *pm = omp_ext_env_get(envp, "OMP_EXT_POWER_MODEL"), *bad = NULL;
  if (bad_variable)
    *bad_variable = NULL;
  if (!m)
    return omp_ext_err_invalid;
  omp_ext_model_default(&out);
  if (pm && *pm && omp_ext_power_model_parse(pm, &out.power) != 0)
    bad = "OMP_EXT_POWER_MODEL";
  else if (env_number(envp, "OMP_EXT_SIGMA", 0, 1, 1, 0, &out.sigma) != 0)
    bad = "OMP_EXT_SIGMA";
  else if (env_number(envp, "OMP_EXT_SERIAL_FRACTION", 0, 0, 1, 1, &out.serial) != 0)
    bad = "OMP_EXT_SERIAL_FRACTION";
  if (bad) {
    if (bad_variable)
      *bad_variable = bad;
    return omp_ext_err_parse;
  }
  *m = out;
  return omp_ext_success;
}

/* An order's usage, one PU at a time: what its prefix 1..k keeps busy, in
 * O(1) a step (hwloc bitmaps of the PUs, cores and packages seen), so a
 * walk of all prefixes is linear in PUs (it recounted each prefix: model
 * took 34 s at 16384 PUs). */
struct usage_walk {
  hwloc_bitmap_t pus, cores, packages;
  omp_ext_usage_t u;
};

static int walk_init(struct usage_walk *w)
{
  memset(w, 0, sizeof(*w));
  w->pus = hwloc_bitmap_alloc();
  w->cores = hwloc_bitmap_alloc();
  w->packages = hwloc_bitmap_alloc();
  return w->pus && w->cores && w->packages ? omp_ext_success : omp_ext_err_nomem;
}

static void walk_free(struct usage_walk *w)
{
  hwloc_bitmap_free(w->pus);
  hwloc_bitmap_free(w->cores);
  hwloc_bitmap_free(w->packages);
}

/* Add \p pu: omp_ext_err_invalid if it came before, nomem. */
static int walk_step(struct usage_walk *w, const omp_ext_pu_t *pu)
{
  if (hwloc_bitmap_isset(w->pus, pu->os_index))
    return omp_ext_err_invalid;
  if (hwloc_bitmap_set(w->pus, pu->os_index) < 0)
    return omp_ext_err_nomem;
  if (!hwloc_bitmap_isset(w->cores, pu->core)) {
    if (hwloc_bitmap_set(w->cores, pu->core) < 0)
      return omp_ext_err_nomem;
    w->u.cores++;
  }
  if (!hwloc_bitmap_isset(w->packages, pu->package)) {
    if (hwloc_bitmap_set(w->packages, pu->package) < 0)
      return omp_ext_err_nomem;
    w->u.packages++;
  }
  w->u.threads++;
  w->u.extra = w->u.threads - w->u.cores;
  return omp_ext_success;
}

int omp_ext_usage_of(const omp_ext_pu_t *order, unsigned n, omp_ext_usage_t *u)
{
  struct usage_walk w;
  unsigned i;
  int err;
  if (!u || (n > 0 && !order))
    return omp_ext_err_invalid;
  err = walk_init(&w);
  for (i = 0; !err && i < n; i++)
    err = walk_step(&w, &order[i]);
  if (!err)
    *u = w.u;
  walk_free(&w);
  return err;
}

double omp_ext_model_power(const omp_ext_power_model_t *pm, const omp_ext_usage_t *u)
{
  if (!pm || !u)
    return 0;
  return pm->pn + pm->ps * u->packages + pm->pc * u->cores + pm->pt * u->extra;
}

double omp_ext_model_capacity(const omp_ext_usage_t *u, double sigma)
{
  if (!u)
    return 0;
  return u->cores + sigma * u->extra;
}

double omp_ext_model_speedup(double serial, double capacity)
{
  if (!(serial >= 0 && serial < 1) || !(capacity > 0) || !isfinite(capacity))
    return 0;
  return 1 / (serial + (1 - serial) / capacity);
}

int omp_ext_karp_flatt(double n, double speedup, double *serial)
{
  if (!serial || !isfinite(n) || !isfinite(speedup) || !(n > 1) || !(speedup > 1) ||
      speedup > n)
    return omp_ext_err_invalid;
  *serial = (1 / speedup - 1 / n) / (1 - 1 / n);
  return omp_ext_success;
}

double omp_ext_model_spn(double speedup, double power, unsigned cores)
{
  if (!(power > 0) || cores == 0)
    return 0;
  return 1000 * speedup / (power * cores);
}

int omp_ext_energy_worth(double t0, double p0, double t1, double p1)
{
  if (!isfinite(t0) || !isfinite(p0) || !isfinite(t1) || !isfinite(p1) || !(t0 > 0) ||
      !(p0 > 0) || !(t1 > 0) || !(p1 > 0))
    return omp_ext_err_invalid;
  return t1 / t0 < p0 / p1;
}

/* The full order of a base policy. */
static int model_order(const omp_ext_topo_t *topo, omp_ht_policy_t base, omp_ext_pu_t **order)
{
  unsigned npus = omp_ext_topo_npus(topo);
  int err;
  if (!(*order = malloc(npus * sizeof(**order))))
    return omp_ext_err_nomem;
  if ((err = omp_ext_base_order(topo, base, npus, *order)) != 0) {
    free(*order);
    *order = NULL;
  }
  return err;
}

/* The estimate of a placement that keeps \p u busy (m checked). */
static omp_ext_estimate_t estimate_of(const omp_ext_model_t *m, const omp_ext_usage_t *u)
{
  omp_ext_estimate_t out;
  double p1 = m->power.pn + m->power.ps + m->power.pc;
  out.usage = *u;
  out.capacity = omp_ext_model_capacity(u, m->sigma);
  out.speedup = omp_ext_model_speedup(m->serial, out.capacity);
  out.power = omp_ext_model_power(&m->power, u);
  out.spn = omp_ext_model_spn(out.speedup, out.power, u->cores);
  out.energy = out.power / out.speedup / p1;
  return out;
}

int omp_ext_model_eval(const omp_ext_model_t *m, const omp_ext_pu_t *order, unsigned n,
                       omp_ext_estimate_t *e)
{
  omp_ext_usage_t u;
  int err;
  if (!order || !e || n == 0 || omp_ext_model_check(m) != 0)
    return omp_ext_err_invalid;
  if ((err = omp_ext_usage_of(order, n, &u)) != 0)
    return err;
  *e = estimate_of(m, &u);
  return omp_ext_success;
}

int omp_ext_model_eval_prefixes(const omp_ext_model_t *m, const omp_ext_pu_t *order,
                                unsigned n, omp_ext_estimate_t *e)
{
  struct usage_walk w;
  unsigned k;
  int err;
  if (!order || !e || n == 0 || omp_ext_model_check(m) != 0)
    return omp_ext_err_invalid;
  err = walk_init(&w);
  for (k = 0; !err && k < n; k++)
    if ((err = walk_step(&w, &order[k])) == 0)
      e[k] = estimate_of(m, &w.u);
  walk_free(&w);
  return err;
}

/* The estimates of every prefix of base's full order, malloc'ed (npus). */
static int prefix_estimates(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                            omp_ht_policy_t base, omp_ext_estimate_t **est)
{
  unsigned npus = omp_ext_topo_npus(topo);
  omp_ext_pu_t *order;
  int err;
  if ((err = model_order(topo, base, &order)) != 0)
    return err;
  if (!(*est = malloc(npus * sizeof(**est))))
    err = omp_ext_err_nomem;
  else if ((err = omp_ext_model_eval_prefixes(m, order, npus, *est)) != 0) {
    free(*est);
    *est = NULL;
  }
  free(order);
  return err;
}

/* Is candidate a strictly better than b for obj?  Last tie-break: fewer threads. */
static int better(omp_ext_objective_t obj, const omp_ext_estimate_t *a,
                  const omp_ext_estimate_t *b)
{
  double x[2], y[2]; /* primary, secondary: larger is better */
  unsigned k;
  switch (obj) {
  case omp_ext_objective_speed:
    x[0] = a->speedup, y[0] = b->speedup, x[1] = -a->energy, y[1] = -b->energy;
    break;
  case omp_ext_objective_spn:
    x[0] = a->spn, y[0] = b->spn, x[1] = a->speedup, y[1] = b->speedup;
    break;
  default:
    x[0] = -a->energy, y[0] = -b->energy, x[1] = a->spn, y[1] = b->spn;
    break;
  }
  for (k = 0; k < 2; k++)
    if (!same(x[k], y[k]))
      return x[k] > y[k];
  return a->usage.threads < b->usage.threads;
}

int omp_ext_model_best_base(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                            const omp_ht_policy_t *bases, unsigned nbases,
                            omp_ext_objective_t objective, unsigned *index, unsigned *n,
                            omp_ext_estimate_t *est)
{
  omp_ext_estimate_t best, *e;
  unsigned i, k;
  int err, found = 0;
  if (!topo || !bases || !nbases || !index || !n || omp_ext_model_check(m) != 0)
    return omp_ext_err_invalid;
  for (i = 0; i < nbases; i++) {
    if ((err = prefix_estimates(topo, m, bases[i], &e)) != 0)
      return err;
    for (k = 1; k <= omp_ext_topo_npus(topo); k++)
      if (!found || better(objective, &e[k - 1], &best)) {
        best = e[k - 1];
        *index = i;
        *n = k;
        found = 1;
      }
    free(e);
  }
  if (est)
    *est = best;
  return omp_ext_success;
}

int omp_ext_model_bound_base(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                             omp_ht_policy_t base, unsigned *n)
{
  omp_ext_estimate_t *e;
  unsigned k, npus;
  int err;
  if (!topo || !n || omp_ext_model_check(m) != 0)
    return omp_ext_err_invalid;
  if ((err = prefix_estimates(topo, m, base, &e)) != 0)
    return err;
  npus = omp_ext_topo_npus(topo);
  for (k = 2; k <= npus; k++)
    if (omp_ext_energy_worth(1 / e[k - 2].speedup, e[k - 2].power, 1 / e[k - 1].speedup,
                             e[k - 1].power) != 1)
      break;
  *n = k - 1;
  free(e);
  return omp_ext_success;
}
