/*
 * Share: the capacity-weighted split of an iteration range (issue 15;
 * paper §1.2).  omp_ext_share_split() is pure arithmetic; the team calls
 * (omp_ext_team_weights(), omp_ext_share()) gather every thread's binding
 * through the program's own OpenMP runtime (found with dlsym, runtime.c)
 * and weigh them with omp_ext_capacity_weights() (capacity.c).
 *
 * Shared state, each piece guarded by share_lock: this machine's topology
 * (loaded once), sigma, and a small cache of the last teams' weights.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private/internal.h"
#include "private/runtime.h"
#include "private/util.h"

/* ------------------------------------------------------------ the split */

struct remainder {
  long double frac; /* fractional part of the quota */
  unsigned t;
};

/* Largest fraction first; ties: lower thread number first. */
static int by_remainder(const void *a, const void *b)
{
  const struct remainder *x = a, *y = b;
  if (x->frac != y->frac)
    return x->frac > y->frac ? -1 : 1;
  return (x->t > y->t) - (x->t < y->t);
}

int omp_ext_share_split(long begin, long end, const double *weights, unsigned n, long *bounds)
{
  long double total = 0;
  struct remainder *rem;
  unsigned long len, given = 0;
  long diff;
  unsigned t;
  if (!weights || !bounds || n == 0)
    return omp_ext_err_invalid;
  for (t = 0; t < n; t++) {
    if (!isfinite(weights[t]) || weights[t] < 0)
      return omp_ext_err_invalid;
    total += weights[t];
  }
  if (!(total > 0))
    return omp_ext_err_invalid;
  if (end <= begin) {
    for (t = 0; t <= n; t++)
      bounds[t] = begin;
    return omp_ext_success;
  }
  if (__builtin_sub_overflow(end, begin, &diff))
    return omp_ext_err_overflow;
  len = (unsigned long)diff;
  if (!(rem = malloc(n * sizeof(*rem))))
    return omp_ext_err_nomem;
  /* bounds[t + 1] holds share t's size until the prefix sum below. */
  for (t = 0; t < n; t++) {
    long double quota = (long double)len * weights[t] / total, whole = floorl(quota);
    unsigned long count = whole < (long double)len ? (unsigned long)whole : len;
    bounds[t + 1] = (long)count;
    rem[t].frac = quota - whole;
    rem[t].t = t;
    given += count;
  }
  qsort(rem, n, sizeof(*rem), by_remainder);
  /* The iterations left (fewer than n) go to the largest remainders; a
   * floating-point excess (never seen: long double quotas) is taken back
   * from the smallest. */
  for (t = 0; given < len; t = (t + 1) % n, given++)
    bounds[rem[t].t + 1]++;
  for (t = n; given > len; given--) {
    do
      t = (t + n - 1) % n;
    while (bounds[rem[t].t + 1] == 0);
    bounds[rem[t].t + 1]--;
  }
  free(rem);
  bounds[0] = begin;
  for (t = 0; t < n; t++)
    bounds[t + 1] = (long)((unsigned long)bounds[t] + (unsigned long)bounds[t + 1]);
  return omp_ext_success;
}

/* ------------------------------------------------------ shared state */

static pthread_mutex_t share_lock = PTHREAD_MUTEX_INITIALIZER;
static omp_ext_topo_t *share_topo; /* this machine, allowed set without binding */
static int topo_err;               /* its load error, kept: same for every thread */
static int sigma_set;
static double sigma_value;

/* The variable that makes the model invalid, named once per process on
 * stderr (the return code, omp_ext_err_parse, cannot name it), its value
 * escaped and shortened; call with share_lock held. */
static void report_bad_variable(const char *name)
{
  static int reported;
  char shown[4 * OMP_EXT_QUOTE_MAX + 32];
  const char *value = name ? getenv(name) : NULL;
  if (reported || !name)
    return;
  reported = 1;
  fprintf(stderr, "omp_ext: %s='%s' is invalid (see htplaces-model(1)): omp_ext_share and "
          "omp_ext_team_weights fail with omp_ext_err_parse until omp_ext_set_share_sigma()\n",
          name, omp_ext_quote(value ? value : "", shown, sizeof(shown)));
}

