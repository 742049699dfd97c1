/*
 * sharebench: one loop of equal iterations (dependent double additions, as
 * htbench's fadd kernel) shared three ways in the same run, repetition by
 * repetition in rotation so that drifts of the machine hit all three alike:
 *
 *   static    #pragma omp for schedule(static)
 *   dynamic   #pragma omp for schedule(dynamic, CHUNK)
 *   weighted  omp_ext_share() (capacity-weighted split, issue 15), the
 *             exchange of the team's bindings included in the time
 *   w-split   the same split from weights taken once before the timing
 *             (omp_ext_team_weights()), omp_ext_share_split() in the
 *             region: no synchronisation, the API's way for repeated loops
 *
 * Placement is the environment's (OMP_PLACES, OMP_PROC_BIND,
 * OMP_NUM_THREADS), e.g. the 3 threads on 2 PUs:
 *     OMP_PLACES='{0},{1}' OMP_PROC_BIND=close OMP_NUM_THREADS=3 sharebench
 *
 * The balanced limit is the serial time of the same loop (timed by the
 * initial thread, between regions, in the same rotation, on its own PU)
 * divided by the team's capacity
 * (sum of the weights omp_ext_team_weights() gives: the number of PUs the
 * team uses when there is no SMT): what a perfect split without any
 * scheduling cost would take.  Figures: medians and 95% confidence
 * intervals of the mean (omp_ext_stats_compute(), Student t), one region per
 * sample.  Every result is verified (closed form x0 + L/2).
 *
 *   sharebench [--iterations N] [--length L] [--reps R] [--chunk C]
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htbench.h"
#include "omp_ext.h"

#define MAXT 256

struct loop {
  long n;        /* iterations */
  long len;      /* dependent additions per iteration */
  double *out;
  double a;      /* the addend, read through a volatile */
};

/* Not inlined: every variant and the serial reference run this same
 * machine code (inlined copies were compiled differently per loop, which
 * showed as 10-40% differences that had nothing to do with scheduling). */
static __attribute__((noinline)) void body(const struct loop *l, long i)
{
  double x = 1.0 + (double)(i % 1024) / 1024.0;
  long k;
  for (k = 0; k < l->len; k++)
    x += l->a;
  l->out[i] = x;
}

static int verify(const struct loop *l)
{
  long i;
  for (i = 0; i < l->n; i++)
    if (l->out[i] != 1.0 + (double)(i % 1024) / 1024.0 + (double)l->len * 0.5)
      return 0;
  return 1;
}

enum variant { V_STATIC, V_DYNAMIC, V_WEIGHTED, V_SPLIT, NVARIANTS };
static const char *const names[NVARIANTS] = {"static", "dynamic", "weighted", "w-split"};
static double team_w[256]; /* omp_ext_team_weights() of the team, for w-split */

static int run(const struct loop *l, enum variant v, int chunk)
{
  long i;
  int err = 0;
  memset(l->out, 0, (size_t)l->n * sizeof(*l->out));
  switch (v) {
  case V_STATIC:
#pragma omp parallel for schedule(static)
    for (i = 0; i < l->n; i++)
      body(l, i);
    break;
  case V_DYNAMIC:
#pragma omp parallel for schedule(dynamic, chunk)
    for (i = 0; i < l->n; i++)
      body(l, i);
    break;
  case V_SPLIT:
#pragma omp parallel private(i)
    {
      long b[257];
      int me = omp_get_thread_num(), e = omp_ext_share_split(0, l->n, team_w,
                                                             (unsigned)omp_get_num_threads(), b);
      if (e) {
#pragma omp atomic write
        err = e;
      } else {
        for (i = b[me]; i < b[me + 1]; i++)
          body(l, i);
      }
    }
    break;
  default:
#pragma omp parallel private(i)
    {
      long lo, hi;
      int e = omp_ext_share(0, l->n, &lo, &hi);
      if (e) {
#pragma omp atomic write
        err = e;
      } else {
        for (i = lo; i < hi; i++)
          body(l, i);
      }
    }
    break;
  }
  return err ? err : verify(l) ? 0 : -1;
}

static int usage(const char *why)
{
  fprintf(stderr, "sharebench: %s (usage: sharebench [--iterations N >= 1] [--length L >= 1] "
                  "[--reps R >= 2] [--chunk C >= 1])\n", why);
  return 2;
}

int main(int argc, char **argv)
{
  static const struct option opts[] = {{"iterations", required_argument, NULL, 'n'},
                                       {"length", required_argument, NULL, 'l'},
                                       {"reps", required_argument, NULL, 'r'},
                                       {"chunk", required_argument, NULL, 'c'},
                                       {NULL, 0, NULL, 0}};
  volatile double addend = 0.5;
  struct loop l = {1000000, 100, NULL, 0};
  long reps = 15, chunk = 16, r, i;
  double *t[NVARIANTS], *serial, w[MAXT], capacity = 0, t0, balanced;
  char binds[MAXT][64];
  omp_ext_stats_t st;
  int c, nthreads = 0, v, err = 0;
  const char *env;

  while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
    char *end;
    long x = optarg ? strtol(optarg, &end, 10) : 0;
    if (c == '?' || !optarg || *end || x < 1)
      return usage("bad option or value");
    if (c == 'n')
      l.n = x;
    else if (c == 'l')
      l.len = x;
    else if (c == 'r')
      reps = x;
    else
      chunk = x;
  }
  if (optind < argc || reps < 2 || chunk > 1000000000)
    return usage("bad arguments");
  l.a = addend;
  l.out = malloc((size_t)l.n * sizeof(*l.out));
  serial = malloc((size_t)reps * sizeof(*serial));
  for (v = 0; v < NVARIANTS; v++)
    t[v] = malloc((size_t)reps * sizeof(**t));
  if (!l.out || !serial || !t[0] || !t[1] || !t[2] || !t[3])
    return 1;


  /* The team: its bindings and weights. */
