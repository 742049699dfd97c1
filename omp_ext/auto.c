/*
 * The online per-region tuner: OMP_EXT_HT_POLICY=auto[:time|energy].
 *
 * Candidates, from the topology (once): the default (the program's team
 * size, unbound) and, for team sizes 1, half the cores, the cores and all
 * PUs, the first N PUs of the speedup, spn and spread orders -- each set of
 * PUs once (policies only where their places differ: on a machine without
 * SMT, spn and speedup give the same cores).
 *
 * Per region (code address), in the root thread that first ran it:
 *  - warm-up: its first AUTO_WARM instances run the default, timed (a
 *    region seen that few times keeps the default; a tiny one, least
 *    warm-up time below AUTO_TINY_S, then explores with more samples, as
 *    does one whose best candidate's least sample after the short
 *    exploration is);
 *  - explore: the next instances run the candidates interleaved in blocks
 *    of AUTO_BLOCK (c0 c0 c0 c1 c1 c1 c2 c2 c2 c0 ...: AUTO_ROUNDS blocks
 *    each), each instance timed from just before the fork to just after
 *    the join; after the first round a candidate whose block median is
 *    beyond AUTO_DROP x the least runs no more (a heavy region's clearly
 *    worse team size costs a whole instance each time).  A region that is
 *    not tiny pays at most one instance for a clearly worse candidate:
 *    its first sample beyond AUTO_DROP x (and AUTO_TINY_S beyond) the
 *    default's least in the same round drops it at once; and a candidate
 *    that AUTO_PEERS regions of about the same length (their default's
 *    least within a factor of 2: the same power-of-2 bucket or the next)
 *    dropped so, and at most a quarter as many kept, is not run then
 *    (a solver's many similar loops learn once, not each: NPB CG under
 *    clang has 36 regions that run 16 times each) -- once the region has
 *    run as many instances settled as it took to settle, one instance of
 *    each such candidate checks the peers' verdict, and the region
 *    explores again without peers if one is not clearly worse than its
 *    choice;
 *  - settled: the candidate with the least expected cost (time, or time x
 *    the modelled power of its PUs for :energy) runs from then on.  The
 *    cost is the median of its samples, except where the samples that
 *    followed a team of another size (the runtime resized the team:
 *    libgomp then ends or creates threads) are dearer than the others:
 *    then the others' median plus the difference weighed by the share of
 *    the region's instances that follow another region.  One instance in
 *    AUTO_SAMPLE << reexplores is timed, and when the median of
 *    AUTO_WINDOW such samples leaves [ref / AUTO_DRIFT, ref x AUTO_DRIFT]
 *    (ref: the first window's median after settling) in AUTO_DRIFT_WINDOWS
 *    consecutive windows, the region explores again (at most
 *    AUTO_MAX_REEXPLORE times).
 * Other root threads running the same region use the settled choice, or
 * the default, and measure nothing (no lock on the per-region path).
 * A num_threads clause keeps the user's count: only candidates with at
 * least that many places run, on their first places.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp_ext.h"
#include "bind.h"
#include "region_int.h"
#include "timing.h"

#define AUTO_WARM 3
#define AUTO_BLOCK 3  /* consecutive instances of a candidate */
#define AUTO_ROUNDS 2 /* blocks of each candidate */
#define AUTO_NSAMP (AUTO_BLOCK * AUTO_ROUNDS)
/* A tiny region (least warm-up time below AUTO_TINY_S) explores with more
 * samples (its exploration costs next to nothing): blocks of
 * AUTO_TINY_BLOCK, AUTO_TINY_ROUNDS of them. */
#define AUTO_TINY_S 100e-6
#define AUTO_TINY_BLOCK 16
#define AUTO_TINY_ROUNDS 3
#define AUTO_MAXSAMP (AUTO_TINY_BLOCK * AUTO_TINY_ROUNDS)
#define AUTO_SAMPLE 8
#define AUTO_WINDOW 8
#define AUTO_DRIFT 1.5
#define AUTO_DRIFT_WINDOWS 2 /* consecutive windows out of the band */
#define AUTO_MAX_REEXPLORE 8
#define AUTO_MAXC 24
/* After every candidate ran one block, one whose block median exceeds
 * AUTO_DROP x the least block median runs no more blocks. */
