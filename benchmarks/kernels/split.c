/*
 * The capacity-weighted split against the runtime's schedules (issue 15):
 * one loop of equal iterations (a chain of dependent double additions each,
 * as fadd) shared four ways, one kernel each, plus its serial reference:
 *
 *   split-static    #pragma omp for schedule(static)
 *   split-dynamic   #pragma omp for schedule(dynamic, chunk)
 *   split-share     omp_ext_share() in every region (the exchange of the
 *                   team's bindings included in the time)
 *   split-weights   omp_ext_team_weights() once (warm-up), then
 *                   omp_ext_share_split() in every region: the API's way
 *                   for a loop that repeats
 *   split-tail      as split-weights on the head of the loop, then the
 *                   tail (--split-tail percent of it) in chunks of
 *                   --split-chunk, first come first served:
 *                   omp_ext_tail_init() per region, omp_ext_tail_next()
 *   split-steal     capacity-weighted work stealing: each thread starts
 *                   from its share by the warm-up's weights
 *                   (omp_ext_steal_init_weights() in a single construct
 *                   per region), takes it in chunks of --split-chunk and,
 *                   when done, steals the back half of the fullest share
 *                   (omp_ext_steal_next())
 *   split-adaptive  as split-weights, then after every region the weights
 *                   follow the rates measured in it: each PU's iterations
 *                   per second (its threads' iterations over the last one's
 *                   finish), shared among its threads by their weights,
 *                   averaged half and half with the previous weights.  It
 *                   sees what the capacity model cannot (other jobs on the
 *                   CPUs); not an API of the library
 *   split-serial    the same loop by the initial thread alone (no region
 *                   after the warm-up): the balanced limit of a team is
 *                   this time divided by the team's capacity
 *
 * With --split-pair, every kernel but split-serial also runs the serial loop
 * next to each timed repetition (htbench's paired reference, worker.c): its /balanced
 * is a median of per-repetition ratios, each against a serial time measured
 * seconds apart at most, so a CPU whose speed drifts (a host's load, a
 * clock) shifts both sides of the ratio alike.
 *
 * The warm-up of every kernel records each thread's binding and the team's
 * weights (omp_ext_team_weights(); their sum is the capacity, reported in
 * the check and the `capacity` field).  Verification: every iteration's
 * value is its closed form, and every iteration ran exactly once in every
 * region (a per-iteration counter equals the number of regions).
 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htbench.h"
#include "sweep.h"
#include "omp_ext.h"

enum split_sched { S_STATIC, S_DYNAMIC, S_SHARE, S_WEIGHTS, S_TAIL, S_STEAL, S_ADAPTIVE, S_SERIAL };

struct split_state {
  enum split_sched sched;
  unsigned nthreads;
  long n, len, chunk;
  double tail_fraction;  /* split-tail: share of the loop in the dynamic tail */
  omp_ext_tail_t tail;   /* split-tail: filled before each region */
  omp_ext_steal_t *steal; /* split-steal: a slot per thread, filled per region */
  double a;              /* the addend, read through a volatile */
  double *out;
  unsigned *hits;        /* regions that ran iteration i */
  unsigned long regions; /* regions (or serial loops) run */
  double *w;             /* the team's weights (warm-up) */
  double capacity;
  double *done;          /* done[t]: thread t's time from the region's start to
                          * the end of its share, summed over regions */
  double elapsed;        /* the regions' times, summed */
  int *cpu;              /* cpu[t]: the one CPU thread t is bound to, or -1 */
  double *aw;            /* split-adaptive: the current weights */
  double *last;          /* split-adaptive: thread t's finish in the last region */
  int err;               /* an omp_ext error in a region */
};

/* Not inlined: every kernel runs the same machine code. */
static __attribute__((noinline)) void body(struct split_state *st, long i)
{
  double x = 1.0 + (double)(i % 1024) / 1024.0;
  long k;
  for (k = 0; k < st->len; k++)
    x += st->a;
  st->out[i] = x;
  st->hits[i]++;
}

static void split_teardown(void *state)
{
  struct split_state *st = state;
  if (!st)
    return;
  free(st->out);
  free(st->hits);
  free(st->w);
  free(st->done);
  free(st->cpu);
  free(st->aw);
  free(st->last);
  omp_ext_steal_destroy(st->steal);
  free(st);
}

