/*
 * cpu_speed: does every PU run the same loop at the same speed, and does
 * that speed hold over time?  The capacity model (omp_ext_share(3)) assumes
 * both; on a VM the host can break either.  One thread bound to each PU
 * (hwloc_set_cpubind, HWLOC_CPUBIND_THREAD), all at once, runs htbench's
 * split body (an iteration = 100 dependent double additions) in windows of
 * 20000 iterations for SECONDS, and prints per PU the ns per iteration:
 * median, 10th and 90th percentiles, min, max, and the windows on which the
 * slowest PU was over 10 % slower than the fastest (same time slot).
 *
 *   cpu_speed [SECONDS] [PU ...]     (defaults: 3 s, every allowed PU; OS indexes)
 *
 * Figures: benchmarks/RESULTS.md ("Capacity-weighted split").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <hwloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WINDOW 20000L   /* iterations per window */
#define MAXW 100000     /* windows per PU kept */
#define SLOT_S 0.05     /* the time slot windows are compared in */

struct pu_run {
  hwloc_topology_t topo;
  unsigned os;           /* the PU's OS index */
  double seconds, start; /* run length; common start (monotonic) */
  double *t, *ns;        /* window w ended at t[w] (from start), took ns[w] per iteration */
  unsigned nw;
  int err;
};

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile double addend = 0.5;
static volatile double result; /* keeps the loops' sums alive */

/* htbench's split body (kernels/split.c), same chain of additions. */
static __attribute__((noinline)) double body(long i, double a)
{
  double x = 1.0 + (double)(i % 1024) / 1024.0;
  long k;
  for (k = 0; k < 100; k++)
    x += a;
  return x;
}

static void *run_pu(void *arg)
{
  struct pu_run *p = arg;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  double sink = 0, t0;
  long i;
  if (!set || hwloc_bitmap_only(set, p->os) < 0 ||
      hwloc_set_cpubind(p->topo, set, HWLOC_CPUBIND_THREAD) != 0) {
    p->err = errno ? errno : ENOMEM;
    hwloc_bitmap_free(set);
    return NULL;
  }
  hwloc_bitmap_free(set);
  while (now() < p->start)
    ;
  for (t0 = now(); p->nw < MAXW && t0 - p->start < p->seconds;) {
    double a = addend, t1;
    for (i = 0; i < WINDOW; i++)
      sink += body(i, a);
    t1 = now();
    p->t[p->nw] = t1 - p->start;
    p->ns[p->nw++] = (t1 - t0) / WINDOW * 1e9;
    t0 = t1;
  }
  result = sink;
  return NULL;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The mean ns of PU p's windows that ended in slot s, or 0 if none. */
static double slot_mean(const struct pu_run *p, unsigned s)
{
  double sum = 0;
  unsigned w, n = 0;
  for (w = 0; w < p->nw; w++)
    if ((unsigned)(p->t[w] / SLOT_S) == s)
      sum += p->ns[w], n++;
  return n ? sum / n : 0;
}

static void report(struct pu_run *runs, unsigned n, double seconds)
{
  unsigned i, s, slots = (unsigned)(seconds / SLOT_S), apart = 0, both = 0;
  printf("%-6s %8s %8s %8s %8s %8s %8s  (ns per iteration of 100 dependent adds)\n", "PU",
         "windows", "median", "p10", "p90", "min", "max");
  for (i = 0; i < n; i++) {
    struct pu_run *p = &runs[i];
    double *v = malloc(p->nw * sizeof(double));
    if (!v || !p->nw) {
      free(v);
      continue;
    }
    memcpy(v, p->ns, p->nw * sizeof(double));
    qsort(v, p->nw, sizeof(double), by_value);
    printf("%-6u %8u %8.1f %8.1f %8.1f %8.1f %8.1f\n", p->os, p->nw, v[p->nw / 2],
           v[p->nw / 10], v[p->nw * 9 / 10], v[0], v[p->nw - 1]);
    free(v);
  }
  for (s = 0; n > 1 && s < slots; s++) {
    double lo = 0, hi = 0;
    for (i = 0; i < n; i++) {
      double m = slot_mean(&runs[i], s);
      if (m <= 0)
        break;
      lo = !i || m < lo ? m : lo;
      hi = m > hi ? m : hi;
    }
    if (i < n)
      continue;
    both++;
    apart += hi > 1.1 * lo;
  }
  if (n > 1)
    printf("%.0f ms slots in which the slowest PU was > 10%% slower than the fastest: %u of %u\n",
           SLOT_S * 1e3, apart, both);
}

int main(int argc, char **argv)
{
  hwloc_topology_t topo;
  struct pu_run *runs;
  pthread_t *th;
  unsigned n = 0, i;
  double seconds = argc > 1 ? strtod(argv[1], NULL) : 3, start;
  int rc = 0;
  if (!(seconds > 0 && seconds <= 600)) {
    fprintf(stderr, "cpu_speed: SECONDS must be in (0, 600], not '%s'\n", argv[1]);
    return 2;
  }
  if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
    fprintf(stderr, "cpu_speed: hwloc could not load this machine's topology\n");
    return 1;
  }
  runs = calloc(hwloc_bitmap_weight(hwloc_topology_get_allowed_cpuset(topo)) + argc, sizeof(*runs));
  th = calloc(hwloc_bitmap_weight(hwloc_topology_get_allowed_cpuset(topo)) + argc, sizeof(*th));
  if (!runs || !th) {
    fprintf(stderr, "cpu_speed: out of memory\n");
    return 1;
  }
  if (argc > 2) {
    for (i = 2; i < (unsigned)argc; i++) {
      char *end;
      unsigned long os = strtoul(argv[i], &end, 10);
      if (end == argv[i] || *end ||
          !hwloc_bitmap_isset(hwloc_topology_get_allowed_cpuset(topo), (unsigned)os)) {
        fprintf(stderr, "cpu_speed: '%s' is not the OS index of an allowed PU\n", argv[i]);
        return 2;
      }
      runs[n++].os = (unsigned)os;
    }
  } else {
    int os;
    hwloc_bitmap_foreach_begin(os, hwloc_topology_get_allowed_cpuset(topo)) runs[n++].os = (unsigned)os;
    hwloc_bitmap_foreach_end();
  }
  start = now() + 0.05; /* every thread starts then */
  for (i = 0; i < n; i++) {
    runs[i].topo = topo;
    runs[i].seconds = seconds;
    runs[i].start = start;
    runs[i].t = calloc(MAXW, sizeof(double));
    runs[i].ns = calloc(MAXW, sizeof(double));
    if (!runs[i].t || !runs[i].ns || pthread_create(&th[i], NULL, run_pu, &runs[i]) != 0) {
      fprintf(stderr, "cpu_speed: cannot start the thread of PU %u\n", runs[i].os);
      return 1;
    }
  }
  for (i = 0; i < n; i++)
    pthread_join(th[i], NULL);
  for (i = 0; i < n; i++)
    if (runs[i].err) {
      fprintf(stderr, "cpu_speed: cannot bind to PU %u: %s\n", runs[i].os, strerror(runs[i].err));
      rc = 1;
    }
  if (!rc)
    report(runs, n, seconds);
  for (i = 0; i < n; i++) {
    free(runs[i].t);
    free(runs[i].ns);
  }
  free(runs);
  free(th);
  hwloc_topology_destroy(topo);
  return rc;
}
