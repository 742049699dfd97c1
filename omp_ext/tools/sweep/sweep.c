/*
 * The sweep engine's rounds (sweep.h): every configuration once per round,
 * each round in its own order -- a seeded shuffle, so that drift on a
 * shared machine spreads over all configurations, or the plan's order --
 * after an optional warm-up run, no run started once the budget is spent.
 */
#include <stdlib.h>
#include <time.h>

#include "sweep.h"

double sweep_now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* splitmix64: a small, well-mixed generator; the same seed gives the same
 * order on every machine. */
static unsigned long long next(unsigned long long *s)
{
  unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void sweep_shuffle(unsigned *order, unsigned n, unsigned long seed, unsigned round)
{
  unsigned long long s = seed * 1000003ULL + round;
  unsigned i;
  for (i = 0; i < n; i++)
    order[i] = i;
  for (i = n; i > 1; i--) { /* Fisher-Yates */
    unsigned j = (unsigned)(next(&s) % i), tmp = order[i - 1];
    order[i - 1] = order[j];
    order[j] = tmp;
  }
}

void sweep_order(const struct sweep_plan *p, unsigned *order, unsigned n, unsigned round)
{
  unsigned i;
  if (p->shuffled) {
    sweep_shuffle(order, n, p->seed, round);
    return;
  }
  for (i = 0; i < n; i++)
    order[i] = i;
}

static int budget_spent(const struct sweep_plan *p, const struct sweep_state *st)
{
  return p->budget_s > 0 && sweep_now() - st->start >= p->budget_s;
}

int sweep_round(const struct sweep_plan *p, const struct sweep_runner *r, struct sweep_state *st,
                const unsigned *subset, unsigned k, unsigned round, enum sweep_past past)
{
  unsigned *order = malloc((k ? k : 1) * sizeof(*order)), i;
  int status = 0;
  if (!order)
    return SWEEP_NOMEM;
  sweep_order(p, order, k, round);
  st->rounds = round + 1;
  for (i = 0; !status && i < k; i++) {
    unsigned config = subset ? subset[order[i]] : order[i];
    double seconds = 0;
    if (budget_spent(p, st)) {
      st->budget_spent = 1;
      if (past == SWEEP_STOP)
        break;
      st->skipped++;
      status = r->skip ? r->skip(r->ctx, config, round, st) : 0;
    } else if ((status = r->run(r->ctx, config, round, &seconds)) == 0) {
      st->done++;
      st->run_time += seconds;
      if (r->ran)
        r->ran(r->ctx, config, round, st);
    }
  }
  free(order);
  return status;
}

int sweep_run(const struct sweep_plan *p, const struct sweep_runner *r, struct sweep_state *st)
{
  unsigned round;
  int status = 0;
  if (st->start == 0)
    st->start = sweep_now();
  st->total = p->n * p->rounds;
  if (r->warm_up && p->n) {
    unsigned *order = malloc(p->n * sizeof(*order));
    if (!order)
      return SWEEP_NOMEM;
    sweep_order(p, order, p->n, 0);
    status = r->warm_up(r->ctx, order[0], &st->warmup_time);
    free(order);
  }
  for (round = 0; !status && round < p->rounds; round++)
    status = sweep_round(p, r, st, NULL, p->n, round, SWEEP_SKIP);
  return status;
}
