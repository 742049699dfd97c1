/*
 * Private: region timing's per-region path (OMP_EXT_TIMING), inline in the
 * hooks (trampoline.h, backend_kmp.c) so that an instance costs no call but the clock's: the
 * thread-local state, and _begin/_end for the instances that need no lock.
 * The rest (the first instance of a region and team size in a thread, the
 * binding records, the file) is in timing.c.
 *
 * Each root thread adds the instances of a region it starts to its own
 * part of the region (struct omp_ext_timing_part, one per thread, region
 * and team size), found through a small per-thread cache; the parts are
 * merged when statistics are read (at exit), under timing.c's lock.
 */
#ifndef OMP_EXT_PRIVATE_TIMING_H
#define OMP_EXT_PRIVATE_TIMING_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "private/runtime.h"

#define OMP_EXT_TLS __attribute__((tls_model("initial-exec")))

/* One root thread's instances of one region with one team size, or a named
 * measurement's (written under timing.c's lock).  Written by its thread
 * alone without a lock: the sample first, then n with release, the sums
 * relaxed; samples and cap change only under the lock, which the readers
 * hold. */
struct omp_ext_timing_part {
  struct omp_ext_timing_part *next; /* the region's parts; lock */
  const void *owner;                /* the thread (its state's address) */
  unsigned team;                    /* team size asked for */
  unsigned long n;                  /* instances; atomic */
  double total, min, max;           /* ticks (seconds for a named one); atomic */
  double *samples;                  /* for the median: every instance up to
                                     * OMP_EXT_TIMING_MAXSAMPLES, then a uniform
                                     * sample of that many (reservoir) */
  size_t cap;                       /* room in samples; lock */
  uint64_t rng;                     /* the reservoir's xorshift state; its writer */
};

/* Samples kept per part: the memory of a region is bounded (8 kB a thread
 * and team size), whatever its instance count. */
#define OMP_EXT_TIMING_MAXSAMPLES 1024

#define OMP_EXT_TIMING_NSEEN 16 /* parts a thread has in hand */

/* A thread's state: the outermost region it has open, and the parts of the
 * (region, team size) pairs whose binding is recorded and team size noted
 * (later instances take no lock). */
struct omp_ext_timing_tls {
  int64_t t0;        /* omp_ext_timing_ticks() */
  const void *key;   /* the construct */
  const void *at;    /* the address it is named after */
  struct omp_ext_timing_part *part; /* NULL: _end takes the slow path */
  unsigned team;
  int open;          /* depth */
  int rec;           /* recording its team's binding */
  struct {
    const void *key, *at;
    struct omp_ext_timing_part *part;
  } seen[OMP_EXT_TIMING_NSEEN];
};

extern __thread struct omp_ext_timing_tls omp_ext_timing_tl OMP_EXT_HIDDEN OMP_EXT_TLS;
extern int omp_ext_timing_flag OMP_EXT_HIDDEN; /* atomic: OMP_EXT_TIMING set */
extern int omp_ext_timing_tsc OMP_EXT_HIDDEN;  /* ticks are the TSC's; set before the flag */

/* timing.c: what per-region control did at code address \p at, written
 * into the region's object of the timing file (", \"control\": {...}", or
 * nothing): registered by region.c when it is loaded, so that timing (the
 * lower layer) never calls region.c. */
typedef void (*omp_ext_timing_control_fn)(FILE *f, const void *at);
OMP_EXT_HIDDEN void omp_ext_timing_set_control(omp_ext_timing_control_fn fn);

/* timing.c: the instances the inline path does not take. */
OMP_EXT_HIDDEN int omp_ext_timing_begin_slow(const void *key, const void *at, unsigned team);
OMP_EXT_HIDDEN int omp_ext_timing_end_slow(double dt);

static inline int64_t omp_ext_timing_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The clock of the per-region path: the time-stamp counter where the kernel
 * keeps time with it (clocksource tsc: invariant and synchronized across
 * CPUs, what the vDSO's clock_gettime reads too, without its conversion
 * and retry loop: half its cost), else CLOCK_MONOTONIC in ns.  Ticks
 * become seconds when statistics are read, at the rate measured against
 * CLOCK_MONOTONIC since the library was loaded (timing.c). */
