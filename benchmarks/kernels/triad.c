/*
 * STREAM-style triad a[i] = b[i] + s * c[i] (memory-bound), arrays first
 * touched by the same static schedule as the loop (NUMA-local pages).
 * Bytes counted as STREAM does: 24 per element.  Verified element by
 * element (the inputs make every result exact).
 */
#include <omp.h>
#include <stdlib.h>

#include "htbench.h"

struct triad_state {
  unsigned nthreads;
  long n;
  double *a, *b, *c;
};

static void triad_teardown(void *state)
{
  struct triad_state *st = state;
  free(st->a);
  free(st->b);
  free(st->c);
  free(st);
}

static void *triad_setup(const struct htb_sizes *sz, unsigned nthreads, char *err, size_t errlen)
{
  struct triad_state *st = calloc(1, sizeof(*st));
  long i;
  if (!st || sz->triad_n < 1) {
    snprintf(err, errlen, st ? "triad size must be >= 1" : "out of memory");
    free(st);
    return NULL;
  }
  st->nthreads = nthreads;
  st->n = (long)sz->triad_n;
  if (posix_memalign((void **)&st->a, 64, st->n * sizeof(double)) ||
      posix_memalign((void **)&st->b, 64, st->n * sizeof(double)) ||
      posix_memalign((void **)&st->c, 64, st->n * sizeof(double))) {
    snprintf(err, errlen, "out of memory for 3 x %ld doubles", st->n);
    triad_teardown(st);
    return NULL;
  }
#pragma omp parallel for num_threads(nthreads) schedule(static)
  for (i = 0; i < st->n; i++) {
    st->a[i] = 0;
    st->b[i] = 1.0 + i % 7;
    st->c[i] = 2.0 + i % 5;
  }
  return st;
}

static void triad_run(void *state, unsigned long inner, struct htb_probe *probe)
{
  struct triad_state *st = state;
  double *restrict a = st->a;
  const double *restrict b = st->b, *restrict c = st->c;
  const double s = 3.0;
  long n = st->n;
  unsigned long j;

  for (j = 0; j < inner; j++) {
#pragma omp parallel num_threads(st->nthreads)
    {
      long i;
      if (j == 0)
        htb_probe_here(probe);
#pragma omp for schedule(static)
      for (i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
    }
  }
}

static int triad_verify(void *state, char *msg, size_t msglen)
{
  struct triad_state *st = state;
  long i;
  for (i = 0; i < st->n; i++)
    if (st->a[i] != (1.0 + i % 7) + 3.0 * (2.0 + i % 5)) {
      snprintf(msg, msglen, "triad WRONG: a[%ld] = %.17g", i, st->a[i]);
      return 0;
    }
  snprintf(msg, msglen, "n=%ld all elements exact", st->n);
  return 1;
}

static double triad_work(void *state)
{
  return 24.0 * ((struct triad_state *)state)->n / 1e6;
}

const struct htb_kernel htb_kernel_triad = {
  "triad", "STREAM triad a = b + s*c (memory-bound)", HTB_WORK, "MB/s",
  triad_setup, triad_run, NULL, triad_verify, triad_work, triad_teardown, NULL,
};
