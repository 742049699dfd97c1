/*
 * Dense floating point, after AIM9's add_double / mul_double / div_double:
 * blocks of dependent double-precision chains (latency-bound, the case in
 * which an SMT sibling can fill the pipeline), blocks shared with a static
 * schedule.  Each chain has a closed form, which is the verification:
 *   add: x += 0.5          -> x0 + L/2 exactly
 *   mul: x *= 1 + 2^-30     -> x0 (1 + 2^-30)^L   (relative error < 1e-6)
 *   div: x /= 1 + 2^-30     -> x0 (1 + 2^-30)^-L
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "htbench.h"

#define NBLOCKS 512

enum fop { FADD, FMUL, FDIV };

struct flops_state {
  enum fop op;
  unsigned nthreads;
  uint64_t len; /* chain length per block */
  double operand;
  double *out;
};

static void *flops_setup(enum fop op, const struct htb_sizes *sz, unsigned nthreads, char *err,
                         size_t errlen)
{
  struct flops_state *st = calloc(1, sizeof(*st));
  if (st)
    st->out = calloc(NBLOCKS, sizeof(double));
  if (!st || !st->out || sz->flops_iters < NBLOCKS) {
    snprintf(err, errlen, st && st->out ? "flops iterations must be >= %d" : "out of memory",
             NBLOCKS);
    if (st)
      free(st->out);
    free(st);
    return NULL;
  }
  st->op = op;
  st->nthreads = nthreads;
  st->len = sz->flops_iters / NBLOCKS;
  st->operand = op == FADD ? 0.5 : 1.0 + ldexp(1.0, -30);
  return st;
}

static void *fadd_setup(const struct htb_sizes *sz, unsigned n, char *err, size_t len)
{
  return flops_setup(FADD, sz, n, err, len);
}
static void *fmul_setup(const struct htb_sizes *sz, unsigned n, char *err, size_t len)
{
  return flops_setup(FMUL, sz, n, err, len);
}
static void *fdiv_setup(const struct htb_sizes *sz, unsigned n, char *err, size_t len)
{
  return flops_setup(FDIV, sz, n, err, len);
}

static double x0_of(int b)
{
  return 1.0 + b / 1024.0;
}

static void flops_run(void *state, unsigned long inner, struct htb_probe *probe)
{
  struct flops_state *st = state;
  /* The operand is read through a volatile so the chain cannot be folded. */
  volatile double operand_v = st->operand;
  double a = operand_v;
  unsigned long j;

  for (j = 0; j < inner; j++) {
#pragma omp parallel num_threads(st->nthreads)
    {
      int b;
      if (j == 0)
        htb_probe_here(probe);
#pragma omp for schedule(static)
      for (b = 0; b < NBLOCKS; b++) {
        double x = x0_of(b);
        uint64_t i;
        switch (st->op) {
        case FADD:
          for (i = 0; i < st->len; i++)
            x += a;
          break;
        case FMUL:
          for (i = 0; i < st->len; i++)
            x *= a;
          break;
        case FDIV:
          for (i = 0; i < st->len; i++)
            x /= a;
          break;
        }
        st->out[b] = x;
      }
    }
  }
}

static int flops_verify(void *state, char *msg, size_t msglen)
{
  struct flops_state *st = state;
  double sum = 0;
  int b;
  for (b = 0; b < NBLOCKS; b++) {
    double want = st->op == FADD   ? x0_of(b) + st->len * 0.5
                  : st->op == FMUL ? x0_of(b) * pow(st->operand, (double)st->len)
                                   : x0_of(b) * pow(st->operand, -(double)st->len);
    int ok = st->op == FADD ? st->out[b] == want : fabs(st->out[b] - want) <= 1e-6 * want;
    if (!ok) {
      snprintf(msg, msglen, "flops WRONG: block %d gives %.17g, expected %.17g", b, st->out[b],
               want);
      return 0;
    }
    sum += st->out[b];
  }
  snprintf(msg, msglen, "checksum=%.12g blocks=%d chain=%llu", sum, NBLOCKS,
           (unsigned long long)st->len);
  return 1;
}

static double flops_work(void *state)
{
  struct flops_state *st = state;
  return (double)st->len * NBLOCKS / 1e6;
}

static void flops_teardown(void *state)
{
  struct flops_state *st = state;
  free(st->out);
  free(st);
}

const struct htb_kernel htb_kernel_fadd = {
  "fadd", "dependent double additions (AIM9 add_double)", HTB_WORK, "Mflop/s",
  fadd_setup, flops_run, NULL, flops_verify, flops_work, flops_teardown, NULL,
};
const struct htb_kernel htb_kernel_fmul = {
  "fmul", "dependent double multiplications (AIM9 mul_double)", HTB_WORK, "Mflop/s",
  fmul_setup, flops_run, NULL, flops_verify, flops_work, flops_teardown, NULL,
};
const struct htb_kernel htb_kernel_fdiv = {
  "fdiv", "dependent double divisions (AIM9 div_double)", HTB_WORK, "Mflop/s",
  fdiv_setup, flops_run, NULL, flops_verify, flops_work, flops_teardown, NULL,
};