#define AUTO_DROP 1.5
/* Peers: regions whose default's least time (objective) falls in the same
 * power-of-2 bucket of microseconds, or the next one. */
#define AUTO_PEERS 2   /* drops by peers that skip a candidate */
#define AUTO_BUCKETS 40

enum phase { WARM, EXPLORE, SETTLED };

struct omp_ext_auto {
  const void *owner; /* the tuning root thread (its TLS address) */
  unsigned long n;   /* its instances */
  enum phase phase;
  unsigned step;     /* explore: instances run so far in this exploration */
  int best;          /* the settled candidate (SETTLED, atomic for others) */
  double ref;        /* drift reference (0: not yet) */
  double s[AUTO_MAXC][AUTO_MAXSAMP]; /* explore samples (objective) */
  unsigned char sw[AUTO_MAXC][AUTO_MAXSAMP]; /* the sample followed a team of another size */
  unsigned char dropped[AUTO_MAXC];  /* clearly worse after the first round */
  unsigned long follows;   /* owner's instances that followed another region */
  unsigned drifted;        /* consecutive windows out of the band */
  unsigned block, nsamp;             /* this region's exploration shape */
  double warm[AUTO_WARM];            /* warm-up times (s) */
  double med[AUTO_MAXC];            /* the last exploration's medians (NAN: not run) */
  double window[AUTO_WINDOW];
  unsigned nwindow;
  unsigned long explored;  /* instances spent exploring, in all */
  unsigned reexplores;
  int have_med; /* med[] holds an exploration's result */
  int drop_done; /* the first round's drop decided */
  unsigned long early_drops; /* candidates dropped after one sample */
  unsigned long peer_skips;  /* candidates not run: similar regions dropped them */
  unsigned char peer_skipped[AUTO_MAXC]; /* in this exploration; not yet checked */
  int no_peers;              /* a peers' verdict was wrong here: explore alone */
  int probe;                 /* settled: the candidate checked now (-1: none) */
  unsigned long settled_at;  /* n when it settled */
};

/* What similar regions learnt (peers): per bucket and candidate, how many
 * dropped it in their first round and how many kept it.  Shared by every
 * region of the process, updated atomically (no lock). */
static unsigned peer_drop[AUTO_BUCKETS][AUTO_MAXC], peer_keep[AUTO_BUCKETS][AUTO_MAXC];

static struct omp_ext_rcfg *cands[AUTO_MAXC];
static double cand_power[AUTO_MAXC]; /* modelled watts */
static unsigned ncands;
static int auto_loaded, auto_energy;
static pthread_once_t cands_once = PTHREAD_ONCE_INIT;

/* The tuning thread's identity. */
static __thread char tl_me __attribute__((tls_model("initial-exec")));
/* The calling root thread's previous outermost region under auto, and the
 * team size it asked for (0: the program's). */
static __thread const struct omp_ext_auto *tl_prev __attribute__((tls_model("initial-exec")));
static __thread unsigned tl_prev_threads __attribute__((tls_model("initial-exec")));

int omp_ext_auto_on(void)
{
  return auto_loaded;
}

void omp_ext_auto_enable(void)
{
  __atomic_store_n(&auto_loaded, 1, __ATOMIC_RELEASE);
}

int omp_ext_auto_init(const char *value)
{
  const char *obj = value[4] == ':' ? value + 5 : "time";
  if (strcmp(obj, "time") == 0) {
    auto_energy = 0;
  } else if (strcmp(obj, "energy") == 0) {
    auto_energy = 1;
  } else {
    fprintf(stderr, "omp_ext: ignoring OMP_EXT_HT_POLICY='%s': expected auto, auto:time or "
            "auto:energy\n", value);
    return -1;
  }
  auto_loaded = 1;
  return 0;
}

