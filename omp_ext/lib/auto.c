/*
 * The online per-region tuner: OMP_EXT_HT_POLICY=auto[:time|:energy][:threads].
 *
 * Candidates (auto_cands.c): per team -- the region's clause, else
 * nthreads-var, read at each region -- the base (bound: the user's places,
 * else the model's order), the team's other placements, smaller teams only
 * where the contract allows (dyn-var true, or auto:threads), and the team
 * unbound ("none").  A region whose team changes (omp_set_num_threads)
 * learns again for the new one.
 *
 * Per region (code address), in the root thread that first ran it:
 *  - warm-up: its first AUTO_WARM instances run the base, timed (a region
 *    seen that few times keeps the base: bound, never unbound by surprise;
 *    a tiny one, least warm-up time below AUTO_TINY_S, then explores with
 *    more samples, as does one whose best candidate's least sample after
 *    the short exploration is);
 *  - explore: the next instances run the candidates interleaved in blocks
 *    of AUTO_BLOCK (c0 c0 c0 c1 c1 c1 c2 c2 c2 c0 ...: AUTO_ROUNDS blocks
 *    each), each instance timed from just before the fork to just after
 *    the join; after the first round a candidate whose block median is
 *    beyond AUTO_DROP x the least runs no more.  A region that is not tiny
 *    pays at most two instances for a clearly worse candidate (its early
 *    drop): beyond AUTO_DROP x (and AUTO_TINY_S beyond) the base's least
 *    in the same round, judged on a sample that followed no switch (the
 *    team kept its size and its places: no thread started or rebound) or
 *    on the first two samples of its block together -- never on the first
 *    sample after a switch alone, which carries the switch's one-off cost.
 *    A candidate that AUTO_PEERS regions of about the same length (their
 *    base's least within a factor of 2) dropped so, and at most a quarter
 *    as many kept, is not run then (a solver's many similar loops learn
 *    once, not each) -- once the region has run as many instances settled
 *    as it took to settle, one instance of each such candidate checks the
 *    peers' verdict, and the region explores again without peers if one is
 *    not clearly worse than its choice;
 *  - settled: the candidate with the least expected cost (time, or time x
 *    the modelled power of its PUs for :energy) runs from then on -- the
 *    base unless another is AUTO_PREFER_BASE cheaper.  The
 *    cost is the median of its samples, except where the samples that
 *    followed a switch are dearer than the others: then the others' median
 *    plus the difference weighed by the share of the region's instances
 *    that follow another region.  One instance in AUTO_SAMPLE <<
 *    reexplores is timed, and when the median of AUTO_WINDOW such samples
 *    leaves [ref / AUTO_DRIFT, ref x AUTO_DRIFT] in AUTO_DRIFT_WINDOWS
 *    consecutive windows, the region explores again (at most
 *    AUTO_MAX_REEXPLORE times).
 * With OMP_EXT_LEARN (auto_state.c, learn.c) a region starts from what the
 * previous runs learnt: settled (its first instance -- the least of its
 * first two when it runs several: the first carries the run's cold start --
 * checked against the range of all it measured: two runs in a row out of
 * it explore again), or exploring where it stopped; a region that never
 * left its warm-up (a few instances a run) explores one sample a candidate
 * a run.  An exploration spans at most AUTO_LEARN_RUNS runs: at the end of
 * the last it settles on what it measured (omp_ext_auto_learnt_end).
 * Other root threads running the same region use the settled choice, or
 * the base, and measure nothing (no lock on the per-region path).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "omp_ext.h"
#include "private/auto_int.h"
#include "private/median.h"
#include "private/timing_inline.h"
#include "private/util.h"

#define AUTO_BLOCK 3  /* consecutive instances of a candidate */
#define AUTO_ROUNDS 2 /* blocks of each candidate */
/* A tiny region (least warm-up time below AUTO_TINY_S) explores with more
 * samples (its exploration costs next to nothing): blocks of
 * AUTO_TINY_BLOCK, AUTO_TINY_ROUNDS of them. */
#define AUTO_TINY_S 100e-6
#define AUTO_TINY_BLOCK 16
#define AUTO_TINY_ROUNDS 3
#define AUTO_SAMPLE 8
#define AUTO_DRIFT 1.5
#define AUTO_DRIFT_WINDOWS 2 /* consecutive windows (or runs) out of the band */
#define AUTO_MAX_REEXPLORE 8
/* A learnt region explores again only for a change worth this much a run. */
#define AUTO_DRIFT_MIN_S 1e-3
/* After every candidate ran one block, one whose block median exceeds
 * AUTO_DROP x the least block median runs no more blocks. */
