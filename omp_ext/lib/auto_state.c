/*
 * A region's learnt state (OMP_EXT_LEARN), written as a plan line and
 * read back (auto_int.h).  The line is a plan's "region" line whose
 * THREADS, PLACES and LABEL are what the region runs now (its settled
 * choice, else its base): `htplaces exec --plan` applies it as any plan.
 * After LABEL come the learning's fields (their syntax is checked where
 * every plan is, plan_parse.c):
 *
 *   team=keep:T|free:T  the team it learnt for
 *   phase=explore|settled
 *   n=N                 its instances in the run that wrote it
 *   step=K block=B nsamp=S  where its exploration stands, and its shape
 *   ref=SECONDS         settled: the expected cost of its choice
 *   drift=K reexplores=K
 *   runs=K              exploring: the runs its exploration has spanned
 *   c=LABEL/v,v,...     each candidate's samples ('-': none yet, 'x':
 *                       skipped, 's' after a number: it followed a switch)
 *   drop=LABEL          a candidate dropped in this exploration
 *
 * A region that never left its warm-up (run at most AUTO_WARM times a run)
 * is written as an exploration of one sample a candidate, its base's
 * sampled (the least warm-up time): the next runs try one candidate each
 * and then settle, so that a program whose regions run once a run
 * converges over a few runs.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private/auto_int.h"

static void put_sample(FILE *f, double v, int sw, int first)
{
  if (!first)
    fputc(',', f);
  if (isnan(v))
    fputc('-', f);
  else if (isinf(v))
    fputc('x', f);
  else
    fprintf(f, "%.9g%s", v, sw ? "s" : "");
}

/* Was sample slot \p slot of candidate \p c reached by this exploration
 * (steps 0 .. step-1)? */
static int reached(const struct omp_ext_auto *a, unsigned c, unsigned slot)
{
  unsigned n = a->set->n, round = slot / a->block, k = slot % a->block;
  return round * a->block * n + c * a->block + k < a->step;
}

static double least_warm(const struct omp_ext_auto *a)
{
  double m = a->warm[0];
  unsigned i;
  for (i = 1; i < a->nwarm; i++)
    m = a->warm[i] < m ? a->warm[i] : m;
  return m;
}

unsigned omp_ext_auto_state_threads(const struct omp_ext_auto *a)
{
  return a->set ? a->set->c[a->phase == AUTO_PHASE_SETTLED ? a->best : 0]->threads : 0;
}

int omp_ext_auto_write_state(FILE *f, const struct omp_ext_auto *a)
{
  const struct omp_ext_cands *set = a->set;
  const struct omp_ext_rcfg *cfg;
  unsigned c, i, block = a->block, nsamp = a->nsamp, step = a->step;
  int settled = a->phase == AUTO_PHASE_SETTLED, warm = a->phase == AUTO_PHASE_WARM;
  char *places;
  if (!set || !a->run_n)
    return -1;
  cfg = set->c[settled ? a->best : 0];
  if (!(places = omp_ext_rcfg_places_text(cfg)))
    return -1;
  if (warm || !block) /* (one sample a candidate: the base's taken) */
    block = nsamp = 1, step = a->nwarm ? 1 : 0;
  fprintf(f, "%u %s %s team=%s:%u phase=%s n=%lu step=%u block=%u nsamp=%u", cfg->threads,
          places, cfg->label, set->free ? "free" : "keep", set->team,
          settled ? "settled" : "explore", a->run_n, step, block, nsamp);
  free(places);
  if (settled && a->have_med && isfinite(a->med[a->best]))
    fprintf(f, " ref=%.9g", a->med[a->best]);
  fprintf(f, " drift=%u reexplores=%u", a->xdrift, a->reexplores);
  if (!settled)
    fprintf(f, " runs=%u", warm || !a->block ? 1 : a->xruns + 1);
  for (c = 0; c < set->n; c++) {
    fprintf(f, " c=%s/", set->c[c]->label);
    for (i = 0; i < nsamp; i++) {
      if (warm || !a->block) /* (the least: the first may start the team's threads) */
        put_sample(f, c == 0 && a->nwarm ? least_warm(a) : NAN, 0, 1);
      else
        put_sample(f, settled || reached(a, c, i) ? a->s[c][i] : NAN, a->sw[c][i], i == 0);
    }
  }
  for (c = 0; c < set->n && !settled && !warm; c++)
    if (a->dropped[c])
      fprintf(f, " drop=%s", set->c[c]->label);
  fputc('\n', f);
  return 0;
}

int omp_ext_auto_restore(struct omp_ext_auto *a)
{
  const struct omp_ext_plan_state *st = a->learnt->state;
  const struct omp_ext_cands *set = a->set;
  unsigned c, i;
  int best;
  /* The same candidates in the same order (the same machine, objective and
   * places: learn.c checked the first two). */
  if (st->ncand != set->n || st->nsamp > OMP_EXT_PLAN_MAXSAMP)
    return -1;
  for (c = 0; c < set->n; c++)
    if (strcmp(st->cand[c].label, set->c[c]->label) != 0)
      return -1;
  if ((best = omp_ext_cands_find(set, a->learnt->label)) < 0)
    return -1;
  for (c = 0; c < set->n; c++) {
    for (i = 0; i < st->nsamp; i++) {
      a->s[c][i] = st->cand[c].s[i];
      a->sw[c][i] = st->cand[c].sw[i];
    }
    a->dropped[c] = (unsigned char)st->cand[c].dropped;
  }
  a->block = st->block, a->nsamp = st->nsamp, a->step = st->step;
  a->reexplores = st->reexplores;
  a->no_peers = 1; /* (peers are this run's regions) */
  if (st->phase == 2) {
    for (i = 0; i < a->nsamp && !isfinite(a->s[best][i]); i++)
      ;
    if (i == a->nsamp)
      return -1; /* (its choice was measured) */
    a->best = best; /* (auto.c computes the costs: a->med) */
    a->xref = st->ref;
    a->xdrift = st->drift, a->xcheck = st->n > 1 ? 2 : 1;
    a->phase = AUTO_PHASE_SETTLED;
    return 0;
  }
  a->drop_done = a->step >= set->n * a->block;
  a->xruns = st->runs;
  a->phase = AUTO_PHASE_EXPLORE;
  return 0;
}
