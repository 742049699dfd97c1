/*
 * Region timing: a region's statistics (timing_int.h), its parts merged --
 * total, minimum, maximum and mean exactly; the median exact while every
 * part holds all its instances, else weighted by the instances each part's
 * uniform sample stands for.  For omp_ext_timer_stats() and the file.
 */
#define _GNU_SOURCE /* (timing_int.h: cpu_set_t) */
#include <stdlib.h>
#include <string.h>

#include "private/median.h"
#include "private/timing_int.h"

typedef struct omp_ext_timing_part part_t;

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
static double parts_median(const struct omp_ext_timing_region *r, size_t n, int sampled)
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
    med = omp_ext_median(v, m);
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
void omp_ext_timing_region_stats(const struct omp_ext_timing_region *r, omp_ext_timer_stats_t *s,
                                 double tick_s, size_t *nsamples)
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
