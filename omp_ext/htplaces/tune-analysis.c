/*
 * htplaces tune: the analysis -- per configuration the median and 95%
 * confidence interval (Student t) of its time, energy, SPN and EDP over the
 * rounds; the speed-up S_N against one thread; the serial fraction by
 * Karp-Flatt, s = (N - S_N) / (S_N (N - 1)) (paper §2.3); sigma, what an SMT
 * sibling adds (paper §1.2), from the pairs "C threads one per core" and
 * "2C threads on the same C cores": sigma = T(C) / T(2C) - 1; SPN =
 * 1000 S_N / (P C) (paper §2.2); and the recommendation per objective.
 * Pure functions: no I/O, tested on crafted runs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

double tune_sigma(double t_one_per_core, double t_two_per_core)
{
  if (!(t_one_per_core > 0) || !(t_two_per_core > 0))
    return NAN;
  return t_one_per_core / t_two_per_core - 1;
}

/* Stats of the successful runs' values v(run); n 0 if none is finite. */
static void metric_stats(const struct tune_config *c, double t1, int o, double *buf,
                         omp_ext_stats_t *st)
{
  unsigned i, k = 0;
  for (i = 0; i < c->nruns; i++) {
    const struct tune_run *run = &c->runs[i];
    double v = NAN, power = run->wall_s > 0 ? run->energy_j / run->wall_s : NAN;
    if (run->status != 0 || run->invalid[0])
      continue;
    switch (o) {
    case TUNE_TIME: v = run->wall_s; break;
    case TUNE_ENERGY: v = run->energy_j; break;
    case TUNE_SPN:
      v = t1 > 0 ? omp_ext_model_spn(t1 / run->wall_s, power, c->usage.cores) : NAN;
      break;
    case TUNE_EDP: v = run->energy_j * run->wall_s; break;
    }
    if (isfinite(v))
      buf[k++] = v;
  }
  memset(st, 0, sizeof(*st));
  if (k == 0 || omp_ext_stats_compute(buf, k, st) != 0)
    st->n = 0;
  else if (st->ci95_lo < 0) /* times, energies and SPN are never negative */
    st->ci95_lo = 0;
}

/* The 1-thread configuration the speed-ups are taken against: the fastest
 * successful one (none, os, ... all mean one thread on one PU). */
static int find_baseline(const struct tune_config *c, const struct tune_result *r, unsigned n)
{
  int b = -1;
  unsigned i;
  for (i = 0; i < n; i++)
    if (c[i].threads == 1 && r[i].ok && !r[i].failed &&
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
  for (o = 0; o < TUNE_NOBJECTIVES; o++)
    metric_stats(c, t1, o, buf, &r->metric[o]);
  r->time = r->metric[TUNE_TIME];
  r->speedup = r->serial = r->power_w = r->cpu_util = NAN;
  if (!r->ok)
    return;
  if (t1 > 0)
    r->speedup = t1 / r->time.median;
  if (c->threads > 1 && isfinite(r->speedup) &&
      omp_ext_karp_flatt(c->threads, r->speedup, &r->serial) != 0)
    r->serial = NAN;
  if (r->metric[TUNE_ENERGY].n)
    r->power_w = r->metric[TUNE_ENERGY].median / r->time.median;
  for (i = 0; i < c->nruns; i++)
    if (c->runs[i].status == 0 && !c->runs[i].invalid[0] && c->runs[i].wall_s > 0)
      buf[k++] = c->runs[i].cpu_s / (c->runs[i].wall_s * c->threads);
  if (k) {
    omp_ext_stats_t st;
    if (omp_ext_stats_compute(buf, k, &st) == 0)
      r->cpu_util = st.median;
  }
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
        c[i].policy == TUNE_NONE || c[i].usage.extra != 0)
      continue;
    if (b < 0 || c[i].threads > c[b].threads ||
        (c[i].threads == c[b].threads && r[i].time.median < r[b].time.median))
      b = (int)i;
  }
  return b;
}


/* sigma over every (one per core, two per core) pair on the same core count
 * and wait policy; returns the number of pairs, *sigma their median. */