static void *split_setup(enum split_sched s, const struct htb_sizes *sz, unsigned nthreads,
                         char *err, size_t errlen)
{
  struct split_state *st;
  volatile double half = 0.5;
  if (sz->split_n < 1 || sz->split_n > (1ULL << 32) || sz->split_len < 1 || sz->split_chunk < 1 ||
      sz->split_chunk > (1ULL << 30) || sz->split_tail > 100) {
    snprintf(err, errlen, "split: iterations, length and chunk must be >= 1, the tail 0-100%%");
    return NULL;
  }
  st = calloc(1, sizeof(*st));
  if (st) {
    st->out = calloc(sz->split_n, sizeof(double));
    st->hits = calloc(sz->split_n, sizeof(unsigned));
    st->w = calloc(nthreads, sizeof(double));
    st->done = calloc(nthreads, sizeof(double));
    st->cpu = calloc(nthreads, sizeof(int));
    st->aw = calloc(nthreads, sizeof(double));
    st->last = calloc(nthreads, sizeof(double));
  }
  if (!st || !st->out || !st->hits || !st->w || !st->done || !st->cpu || !st->aw || !st->last) {
    split_teardown(st);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  st->sched = s;
  st->nthreads = nthreads;
  st->n = (long)sz->split_n;
  st->len = (long)sz->split_len;
  st->chunk = (long)sz->split_chunk;
  st->tail_fraction = (double)sz->split_tail / 100;
  st->a = half;
  if (s == S_STEAL) {
    int e = omp_ext_steal_create(nthreads, st->chunk, &st->steal);
    if (e) {
      snprintf(err, errlen, "split-steal: %s", omp_ext_strerror(e));
      split_teardown(st);
      return NULL;
    }
  }
  return st;
}

#define SETUP(name, s)                                                                     \
  static void *name(const struct htb_sizes *sz, unsigned n, char *err, size_t len)         \
  {                                                                                        \
    return split_setup(s, sz, n, err, len);                                                \
  }
SETUP(static_setup, S_STATIC)
SETUP(dynamic_setup, S_DYNAMIC)
SETUP(share_setup, S_SHARE)
SETUP(weights_setup, S_WEIGHTS)
SETUP(tail_setup, S_TAIL)
SETUP(steal_setup, S_STEAL)
SETUP(adaptive_setup, S_ADAPTIVE)
SETUP(serial_setup, S_SERIAL)

static void set_err(struct split_state *st, int e)
{
  if (e) {
#pragma omp atomic write
    st->err = e;
  }
}

/* The calling thread's capacity-weighted share of [0, end) by the warm-up's
 * weights (split-weights; split-tail's head); 0 or an omp_ext error. */
static int weighted_share(struct split_state *st, long end)
{
  long *b = malloc((st->nthreads + 1) * sizeof(long)), i;
  int me = omp_get_thread_num();
  int e = b ? omp_ext_share_split(0, end, st->w, (unsigned)omp_get_num_threads(), b)
            : omp_ext_err_nomem;
  for (i = e ? 0 : b[me]; !e && i < b[me + 1]; i++)
    body(st, i);
  free(b);
  return e;
}

/* The calling thread is done with its share of the region started at t0. */
static void finished(struct split_state *st, double t0)
{
  int me = omp_get_thread_num();
  if (me >= 0 && (unsigned)me < st->nthreads) {
    st->last[me] = sweep_now() - t0;
    st->done[me] += st->last[me];
  }
}

/* split-adaptive, after a region split by b[]: the weights follow the rates
 * measured.  A PU's rate is its threads' iterations over the latest finish
 * among them (threads time-sharing a PU finish apart); its threads share
 * it by their capacity weights; the result is averaged with the previous
 * weights (both scaled to the team's capacity). */
static void adapt(struct split_state *st, const long *b)
{
  unsigned t, u, n = st->nthreads;
  double sum = 0, *next = calloc(n, sizeof(double));
  if (!next)
    return;
  for (t = 0; t < n; t++) {
    long iters = 0;
    double finish = 0, wsum = 0;
    for (u = 0; u < n; u++)
      if (u == t || (st->cpu[t] >= 0 && st->cpu[u] == st->cpu[t])) {
        iters += b[u + 1] - b[u];
        finish = st->last[u] > finish ? st->last[u] : finish;
        wsum += st->w[u];
      }
    if (iters <= 0 || finish <= 0 || wsum <= 0) { /* nothing measured: keep */
      free(next);
      return;
    }
    next[t] = (double)iters / finish * st->w[t] / wsum;
    sum += next[t];
  }
  for (t = 0; t < n; t++)
    st->aw[t] = 0.5 * st->aw[t] + 0.5 * next[t] * st->capacity / sum;
  free(next);
}

/* The warm-up's region: each thread's binding and the team's weights. */
static void probe_team(struct split_state *st, struct htb_probe *probe)
{
#pragma omp parallel num_threads(st->nthreads)
  {
    double *mine = calloc(st->nthreads, sizeof(double));
    int e = mine ? omp_ext_team_weights(mine, st->nthreads) : omp_ext_err_nomem;
    htb_probe_here(probe);
    { /* the one CPU this thread is bound to, or -1 */
      cpu_set_t set;
      int me = omp_get_thread_num(), c, found = -1;
      CPU_ZERO(&set);
      if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) == 1)
        for (c = 0; c < CPU_SETSIZE && found < 0; c++)
          if (CPU_ISSET(c, &set))
            found = c;
      if ((unsigned)me < st->nthreads)
        st->cpu[me] = found;
    }
    if (!e && omp_get_thread_num() == 0)
      memcpy(st->w, mine, st->nthreads * sizeof(double));
    set_err(st, e);
    free(mine);
  }
  if (!st->err) {
    unsigned t;
    st->capacity = 0;
    for (t = 0; t < st->nthreads; t++)
      st->capacity += st->w[t];
    memcpy(st->aw, st->w, st->nthreads * sizeof(double));
  }
}