static void build_candidates(void)
{
  const omp_ext_topo_t *topo;
  static const omp_ht_policy_t policies[] = {omp_ht_policy_speedup, omp_ht_policy_spn,
                                             omp_ht_policy_spread};
  unsigned sizes[4], npus, ncores, s, p, i;
  omp_ext_pu_t *order;
  hwloc_bitmap_t *sets, all, *seen = NULL;
  omp_ext_model_t model;
  omp_ext_usage_t u;
  unsigned nseen = 0;
  if (omp_ext_bind_topology(&topo) != 0)
    return;
  npus = omp_ext_topo_npus(topo);
  ncores = omp_ext_topo_ncores(topo);
  omp_ext_model_default(&model);
  omp_ext_model_from_env(environ, &model, NULL);
  if (!(order = malloc(npus * sizeof(*order))) || !(sets = calloc(npus, sizeof(*sets))) ||
      !(all = hwloc_bitmap_alloc())) {
    free(order);
    return;
  }
  for (i = 0; i < npus; i++)
    sets[i] = hwloc_bitmap_alloc();
  cands[0] = omp_ext_rcfg_new(0, NULL, 0, "default");
  if (!cands[0])
    goto out;
  cand_power[0] = 0;
  ncands = 1;
  sizes[0] = 1, sizes[1] = ncores / 2 ? ncores / 2 : 1, sizes[2] = ncores, sizes[3] = npus;
  seen = calloc(AUTO_MAXC, sizeof(*seen));
  for (s = 0; s < 4 && seen; s++) {
    if (s && sizes[s] == sizes[s - 1])
      continue;
    for (p = 0; p < sizeof(policies) / sizeof(*policies) && ncands < AUTO_MAXC; p++) {
      char label[48];
      unsigned k;
      if (omp_ext_order(topo, NULL, policies[p], npus, order) != 0)
        continue;
      hwloc_bitmap_zero(all);
      for (i = 0; i < sizes[s]; i++) {
        hwloc_bitmap_only(sets[i], order[i].os_index);
        hwloc_bitmap_set(all, order[i].os_index);
      }
      for (k = 0; k < nseen && !hwloc_bitmap_isequal(seen[k], all); k++)
        ;
      if (k < nseen) /* the same PUs as an earlier policy's */
        continue;
      snprintf(label, sizeof(label), "%s:%u", omp_ext_policy_name(policies[p]), sizes[s]);
      if (!(cands[ncands] = omp_ext_rcfg_new(sizes[s], (hwloc_const_bitmap_t *)sets, sizes[s],
                                             label)))
        continue;
      seen[nseen++] = hwloc_bitmap_dup(all);
      cand_power[ncands] = omp_ext_usage_of(order, sizes[s], &u) == 0
                             ? omp_ext_model_power(&model.power, &u) : 1;
      ncands++;
    }
  }
  /* The default: the program's team on every allowed PU, as modelled. */
  if (omp_ext_order(topo, NULL, omp_ext_topo_max_smt(topo) > 1 ? omp_ht_policy_spn
                                                               : omp_ht_policy_speedup,
                    npus, order) == 0 && omp_ext_usage_of(order, npus, &u) == 0)
    cand_power[0] = omp_ext_model_power(&model.power, &u);
  if (seen)
    for (i = 0; i < nseen; i++)
      hwloc_bitmap_free(seen[i]);
  free(seen);
out:
  for (i = 0; i < npus; i++)
    hwloc_bitmap_free(sets[i]);
  free(sets);
  hwloc_bitmap_free(all);
  free(order);
}

struct omp_ext_auto *omp_ext_auto_new(void)
{
  struct omp_ext_auto *a;
  pthread_once(&cands_once, build_candidates);
  if (ncands < 2 || !(a = calloc(1, sizeof(*a))))
    return NULL; /* nothing to choose from: the region is left alone */
  a->best = 0, a->probe = -1;
  return a;
}

/* Can candidate \p c run a region with num_threads clause \p clause? */
static int eligible(unsigned c, unsigned clause)
{
  return c == 0 || !clause || cands[c]->nplaces >= clause;
}

static void run(struct omp_ext_rpick *p, unsigned c, unsigned clause, int measure)
{
  unsigned size = clause ? clause : cands[c]->threads;
  p->cfg = cands[c];
  p->threads = clause ? 0 : cands[c]->threads;
  p->cand = (int)c;
  /* Did the team change size since the previous region (the runtime then
   * resizes it: libgomp ends the surplus threads of a smaller team of more
   * than one and creates new ones when it grows)? */
  p->switched = size != tl_prev_threads;
  tl_prev_threads = size;
  p->t0 = measure ? omp_ext_timing_ns() : 0;
}

