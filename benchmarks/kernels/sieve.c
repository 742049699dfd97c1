/*
 * Integer sieve, after AIM9's "sieve" (+60% from HT in the Linux study):
 * a segmented sieve of Eratosthenes over the odd numbers up to a limit,
 * 32 KiB segments handed out dynamically, primes counted with a reduction.
 * Verified against pi(10^k) where the limit is a power of ten, else
 * against a plain serial sieve.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "htbench.h"

#define SEG 32768 /* odd numbers per segment (one byte each) */

struct sieve_state {
  uint64_t limit;
  uint32_t *primes; /* odd base primes p with p * p <= limit */
  size_t nprimes;
  unsigned nthreads;
  unsigned char **seg; /* per thread */
  uint64_t count, expected;
};

/* Number of primes <= limit, the simple way: one byte per integer. */
static uint64_t serial_pi(uint64_t limit, int *ok)
{
  unsigned char *composite = calloc(limit + 1, 1);
  uint64_t i, j, n = 0;
  *ok = composite != NULL;
  if (!composite)
    return 0;
  for (i = 2; i <= limit; i++) {
    if (composite[i])
      continue;
    n++;
    for (j = i * i; j <= limit; j += i)
      composite[j] = 1;
  }
  free(composite);
  return n;
}

/* pi(10^k), k = 1..10 */
static const uint64_t pi10[] = {4, 25, 168, 1229, 9592, 78498, 664579, 5761455, 50847534, 455052511};

/* pi(limit) when limit is a power of ten (published values), else 0. */
static uint64_t known_pi(uint64_t limit)
{
  uint64_t ten = 10;
  unsigned k;
  for (k = 0; k < 10; k++, ten *= 10)
    if (ten == limit)
      return pi10[k];
  return 0;
}

static uint64_t sieve_segment(const struct sieve_state *st, unsigned char *seg, uint64_t s)
{
  uint64_t imax = (st->limit - 1) / 2; /* index i <-> odd number 2i + 1 */
  uint64_t lo = s * SEG, hi = lo + SEG > imax + 1 ? imax + 1 : lo + SEG, n = 0, i;
  size_t k;
  memset(seg, 0, hi - lo);
  for (k = 0; k < st->nprimes; k++) {
    uint64_t p = st->primes[k], m = p * p, first = 2 * lo + 1;
    if (m > 2 * (hi - 1) + 1)
      break;
    if (m < first) {
      m = (first + p - 1) / p * p;
      if (m % 2 == 0)
        m += p;
    }
    for (i = (m - 1) / 2; i < hi; i += p)
      seg[i - lo] = 1;
  }
  for (i = lo; i < hi; i++)
    n += !seg[i - lo];
  if (lo == 0)
    n--; /* 1 is not prime */
  return n;
}

static void sieve_free(struct sieve_state *st)
{
  unsigned t;
  if (!st)
    return;
  for (t = 0; st->seg && t < st->nthreads; t++)
    free(st->seg[t]);
  free(st->seg);
  free(st->primes);
  free(st);
}

static void *sieve_setup(const struct htb_sizes *sz, unsigned nthreads, char *err, size_t errlen)
{
  struct sieve_state *st = calloc(1, sizeof(*st));
  uint64_t r, p, q;
  unsigned t;
  int ok = 0;

  if (!st || sz->sieve_limit < 3)
    goto fail;
  st->limit = sz->sieve_limit;
  st->nthreads = nthreads;
  for (r = 1; (r + 1) * (r + 1) <= st->limit; r++)
    ;
  st->primes = malloc((r / 2 + 2) * sizeof(*st->primes));
  st->seg = calloc(nthreads, sizeof(*st->seg));
  if (!st->primes || !st->seg)
    goto fail;
  for (p = 3; p <= r; p += 2) { /* trial division: only up to sqrt(limit) */
    for (q = 3; q * q <= p && p % q; q += 2)
      ;
    if (q * q > p)
      st->primes[st->nprimes++] = (uint32_t)p;
  }
  for (t = 0; t < nthreads; t++)
    if (!(st->seg[t] = malloc(SEG)))
      goto fail;
  st->expected = known_pi(st->limit);
  if (!st->expected) { /* not a power of ten: count serially */
    st->expected = serial_pi(st->limit, &ok);
    if (!ok)
      goto fail;
  }
  return st;
fail:
  snprintf(err, errlen, sz->sieve_limit < 3 ? "sieve limit must be >= 3" : "out of memory");
  sieve_free(st);
  return NULL;
}

static void sieve_run(void *state, unsigned long inner, struct htb_probe *probe)
{
  struct sieve_state *st = state;
  uint64_t nseg = ((st->limit - 1) / 2 + SEG) / SEG;
  unsigned long j;

  for (j = 0; j < inner; j++) {
    uint64_t count = 1; /* 2 */
#pragma omp parallel num_threads(st->nthreads) reduction(+ : count)
    {
      unsigned char *seg = st->seg[omp_get_thread_num()];
      uint64_t s;
      if (j == 0)
        htb_probe_here(probe);
#pragma omp for schedule(dynamic, 4)
      for (s = 0; s < nseg; s++)
        count += sieve_segment(st, seg, s);
    }
    st->count = count;
  }
}

static int sieve_verify(void *state, char *msg, size_t msglen)
{
  struct sieve_state *st = state;
  if (st->count != st->expected) {
    snprintf(msg, msglen, "sieve WRONG: %llu primes <= %llu, serial sieve %llu",
             (unsigned long long)st->count, (unsigned long long)st->limit,
             (unsigned long long)st->expected);
    return 0;
  }
  snprintf(msg, msglen, "primes<=%llu: %llu", (unsigned long long)st->limit,
           (unsigned long long)st->count);
  return 1;
}

static double sieve_work(void *state)
{
  return ((struct sieve_state *)state)->limit / 1e6;
}

static void sieve_teardown(void *state)
{
  sieve_free(state);
}

const struct htb_kernel htb_kernel_sieve = {
  "sieve", "integer sieve (AIM9 sieve; segmented Eratosthenes)", HTB_WORK, "M/s",
  sieve_setup, sieve_run, NULL, sieve_verify, sieve_work, sieve_teardown, NULL,
};