static void split_run(void *state, unsigned long inner, struct htb_probe *probe)
{
  struct split_state *st = state;
  unsigned long j;
  long i, chunk = st->chunk;
  if (probe || !(st->capacity > 0)) { /* the warm-up (or a run without one) */
    probe_team(st, probe);
    if (st->sched == S_SERIAL)
      usleep(300000); /* libomp's idle workers spin KMP_BLOCKTIME (200 ms) */
  }
  for (j = 0; j < inner && !st->err; j++) {
    double t0 = sweep_now();
    st->regions++;
    switch (st->sched) {
    case S_STATIC:
#pragma omp parallel num_threads(st->nthreads) private(i)
      {
#pragma omp for schedule(static) nowait
        for (i = 0; i < st->n; i++)
          body(st, i);
        finished(st, t0);
      }
      break;
    case S_DYNAMIC:
#pragma omp parallel num_threads(st->nthreads) private(i)
      {
#pragma omp for schedule(dynamic, chunk) nowait
        for (i = 0; i < st->n; i++)
          body(st, i);
        finished(st, t0);
      }
      break;
    case S_SHARE:
#pragma omp parallel num_threads(st->nthreads) private(i)
      {
        long lo = 0, hi = 0;
        int e = omp_ext_share(0, st->n, &lo, &hi);
        set_err(st, e);
        for (i = lo; !e && i < hi; i++)
          body(st, i);
        finished(st, t0);
      }
      break;
    case S_WEIGHTS:
#pragma omp parallel num_threads(st->nthreads)
      {
        set_err(st, weighted_share(st, st->n));
        finished(st, t0);
      }
      break;
    case S_TAIL:
      set_err(st, omp_ext_tail_init(&st->tail, 0, st->n, st->tail_fraction, chunk));
      if (st->err)
        break;
#pragma omp parallel num_threads(st->nthreads) private(i)
      {
        long lo, hi;
        int e = weighted_share(st, st->tail.cut), r = 0;
        set_err(st, e);
        while (!e && (r = omp_ext_tail_next(&st->tail, &lo, &hi)) > 0)
          for (i = lo; i < hi; i++)
            body(st, i);
        set_err(st, r < 0 ? r : 0);
        finished(st, t0);
      }
      break;
    case S_STEAL: {
      int init_e = 0;
#pragma omp parallel num_threads(st->nthreads) private(i)
      {
        long lo, hi;
        int r = 0;
        /* the single's implicit barrier publishes the slots and init_e */
#pragma omp single
        init_e = omp_ext_steal_init_weights(st->steal, 0, st->n, st->w,
                                            (unsigned)omp_get_num_threads());
        while (!init_e &&
               (r = omp_ext_steal_next(st->steal, (unsigned)omp_get_thread_num(), &lo, &hi)) > 0)
          for (i = lo; i < hi; i++)
            body(st, i);
        set_err(st, init_e ? init_e : r < 0 ? r : 0);
        finished(st, t0);
      }
      break;
    }
    case S_ADAPTIVE: {
      long *b = malloc((st->nthreads + 1) * sizeof(long));
      int e = b ? omp_ext_share_split(0, st->n, st->aw, st->nthreads, b) : omp_ext_err_nomem;
      set_err(st, e);
      if (!e) {
#pragma omp parallel num_threads(st->nthreads) private(i)
        {
          int me = omp_get_thread_num();
          for (i = b[me]; i < b[me + 1]; i++)
            body(st, i);
          finished(st, t0);
        }
        adapt(st, b);
      }
      free(b);
      break;
    }
    case S_SERIAL:
      for (i = 0; i < st->n; i++)
        body(st, i);
      finished(st, t0);
      break;
    }
    st->elapsed += sweep_now() - t0;
  }
}