static int cmp_double(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static double median_of(const double *v, unsigned n)
{
  double t[AUTO_WINDOW > AUTO_MAXSAMP ? AUTO_WINDOW : AUTO_MAXSAMP];
  memcpy(t, v, n * sizeof(*t));
  qsort(t, n, sizeof(*t), cmp_double);
  return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
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
  return (step / a->block) % ncands;
}

static unsigned sample_of(const struct omp_ext_auto *a, unsigned step)
{
  return step / (a->block * ncands) * a->block + step % a->block;
}

/* (Re)start exploring: every candidate again. */
static void explore_start(struct omp_ext_auto *a)
{
  a->step = 0, a->drop_done = 0, a->probe = -1;
  memset(a->dropped, 0, sizeof(a->dropped));
  memset(a->peer_skipped, 0, sizeof(a->peer_skipped));
}

/* The default's least sample (objective) in this exploration's first
 * round: the reference of the early drop and of the peers' bucket. */
static double default_least(const struct omp_ext_auto *a)
{
  return min_of(a->s[0], a->block);
}

static unsigned bucket_of(const struct omp_ext_auto *a)
{
  double us = default_least(a) * 1e6;
  int b = us >= 1 && isfinite(us) ? (int)log2(us) : 0;
  return b < AUTO_BUCKETS ? (unsigned)b : AUTO_BUCKETS - 1;
}

/* Did similar regions drop candidate \p c (a region that is not tiny, at
 * its first round)? */
static int peers_dropped(const struct omp_ext_auto *a, unsigned c)
{
  unsigned b = bucket_of(a), lo = b ? b - 1 : 0, hi = b + 1 < AUTO_BUCKETS ? b + 1 : b, drop = 0,
           keep = 0;
  if (a->no_peers)
    return 0;
  for (; lo <= hi; lo++) {
    drop += __atomic_load_n(&peer_drop[lo][c], __ATOMIC_RELAXED);
    keep += __atomic_load_n(&peer_keep[lo][c], __ATOMIC_RELAXED);
  }
  return drop >= AUTO_PEERS && keep * 4 <= drop;
}

/* Is sample \p v clearly worse than \p ref (a region that is not tiny)? */
static int clearly_worse(double v, double ref)
{
  return v > ref * AUTO_DROP && v > ref + AUTO_TINY_S * (auto_energy ? cand_power[0] : 1);
}

/* After the first round (every candidate one block): drop the candidates
 * whose block median is beyond AUTO_DROP x the least one -- a heavy
 * region's clearly worse team size costs a whole instance each time it
 * runs. */
static void drop_worse(struct omp_ext_auto *a)
{
  double m[AUTO_MAXC], least = INFINITY;
  unsigned c;
  a->drop_done = 1;
  for (c = 0; c < ncands; c++) {
    m[c] = median_of(a->s[c], a->block); /* its first block: samples 0 .. block-1 */
    least = m[c] < least ? m[c] : least;
  }
  for (c = 0; c < ncands; c++) {
    int ran = isfinite(m[c]); /* (a whole block: not early dropped, skipped, ineligible) */
    a->dropped[c] = !(m[c] <= least * AUTO_DROP);
    if (c && ran && a->block != AUTO_TINY_BLOCK)
      __atomic_add_fetch(a->dropped[c] ? &peer_drop[bucket_of(a)][c] : &peer_keep[bucket_of(a)][c],
                         1, __ATOMIC_RELAXED);
  }
}

/* Settled long enough (as many instances as it took to settle): the first
 * candidate that peers had it skip, to run once now; -1: none. */
static int probe_next(const struct omp_ext_auto *a, unsigned clause)
{
  unsigned c;
  if (a->n < 2 * a->settled_at)
    return -1;
  for (c = 1; c < ncands; c++)
    if (a->peer_skipped[c] && eligible(c, clause))
      return (int)c;
  return -1;
}

void omp_ext_auto_pick(struct omp_ext_auto *a, unsigned clause, struct omp_ext_rpick *p)
{
  const void *me = &tl_me;
  const void *owner = __atomic_load_n(&a->owner, __ATOMIC_ACQUIRE);
  unsigned c;
  if (!owner && __atomic_compare_exchange_n(&a->owner, &owner, me, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
    owner = me;
  if (tl_prev != a && owner == me)
    a->follows++; /* (this instance follows another region) */
  tl_prev = a;
  if (owner != me) { /* another root thread: the settled choice, unmeasured */
    c = __atomic_load_n(&a->phase, __ATOMIC_ACQUIRE) == SETTLED
          ? (unsigned)__atomic_load_n(&a->best, __ATOMIC_RELAXED) : 0;
    run(p, eligible(c, clause) ? c : 0, clause, 0);
    return;
  }
  a->n++;
  switch (a->phase) {
  case WARM:
    if (a->n <= AUTO_WARM) {
      run(p, 0, clause, 1);
      return;
    }
    a->phase = EXPLORE;
    explore_start(a);
    /* (The least warm-up time: the first instance may start the team's
     * threads.) */
    a->block = min_of(a->warm, AUTO_WARM) < AUTO_TINY_S ? AUTO_TINY_BLOCK : AUTO_BLOCK;
    a->nsamp = a->block * (a->block == AUTO_TINY_BLOCK ? AUTO_TINY_ROUNDS : AUTO_ROUNDS);
    /* fall through */
  case EXPLORE:
    for (;;) { /* the next candidate to run: skip the ineligible and dropped */
      if (!a->drop_done && a->step >= ncands * a->block)
        drop_worse(a);
      if (a->step >= ncands * a->nsamp)
        break;
      c = cand_of(a, a->step);
      if (c && !a->drop_done && a->block != AUTO_TINY_BLOCK && !a->dropped[c] &&
          a->step % a->block == 0 && eligible(c, clause) && peers_dropped(a, c)) {
        a->dropped[c] = 1, a->peer_skipped[c] = 1;
        a->peer_skips++;
      }
      if (eligible(c, clause) && !a->dropped[c])
        break;
      a->s[c][sample_of(a, a->step)] = INFINITY;
      a->sw[c][sample_of(a, a->step)] = 0;
      a->step++;
    }
    if (a->step < ncands * a->nsamp) {
      run(p, c, clause, 1);
      return;
    }
    run(p, (unsigned)a->best, clause, 0); /* (all skipped: settles at its done) */
    p->t0 = omp_ext_timing_ns();
    return;
  case SETTLED:
    if ((a->probe = probe_next(a, clause)) >= 0) {
      run(p, (unsigned)a->probe, clause, 1);
      return;
    }
    /* (Each re-exploration halves the share of instances timed.) */
    run(p, (unsigned)a->best, clause, a->n % ((unsigned long)AUTO_SAMPLE << a->reexplores) == 0);
    return;
  }
}

/* Candidate \p c's expected cost per instance: the median of its samples;
 * where the samples that followed a team of another size (the runtime
 * resized the team) are dearer than the others, the others' median plus
 * that difference weighed by how often the region follows another one
 * (\p p_follow: then, it is assumed, of another size). */
static double cost_of(const struct omp_ext_auto *a, unsigned c, double p_follow)
{
  double all[AUTO_MAXSAMP], sw[AUTO_MAXSAMP], st[AUTO_MAXSAMP], ms, mt;
  unsigned i, n = 0, nsw = 0, nst = 0;
  for (i = 0; i < a->nsamp; i++) {
    double v = a->s[c][i];
    if (!isfinite(v))
      continue;
    all[n++] = v;
    if (a->sw[c][i])
      sw[nsw++] = v;
    else
      st[nst++] = v;
  }
  if (n < a->nsamp) /* skipped: ineligible or dropped */
    return INFINITY;
  if (!nsw || !nst)
    return median_of(all, n);
  ms = median_of(sw, nsw), mt = median_of(st, nst);
  return ms > mt ? mt + p_follow * (ms - mt) : median_of(all, n);
}

static void settle(struct omp_ext_auto *a)
{
  unsigned c;
  int best = 0;
  double p_follow = a->n ? (double)a->follows / (double)a->n : 0;
  for (c = 0; c < ncands; c++) {
    a->med[c] = cost_of(a, c, p_follow);
    if (a->med[c] < a->med[best])
      best = (int)c;
  }
  /* (The least sample: a busy machine only adds time.) */
  if (a->block != AUTO_TINY_BLOCK && min_of(a->s[best], a->nsamp) < AUTO_TINY_S && !auto_energy) {
    /* Tiny after all (its warm-up paid for starting threads): explore
     * again with the many samples a tiny region can afford. */
    a->block = AUTO_TINY_BLOCK, a->nsamp = AUTO_TINY_BLOCK * AUTO_TINY_ROUNDS;
    explore_start(a);
    return;
  }
  __atomic_store_n(&a->best, best, __ATOMIC_RELAXED);
  a->ref = 0, a->nwindow = 0, a->drifted = 0, a->have_med = 1, a->settled_at = a->n;
  __atomic_store_n(&a->phase, SETTLED, __ATOMIC_RELEASE);
}

void omp_ext_auto_done(struct omp_ext_auto *a, struct omp_ext_rpick *p)
{
  double dt = (double)(omp_ext_timing_ns() - p->t0) * 1e-9;
  unsigned c = (unsigned)p->cand;
  if (__atomic_load_n(&a->owner, __ATOMIC_RELAXED) != &tl_me)
    return;
  if (a->phase == WARM) {
    a->warm[(a->n - 1) % AUTO_WARM] = dt;
    return;
  }
  if (auto_energy)
    dt *= cand_power[c];
  if (a->phase == EXPLORE) {
    if (a->step < ncands * a->nsamp) {
      a->sw[c][sample_of(a, a->step)] = (unsigned char)p->switched;
      a->s[c][sample_of(a, a->step)] = dt;
      if (c && !a->drop_done && a->block != AUTO_TINY_BLOCK && a->step % a->block == 0 &&
          clearly_worse(dt, default_least(a))) {
        a->dropped[c] = 1; /* (its block's other steps are skipped) */
        a->early_drops++;
        __atomic_add_fetch(&peer_drop[bucket_of(a)][c], 1, __ATOMIC_RELAXED);
      }
      a->step++;
      a->explored++;
    }
    if (a->step >= ncands * a->nsamp)
      settle(a);
    return;
  }
  if (a->probe >= 0 && p->cand == a->probe) { /* a peers' verdict checked */
    a->peer_skipped[c] = 0, a->probe = -1;
    if (!clearly_worse(dt, a->med[a->best])) { /* wrong here: explore alone */
      a->no_peers = 1;
      explore_start(a);
      __atomic_store_n(&a->phase, EXPLORE, __ATOMIC_RELEASE);
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
    a->reexplores++;
    explore_start(a);
    __atomic_store_n(&a->phase, EXPLORE, __ATOMIC_RELEASE);
  }
}

/* , "control": {"source": "auto", "objective": "time", "settled": true,
 *  "config": "spn:2", "explored": 9, "reexplores": 0,
 *  "candidates": [{"config": "default", "median": 1.2e-06}, ...]} */
void omp_ext_auto_write_json(FILE *f, const struct omp_ext_auto *a)
{
  unsigned c;
  int settled = a->phase == SETTLED;
  fprintf(f, ", \"control\": {\"source\": \"auto\", \"objective\": \"%s\", \"settled\": %s, "
          "\"config\": \"%s\", \"explored\": %lu, \"reexplores\": %u, \"early_drops\": %lu, "
          "\"peer_skips\": %lu, \"team_kept\": %s, \"candidates\": [",
          auto_energy ? "energy" : "time", settled ? "true" : "false",
          cands[settled ? a->best : 0]->label, a->explored, a->reexplores, a->early_drops,
          a->peer_skips, omp_ext_team_size_asked() ? "true" : "false");
  for (c = 0; c < ncands; c++) {
    fprintf(f, "%s{\"config\": \"%s\", \"median\": ", c ? ", " : "", cands[c]->label);
    if (a->have_med && isfinite(a->med[c]))
      fprintf(f, "%.9g}", a->med[c]);
    else
      fputs("null}", f);
  }
  fputs("]}", f);
}