#define AUTO_DROP 1.5
#define AUTO_PEERS 2   /* drops by peers that skip a candidate */
/* Another candidate replaces the base only when it is that much cheaper. */
#define AUTO_PREFER_BASE 0.03

static int auto_loaded, auto_energy, auto_threads;
static char auto_value[32] = "auto";

/* The tuning thread's identity. */
static __thread char tl_me __attribute__((tls_model("initial-exec")));
/* The calling root thread's previous outermost region under auto, the team
 * size it ran and its configuration. */
static __thread const struct omp_ext_auto *tl_prev __attribute__((tls_model("initial-exec")));
static __thread unsigned tl_prev_threads __attribute__((tls_model("initial-exec")));
static __thread const struct omp_ext_rcfg *tl_prev_cfg __attribute__((tls_model("initial-exec")));

int omp_ext_auto_on(void)
{
  return __atomic_load_n(&auto_loaded, __ATOMIC_ACQUIRE);
}

int omp_ext_auto_threads(void)
{
  return auto_threads;
}

const char *omp_ext_auto_value_now(void)
{
  return auto_value;
}

void omp_ext_auto_enable(void)
{
  __atomic_store_n(&auto_loaded, 1, __ATOMIC_RELEASE);
}

int omp_ext_auto_init(const char *value)
{
  int energy, threads;
  if (omp_ext_auto_value(value, &energy, &threads) != 1)
    return -1; /* (not auto, or invalid: bind.c's constructor says so) */
  auto_energy = energy, auto_threads = threads;
  snprintf(auto_value, sizeof(auto_value), "auto%s%s", energy ? ":energy" : "",
           threads ? ":threads" : "");
  auto_loaded = 1;
  return 0;
}

struct omp_ext_auto *omp_ext_auto_new(const struct omp_ext_plan_line *const *lines, unsigned n)
{
  struct omp_ext_auto *a = calloc(1, sizeof(*a));
  if (!a)
    return NULL;
  a->best = 0, a->probe = -1;
  for (; a->nlines < n && a->nlines < OMP_EXT_LEARN_TEAMS; a->nlines++)
    a->lines[a->nlines] = lines[a->nlines];
  return a;
}

/* The learnt line of team \p set's, else the first (another team's:
 * refused), else NULL. */
static const struct omp_ext_plan_line *learnt_for(const struct omp_ext_auto *a,
                                                  const struct omp_ext_cands *set)
{
  unsigned i;
  for (i = 0; i < a->nlines; i++)
    if (a->lines[i]->state && a->lines[i]->state->team == set->team &&
        a->lines[i]->state->team_free == set->free)
      return a->lines[i];
  return a->nlines ? a->lines[0] : NULL;
}

static unsigned ncands(const struct omp_ext_auto *a)
{
  return a->set->n;
}

static void run(const struct omp_ext_cands *set, struct omp_ext_rpick *p, unsigned c,
                const struct omp_ext_team *team, int measure)
{
  const struct omp_ext_rcfg *cfg = set->c[c];
  unsigned size;
  p->cfg = cfg;
  p->threads = team->free && cfg->threads < team->n ? cfg->threads : 0;
  p->cand = (int)c;
  size = p->threads ? p->threads : team->n;
  /* Did the team change size (the runtime then ends or starts threads:
   * libgomp, for teams of more than one) or places (its threads rebind)
   * since the calling root thread's previous region? */
  p->switched = size != tl_prev_threads || cfg != tl_prev_cfg;
  tl_prev_threads = size, tl_prev_cfg = cfg;
  p->t0 = measure ? omp_ext_timing_ns() : 0;
}

/* The median of v[0 .. n-1], v left as it is (the project's one median on
 * a copy). */
static double median_of(const double *v, unsigned n)
{
  double t[AUTO_WINDOW > AUTO_MAXSAMP ? AUTO_WINDOW : AUTO_MAXSAMP];
  memcpy(t, v, n * sizeof(*t));
  return omp_ext_median(t, n);
}

static double min_of(const double *v, unsigned n)
{
  double m = v[0];
  unsigned i;
  for (i = 1; i < n; i++)
    m = v[i] < m ? v[i] : m;
  return m;
}