int omp_ext_get_share_sigma(double *sigma)
{
  omp_ext_model_t m;
  const char *bad = NULL;
  int err = omp_ext_success;
  if (!sigma)
    return omp_ext_err_invalid;
  pthread_mutex_lock(&share_lock);
  if (!sigma_set) { /* the first use: OMP_EXT_SIGMA (and the other model variables) */
    if ((err = omp_ext_model_from_env(NULL, &m, &bad)) == 0)
      sigma_value = m.sigma, sigma_set = 1;
    else
      report_bad_variable(bad);
  }
  if (!err)
    *sigma = sigma_value;
  pthread_mutex_unlock(&share_lock);
  return err;
}

int omp_ext_set_share_sigma(double sigma)
{
  if (!(sigma >= 0 && sigma <= 1))
    return omp_ext_err_invalid;
  pthread_mutex_lock(&share_lock);
  sigma_value = sigma;
  sigma_set = 1;
  pthread_mutex_unlock(&share_lock);
  return omp_ext_success;
}

/* This machine's topology: hwloc's allowed PUs, not the process binding
 * (libgomp has pinned the initial thread to its place by now).  Not
 * another one that hwloc's environment (HWLOC_SYNTHETIC, HWLOC_XMLFILE,
 * HWLOC_FSROOT) puts in its place: the threads' real bindings would be
 * weighed on it (omp_ext_err_topology, as omp_set_ht_policy()). */
static int machine(omp_ext_topo_t **topo)
{
  int err;
  pthread_mutex_lock(&share_lock);
  if (!share_topo && !topo_err &&
      !(topo_err = omp_ext_topo_load(&share_topo, NULL, omp_ext_topo_ignore_binding)) &&
      !omp_ext_topo_is_thissystem(share_topo)) {
    omp_ext_topo_destroy(share_topo);
    share_topo = NULL;
    topo_err = omp_ext_err_topology;
  }
  *topo = share_topo;
  err = topo_err;
  pthread_mutex_unlock(&share_lock);
  return err;
}

/* The last teams' weights: key = bindings in thread order and sigma. */
#define CACHE_SLOTS 4
static struct cached_team {
  unsigned n;
  double sigma;
  hwloc_bitmap_t *binds;
  double *weights;
  unsigned long used; /* 0 = empty */
} cache[CACHE_SLOTS];
static unsigned long cache_clock;

static void cached_free(struct cached_team *c)
{
  unsigned t;
  for (t = 0; c->binds && t < c->n; t++)
    hwloc_bitmap_free(c->binds[t]);
  free(c->binds);
  free(c->weights);
  memset(c, 0, sizeof(*c));
}

static int cached_matches(const struct cached_team *c, hwloc_bitmap_t *binds, unsigned n,
                          double sigma)
{
  unsigned t;
  if (!c->used || c->n != n || c->sigma != sigma)
    return 0;
  for (t = 0; t < n; t++)
    if (!hwloc_bitmap_isequal(c->binds[t], binds[t]))
      return 0;
  return 1;
}

