/*
 * htplaces tune: the analysis -- per configuration the median and 95%
 * confidence interval (Student t) of its time, energy, SPN and EDP over the
 * rounds; the speed-up S_N against one thread; the serial fraction by
 * Karp-Flatt, s = (1/S_N - 1/N) / (1 - 1/N) (paper §2.3; s = 1 at S_N = 1);
 * sigma, what an SMT sibling adds (paper §1.2), from the pairs "C threads
 * one per core" and "2C threads, two on each of those same C cores":
 * sigma = T(C) / T(2C) - 1; SPN = 1000 S_N / (P C) (paper §2.2); and the
 * recommendation per objective: every configuration tested against the
 * fastest by a paired t-test over the rounds (the rounds are paired by
 * design: each round runs every configuration once, in a shuffled order),
 * the cheapest of those not significantly worse recommended.
 * Pure functions: no I/O, tested on crafted runs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tune_int.h"

double tune_sigma(double t_one_per_core, double t_two_per_core)
{
  if (!(t_one_per_core > 0) || !(t_two_per_core > 0))
    return NAN;
  return t_one_per_core / t_two_per_core - 1;
}

/* Karp-Flatt at N threads with speed-up S: (1/S - 1/N) / (1 - 1/N); 1 at
 * S = 1 (nothing gained in parallel), and 1 for S < 1 too (slower than one
 * thread: the formula would pass 1, which no serial fraction can; the
 * speed-up beside it says how much slower).  NAN for N <= 1, S <= 0 or
 * S > N (superlinear: no serial part to speak of). */
static double karp_flatt(unsigned n, double speedup)
{
  if (n < 2 || !isfinite(speedup) || !(speedup > 0) || speedup > n)
    return NAN;
  if (speedup <= 1)
    return 1;
  return (1 / speedup - 1.0 / n) / (1 - 1.0 / n);
}

static int counts(const struct tune_run *run)
{
  return run->status == 0 && !run->invalid[0];
}

double tune_run_metric(const struct tune_config *c, const struct tune_run *run, double t1,
                       enum tune_objective o)
{
  double power = run->wall_s > 0 ? run->energy_j / run->wall_s : NAN;
  if (!counts(run))
    return NAN;
  switch (o) {
  case TUNE_TIME: return run->wall_s;
  case TUNE_ENERGY: return run->energy_j;
  case TUNE_SPN:
    return t1 > 0 && run->wall_s > 0 ? omp_ext_model_spn(t1 / run->wall_s, power, c->usage.cores)
                                     : NAN;
  case TUNE_EDP: return run->energy_j * run->wall_s;
  default: return NAN;
  }
}

/* Stats of the successful runs' values; n 0 if none is finite. */
static void metric_stats(const struct tune_config *c, double t1, int o, double *buf,
                         omp_ext_stats_t *st, unsigned *clipped)
{
  unsigned i, k = 0;
  for (i = 0; i < c->nruns; i++) {
    double v = tune_run_metric(c, &c->runs[i], t1, (enum tune_objective)o);
    if (isfinite(v))
      buf[k++] = v;
  }
  memset(st, 0, sizeof(*st));
  if (k == 0 || omp_ext_stats_compute(buf, k, st) != 0)
    st->n = 0;
  else if (st->ci95_lo < 0) { /* times, energies and SPN are never negative */
    st->ci95_lo = 0;
    *clipped |= 1u << o;
  }
}

/* The 1-thread configuration the speed-ups are taken against: the fastest
 * successful one (none, os, ... all mean one thread on one PU). */
static int find_baseline(const struct tune_config *c, const struct tune_result *r, unsigned n)
{
  int b = -1;
  unsigned i;
  for (i = 0; i < n; i++)
    if (c[i].threads == 1 && r[i].ok && !r[i].failed && !TUNE_IS_AUTO(&c[i]) &&
        (b < 0 || r[i].time.median < r[b].time.median))
      b = (int)i;
  return b;
}