/* Exploration step \p step: its candidate, and its sample's slot. */
static unsigned cand_of(const struct omp_ext_auto *a, unsigned step)
{
  return (step / a->block) % ncands(a);
}

static unsigned sample_of(const struct omp_ext_auto *a, unsigned step)
{
  return step / (a->block * ncands(a)) * a->block + step % a->block;
}

static void auto_costs(struct omp_ext_auto *a);
static void settle_alone(struct omp_ext_auto *a);

/* (Re)start exploring: every candidate again, no sample yet (NAN: what
 * the exploration has not reached, for a learnt one that settles early). */
static void explore_start(struct omp_ext_auto *a)
{
  unsigned c, i;
  for (c = 0; c < AUTO_MAXC; c++)
    for (i = 0; i < AUTO_MAXSAMP; i++)
      a->s[c][i] = NAN, a->sw[c][i] = 0;
  a->step = 0, a->drop_done = 0, a->probe = -1;
  memset(a->dropped, 0, sizeof(a->dropped));
  memset(a->peer_skipped, 0, sizeof(a->peer_skipped));
}

/* A new set of candidates (the first instance, or the team changed):
 * learn afresh, or from the learnt state if it was made for this team. */
static void start_set(struct omp_ext_auto *a, const struct omp_ext_cands *set)
{
  const struct omp_ext_plan_line *learnt = learnt_for(a, set);
  unsigned long explored = a->explored;
  enum auto_learnt was = a->learnt_as;
  /* (owner, set, learnt and lines, the fields before n, stay: other root
   * threads read them) */
  a->learnt = learnt;
  __atomic_store_n(&a->phase, AUTO_PHASE_WARM, __ATOMIC_RELEASE);
  __atomic_store_n(&a->set, set, __ATOMIC_RELEASE);
  memset(&a->n, 0, sizeof(*a) - offsetof(struct omp_ext_auto, n));
  a->probe = -1, a->explored = explored, a->learnt_as = was;
  if (!learnt || !learnt->state)
    return;
  if (learnt->state->team == set->team && learnt->state->team_free == set->free &&
      omp_ext_auto_restore(a) == 0) {
    a->learnt_as = AUTO_LEARNT_RESTORED;
    if (a->phase == AUTO_PHASE_SETTLED) { /* its costs, and the learnt one by default */
      auto_costs(a);
      a->xref = a->xref > 0 ? a->xref : a->med[a->best];
    }
    return;
  }
  memset(&a->n, 0, sizeof(*a) - offsetof(struct omp_ext_auto, n));
  a->probe = -1, a->explored = explored, a->learnt_as = AUTO_LEARNT_REFUSED;
}

/* The base's least sample (objective) in this exploration's first round:
 * the reference of the early drop and of the peers' bucket. */
static double default_least(const struct omp_ext_auto *a)
{
  return min_of(a->s[0], a->block);
}

static unsigned bucket_of(const struct omp_ext_auto *a)
{
  double us = default_least(a) * 1e6;
  int b = us >= 1 && isfinite(us) ? (int)log2(us) : 0;
  return b < OMP_EXT_AUTO_BUCKETS ? (unsigned)b : OMP_EXT_AUTO_BUCKETS - 1;
}

/* The peers' counts of the region's set (shared, updated atomically). */
static unsigned *peer_count(const struct omp_ext_auto *a, int drop, unsigned b, unsigned c)
{
  struct omp_ext_cands *set = (struct omp_ext_cands *)(uintptr_t)a->set;
  return drop ? &set->peer_drop[b][c] : &set->peer_keep[b][c];
}

/* Did similar regions drop candidate \p c (a region that is not tiny, at
 * its first round)? */
static int peers_dropped(const struct omp_ext_auto *a, unsigned c)
{
  unsigned b = bucket_of(a), lo = b ? b - 1 : 0,
           hi = b + 1 < OMP_EXT_AUTO_BUCKETS ? b + 1 : b, drop = 0, keep = 0;
  if (a->no_peers)
    return 0;
  for (; lo <= hi; lo++) {
    drop += __atomic_load_n(peer_count(a, 1, lo, c), __ATOMIC_RELAXED);
    keep += __atomic_load_n(peer_count(a, 0, lo, c), __ATOMIC_RELAXED);
  }
  return drop >= AUTO_PEERS && keep * 4 <= drop;
}