static unsigned sigma_pairs(const struct tune_config *c, const struct tune_result *r, unsigned n,
                            double *buf, double *sigma)
{
  unsigned i, j, k = 0;
  for (i = 0; i < n; i++) {
    if (!usable(&r[i]) || c[i].policy == TUNE_NONE || c[i].usage.extra != 0)
      continue;
    for (j = 0; j < n; j++) {
      if (!usable(&r[j]) || c[j].policy == TUNE_NONE || c[j].wait != c[i].wait ||
          c[j].usage.cores != c[i].usage.cores || c[j].threads != 2 * c[i].threads ||
          c[j].usage.extra != c[i].usage.cores)
        continue;
      buf[k++] = tune_sigma(r[i].time.median, r[j].time.median);
    }
  }
  *sigma = tune_median(buf, k);
  return k;
}

/* Is a better than b for objective o (medians; exact ties: cheaper)? */
static int cheaper(const struct tune_config *a, const struct tune_config *b)
{
  if (a->usage.cores != b->usage.cores)
    return a->usage.cores < b->usage.cores;
  return a->threads < b->threads;
}

static int better(const struct tune_config *c, const struct tune_result *r, enum tune_objective o,
                  int a, int b)
{
  double x = r[a].metric[o].median, y = r[b].metric[o].median;
  if (x != y)
    return o == TUNE_SPN ? x > y : x < y;
  return cheaper(&c[a], &c[b]);
}

void tune_recommend(const struct tune_config *c, const struct tune_result *r, unsigned n,
                    enum tune_objective o, int *best, int *runner_up, int *significant)
{
  unsigned i;
  int b = -1, s = -1;
  for (i = 0; i < n; i++) {
    int k = (int)i;
    if (!usable(&r[i]) || r[i].metric[o].n == 0)
      continue;
    if (b < 0 || better(c, r, o, k, b)) {
      s = b;
      b = k;
    } else if (s < 0 || better(c, r, o, k, s)) {
      s = k;
    }
  }
  *best = b, *runner_up = s, *significant = 1;
  if (b < 0 || s < 0)
    return;
  *significant = !omp_ext_ci_overlap(r[b].metric[o].ci95_lo, r[b].metric[o].ci95_hi,
                                     r[s].metric[o].ci95_lo, r[s].metric[o].ci95_hi);
  if (!*significant && cheaper(&c[s], &c[b])) {
    *best = s;
    *runner_up = b;
  }
}

static unsigned max_runs(const struct tune_config *c, unsigned n)
{
  unsigned i, m = n;
  for (i = 0; i < n; i++)
    if (c[i].nruns > m)
      m = c[i].nruns;
  return m;
}

double tune_median(double *x, unsigned n)
{
  omp_ext_stats_t st;
  return n && omp_ext_stats_compute(x, n, &st) == 0 ? st.median : NAN;
}

/* Configuration i's median total seconds of the region of key; NAN if untimed. */
static double region_median(const struct tune_config *c, const char *key, double *buf)
{
  unsigned k;
  for (k = 0; k < c->nregions; k++)
    if (strcmp(c->regions[k].key, key) == 0) {
      memcpy(buf, c->regions[k].total_s, c->regions[k].nruns * sizeof(*buf));
      return tune_median(buf, c->regions[k].nruns);
    }
  return NAN;
}

/* sigma of one region over the same pairs as the program's. */
static void region_sigma(const struct tune_config *c, const struct tune_result *r, unsigned n,
                         struct tune_region_summary *g, double *buf, double *pairs)
{
  unsigned i, j, k = 0;
  for (i = 0; i < n; i++) {
    if (!usable(&r[i]) || c[i].policy == TUNE_NONE || c[i].usage.extra != 0)
      continue;
    for (j = 0; j < n; j++) {
      double a, b;
      if (!usable(&r[j]) || c[j].policy == TUNE_NONE || c[j].wait != c[i].wait ||
          c[j].usage.cores != c[i].usage.cores || c[j].threads != 2 * c[i].threads ||
          c[j].usage.extra != c[i].usage.cores)
        continue;
      a = region_median(&c[i], g->key, buf);
      b = region_median(&c[j], g->key, buf);
      if (isfinite(a) && isfinite(b))
        pairs[k++] = tune_sigma(a, b);
    }
  }
  g->npairs = k;
  g->sigma = tune_median(pairs, k);
}

static struct tune_region_summary *summary_region(struct tune_summary *s, const struct tune_region *x)
{
  struct tune_region_summary *more;
  unsigned i;
  for (i = 0; i < s->nregions; i++)
    if (strcmp(s->regions[i].key, x->key) == 0)
      return &s->regions[i];
  if (!(more = realloc(s->regions, (s->nregions + 1) * sizeof(*more))))
    return NULL;
  s->regions = more;
  memset(&more[s->nregions], 0, sizeof(*more));
  if (!(more[s->nregions].key = strdup(x->key)) || !(more[s->nregions].name = strdup(x->name))) {
    free(more[s->nregions].key);
    return NULL;
  }
  more[s->nregions].best = -1;
  return &more[s->nregions++];
}