/* The paired reference of the team kernels: the loop by the calling
 * (initial) thread alone, `inner` times; every iteration still runs once
 * per counted region.  Not in the idle figures. */
static void split_reference(void *state, unsigned long inner)
{
  struct split_state *st = state;
  unsigned long j;
  long i;
  for (j = 0; j < inner && !st->err; j++) {
    st->regions++;
    for (i = 0; i < st->n; i++)
      body(st, i);
  }
}

static int split_verify(void *state, char *msg, size_t msglen)
{
  struct split_state *st = state;
  size_t used;
  unsigned t;
  long i;
  if (st->err) {
    snprintf(msg, msglen, "split WRONG: %s", omp_ext_strerror(st->err));
    return 0;
  }
  for (i = 0; i < st->n; i++) {
    double want = 1.0 + (double)(i % 1024) / 1024.0 + (double)st->len * 0.5;
    if (st->hits[i] != st->regions) {
      snprintf(msg, msglen, "split WRONG: iteration %ld ran %u times in %lu regions", i,
               st->hits[i], st->regions);
      return 0;
    }
    if (st->out[i] != want) {
      snprintf(msg, msglen, "split WRONG: iteration %ld gives %.17g, expected %.17g", i,
               st->out[i], want);
      return 0;
    }
  }
  used = (size_t)snprintf(msg, msglen, "%ld iterations x %ld each once in %lu regions; weights",
                          st->n, st->len, st->regions);
  for (t = 0; t < st->nthreads && used < msglen; t++)
    used += (size_t)snprintf(msg + used, msglen - used, "%s%.4g", t ? "," : " ", st->w[t]);
  if (used < msglen)
    used += (size_t)snprintf(msg + used, msglen - used, "; capacity %.4g", st->capacity);
  for (t = 0; st->sched == S_ADAPTIVE && t < st->nthreads && used < msglen; t++)
    used += (size_t)snprintf(msg + used, msglen - used, "%s%.3g", t ? "," : "; adapted ",
                             st->aw[t]);
  if (used < msglen)
    used += (size_t)snprintf(msg + used, msglen - used, "; idle %%:");
  /* each thread's share of the regions after it finished its part: it
   * waited for the others (two threads time-sharing a PU finish apart even
   * when their PU's work is balanced with the other PUs') */
  for (t = 0; t < (st->sched == S_SERIAL ? 1 : st->nthreads) && used < msglen; t++)
    used += (size_t)snprintf(msg + used, msglen - used, "%s%.1f", t ? "," : " ",
                             st->elapsed > 0 ? 100 * (1 - st->done[t] / st->elapsed) : 0.0);
  return 1;
}

static double split_work(void *state)
{
  struct split_state *st = state;
  return (double)st->n / 1e6;
}

static double split_capacity(void *state)
{
  struct split_state *st = state;
  return st->capacity;
}


#define SPLIT_KERNEL_REF(var, name, setup, ref, desc)                                      \
  const struct htb_kernel var = {                                                          \
    name, desc, HTB_WORK, "Mit/s", setup, split_run, ref, split_verify, split_work,        \
    split_teardown, split_capacity,                                                        \
  };
#define SPLIT_KERNEL(var, name, setup, desc) SPLIT_KERNEL_REF(var, name, setup, split_reference, desc)
SPLIT_KERNEL(htb_kernel_split_static, "split-static", static_setup,
             "equal iterations, schedule(static)")
SPLIT_KERNEL(htb_kernel_split_dynamic, "split-dynamic", dynamic_setup,
             "equal iterations, schedule(dynamic, --split-chunk)")
SPLIT_KERNEL(htb_kernel_split_share, "split-share", share_setup,
             "equal iterations, omp_ext_share() per region (capacity-weighted)")
SPLIT_KERNEL(htb_kernel_split_weights, "split-weights", weights_setup,
             "equal iterations, omp_ext_team_weights() once + omp_ext_share_split()")
SPLIT_KERNEL(htb_kernel_split_tail, "split-tail", tail_setup,
             "equal iterations, weighted head + dynamic tail (omp_ext_tail_next())")
SPLIT_KERNEL(htb_kernel_split_steal, "split-steal", steal_setup,
             "equal iterations, weighted shares + work stealing (omp_ext_steal_next())")
SPLIT_KERNEL(htb_kernel_split_adaptive, "split-adaptive", adaptive_setup,
             "equal iterations, weights following each region's measured rates")
SPLIT_KERNEL_REF(htb_kernel_split_serial, "split-serial", serial_setup, NULL,
             "the split loop by one thread: balanced limit = time / capacity")