/* Is sample \p v clearly worse than \p ref (a region that is not tiny)? */
static int clearly_worse(const struct omp_ext_auto *a, double v, double ref)
{
  return v > ref * AUTO_DROP && v > ref + AUTO_TINY_S * (auto_energy ? a->set->power[0] : 1);
}

/* Does the exploration drop candidates early (not tiny: its instances
 * cost; blocks of AUTO_BLOCK, not a learnt state's single samples)? */
static int drops_early(const struct omp_ext_auto *a)
{
  return a->block == AUTO_BLOCK;
}

/* After the first round (every candidate one block): drop the candidates
 * whose block median is beyond AUTO_DROP x the least one -- a heavy
 * region's clearly worse team size costs a whole instance each time it
 * runs.  (A block's median is never its first sample alone.) */
static void drop_worse(struct omp_ext_auto *a)
{
  double m[AUTO_MAXC], least = INFINITY;
  unsigned c;
  a->drop_done = 1;
  for (c = 0; c < ncands(a); c++) {
    m[c] = median_of(a->s[c], a->block); /* its first block: samples 0 .. block-1 */
    least = m[c] < least ? m[c] : least;
  }
  for (c = 0; c < ncands(a); c++) {
    int ran = isfinite(m[c]); /* (a whole block: not early dropped or skipped) */
    a->dropped[c] |= !(m[c] <= least * AUTO_DROP);
    if (c && ran && drops_early(a))
      __atomic_add_fetch(peer_count(a, a->dropped[c], bucket_of(a), c), 1, __ATOMIC_RELAXED);
  }
}

/* Settled long enough (as many instances as it took to settle): the first
 * candidate that peers had it skip, to run once now; -1: none. */
static int probe_next(const struct omp_ext_auto *a)
{
  unsigned c;
  if (a->n < 2 * a->settled_at)
    return -1;
  for (c = 1; c < ncands(a); c++)
    if (a->peer_skipped[c])
      return (int)c;
  return -1;
}

/* The next exploration step's candidate (the skipped ones marked), or -1
 * when the exploration is over. */
static int explore_next(struct omp_ext_auto *a)
{
  unsigned c;
  for (;;) {
    if (!a->drop_done && a->step >= ncands(a) * a->block)
      drop_worse(a);
    if (a->step >= ncands(a) * a->nsamp)
      return -1;
    c = cand_of(a, a->step);
    if (c && !a->drop_done && drops_early(a) && !a->dropped[c] && a->step % a->block == 0 &&
        peers_dropped(a, c)) {
      a->dropped[c] = 1, a->peer_skipped[c] = 1;
      a->peer_skips++;
    }
    if (!a->dropped[c])
      return (int)c;
    a->s[c][sample_of(a, a->step)] = INFINITY;
    a->sw[c][sample_of(a, a->step)] = 0;
    a->step++;
  }
}

