/*
 * EPCC syncbench-style overheads (Bull, "Measuring synchronisation and
 * scheduling overheads in OpenMP", EWOMP 1999): each test repeats a
 * construct around delay(delaylength) and subtracts the reference, the
 * same delays run serially.  As EPCC's: the reference's outer repetitions
 * first, then the test's, and overhead = test - the reference's median
 * (worker.c).  delaylength is calibrated to EPCC's default 0.1 us.
 *
 * PARALLEL: a parallel region per repetition holding delay() only, as
 *           EPCC's (no num_threads clause either: the team size is
 *           nthreads-var, checked by the probe); the binding probe and the
 *           region count run in the untimed warm-up (probe != NULL; the
 *           timed regions are counted by the encountering thread, after
 *           each)
 * FOR:      one `omp for` over nthreads iterations per repetition
 * BARRIER:  one barrier per repetition inside one region
 * REDUCTION: a parallel region with reduction(+) per repetition
 * Verification: regions, iterations, barriers and the reduction's sum are
 * counted and must equal what was asked for.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "htbench.h"
#include "sweep.h"

#define PAD 16 /* counters 128 bytes apart (no false sharing) */

enum otest { O_PARALLEL, O_FOR, O_BARRIER, O_REDUCTION };

struct ovh_state {
  enum otest test;
  unsigned nthreads;
  int delaylength;
  uint64_t *count; /* [nthreads * PAD] */
  uint64_t regions, expected, sum, ref_sum;
};

/* EPCC's delay loop, never inlined: the reference and every test run this
 * one copy of the loop, as EPCC's (which lives in another file), so that
 * code a compiler inlined differently cannot read as overhead. */
__attribute__((noinline)) static void delay(int delaylength)
{
  int i;
  float a = 0.;
  for (i = 0; i < delaylength; i++)
    a += i;
  if (a < 0)
    printf("%f \n", a);
}

/* delaylength for 0.1 us: the fastest of 7 timings of a long delay, so
 * that an interruption cannot inflate it. */
static int calibrate_delay(void)
{
  const int probe = 1 << 18;
  double best = 1e9;
  int i, len;
  delay(probe);
  for (i = 0; i < 7; i++) {
    double t0 = sweep_now(), t;
    delay(probe);
    t = sweep_now() - t0;
    best = t < best ? t : best;
  }
  len = (int)(0.1e-6 / (best / probe));
  return len < 1 ? 1 : len;
}

static void *ovh_setup(enum otest test, unsigned nthreads, char *err, size_t errlen)
{
  struct ovh_state *st = calloc(1, sizeof(*st));
  if (st)
    st->count = calloc((size_t)nthreads * PAD, sizeof(uint64_t));
  if (!st || !st->count) {
    snprintf(err, errlen, "out of memory");
    if (st)
      free(st->count);
    free(st);
    return NULL;
  }
  st->test = test;
  st->nthreads = nthreads;
  st->delaylength = calibrate_delay();
  return st;
}

#define OVH_SETUP(name, test)                                                                 \
  static void *name(const struct htb_sizes *sz, unsigned n, char *err, size_t len)            \
  {                                                                                           \
    (void)sz;                                                                                 \
    return ovh_setup(test, n, err, len);                                                      \
  }
OVH_SETUP(par_setup, O_PARALLEL)
OVH_SETUP(for_setup, O_FOR)
OVH_SETUP(bar_setup, O_BARRIER)
OVH_SETUP(red_setup, O_REDUCTION)

