/*
 * Steal: capacity-weighted work stealing (include/omp_ext/steal.h).  Each
 * thread number has a slot [next, end) under its own mutex; the owner takes
 * chunks from the front, a thief whose own slot is empty cuts the back half
 * off the fullest slot into its own.  Only a slot's owner (and the init
 * calls) ever put work into a slot; thieves only lower a victim's end, the
 * owner only raises its next.  So a thread that finds its own slot empty
 * and every other slot empty may stop: what is left anywhere belongs to a
 * thread that is still running (a thief moving work, or a slot's owner).
 *
 * Lengths are unsigned long (end - begin of any begin <= end fits), bounds
 * are computed in unsigned long and converted back: no signed overflow near
 * LONG_MIN or LONG_MAX.  The slots' bounds are written under their mutex
 * with atomic stores, so that the unlocked scan of a thief may read them
 * (a hint only: the victim is checked again under its mutex).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <limits.h>
#include <stdlib.h>

#include "private/internal.h"
#include "private/runtime.h"

#define SLOT_ALIGN 64

struct slot {
  pthread_mutex_t lock;
  long next; /* first iteration still to hand out */
  long end;  /* one past the last; next == end: empty */
} __attribute__((aligned(SLOT_ALIGN)));

struct omp_ext_steal {
  unsigned n;      /* slots */
  long chunk;      /* iterations per chunk, >= 1 */
  struct slot *slots;
  double *weights; /* n: thread 0's buffers in omp_ext_steal_init() */
  long *bounds;    /* n + 1 */
  int init_err;    /* thread 0's result of the last omp_ext_steal_init() */
};

int omp_ext_steal_create(unsigned nthreads, long chunk, omp_ext_steal_t **steal)
{
  omp_ext_steal_t *s;
  void *mem = NULL;
  unsigned t;
  if (!steal || nthreads == 0 || nthreads > INT_MAX || chunk < 1)
    return omp_ext_err_invalid;
  if (!(s = calloc(1, sizeof(*s))))
    return omp_ext_err_nomem;
  s->n = nthreads;
  s->chunk = chunk;
  s->weights = malloc((size_t)nthreads * sizeof(*s->weights));
  s->bounds = malloc(((size_t)nthreads + 1) * sizeof(*s->bounds));
  if (!s->weights || !s->bounds ||
      posix_memalign(&mem, SLOT_ALIGN, (size_t)nthreads * sizeof(struct slot)) != 0) {
    free(s->weights);
    free(s->bounds);
    free(s);
    return omp_ext_err_nomem;
  }
  s->slots = mem;
  for (t = 0; t < nthreads; t++) {
    s->slots[t].next = s->slots[t].end = 0;
    if (pthread_mutex_init(&s->slots[t].lock, NULL) != 0) {
      while (t-- > 0)
        pthread_mutex_destroy(&s->slots[t].lock);
      free(mem);
      free(s->weights);
      free(s->bounds);
      free(s);
      return omp_ext_err_nomem;
    }
  }
  *steal = s;
  return omp_ext_success;
}

void omp_ext_steal_destroy(omp_ext_steal_t *steal)
{
  unsigned t;
  if (!steal)
    return;
  for (t = 0; t < steal->n; t++)
    pthread_mutex_destroy(&steal->slots[t].lock);
  free(steal->slots);
  free(steal->weights);
  free(steal->bounds);
  free(steal);
}

/* Set slot t to [next, end) (under its lock: a thief may be reading it). */
static void slot_set(struct slot *sl, long next, long end)
{
  pthread_mutex_lock(&sl->lock);
  __atomic_store_n(&sl->next, next, __ATOMIC_RELAXED);
  __atomic_store_n(&sl->end, end, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&sl->lock);
}

static void empty_all(omp_ext_steal_t *steal)
{
  unsigned t;
  for (t = 0; t < steal->n; t++)
    slot_set(&steal->slots[t], 0, 0);
}

/* Split [begin, end) by weights[0..n) into the slots, emptying the rest;
 * the slots are left as they were on error. */
static int fill(omp_ext_steal_t *steal, long begin, long end, const double *weights, unsigned n)
{
  unsigned t;
  int err;
  if (begin > end)
    return omp_ext_err_invalid;
  if ((err = omp_ext_share_split(begin, end, weights, n, steal->bounds)) != 0)
    return err;
  for (t = 0; t < steal->n; t++)
    if (t < n)
      slot_set(&steal->slots[t], steal->bounds[t], steal->bounds[t + 1]);
    else
      slot_set(&steal->slots[t], end, end);
  return omp_ext_success;
}