void omp_ext_auto_pick(struct omp_ext_auto *a, const struct omp_ext_team *team,
                       struct omp_ext_rpick *p)
{
  const struct omp_ext_cands *set = omp_ext_cands_get(team->n, team->free, auto_energy);
  const void *me = &tl_me;
  const void *owner = __atomic_load_n(&a->owner, __ATOMIC_ACQUIRE);
  int c;
  if (!set)
    return; /* (left to the runtime) */
  if (!owner && __atomic_compare_exchange_n(&a->owner, &owner, me, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
    owner = me;
  if (owner != me) { /* another root thread: the settled choice, unmeasured */
    c = __atomic_load_n(&a->set, __ATOMIC_ACQUIRE) == set &&
            __atomic_load_n(&a->phase, __ATOMIC_ACQUIRE) == AUTO_PHASE_SETTLED
          ? __atomic_load_n(&a->best, __ATOMIC_RELAXED) : 0;
    run(set, p, (unsigned)c, team, 0);
    return;
  }
  if (a->set != set)
    start_set(a, set);
  if (tl_prev != a)
    a->follows++; /* (this instance follows another region) */
  tl_prev = a;
  a->n++, a->run_n++;
  if (ncands(a) < 2) { /* nothing to choose: the base, settled once timed */
    if (a->phase != AUTO_PHASE_SETTLED && a->nwarm)
      settle_alone(a);
    run(set, p, 0, team, a->phase != AUTO_PHASE_SETTLED);
    return;
  }
  switch (a->phase) {
  case AUTO_PHASE_WARM:
    if (a->n <= AUTO_WARM) {
      run(set, p, 0, team, 1);
      return;
    }
    a->phase = AUTO_PHASE_EXPLORE;
    explore_start(a);
    /* (The least warm-up time: the first instance may start the team's
     * threads.) */
    a->block = min_of(a->warm, a->nwarm ? a->nwarm : 1) < AUTO_TINY_S ? AUTO_TINY_BLOCK
                                                                      : AUTO_BLOCK;
    a->nsamp = a->block * (a->block == AUTO_TINY_BLOCK ? AUTO_TINY_ROUNDS : AUTO_ROUNDS);
    /* fall through */
  case AUTO_PHASE_EXPLORE:
    if ((c = explore_next(a)) >= 0) {
      run(set, p, (unsigned)c, team, 1);
      return;
    }
    run(set, p, (unsigned)a->best, team, 0); /* (all skipped: settles at its done) */
    p->t0 = omp_ext_timing_ns();
    return;
  case AUTO_PHASE_SETTLED:
    if ((a->probe = probe_next(a)) >= 0) {
      run(set, p, (unsigned)a->probe, team, 1);
      return;
    }
    /* (Each re-exploration halves the share of instances timed; a learnt
     * choice's first instance of the run is checked.) */
    run(set, p, (unsigned)a->best, team,
        a->xcheck || a->n % ((unsigned long)AUTO_SAMPLE << a->reexplores) == 0);
    return;
  }
}

/* Candidate \p c's expected cost per instance: the median of its samples;
 * where the samples that followed a switch are dearer than the others, the
 * others' median plus that difference weighed by how often the region
 * follows another one (\p p_follow: then, it is assumed, a switch). */
static double cost_of(const struct omp_ext_auto *a, unsigned c, double p_follow)
{
  double all[AUTO_MAXSAMP], sw[AUTO_MAXSAMP], st[AUTO_MAXSAMP], ms, mt;
  unsigned i, n = 0, nsw = 0, nst = 0, skipped = 0;
  for (i = 0; i < a->nsamp; i++) {
    double v = a->s[c][i];
    skipped += isinf(v) != 0;
    if (!isfinite(v))
      continue;
    all[n++] = v;
    if (a->sw[c][i])
      sw[nsw++] = v;
    else
      st[nst++] = v;
  }
  /* Skipped: dropped.  Not run enough (a learnt exploration settled at its
   * last run, its unreached samples NAN): not a choice. */
  if (skipped || n < (a->nsamp < AUTO_BLOCK ? a->nsamp : AUTO_BLOCK))
    return INFINITY;
  if (!nsw || !nst)
    return median_of(all, n);
  ms = median_of(sw, nsw), mt = median_of(st, nst);
  return ms > mt ? mt + p_follow * (ms - mt) : median_of(all, n);
}

static void auto_costs(struct omp_ext_auto *a)
{
  double p_follow = a->n ? (double)a->follows / (double)a->n : 0;
  unsigned c;
  for (c = 0; c < ncands(a); c++)
    a->med[c] = cost_of(a, c, p_follow);
  a->have_med = 1;
}

/* The candidate the costs favour: the base unless another is
 * AUTO_PREFER_BASE cheaper. */
static int cheapest(struct omp_ext_auto *a)
{
  unsigned c;
  int best = 0;
  auto_costs(a);
  for (c = 0; c < ncands(a); c++)
    if (a->med[c] < a->med[best])
      best = (int)c;
  if (best && !(a->med[best] < a->med[0] * (1 - AUTO_PREFER_BASE)))
    best = 0; /* (a near tie: the base, bound and stable) */
  return best;
}

static void settle_on(struct omp_ext_auto *a, int best)
{
  __atomic_store_n(&a->best, best, __ATOMIC_RELAXED);
  a->ref = 0, a->nwindow = 0, a->drifted = 0, a->settled_at = a->n, a->xcheck = 0;
  __atomic_store_n(&a->phase, AUTO_PHASE_SETTLED, __ATOMIC_RELEASE);
}

static void settle(struct omp_ext_auto *a)
{
  int best = cheapest(a);
  /* (The least sample: a busy machine only adds time.) */
  if (a->block == AUTO_BLOCK && min_of(a->s[best], a->nsamp) < AUTO_TINY_S && !auto_energy) {
    /* Tiny after all (its warm-up paid for starting threads): explore
     * again with the many samples a tiny region can afford. */
    a->block = AUTO_TINY_BLOCK, a->nsamp = AUTO_TINY_BLOCK * AUTO_TINY_ROUNDS;
    explore_start(a);
    return;
  }
  settle_on(a, best);
}

/* The only candidate (one allowed PU), its warm-up timed: settled on it,
 * its least warm-up time its sample (a learnt state then amounts to one
 * configuration). */
static void settle_alone(struct omp_ext_auto *a)
{
  a->block = a->nsamp = 1, a->step = 1;
  a->s[0][0] = min_of(a->warm, a->nwarm), a->sw[0][0] = 0;
  auto_costs(a);
  settle_on(a, 0);
}

int omp_ext_auto_learnt_end(struct omp_ext_auto *a)
{
  int best;
  if (!a->set || a->phase != AUTO_PHASE_EXPLORE || ncands(a) < 2 ||
      a->xruns + 1 < AUTO_LEARN_RUNS)
    return 0;
  best = cheapest(a);
  if (!isfinite(a->med[best]))
    return 0; /* (nothing measured enough: explore on) */
  settle_on(a, best);
  return 1;
}

static void reexplore(struct omp_ext_auto *a)
{
  a->reexplores++, a->xruns = 0;
  explore_start(a);
  __atomic_store_n(&a->phase, AUTO_PHASE_EXPLORE, __ATOMIC_RELEASE);
}

/* An exploration step's sample \p dt of candidate \p c. */
static void explored(struct omp_ext_auto *a, unsigned c, double dt, int switched)
{
  unsigned k = a->step % a->block, slot = sample_of(a, a->step);
  a->sw[c][slot] = (unsigned char)switched;
  a->s[c][slot] = dt;
  /* The early drop: a switch-free sample clearly worse, or the block's
   * first samples all clearly worse -- never a first sample after a
   * switch alone. */
  if (c && !a->drop_done && drops_early(a) &&
      ((!switched && clearly_worse(a, dt, default_least(a))) ||
       (k >= 1 && clearly_worse(a, min_of(&a->s[c][slot - k], k + 1), default_least(a))))) {
    a->dropped[c] = 1; /* (its block's other steps are skipped) */
    a->early_drops++;
    __atomic_add_fetch(peer_count(a, 1, bucket_of(a), c), 1, __ATOMIC_RELAXED);
  }
  a->step++;
  a->explored++;
}

/* Is \p dt out of [lo, hi] enough to explore again: clearly (the early
 * drop's margins), and by at least AUTO_DRIFT_MIN_S a run over the
 * region's instances a run (a tiny region run once a run is never worth
 * exploring again: only noise moves it so)? */
static int drifted_from(const struct omp_ext_auto *a, double dt, double lo, double hi)
{
  double n = a->learnt && a->learnt->state && a->learnt->state->n ? (double)a->learnt->state->n : 1;
  return (clearly_worse(a, dt, hi) && n * (dt - hi) >= AUTO_DRIFT_MIN_S) ||
         (clearly_worse(a, lo, dt) && n * (lo - dt) >= AUTO_DRIFT_MIN_S);
}

/* The range of what a learnt region measured: every sample of every
 * candidate, and its learnt cost. */
static void learnt_range(const struct omp_ext_auto *a, double *lo, double *hi)
{
  unsigned c, i;
  *lo = *hi = a->xref;
  for (c = 0; c < ncands(a); c++)
    for (i = 0; i < a->nsamp; i++)
      if (isfinite(a->s[c][i])) {
        *lo = a->s[c][i] < *lo ? a->s[c][i] : *lo;
        *hi = a->s[c][i] > *hi ? a->s[c][i] : *hi;
      }
}

/* Settled: a timed instance \p dt, in its window or against what was
 * learnt (a restored region's first instance of the run, or the least of
 * its first two when it runs several -- the first carries the run's cold
 * start: out of the range of everything it measured, beyond the early
 * drop's margins, in two runs in a row, it explores again). */
static void settled_sample(struct omp_ext_auto *a, double dt)
{
  if (a->xcheck) { /* an instance of the run, against what was learnt */
    double lo, hi;
    if (a->xcheck-- == 2) {
      a->xfirst = dt; /* (the run's first of several: its cold start) */
      return;
    }
    /* (the least of the two, as a region that runs a few times a run
     * learnt its least warm-up time) */
    dt = a->xfirst > 0 && a->xfirst < dt ? a->xfirst : dt;
    learnt_range(a, &lo, &hi);
    if (!drifted_from(a, dt, lo, hi)) {
      a->xdrift = 0;
    } else if (++a->xdrift >= AUTO_DRIFT_WINDOWS && a->reexplores < AUTO_MAX_REEXPLORE) {
      a->xdrift = 0;
      reexplore(a);
    }
    return;
  }
  a->window[a->nwindow++] = dt;
  if (a->nwindow < AUTO_WINDOW)
    return;
  dt = median_of(a->window, AUTO_WINDOW);
  a->nwindow = 0;
  if (a->ref == 0) {
    a->ref = dt;
  } else if (!(dt > a->ref * AUTO_DRIFT || dt < a->ref / AUTO_DRIFT)) {
    a->drifted = 0;
  } else if (++a->drifted >= AUTO_DRIFT_WINDOWS && a->reexplores < AUTO_MAX_REEXPLORE) {
    /* Out of its band in consecutive windows (one slow window is a busy
     * machine's noise): explore again. */
    reexplore(a);
  }
}

void omp_ext_auto_done(struct omp_ext_auto *a, struct omp_ext_rpick *p)
{
  double dt = (double)(omp_ext_timing_ns() - p->t0) * 1e-9;
  unsigned c = (unsigned)p->cand;
  if (__atomic_load_n(&a->owner, __ATOMIC_RELAXED) != &tl_me || p->cfg != a->set->c[c])
    return; /* (another root thread's, or a set since replaced) */
  if (a->phase == AUTO_PHASE_WARM) {
    a->warm[a->nwarm++ % AUTO_WARM] = dt;
    a->nwarm = a->nwarm > AUTO_WARM ? AUTO_WARM : a->nwarm;
    return;
  }
  if (auto_energy)
    dt *= a->set->power[c];
  if (a->phase == AUTO_PHASE_EXPLORE) {
    if (a->step < ncands(a) * a->nsamp)
      explored(a, c, dt, p->switched);
    if (explore_next(a) < 0)
      settle(a);
    return;
  }
  if (a->probe >= 0 && p->cand == a->probe) { /* a peers' verdict checked */
    a->peer_skipped[c] = 0, a->probe = -1;
    if (!clearly_worse(a, dt, a->med[a->best])) { /* wrong here: explore alone */
      a->no_peers = 1, a->xruns = 0;
      explore_start(a);
      __atomic_store_n(&a->phase, AUTO_PHASE_EXPLORE, __ATOMIC_RELEASE);
    }
    return;
  }
  settled_sample(a, dt);
}

/* , "control": {"source": "auto", "objective": "time", "threads": false,
 *  "team": 2, "settled": true, "config": "spn:2", "learnt": "restored",
 *  "explored": 9, "reexplores": 0, "early_drops": 0, "peer_skips": 0,
 *  "team_kept": true, "candidates": [{"config": "speedup:2", "median":
 *  1.2e-06}, ...]} */
void omp_ext_auto_write_json(FILE *f, const struct omp_ext_auto *a)
{
  static const char *const learnt[] = {"none", "restored", "refused"};
  const struct omp_ext_cands *set = __atomic_load_n(&a->set, __ATOMIC_ACQUIRE);
  unsigned c;
  int settled = a->phase == AUTO_PHASE_SETTLED;
  if (!set)
    return;
  fprintf(f, ", \"control\": {\"source\": \"auto\", \"objective\": \"%s\", \"threads\": %s, "
          "\"team\": %u, \"settled\": %s, \"config\": \"%s\", \"learnt\": \"%s\", "
          "\"explored\": %lu, \"reexplores\": %u, \"early_drops\": %lu, \"peer_skips\": %lu, "
          "\"team_kept\": %s, \"candidates\": [",
          auto_energy ? "energy" : "time", auto_threads ? "true" : "false", set->team,
          settled ? "true" : "false", set->c[settled ? a->best : 0]->label,
          learnt[a->learnt_as], a->explored, a->reexplores, a->early_drops, a->peer_skips,
          set->free ? "false" : "true");
  for (c = 0; c < set->n; c++) {
    fprintf(f, "%s{\"config\": \"%s\", \"median\": ", c ? ", " : "", set->c[c]->label);
    if (a->have_med && isfinite(a->med[c]))
      fprintf(f, "%.9g}", a->med[c]);
    else
      fputs("null}", f);
  }
  fputs("]}", f);
}