static inline int64_t omp_ext_timing_ticks(void)
{
#if defined(__x86_64__)
  if (__builtin_expect(omp_ext_timing_tsc, 1)) {
    uint32_t lo, hi; /* lfence: not read before earlier instructions (as the vDSO) */
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return (int64_t)(((uint64_t)hi << 32) | lo);
  }
#endif
  return omp_ext_timing_ns();
}

/* OMP_EXT_TIMING set (after omp_ext_timing_enabled() read it)? */
static inline int omp_ext_timing_on(void)
{
  return __atomic_load_n(&omp_ext_timing_flag, __ATOMIC_RELAXED);
}

/* Has the calling thread an outermost region open? */
static inline int omp_ext_timing_open(void)
{
  return omp_ext_timing_tl.open != 0;
}

static inline unsigned omp_ext_timing_slot(const void *key, const void *at, unsigned team)
{
  uintptr_t h = ((uintptr_t)key ^ (uintptr_t)at) >> 4;
  return (unsigned)((h ^ (h >> 7) ^ team) % OMP_EXT_TIMING_NSEEN);
}

/* See runtime.h. */
static inline int omp_ext_timing_begin(const void *key, const void *at, unsigned team)
{
  struct omp_ext_timing_tls *tl = &omp_ext_timing_tl;
  unsigned slot;
  struct omp_ext_timing_part *p;
  if (tl->open++) /* a region nested in the open one, by its primary thread */
    return 0;
  slot = omp_ext_timing_slot(key, at, team);
  p = tl->seen[slot].part;
  if (__builtin_expect(tl->seen[slot].key != key || tl->seen[slot].at != at || !p ||
                         p->team != team,
                       0))
    return omp_ext_timing_begin_slow(key, at, team);
  tl->part = p;
  tl->t0 = omp_ext_timing_ticks();
  return 0;
}

/* Add one instance of \p dt (ticks, or seconds for a named measurement) to
 * \p p, by its only writer. */
static inline void omp_ext_timing_add(struct omp_ext_timing_part *p, double dt)
{
  unsigned long n = __atomic_load_n(&p->n, __ATOMIC_RELAXED);
  double v;
  if (n < p->cap) {
    p->samples[n] = dt;
  } else if (p->cap == OMP_EXT_TIMING_MAXSAMPLES) {
    /* Reservoir sampling (Vitter's algorithm R): instance n replaces a
     * random sample with probability cap / (n + 1). */
    uint64_t x = p->rng ? p->rng : 0x9e3779b97f4a7c15ULL, j;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    p->rng = x;
    j = x % ((uint64_t)n + 1);
    if (j < OMP_EXT_TIMING_MAXSAMPLES)
      p->samples[j] = dt;
  }
  v = n == 0 || dt < p->min ? dt : p->min;
  __atomic_store(&p->min, &v, __ATOMIC_RELAXED);
  v = n == 0 || dt > p->max ? dt : p->max;
  __atomic_store(&p->max, &v, __ATOMIC_RELAXED);
  v = p->total + dt;
  __atomic_store(&p->total, &v, __ATOMIC_RELAXED);
  __atomic_store_n(&p->n, n + 1, __ATOMIC_RELEASE);
}

/* See runtime.h. */
static inline int omp_ext_timing_end(void)
{
  struct omp_ext_timing_tls *tl = &omp_ext_timing_tl;
  struct omp_ext_timing_part *p;
  double dt;
  if (!tl->open || --tl->open)
    return 0;
  dt = (double)(omp_ext_timing_ticks() - tl->t0);
  p = tl->part;
  if (__builtin_expect(p != NULL && (p->n < p->cap || p->cap == OMP_EXT_TIMING_MAXSAMPLES), 1)) {
    omp_ext_timing_add(p, dt);
    return 0;
  }
  return omp_ext_timing_end_slow(dt);
}

#endif /* OMP_EXT_PRIVATE_TIMING_H */