/* Every region's best configuration, speed-up, Karp-Flatt s and sigma. */
static int analyse_regions(const struct tune_config *c, const struct tune_result *r, unsigned n,
                           struct tune_summary *s, double *buf, double *pairs)
{
  unsigned i, k;
  for (i = 0; i < n; i++)
    for (k = 0; k < c[i].nregions; k++) {
      struct tune_region_summary *g = summary_region(s, &c[i].regions[k]);
      double m;
      if (!g)
        return omp_ext_err_nomem;
      if (c[i].regions[k].team_max > g->team_max)
        g->team_max = c[i].regions[k].team_max;
      if (!usable(&r[i]) || !isfinite(m = region_median(&c[i], g->key, buf)))
        continue;
      if (g->best < 0 || m < g->best_s) {
        g->best = (int)i;
        g->best_s = m;
        g->instances = c[i].regions[k].instances;
        memcpy(buf, c[i].regions[k].median_s, c[i].regions[k].nruns * sizeof(*buf));
        g->best_median_s = tune_median(buf, c[i].regions[k].nruns);
      }
    }
  for (k = 0; k < s->nregions; k++) {
    struct tune_region_summary *g = &s->regions[k];
    double t1 = s->baseline >= 0 ? region_median(&c[s->baseline], g->key, buf) : NAN, tn;
    g->speedup = g->serial = NAN;
    if (isfinite(t1) && g->best >= 0)
      g->speedup = t1 / g->best_s;
    if (isfinite(t1) && s->serial_from >= 0 &&
        isfinite(tn = region_median(&c[s->serial_from], g->key, buf)) &&
        omp_ext_karp_flatt(c[s->serial_from].threads, t1 / tn, &g->serial) != 0)
      g->serial = NAN;
    region_sigma(c, r, n, g, buf, pairs);
  }
  return omp_ext_success;
}

void tune_free_summary(struct tune_summary *s)
{
  unsigned k;
  for (k = 0; k < s->nregions; k++)
    free(s->regions[k].key), free(s->regions[k].name);
  free(s->regions);
  s->regions = NULL;
  s->nregions = 0;
}

int tune_analyse(const struct tune_config *c, unsigned n, const omp_ext_topo_t *topo,
                 const omp_ext_power_model_t *power, struct tune_result *r,
                 struct tune_summary *s)
{
  double *buf = malloc((max_runs(c, n) + 1) * sizeof(*buf)), t1;
  double *pairs = malloc(((size_t)n * n + 1) * sizeof(*pairs));
  unsigned i;
  int o, err;
  if (!buf || !pairs) {
    free(buf);
    free(pairs);
    return omp_ext_err_nomem;
  }
  memset(s, 0, sizeof(*s));
  for (i = 0; i < n; i++) /* first pass: times, to find the baseline */
    one_config(&c[i], NAN, buf, &r[i]);
  s->baseline = find_baseline(c, r, n);
  t1 = s->baseline >= 0 ? r[s->baseline].time.median : NAN;
  for (i = 0; i < n; i++)
    one_config(&c[i], t1, buf, &r[i]);
  s->serial_from = serial_source(c, r, n);
  s->serial = s->serial_from >= 0 ? r[s->serial_from].serial : NAN;
  s->npairs = sigma_pairs(c, r, n, pairs, &s->sigma);
  s->bound = 0;
  if (topo && power && isfinite(s->serial)) {
    omp_ext_model_t m = {*power, OMP_EXT_MODEL_SIGMA, s->serial < 0 ? 0 : s->serial};
    unsigned bound;
    if (isfinite(s->sigma) && s->sigma > 0 && s->sigma <= 1)
      m.sigma = s->sigma;
    if (m.serial < 1 && omp_ext_model_bound(topo, &m, omp_ht_policy_speedup, &bound) == 0)
      s->bound = bound;
  }
  for (o = 0; o < TUNE_NOBJECTIVES; o++)
    tune_recommend(c, r, n, (enum tune_objective)o, &s->best[o], &s->runner_up[o],
                   &s->significant[o]);
  err = analyse_regions(c, r, n, s, buf, pairs);
  free(buf);
  free(pairs);
  return err;
}