static void ovh_run(void *state, unsigned long inner, struct htb_probe *probe)
{
  struct ovh_state *st = state;
  unsigned nt = st->nthreads;
  int dl = st->delaylength;
  unsigned long j;

  st->expected += inner;
  switch (st->test) {
  case O_PARALLEL:
    if (probe) {
      /* The untimed run (warm-up): record the binding and the team size
       * (the harness set nthreads-var: OMP_NUM_THREADS or the in-code
       * call; no clause, as EPCC's); thread 0 counts. */
      for (j = 0; j < inner; j++) {
#pragma omp parallel firstprivate(dl)
        {
          htb_probe_here(probe);
          delay(dl);
          if (omp_get_thread_num() == 0)
            st->regions++;
        }
      }
      break;
    }
    /* Timed: nothing in the region but EPCC's delay; the encountering
     * thread counts the regions it completed.  dl is firstprivate: each
     * thread gets the value with the fork (EPCC reads a global that nobody
     * writes), never a line of the primary thread's stack, which that
     * thread keeps writing (shared, clang passed its address: +3-7% per
     * libomp region against syncbench). */
    for (j = 0; j < inner; j++) {
#pragma omp parallel firstprivate(dl)
      delay(dl);
      st->regions++;
    }
    break;
  case O_FOR:
#pragma omp parallel num_threads(nt)
    {
      unsigned long jj;
      htb_probe_here(probe);
      for (jj = 0; jj < inner; jj++) {
        unsigned i;
#pragma omp for schedule(static)
        for (i = 0; i < nt; i++) {
          delay(dl);
          st->count[i * PAD]++;
        }
      }
    }
    break;
  case O_BARRIER:
#pragma omp parallel num_threads(nt)
    {
      unsigned long jj;
      htb_probe_here(probe);
      for (jj = 0; jj < inner; jj++) {
        delay(dl);
        st->count[omp_get_thread_num() * PAD]++;
#pragma omp barrier
      }
    }
    break;
  case O_REDUCTION:
    if (probe) { /* untimed: record the binding */
#pragma omp parallel num_threads(nt)
      htb_probe_here(probe);
    }
    for (j = 0; j < inner; j++) {
      uint64_t aaaa = 0;
#pragma omp parallel num_threads(nt) reduction(+ : aaaa)
      {
        delay(dl);
        aaaa += 1;
      }
      st->sum += aaaa;
    }
    break;
  }
}

static void ovh_reference(void *state, unsigned long inner)
{
  struct ovh_state *st = state;
  uint64_t aaaa = 0;
  unsigned long j;
  for (j = 0; j < inner; j++) {
    delay(st->delaylength);
    if (st->test == O_REDUCTION)
      aaaa += 1;
  }
  st->ref_sum += aaaa;
}

static int ovh_verify(void *state, char *msg, size_t msglen)
{
  struct ovh_state *st = state;
  unsigned t;
  const char *what = "";
  unsigned long long got = 0, want = st->expected;

  switch (st->test) {
  case O_PARALLEL:
    what = "regions";
    got = st->regions;
    break;
  case O_REDUCTION:
    what = "reduction sum";
    got = st->sum;
    want = st->expected * st->nthreads;
    break;
  case O_FOR:
  case O_BARRIER:
    what = st->test == O_FOR ? "iterations of index" : "barriers of thread";
    for (t = 0; t < st->nthreads; t++)
      if (st->count[t * PAD] != st->expected) {
        snprintf(msg, msglen, "%s WRONG: %s %u: %llu, expected %llu",
                 st->test == O_FOR ? "for" : "barrier", what, t,
                 (unsigned long long)st->count[t * PAD], want);
        return 0;
      }
    snprintf(msg, msglen, "%s: %llu each of %u; delaylength=%d", what, want, st->nthreads,
             st->delaylength);
    return 1;
  }
  if (got != want) {
    snprintf(msg, msglen, "%s WRONG: %llu, expected %llu", what, got, want);
    return 0;
  }
  snprintf(msg, msglen, "%s=%llu; delaylength=%d", what, got, st->delaylength);
  return 1;
}

static void ovh_teardown(void *state)
{
  struct ovh_state *st = state;
  free(st->count);
  free(st);
}

#define OVH_KERNEL(var, name, desc, setup)                                                     \
  const struct htb_kernel var = {name, desc, HTB_OVERHEAD, NULL, setup, ovh_run,              \
                                 ovh_reference, ovh_verify, NULL, ovh_teardown, NULL}
OVH_KERNEL(htb_kernel_parallel, "parallel", "EPCC PARALLEL: parallel region overhead", par_setup);
OVH_KERNEL(htb_kernel_for, "for", "EPCC FOR: worksharing loop overhead", for_setup);
OVH_KERNEL(htb_kernel_barrier, "barrier", "EPCC BARRIER: barrier overhead", bar_setup);
OVH_KERNEL(htb_kernel_reduction, "reduction", "EPCC REDUCTION: reduction overhead", red_setup);