/* Weights of a team from the cache, or computed and cached. */
static int team_weights(omp_ext_topo_t *topo, hwloc_bitmap_t *binds, unsigned n, double sigma,
                        double *weights)
{
  struct cached_team *c, *victim;
  unsigned i, t;
  int err;
  pthread_mutex_lock(&share_lock);
  for (i = 0; i < CACHE_SLOTS; i++) {
    c = &cache[i];
    if (cached_matches(c, binds, n, sigma)) {
      memcpy(weights, c->weights, n * sizeof(*weights));
      c->used = ++cache_clock;
      pthread_mutex_unlock(&share_lock);
      return omp_ext_success;
    }
  }
  pthread_mutex_unlock(&share_lock);
  err = omp_ext_capacity_weights(topo, (const hwloc_const_cpuset_t *)binds, n, sigma, weights);
  if (err)
    return err;
  /* Keep it (a failed allocation only costs the cache). */
  pthread_mutex_lock(&share_lock);
  for (i = 0; i < CACHE_SLOTS; i++)
    if (cached_matches(&cache[i], binds, n, sigma)) { /* a teammate was first */
      pthread_mutex_unlock(&share_lock);
      return omp_ext_success;
    }
  victim = &cache[0];
  for (i = 1; i < CACHE_SLOTS; i++)
    if (cache[i].used < victim->used)
      victim = &cache[i];
  cached_free(victim);
  victim->binds = calloc(n, sizeof(*victim->binds));
  victim->weights = malloc(n * sizeof(*victim->weights));
  if (victim->binds && victim->weights) {
    victim->n = n;
    for (t = 0; t < n; t++)
      if (!(victim->binds[t] = hwloc_bitmap_dup(binds[t])))
        break;
    if (t == n) {
      memcpy(victim->weights, weights, n * sizeof(*weights));
      victim->sigma = sigma;
      victim->used = ++cache_clock;
    } else {
      cached_free(victim);
    }
  } else {
    cached_free(victim);
  }
  pthread_mutex_unlock(&share_lock);
  return omp_ext_success;
}

/* ----------------------------------------------------- the team exchange */

/* Runtime entry points of the exchange (GOMP ABI; libgomp, libomp and
 * libiomp5 all export them). */
struct exchange_api {
  int (*num_threads)(void);
  void *(*single_copy_start)(void);
  void (*single_copy_end)(void *data);
  void (*barrier)(void);
};

/* Looked up once (the runtime, once found, stays: runtime.c). */
static struct exchange_api api_cache;
static int api_state; /* 0 not yet, 1 found, -1 missing (atomic) */

static int exchange_api(struct exchange_api *api)
{
  int state = __atomic_load_n(&api_state, __ATOMIC_ACQUIRE);
  if (!state) {
    pthread_mutex_lock(&share_lock);
    if (!(state = api_state)) {
      *(void **)&api_cache.num_threads = omp_ext_runtime_sym("omp_get_num_threads");
      *(void **)&api_cache.single_copy_start = omp_ext_runtime_sym("GOMP_single_copy_start");
      *(void **)&api_cache.single_copy_end = omp_ext_runtime_sym("GOMP_single_copy_end");
      *(void **)&api_cache.barrier = omp_ext_runtime_sym("GOMP_barrier");
      state = api_cache.num_threads && api_cache.single_copy_start &&
                      api_cache.single_copy_end && api_cache.barrier
                  ? 1
                  : -1;
      __atomic_store_n(&api_state, state, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&share_lock);
  }
  if (state < 0)
    return omp_ext_err_runtime;
  *api = api_cache;
  return omp_ext_success;
}

/* What the team shares during one exchange: made by one thread, freed by
 * the last one done with it. */
struct board {
  unsigned n;
  int refs;              /* threads yet to finish reading (atomic) */
  int bind_err;          /* first error of a thread reading its binding (atomic) */
  int range_err;         /* a thread passed another range than the board's (atomic) */
  long begin, end;       /* omp_ext_share(): the range of the thread that made the board */
  hwloc_bitmap_t *binds; /* binds[t]: thread t's binding */
};
static struct board no_board; /* published when the owner could not allocate one */

static void board_free(struct board *b)
{
  unsigned t;
  if (!b || b == &no_board)
    return;
  for (t = 0; t < b->n; t++)
    hwloc_bitmap_free(b->binds[t]);
  free(b->binds);
  free(b);
}

static struct board *board_new(unsigned n)
{
  struct board *b = calloc(1, sizeof(*b));
  unsigned t;
  if (!b || !(b->binds = calloc(n, sizeof(*b->binds)))) {
    free(b);
    return NULL;
  }
  b->n = n;
  b->refs = (int)n;
  for (t = 0; t < n; t++)
    if (!(b->binds[t] = hwloc_bitmap_alloc())) {
      board_free(b);
      return NULL;
    }
  return b;
}

/* Where omp_ext_team_weights() and omp_ext_share() start: the runtime, the
 * region and the exchange's entry points (same answer in every thread). */
static int team_begin(struct exchange_api *api, unsigned *nth, unsigned *t)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  int err;
  if (!rt)
    return omp_ext_err_runtime;
  if (rt->get_level() == 0)
    return omp_ext_err_not_in_parallel;
  if ((err = exchange_api(api)) != 0)
    return err;
  *nth = (unsigned)api->num_threads();
  *t = (unsigned)rt->get_thread_num();
  /* Inside a single, masked, master or critical construct (construct.c):
   * the teammates never come to the exchange's barrier.  The caller's own
   * error: no barrier was entered. */
  if (*nth > 1 && omp_ext_construct_open(rt->get_level()))
    return omp_ext_err_in_construct;
  return omp_ext_success;
}