static void one_config(const struct tune_config *c, double t1, double *buf, struct tune_result *r)
{
  unsigned i, k = 0;
  int o;
  memset(r, 0, sizeof(*r));
  for (i = 0; i < c->nruns; i++) {
    if (c->runs[i].status != 0)
      r->failed = 1;
    else if (c->runs[i].invalid[0])
      r->invalid++;
    else
      r->ok++;
  }
  for (o = 0; o < TUNE_NOBJECTIVES; o++) {
    metric_stats(c, t1, o, buf, &r->metric[o], &r->clipped);
    r->ratio[o] = NAN;
  }
  r->time = r->metric[TUNE_TIME];
  r->speedup = r->serial = r->power_w = r->cpu_util = NAN;
  if (!r->ok)
    return;
  if (t1 > 0)
    r->speedup = t1 / r->time.median;
  if (c->threads > 1 && !TUNE_IS_AUTO(c)) /* (auto: no one N) */
    r->serial = karp_flatt(c->threads, r->speedup);
  if (r->metric[TUNE_ENERGY].n)
    r->power_w = r->metric[TUNE_ENERGY].median / r->time.median;
  for (i = 0; i < c->nruns; i++)
    if (counts(&c->runs[i]) && c->runs[i].wall_s > 0)
      buf[k++] = c->runs[i].cpu_s / (c->runs[i].wall_s * c->threads);
  r->cpu_util = tune_median(buf, k);
}

/* A configuration counts when none of its runs failed and at least
 * TUNE_MIN_RUNS succeeded (fewer give no confidence interval worth the
 * name: --budget may leave some with less). */
static int usable(const struct tune_result *r)
{
  return r->ok >= TUNE_MIN_RUNS && !r->failed;
}

/* The configuration the program's serial fraction is read from: the most
 * cores with one PU each (no SMT sibling muddles Amdahl's N), bound. */
static int serial_source(const struct tune_config *c, const struct tune_result *r, unsigned n)
{
  int b = -1;
  unsigned i;
  for (i = 0; i < n; i++) {
    if (!usable(&r[i]) || c[i].threads < 2 || !isfinite(r[i].serial) ||
        c[i].policy == TUNE_NONE || TUNE_IS_AUTO(&c[i]) || c[i].usage.extra != 0)
      continue;
    if (b < 0 || c[i].threads > c[b].threads ||
        (c[i].threads == c[b].threads && r[i].time.median < r[b].time.median))
      b = (int)i;
  }
  return b;
}