int omp_ext_steal_init_weights(omp_ext_steal_t *steal, long begin, long end,
                               const double *weights, unsigned n)
{
  if (!steal || !weights || n == 0 || n > steal->n)
    return omp_ext_err_invalid;
  return fill(steal, begin, end, weights, n);
}

int omp_ext_steal_init(omp_ext_steal_t *steal, long begin, long end)
{
  unsigned nth, t;
  int err = omp_ext_team_info(&nth, &t), berr;
  if (err)
    return err; /* the same in every thread: no barrier was entered */
  if (nth == 1) {
    static const double one = 1;
    if (!steal)
      return omp_ext_err_invalid;
    if ((err = fill(steal, begin, end, &one, 1)) != 0)
      empty_all(steal);
    return err;
  }
  if (t == 0) {
    /* Thread 0 weighs the team into the object's buffer and fills every
     * slot; the others take part in the exchange only (weights NULL: they
     * weigh nothing, and get omp_ext_err_invalid or the team's error). */
    int small = steal && nth > steal->n;
    err = omp_ext_team_weights(steal && !small ? steal->weights : NULL,
                               steal && !small ? (int)nth : 0);
    if (!steal || small)
      err = omp_ext_err_invalid;
    else if (!err)
      err = fill(steal, begin, end, steal->weights, nth);
    if (steal) {
      if (err)
        empty_all(steal);
      /* Read by the others after the barrier; written again only after
       * every thread entered the next init's exchange. */
      steal->init_err = err;
    }
  } else {
    (void)omp_ext_team_weights(NULL, 0);
  }
  /* The slots are published, and every thread has passed the exchange's
   * barriers (none is still in the previous loop) before any returns. */
  if ((berr = omp_ext_team_barrier()) != 0)
    return berr;
  if (t == 0)
    return err;
  return steal ? steal->init_err : omp_ext_err_invalid;
}

/* The front chunk of the locked slot sl into [*lo, *hi); 0 if empty. */
static int take_front(struct slot *sl, long chunk, long *lo, long *hi)
{
  unsigned long left, give;
  if (sl->next >= sl->end)
    return 0;
  left = (unsigned long)sl->end - (unsigned long)sl->next;
  give = left < (unsigned long)chunk ? left : (unsigned long)chunk;
  *lo = sl->next;
  *hi = (long)((unsigned long)sl->next + give);
  __atomic_store_n(&sl->next, *hi, __ATOMIC_RELAXED);
  return 1;
}

int omp_ext_steal_next(omp_ext_steal_t *steal, unsigned thread, long *lo, long *hi)
{
  struct slot *own;
  unsigned long chunk;
  int got;
  if (!steal || !lo || !hi || thread >= steal->n)
    return omp_ext_err_invalid;
  chunk = (unsigned long)steal->chunk;
  own = &steal->slots[thread];
  pthread_mutex_lock(&own->lock);
  got = take_front(own, steal->chunk, lo, hi);
  pthread_mutex_unlock(&own->lock);
  if (got)
    return 1;
  for (;;) {
    /* The fullest other slot, from an unlocked look (a hint). */
    unsigned long most = 0, left, cut, give;
    unsigned v, victim = 0;
    long start, end;
    for (v = 0; v < steal->n; v++) {
      long nx, e;
      if (v == thread)
        continue;
      nx = __atomic_load_n(&steal->slots[v].next, __ATOMIC_RELAXED);
      e = __atomic_load_n(&steal->slots[v].end, __ATOMIC_RELAXED);
      left = e > nx ? (unsigned long)e - (unsigned long)nx : 0;
      if (left > most)
        most = left, victim = v;
    }
    if (most == 0)
      return 0;
    /* The back half, at least a chunk: [end - cut, end). */
    pthread_mutex_lock(&steal->slots[victim].lock);
    {
      struct slot *vs = &steal->slots[victim];
      left = vs->end > vs->next ? (unsigned long)vs->end - (unsigned long)vs->next : 0;
      if (left == 0) { /* taken meanwhile: look again */
        pthread_mutex_unlock(&vs->lock);
        continue;
      }
      cut = left / 2;
      if (cut < (left < chunk ? left : chunk))
        cut = left < chunk ? left : chunk;
      end = vs->end;
      start = (long)((unsigned long)end - cut);
      __atomic_store_n(&vs->end, start, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&steal->slots[victim].lock);
    /* Own slot: empty, and nobody else puts work into it. */
    give = cut < chunk ? cut : chunk;
    *lo = start;
    *hi = (long)((unsigned long)start + give);
    slot_set(own, *hi, end);
    return 1;
  }
}