/* The exchange proper: two barriers (the single's, and one after every
 * thread wrote its binding); then each thread weighs the team itself (the
 * same pure function of the same data, usually a cache hit) and the last
 * one out frees the board.  Every thread runs both barriers whatever fails.
 * Fills out[0..nth) unless out is NULL (the caller's argument error, which
 * it reports itself).  With \p range (omp_ext_share()'s begin and end), a
 * thread whose range differs from the board maker's makes every thread
 * return omp_ext_err_mismatch. */
static int exchange(const struct exchange_api *api, unsigned nth, unsigned t, double *out,
                    const long *range)
{
  omp_ext_topo_t *topo = NULL;
  hwloc_bitmap_t mine = hwloc_bitmap_alloc();
  struct board *b;
  double sigma = 0;
  int err = machine(&topo), mine_err = omp_ext_success;
  if (!err)
    err = omp_ext_get_share_sigma(&sigma);
  if (!mine)
    mine_err = omp_ext_err_nomem;
  else if (!err && hwloc_get_cpubind(omp_ext_topo_hwloc(topo), mine, HWLOC_CPUBIND_THREAD) != 0)
    mine_err = omp_ext_err_bind;

  if (!(b = api->single_copy_start())) {
    if (!(b = board_new(nth)))
      b = &no_board;
    else if (range)
      b->begin = range[0], b->end = range[1];
    api->single_copy_end(b);
  }
  if (b != &no_board) {
    if (range && (range[0] != b->begin || range[1] != b->end))
      __atomic_store_n(&b->range_err, 1, __ATOMIC_RELAXED);
    if (mine_err)
      __atomic_store_n(&b->bind_err, mine_err, __ATOMIC_RELAXED);
    else if (t < b->n && hwloc_bitmap_copy(b->binds[t], mine) < 0)
      __atomic_store_n(&b->bind_err, omp_ext_err_nomem, __ATOMIC_RELAXED);
  }
  api->barrier();
  if (b == &no_board)
    err = omp_ext_err_nomem;
  else if (__atomic_load_n(&b->range_err, __ATOMIC_RELAXED))
    err = omp_ext_err_mismatch; /* first: the same answer in every thread */
  else if (!err)
    err = __atomic_load_n(&b->bind_err, __ATOMIC_RELAXED);
  if (!err && out) {
    /* Weighed in a private buffer: the caller's array may be shared by the
     * team, and omp_ext_capacity_weights() writes intermediate values. */
    double *mine_w = malloc(b->n * sizeof(*mine_w));
    if (!mine_w)
      err = omp_ext_err_nomem;
    else if ((err = team_weights(topo, b->binds, b->n, sigma, mine_w)) == 0)
      memcpy(out, mine_w, b->n * sizeof(*out));
    free(mine_w);
  }
  if (b != &no_board && __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0)
    board_free(b);
  hwloc_bitmap_free(mine);
  return err;
}