static int cmp_unsigned(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

/* c's place cores, sorted, into tmp[threads]; 0, or -1 without places. */
static int sorted_cores(const struct tune_config *c, unsigned *tmp)
{
  if (!c->place_core || c->policy == TUNE_NONE || c->threads == 0)
    return -1;
  memcpy(tmp, c->place_core, c->threads * sizeof(*tmp));
  qsort(tmp, c->threads, sizeof(*tmp), cmp_unsigned);
  return 0;
}

/* Two PUs of j's places on one core are the same PU? (a place list never
 * repeats a PU; a crafted one might) */
static int distinct_pus(const struct tune_config *j)
{
  unsigned a, b;
  if (!j->place_pu)
    return 0;
  for (a = 0; a < j->threads; a++)
    for (b = a + 1; b < j->threads; b++)
      if (j->place_pu[a] == j->place_pu[b])
        return 0;
  return 1;
}

/* Is (i, j) a sigma pair: i has C threads, one on each of C distinct cores;
 * j has 2C threads on two distinct PUs of each of exactly those cores?
 * (The cores are compared, not their counts: 3 threads on one core and 1 on
 * another, or the same count of cores elsewhere, is no pair.)  tmp: room
 * for 3 x j's threads. */
static int is_sigma_pair(const struct tune_config *i, const struct tune_config *j, unsigned *tmp)
{
  unsigned *a = tmp, *b = tmp + i->threads, k;
  if (j->threads != 2 * i->threads || j->wait != i->wait || sorted_cores(i, a) != 0 ||
      sorted_cores(j, b) != 0)
    return 0;
  for (k = 0; k < i->threads; k++)
    if ((k && a[k] == a[k - 1]) || b[2 * k] != a[k] || b[2 * k + 1] != a[k])
      return 0;
  return distinct_pus(j);
}

static unsigned max_threads(const struct tune_config *c, unsigned n)
{
  unsigned i, m = 1;
  for (i = 0; i < n; i++)
    if (c[i].threads > m)
      m = c[i].threads;
  return m;
}

/* Every sigma pair of usable configurations into s->pairs; s->sigma their
 * median.  0 or omp_ext_err_nomem. */
static int sigma_pairs(const struct tune_config *c, const struct tune_result *r, unsigned n,
                       double *buf, struct tune_summary *s)
{
  unsigned i, j, cap = 0, *tmp = malloc(3 * (size_t)max_threads(c, n) * sizeof(*tmp));
  if (!tmp)
    return omp_ext_err_nomem;
  for (i = 0; i < n; i++) {
    if (!usable(&r[i]))
      continue;
    for (j = 0; j < n; j++) {
      struct tune_sigma_pair *more;
      if (!usable(&r[j]) || !is_sigma_pair(&c[i], &c[j], tmp))
        continue;
      if (s->npairs == cap) {
        cap = cap ? 2 * cap : 8;
        if (!(more = realloc(s->pairs, cap * sizeof(*more)))) {
          free(tmp);
          return omp_ext_err_nomem;
        }
        s->pairs = more;
      }
      s->pairs[s->npairs++] = (struct tune_sigma_pair){
        (int)i, (int)j, tune_sigma(r[i].time.median, r[j].time.median)};
    }
  }
  free(tmp);
  for (i = 0; i < s->npairs; i++)
    buf[i] = s->pairs[i].sigma;
  s->sigma = tune_median(buf, s->npairs);
  return omp_ext_success;
}

/* Fewer cores, then fewer threads. */
static int cheaper(const struct tune_config *a, const struct tune_config *b)
{
  if (a->usage.cores != b->usage.cores)
    return a->usage.cores < b->usage.cores;
  return a->threads < b->threads;
}

static int same_cost(const struct tune_config *a, const struct tune_config *b)
{
  return a->usage.cores == b->usage.cores && a->threads == b->threads;
}

/* Is a's median better than b's for objective o (exact ties: cheaper)? */
static int better(const struct tune_config *c, const struct tune_result *r, enum tune_objective o,
                  int a, int b)
{
  double x = r[a].metric[o].median, y = r[b].metric[o].median;
  if (x != y)
    return o == TUNE_SPN ? x > y : x < y;
  return cheaper(&c[a], &c[b]);
}

int tune_paired_test(const struct tune_config *a, const struct tune_config *b, double t1,
                     enum tune_objective o, double *ratio, unsigned *paired)
{
  double sum = 0, ss = 0, mean, sd;
  unsigned i, j, k = 0, used;
  double *d = malloc((a->nruns + 1) * sizeof(*d));
  *ratio = NAN;
  *paired = 0;
  if (!d)
    return 0;
  for (i = 0; i < a->nruns; i++) {
    double x = tune_run_metric(a, &a->runs[i], t1, o), y = NAN;
    if (!(x > 0))
      continue;
    for (j = 0; j < b->nruns && !(y > 0); j++)
      if (b->runs[j].round == a->runs[i].round)
        y = tune_run_metric(b, &b->runs[j], t1, o);
    if (y > 0)
      d[k++] = log(x / y);
  }
  for (i = 0; i < k; i++)
    sum += d[i];
  used = k;
  *paired = used;
  if (used == 0) {
    free(d);
    return 0;
  }
  mean = sum / used;
  *ratio = exp(mean);
  if (used < 2) {
    free(d);
    return 0;
  }
  for (i = 0; i < used; i++)
    ss += (d[i] - mean) * (d[i] - mean);
  free(d);
  sd = sqrt(ss / (used - 1));
  if (fabs(mean) <= 1e-12) /* the same in every round */
    return 0;
  if (sd == 0 || fabs(mean) / (sd / sqrt(used)) > omp_ext_student_t975(used - 1))
    return mean > 0 ? 1 : -1;
  return 0;
}

void tune_recommend(const struct tune_config *c, struct tune_result *r, unsigned n,
                    enum tune_objective o, struct tune_summary *s)
{
  double t1 = s->baseline >= 0 ? r[s->baseline].time.median : NAN;
  unsigned i;
  int f = -1, b = -1, u = -1, worse = o == TUNE_SPN ? -1 : 1;
  for (i = 0; i < n; i++) { /* (auto, a run-time choice, is only compared) */
    r[i].tied[o] = 0;
    if (usable(&r[i]) && r[i].metric[o].n && !TUNE_IS_AUTO(&c[i]) &&
        (f < 0 || better(c, r, o, (int)i, f)))
      f = (int)i;
  }
  s->fastest[o] = f;
  s->ntied[o] = 0;
  for (i = 0; f >= 0 && i < n; i++) {
    if (!usable(&r[i]) || !r[i].metric[o].n)
      continue;
    if ((int)i == f) {
      r[i].ratio[o] = 1;
      r[i].paired[o] = r[i].metric[o].n;
      r[i].tied[o] = 1;
    } else {
      r[i].tied[o] = tune_paired_test(&c[i], &c[f], t1, o, &r[i].ratio[o], &r[i].paired[o]) !=
                     worse;
    }
    if (!r[i].tied[o] || TUNE_IS_AUTO(&c[i]))
      continue;
    s->ntied[o]++;
    if (b < 0 || cheaper(&c[i], &c[b]) ||
        (same_cost(&c[i], &c[b]) && better(c, r, o, (int)i, b)))
      b = (int)i;
  }
  for (i = 0; i < n; i++)
    if ((int)i != b && usable(&r[i]) && r[i].metric[o].n && !TUNE_IS_AUTO(&c[i]) &&
        (u < 0 || better(c, r, o, (int)i, u)))
      u = (int)i;
  s->best[o] = b;
  s->runner_up[o] = u;
  s->significant[o] = b >= 0 && u >= 0 && s->ntied[o] == 1;
}

/* The largest count of values any buffer of the analysis holds. */
static unsigned max_values(const struct tune_config *c, unsigned n)
{
  unsigned i, k, m = n;
  for (i = 0; i < n; i++) {
    if (c[i].nruns > m)
      m = c[i].nruns;
    if (c[i].nserial > m)
      m = c[i].nserial;
    for (k = 0; k < c[i].nregions; k++)
      if (c[i].regions[k].nruns > m)
        m = c[i].regions[k].nruns;
  }
  return m;
}

double tune_median(double *x, unsigned n)
{
  omp_ext_stats_t st;
  return n && omp_ext_stats_compute(x, n, &st) == 0 ? st.median : NAN;
}

/* Every configuration's region of every summary region: at[i * nk + k] is
 * configuration i's region k, or NULL (found once by key, then O(1): a
 * program may have tens of thousands of named regions). */
struct region_map {
  const struct tune_region **at;
  unsigned nk;
};

static const struct tune_region *region_at(const struct region_map *m, unsigned i, unsigned k)
{
  return m->at[(size_t)i * m->nk + k];
}

/* The median total seconds of region x; NAN if x is NULL.  buf: room for
 * its runs. */
static double region_median(const struct tune_region *x, double *buf)
{
  if (!x)
    return NAN;
  memcpy(buf, x->total_s, x->nruns * sizeof(*buf));
  return tune_median(buf, x->nruns);
}

/* sigma of one region over the program's pairs. */
static void region_sigma(const struct region_map *m, const struct tune_summary *s, unsigned k,
                         double *buf, double *pairs)
{
  struct tune_region_summary *g = &s->regions[k];
  unsigned p, n = 0;
  for (p = 0; p < s->npairs; p++) {
    double a = region_median(region_at(m, (unsigned)s->pairs[p].one_per_core, k), buf);
    double b = region_median(region_at(m, (unsigned)s->pairs[p].two_per_core, k), buf);
    if (isfinite(a) && isfinite(b))
      pairs[n++] = tune_sigma(a, b);
  }
  g->npairs = n;
  g->sigma = tune_median(pairs, n);
}

static int cmp_key(const void *x, const void *y)
{
  return strcmp((*(const struct tune_region *const *)x)->key,
                (*(const struct tune_region *const *)y)->key);
}

static int cmp_summary_key(const void *key, const void *g)
{
  return strcmp(key, ((const struct tune_region_summary *)g)->key);
}

/* s->regions: one per distinct key over all configurations, sorted by key.
 * 0 or omp_ext_err_nomem. */
static int collect_keys(const struct tune_config *c, unsigned n, struct tune_summary *s)
{
  size_t total = 0, k = 0, u;
  const struct tune_region **all;
  unsigned i, j;
  for (i = 0; i < n; i++)
    total += c[i].nregions;
  if (total == 0)
    return omp_ext_success;
  if (!(all = malloc(total * sizeof(*all))))
    return omp_ext_err_nomem;
  for (i = 0; i < n; i++)
    for (j = 0; j < c[i].nregions; j++)
      all[k++] = &c[i].regions[j];
  qsort(all, total, sizeof(*all), cmp_key);
  for (k = u = 0; k < total; k++)
    u += k == 0 || strcmp(all[k]->key, all[k - 1]->key) != 0;
  if (!(s->regions = calloc(u, sizeof(*s->regions)))) {
    free(all);
    return omp_ext_err_nomem;
  }
  for (k = 0; k < total; k++) {
    struct tune_region_summary *g;
    if (k && strcmp(all[k]->key, all[k - 1]->key) == 0)
      continue;
    g = &s->regions[s->nregions++];
    g->best = g->fastest = -1;
    g->timer = all[k]->timer;
    if (!(g->key = strdup(all[k]->key)) ||
        !(g->name = strdup(all[k]->name ? all[k]->name : all[k]->key))) {
      free(all);
      return omp_ext_err_nomem;
    }
  }
  free(all);
  return omp_ext_success;
}

/* The map of every configuration's regions onto s->regions. */
static int map_regions(const struct tune_config *c, unsigned n, const struct tune_summary *s,
                       struct region_map *m)
{
  unsigned i, j;
  m->nk = s->nregions;
  if (!(m->at = calloc((size_t)n * m->nk + 1, sizeof(*m->at))))
    return omp_ext_err_nomem;
  for (i = 0; i < n; i++)
    for (j = 0; j < c[i].nregions; j++) {
      const struct tune_region_summary *g =
        bsearch(c[i].regions[j].key, s->regions, s->nregions, sizeof(*s->regions),
                cmp_summary_key);
      if (g) /* (always found: the keys came from these regions) */
        m->at[(size_t)i * m->nk + (size_t)(g - s->regions)] = &c[i].regions[j];
    }
  return omp_ext_success;
}

/* Larger best total first; regions never best last, by key. */
static int cmp_region(const void *x, const void *y)
{
  const struct tune_region_summary *a = x, *b = y;
  if ((a->best >= 0) != (b->best >= 0))
    return a->best >= 0 ? -1 : 1;
  if (a->best >= 0 && a->best_s != b->best_s)
    return a->best_s > b->best_s ? -1 : 1;
  return strcmp(a->key, b->key);
}

static int cmp_name(const void *x, const void *y)
{
  return strcmp((*(const struct tune_region_summary *const *)x)->name,
                (*(const struct tune_region_summary *const *)y)->name);
}

/* How many other regions share each region's name. */
static int count_same_names(struct tune_summary *s)
{
  struct tune_region_summary **by = malloc((s->nregions + 1) * sizeof(*by));
  unsigned k, from, j;
  if (!by)
    return omp_ext_err_nomem;
  for (k = 0; k < s->nregions; k++)
    by[k] = &s->regions[k];
  qsort(by, s->nregions, sizeof(*by), cmp_name);
  for (from = 0; from < s->nregions; from = k) { /* runs of one name */
    for (k = from + 1; k < s->nregions && strcmp(by[k]->name, by[from]->name) == 0; k++)
      ;
    for (j = from; j < k; j++)
      by[j]->same_name = k - from - 1;
  }
  free(by);
  return omp_ext_success;
}

/* Region k's best configuration (lowest median total among the usable;
 * never auto, which is no configuration a plan can apply). */
static void region_best(const struct tune_config *c, const struct tune_result *r, unsigned n,
                        const struct region_map *m, unsigned k, struct tune_region_summary *g,
                        double *buf)
{
  unsigned i;
  for (i = 0; i < n; i++) {
    const struct tune_region *x = region_at(m, i, k);
    double t;
    if (!x)
      continue;
    if (x->team_max > g->team_max)
      g->team_max = x->team_max;
    if (!usable(&r[i]) || TUNE_IS_AUTO(&c[i]) || !isfinite(t = region_median(x, buf)))
      continue;
    if (g->best < 0 || t < g->best_s) {
      g->best = (int)i;
      g->best_s = t;
      g->instances = x->instances;
      memcpy(buf, x->median_s, x->nruns * sizeof(*buf));
      g->best_median_s = tune_median(buf, x->nruns);
    }
  }
}

/* Region k at the recommended global configuration rec instead of its
 * fastest, when it is tied there: no more than TUNE_REGION_TIE slower, or
 * within the spread of the fastest's own runs. */
static void region_prefer_global(const struct region_map *m, unsigned k, int rec,
                                 const struct tune_result *r, struct tune_region_summary *g,
                                 double *buf)
{
  const struct tune_region *x = rec >= 0 ? region_at(m, (unsigned)rec, k) : NULL;
  const struct tune_region *f = g->fastest >= 0 ? region_at(m, (unsigned)g->fastest, k) : NULL;
  double t, worst = g->fastest_s;
  unsigned i;
  if (!x || !f || rec == g->fastest || !usable(&r[rec]) || !isfinite(t = region_median(x, buf)))
    return;
  for (i = 0; i < f->nruns; i++)
    if (f->total_s[i] > worst)
      worst = f->total_s[i];
  if (t > g->fastest_s * (1 + TUNE_REGION_TIE) && t > worst)
    return;
  g->best = rec;
  g->best_s = t;
  memcpy(buf, x->median_s, x->nruns * sizeof(*buf));
  g->best_median_s = tune_median(buf, x->nruns);
}

static void region_figures(const struct tune_config *c, const struct tune_result *r, unsigned n,
                           const struct region_map *m, struct tune_summary *s, unsigned k,
                           double *buf, double *pairs)
{
  struct tune_region_summary *g = &s->regions[k];
  double t1 = s->baseline >= 0 ? region_median(region_at(m, (unsigned)s->baseline, k), buf) : NAN;
  double tn = s->serial_from >= 0 ? region_median(region_at(m, (unsigned)s->serial_from, k), buf)
                                  : NAN;
  unsigned i;
  int single_timed = 0, single_has = 0;
  region_best(c, r, n, m, k, g, buf);
  g->fastest = g->best;
  g->fastest_s = g->best_s;
  region_prefer_global(m, k, s->best[TUNE_TIME], r, g, buf);
  g->speedup = g->serial = g->share = NAN;
  if (isfinite(t1) && g->best >= 0)
    g->speedup = t1 / g->best_s;
  if (isfinite(t1) && isfinite(tn))
    g->serial = karp_flatt(c[s->serial_from].threads, t1 / tn);
  region_sigma(m, s, k, buf, pairs);
  for (i = 0; i < n; i++) /* 1-thread runs with a timing file: did they time it? */
    if (c[i].threads == 1 && c[i].nserial && !TUNE_IS_AUTO(&c[i])) {
      single_timed = 1;
      single_has |= region_at(m, i, k) != NULL;
    }
  g->only_multi = single_timed && !single_has;
}

/* The configuration the shares are of: the recommended one for time when
 * its runs wrote timing files, else the fastest usable one that has them;
 * -1 none. */
static int share_source(const struct tune_config *c, const struct tune_result *r, unsigned n,
                        const struct tune_summary *s)
{
  int b = s->best[TUNE_TIME], f = -1;
  unsigned i;
  if (b >= 0 && c[b].nserial)
    return b;
  for (i = 0; i < n; i++)
    if (c[i].nserial && usable(&r[i]) && !TUNE_IS_AUTO(&c[i]) &&
        (f < 0 || r[i].time.median < r[f].time.median))
      f = (int)i;
  return f;
}

/* Every region's share of one total at s->share_from: the parallel
 * regions' median totals and the serial part's median, which sum to 1 (a
 * named measurement's share is of the same total, outside the sum). */
static void region_shares(const struct tune_config *c, const struct region_map *m,
                          struct tune_summary *s, double *buf)
{
  double total = 0, serial;
  unsigned k;
  int from = s->share_from;
  s->serial_share = NAN;
  if (from < 0)
    return;
  memcpy(buf, c[from].serial_s, c[from].nserial * sizeof(*buf));
  total = serial = tune_median(buf, c[from].nserial);
  for (k = 0; k < s->nregions; k++)
    if (!s->regions[k].timer && region_at(m, (unsigned)from, k))
      total += region_median(region_at(m, (unsigned)from, k), buf);
  if (!(total > 0))
    return;
  s->serial_share = serial / total;
  for (k = 0; k < s->nregions; k++)
    if (region_at(m, (unsigned)from, k))
      s->regions[k].share = region_median(region_at(m, (unsigned)from, k), buf) / total;
}

/* Every region's best configuration, speed-up, Karp-Flatt s and sigma. */
static int analyse_regions(const struct tune_config *c, const struct tune_result *r, unsigned n,
                           struct tune_summary *s, double *buf, double *pairs)
{
  struct region_map m = {NULL, 0};
  unsigned i, k;
  int err;
  for (i = 0; i < n; i++)
    s->timed |= c[i].nserial > 0;
  if ((err = collect_keys(c, n, s)) != 0 || s->nregions == 0)
    return err;
  if ((err = map_regions(c, n, s, &m)) != 0)
    return err;
  for (k = 0; k < s->nregions; k++)
    region_figures(c, r, n, &m, s, k, buf, pairs);
  s->share_from = share_source(c, r, n, s);
  region_shares(c, &m, s, buf);
  free(m.at);
  if ((err = count_same_names(s)) != 0)
    return err;
  qsort(s->regions, s->nregions, sizeof(*s->regions), cmp_region);
  return omp_ext_success;
}

void tune_free_summary(struct tune_summary *s)
{
  unsigned k;
  for (k = 0; k < s->nregions; k++) {
    free(s->regions[k].key);
    free(s->regions[k].name);
  }
  free(s->regions);
  free(s->pairs);
  s->regions = NULL;
  s->pairs = NULL;
  s->nregions = s->npairs = 0;
}

static void model_bound(const omp_ext_topo_t *topo, const omp_ext_power_model_t *power,
                        struct tune_summary *s)
{
  omp_ext_model_t m = {*power, OMP_EXT_MODEL_SIGMA, s->serial < 0 ? 0 : s->serial};
  unsigned bound;
  if (isfinite(s->sigma) && s->sigma > 0 && s->sigma <= 1)
    m.sigma = s->sigma;
  if (m.serial < 1 && omp_ext_model_bound(topo, &m, omp_ht_policy_speedup, &bound) == 0)
    s->bound = bound;
}

int tune_analyse(const struct tune_config *c, unsigned n, const omp_ext_topo_t *topo,
                 const omp_ext_power_model_t *power, struct tune_result *r,
                 struct tune_summary *s)
{
  size_t m = (size_t)max_values(c, n) + 1;
  double *buf = malloc(m * sizeof(*buf)), t1;
  double *pairs = malloc(((size_t)n * n + m) * sizeof(*pairs));
  unsigned i;
  int o, err;
  memset(s, 0, sizeof(*s));
  s->share_from = -1;
  s->serial_share = NAN;
  if (!buf || !pairs) {
    free(buf);
    free(pairs);
    return omp_ext_err_nomem;
  }
  for (i = 0; i < n; i++) /* first pass: times, to find the baseline */
    one_config(&c[i], NAN, buf, &r[i]);
  s->baseline = find_baseline(c, r, n);
  t1 = s->baseline >= 0 ? r[s->baseline].time.median : NAN;
  for (i = 0; i < n; i++)
    one_config(&c[i], t1, buf, &r[i]);
  s->serial_from = serial_source(c, r, n);
  s->serial = s->serial_from >= 0 ? r[s->serial_from].serial : NAN;
  s->sigma = NAN;
  err = sigma_pairs(c, r, n, pairs, s);
  if (!err && topo && power && isfinite(s->serial))
    model_bound(topo, power, s);
  for (o = 0; !err && o < TUNE_NOBJECTIVES; o++)
    tune_recommend(c, r, n, (enum tune_objective)o, s);
  if (!err)
    err = analyse_regions(c, r, n, s, buf, pairs);
  free(buf);
  free(pairs);
  if (err)
    tune_free_summary(s);
  return err;
}
