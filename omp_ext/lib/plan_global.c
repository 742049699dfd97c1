/*
 * The one configuration a plan or a learnt state (auto --learn, plan_int.h)
 * amounts to: for htplaces exec --plan and exec auto --learn, which then
 * run the program as exec POLICY N does, without the library.
 *
 * A plan whose default and region lines for the team the program gets
 * are all the same THREADS and places (no "team free", every learnt line
 * settled) is that configuration.  A learnt state is one when per-region control does not
 * pay:
 *
 * Per region r of the state, n_r instances a run and, per candidate c, the
 * median m_rc of its samples.  Per-region control costs P = sum n_r m_r,s_r
 * (s_r: the region's settled choice); one configuration X for every region
 * costs G_X = sum n_r m_r,X.  The best X among the regions' choices (its
 * places known from their lines) and the team unbound (none:N, a candidate
 * of every region, chosen only when strictly cheaper: a bound choice wins
 * a tie) is the state's global configuration when
 * G_X - P <= OMP_EXT_PLAN_GLOBAL_TIE x the run's time (its "run" line of
 * that team -- a run at another team size does not move this one's
 * yardstick; P when not given, or when less): what per-region control wins is then
 * less than what its start-up and bookkeeping cost a run, and within what
 * the samples' noise can make of a tie.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private/median.h"
#include "private/plan_int.h"

/* Candidate \p label's median sample in state \p st; NAN when none. */
static double cand_median(const struct omp_ext_plan_state *st, const char *label)
{
  double v[OMP_EXT_PLAN_MAXSAMP];
  unsigned c, i, n = 0;
  for (c = 0; c < st->ncand && strcmp(st->cand[c].label, label) != 0; c++)
    ;
  if (c == st->ncand || st->cand[c].dropped)
    return NAN;
  for (i = 0; i < st->nsamp && i < OMP_EXT_PLAN_MAXSAMP; i++)
    if (isfinite(st->cand[c].s[i]))
      v[n++] = st->cand[c].s[i];
  return n ? omp_ext_median(v, n) : NAN;
}

/* Is line \p l of team \p team (0: any)? */
static int of_team(const struct omp_ext_plan_line *l, unsigned team)
{
  return !team || !l->state || l->state->team == team;
}

/* Every line of team \p team (0: every line) a settled region of one kept
 * team size?  That team, else 0. */
static unsigned settled_team(const struct omp_ext_plan *p, unsigned want)
{
  unsigned i, team = 0;
  if (p->team_free || p->nlines == 0 ||
      (strcmp(p->learnt, "auto") != 0 && strcmp(p->learnt, "auto:time") != 0))
    return 0; /* (time samples judge time only) */
  for (i = 0; i < p->nlines; i++) {
    const struct omp_ext_plan_line *l = &p->lines[i];
    if (!of_team(l, want))
      continue;
    if (l->kind != OMP_EXT_PLAN_REGION || !l->state || l->state->phase != 2 ||
        l->state->team_free || !l->label[0] || (team && l->state->team != team))
      return 0;
    team = l->state->team;
  }
  return team;
}

/* The run's time at team \p team: its "run TEAM S" line, else an older
 * state's "run S" (any team), else 0 (not given). */
static double run_time(const struct omp_ext_plan *p, unsigned team)
{
  double any = 0;
  unsigned i;
  for (i = 0; i < p->nruns; i++) {
    if (p->runs[i].team == team)
      return p->runs[i].s;
    if (p->runs[i].team == 0)
      any = p->runs[i].s;
  }
  return any;
}

/* G_X for the label of line \p x (NAN: a region without its samples). */
static double global_cost(const struct omp_ext_plan *p, unsigned team, const char *label)
{
  double g = 0, m;
  unsigned i;
  for (i = 0; i < p->nlines; i++) {
    if (!of_team(&p->lines[i], team))
      continue;
    if (!isfinite(m = cand_median(p->lines[i].state, label)))
      return NAN;
    g += (double)p->lines[i].state->n * m;
  }
  return g;
}

int omp_ext_plan_global(const struct omp_ext_plan *p, unsigned want, struct omp_ext_plan_conf *conf,
                        double *cost)
{
  double per = 0, best = INFINITY, g, m, run;
  unsigned i, team = settled_team(p, want);
  char none[32];
  if (team == 0)
    return 0;
  for (i = 0; i < p->nlines; i++) {
    if (!of_team(&p->lines[i], team))
      continue;
    if (!isfinite(m = cand_median(p->lines[i].state, p->lines[i].label)))
      return 0;
    per += (double)p->lines[i].state->n * m;
  }
  for (i = 0; i < p->nlines; i++)
    if (of_team(&p->lines[i], team) && isfinite(g = global_cost(p, team, p->lines[i].label)) &&
        g < best)
      best = g, conf->threads = p->lines[i].threads, conf->places = p->lines[i].places;
  /* (the team unbound: last, a choice of the regions' own on a tie) */
  snprintf(none, sizeof(none), "none:%u", team);
  if (isfinite(g = global_cost(p, team, none)) && g < best)
    best = g, conf->threads = team, conf->places = NULL;
  run = run_time(p, team);
  if (!isfinite(best) || best - per > OMP_EXT_PLAN_GLOBAL_TIE * (run > per ? run : per))
    return 0;
  *cost = per > 0 ? best / per : 1;
  return 1;
}

/* Does line \p l apply to a team of \p team (0: any)?  Its THREADS is
 * that team's or the program's (0): the library applies a region's line of
 * its team only (the contract), so the lines of other teams do not change
 * a run at this one. */
static int for_team(const struct omp_ext_plan_line *l, unsigned team)
{
  return !team || !l->threads || l->threads == team;
}

/* The default and region lines for team \p team (0: every line) all the
 * same THREADS and places, no "team free", every learnt line of them
 * settled, and the default line (if any) for that team -- the regions
 * without a line of it get the default, else their base placement: 1
 * (*line the first), else 0. */
static int lines_alike(const struct omp_ext_plan *p, unsigned team, struct omp_ext_plan_conf *conf)
{
  char *first = NULL, *pl = NULL;
  unsigned i, n = 0, at = 0;
  int same = !p->team_free;
  for (i = 0; same && i < p->nlines; i++) {
    const struct omp_ext_plan_line *l = &p->lines[i];
    if (!for_team(l, team)) {
      same = l->kind != OMP_EXT_PLAN_DEFAULT; /* (regions without a line get the base) */
      continue;
    }
    pl = NULL;
    if ((l->state && l->state->phase != 2) ||
        (l->places && omp_ext_placelist_canonical(l->places, &pl) != 0))
      same = 0;
    else if (n && (l->threads != p->lines[at].threads || !pl != !first ||
                   (pl && strcmp(pl, first) != 0)))
      same = 0;
    if (n++ == 0)
      first = pl, pl = NULL, at = i;
    free(pl);
  }
  free(first);
  if (!same || n == 0)
    return 0;
  conf->threads = p->lines[at].threads, conf->places = p->lines[at].places;
  return 1;
}

int omp_ext_plan_one(const struct omp_ext_plan *p, unsigned team, struct omp_ext_plan_conf *conf)
{
  double cost;
  return lines_alike(p, team, conf) || (p->learnt[0] && omp_ext_plan_global(p, team, conf, &cost));
}