/* For steal.c: the team's size and the caller's number (as team_begin()),
 * and the runtime's barrier. */
int omp_ext_team_info(unsigned *nth, unsigned *t)
{
  struct exchange_api api;
  return team_begin(&api, nth, t);
}

int omp_ext_team_barrier(void)
{
  struct exchange_api api;
  int err = exchange_api(&api);
  if (!err)
    api.barrier();
  return err;
}

int omp_ext_team_weights(double *weights, int n)
{
  struct exchange_api api;
  unsigned nth, t;
  int err = team_begin(&api, &nth, &t), bad;
  if (err)
    return err;
  bad = !weights || n < 0 || (unsigned)n < nth;
  if (nth == 1) {
    if (bad)
      return omp_ext_err_invalid;
    weights[0] = 1;
    return omp_ext_success;
  }
  err = exchange(&api, nth, t, bad ? NULL : weights, NULL);
  return err ? err : bad ? omp_ext_err_invalid : omp_ext_success;
}

int omp_ext_share(long begin, long end, long *my_begin, long *my_end)
{
  struct exchange_api api;
  unsigned nth, t;
  double *weights, one = 1;
  long *bounds, range[2] = {begin, end};
  int err = team_begin(&api, &nth, &t);
  if (err)
    return err;
  weights = nth > 1 ? malloc(nth * sizeof(*weights)) : &one;
  /* A failed allocation here still takes part in the exchange. */
  err = nth > 1 ? exchange(&api, nth, t, weights, range) : omp_ext_success;
  if (!err && !weights)
    err = omp_ext_err_nomem;
  if (!err && (!my_begin || !my_end))
    err = omp_ext_err_invalid;
  if (!err) {
    if (!(bounds = malloc((nth + 1) * sizeof(*bounds))))
      err = omp_ext_err_nomem;
    else if ((err = omp_ext_share_split(begin, end, weights, nth, bounds)) == 0) {
      *my_begin = bounds[t];
      *my_end = bounds[t + 1];
    }
    free(bounds);
  }
  if (weights != &one)
    free(weights);
  return err;
}

/* ------------------------------------------------------ the dynamic tail */

int omp_ext_tail_init(omp_ext_tail_t *tail, long begin, long end, double fraction, long chunk)
{
  long diff;
  unsigned long len, tail_len;
  if (!tail || !(fraction >= 0 && fraction <= 1) || chunk < 1)
    return omp_ext_err_invalid;
  if (end < begin)
    end = begin;
  if (__builtin_sub_overflow(end, begin, &diff))
    return omp_ext_err_overflow;
  len = (unsigned long)diff;
  tail_len = (unsigned long)llroundl((long double)len * fraction);
  if (tail_len > len)
    tail_len = len;
  tail->begin = begin;
  tail->end = end;
  tail->cut = (long)((unsigned long)end - tail_len);
  tail->chunk = chunk;
  __atomic_store_n(&tail->taken, 0UL, __ATOMIC_RELAXED);
  return omp_ext_success;
}

int omp_ext_tail_next(omp_ext_tail_t *tail, long *lo, long *hi)
{
  unsigned long len, taken, give;
  if (!tail || !lo || !hi || tail->chunk < 1 || tail->cut < tail->begin || tail->cut > tail->end)
    return omp_ext_err_invalid;
  len = (unsigned long)tail->end - (unsigned long)tail->cut;
  taken = __atomic_load_n(&tail->taken, __ATOMIC_RELAXED);
  if (taken > len) /* never so after omp_ext_tail_init(): written over */
    return omp_ext_err_invalid;
  do {
    if (taken >= len)
      return 0;
    give = len - taken < (unsigned long)tail->chunk ? len - taken : (unsigned long)tail->chunk;
  } while (!__atomic_compare_exchange_n(&tail->taken, &taken, taken + give, 1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
  *lo = (long)((unsigned long)tail->cut + taken);
  *hi = (long)((unsigned long)*lo + give);
  return 1;
}