#pragma omp parallel
  {
    int me = omp_get_thread_num(), cpu, pos = 0, e;
    cpu_set_t set;
#pragma omp single
    nthreads = omp_get_num_threads();
    sched_getaffinity(0, sizeof(set), &set);
    if (me < MAXT) {
      binds[me][0] = '\0';
      for (cpu = 0; cpu < CPU_SETSIZE && pos < 56; cpu++)
        if (CPU_ISSET(cpu, &set))
          pos += snprintf(binds[me] + pos, sizeof(binds[me]) - (size_t)pos, "%s%d",
                          pos ? "," : "", cpu);
    }
    {
      double mine[MAXT]; /* each thread's own array */
      e = omp_ext_team_weights(mine, MAXT);
      if (!e && me == 0)
        memcpy(w, mine, sizeof(mine));
    }
    if (e) {
#pragma omp atomic write
      err = e;
    }
  }
  if (err)
    return htb_error(1, "omp_ext_team_weights: %s", omp_ext_strerror(err));
  if (nthreads > MAXT)
    return htb_error(1, "more than %d threads", MAXT);
  memcpy(team_w, w, sizeof(team_w));

  /* Warm-up, then the three variants in rotation. */
  for (v = 0; v < NVARIANTS; v++)
    if ((err = run(&l, (enum variant)v, (int)chunk)) != 0)
      return htb_error(1, "%s: %s", names[v], err < 0 ? "wrong result" : omp_ext_strerror(err));
  for (r = 0; r < reps; r++) {
    for (c = 0; c < NVARIANTS; c++) {
      v = (int)((r + c) % NVARIANTS);
      t0 = htb_now();
      err = run(&l, (enum variant)v, (int)chunk);
      t[v][r] = htb_now() - t0;
      if (err)
        return htb_error(1, "%s: %s", names[v], err < 0 ? "wrong result" : omp_ext_strerror(err));
    }
    /* The serial reference in the same rotation, by the initial thread
     * between regions, once the idle team has gone to sleep (libomp's
     * workers spin KMP_BLOCKTIME, 200 ms by default, after a region). */
    usleep(300000);
    t0 = htb_now();
    for (i = 0; i < l.n; i++)
      body(&l, i);
    serial[r] = htb_now() - t0;
    if (!verify(&l))
      return htb_error(1, "serial loop gave a wrong result");
  }

  env = getenv("OMP_PLACES");
  printf("# sharebench: %d threads; OMP_PLACES=%s", nthreads, env ? env : "(unset)");
  env = getenv("OMP_PROC_BIND");
  printf(" OMP_PROC_BIND=%s\n", env ? env : "(unset)");
  printf("# loop: %ld iterations x %ld dependent additions; dynamic chunk %ld; %ld samples "
         "per variant, variants in rotation; every result verified\n", l.n, l.len, chunk, reps);
  {
    double sigma = 0;
    omp_ext_get_share_sigma(&sigma);
    printf("# team (thread: binding -> weight, sigma %g):", sigma);
  }
  for (c = 0; c < nthreads; c++) {
    printf(" %d:{%s}->%.4g", c, binds[c], w[c]);
    capacity += w[c];
  }
  printf("\n# capacity (sum of weights) %.4g\n", capacity);
  printf("%-10s %10s %10s %10s %10s %10s\n", "variant", "median_ms", "ci95_lo", "ci95_hi",
         "min_ms", "/balanced");
  omp_ext_stats_compute(serial, (unsigned)reps, &st);
  balanced = st.median / capacity;
  printf("%-10s %10.2f %10.2f %10.2f %10.2f %10s\n", "serial", st.median * 1e3, st.ci95_lo * 1e3,
         st.ci95_hi * 1e3, st.min * 1e3, "");
  printf("%-10s %10.2f %10s %10s %10s %10.3f\n", "balanced", balanced * 1e3, "", "", "", 1.0);
  for (v = 0; v < NVARIANTS; v++) {
    omp_ext_stats_compute(t[v], (unsigned)reps, &st);
    printf("%-10s %10.2f %10.2f %10.2f %10.2f %10.3f\n", names[v], st.median * 1e3,
           st.ci95_lo * 1e3, st.ci95_hi * 1e3, st.min * 1e3, st.median / balanced);
  }
  free(l.out);
  free(serial);
  for (v = 0; v < NVARIANTS; v++)
    free(t[v]);
  return 0;
}
