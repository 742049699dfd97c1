/*
 * The worker: one configuration in a fresh process.  The parent started it
 * with OMP_PLACES, OMP_PROC_BIND=close and OMP_NUM_THREADS (env path), or
 * as htbench-incode --incode POLICY with OMP_NUM_THREADS only, and then the
 * worker calls omp_set_ht_policy_num_threads() first (in-code path); it
 * times one kernel with EPCC's method, checks every thread's binding
 * against the intended places and prints one result line on stdout:
 * "htbench-result" then TAB-separated name=value fields.
 */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htbench.h"
#include "sweep.h"

struct worker_args {
  const struct htb_kernel *kernel;
  unsigned nthreads;
  const unsigned *expect; /* OS index of thread t's place; oversubscribed: */
  unsigned nplaces;       /* the places, fewer than the threads */
  const char *incode;     /* in-code path: the policy's name; NULL = env path */
  const struct htb_incode_api *api;
  int unbound;            /* --expect unbound, or in-code os / none */
  int unbound_count;      /* unbound: every thread keeps the process's mask, */
  int unbound_first;      /* of this many CPUs from this one (else -1) */
};

static void probe_free(struct htb_probe *p)
{
  unsigned t;
  if (!p)
    return;
  for (t = 0; p->cpus && t < p->nthreads; t++)
    free(p->cpus[t]);
  free(p->cpus);
  free(p->team);
  free(p->cpu_count);
  free(p->first_cpu);
  free(p);
}

static struct htb_probe *probe_new(unsigned n)
{
  struct htb_probe *p = calloc(1, sizeof(*p));
  unsigned t;
  if (!p)
    return NULL;
  p->nthreads = n;
  p->team = calloc(n, sizeof(int));
  p->cpu_count = calloc(n, sizeof(int));
  p->first_cpu = calloc(n, sizeof(int));
  p->cpus = calloc(n, sizeof(char *));
  if (!p->team || !p->cpu_count || !p->first_cpu || !p->cpus) {
    probe_free(p);
    return NULL;
  }
  for (t = 0; t < n; t++)
    if (!(p->cpus[t] = calloc(1, HTB_PROBE_LEN))) {
      probe_free(p);
      return NULL;
    }
  return p;
}

/* Compare what the threads saw with the intended places; fills bindings
 * ("t:cpus;...") and returns 1 if every thread sat alone on its place. */
static int check_binding(const struct htb_probe *p, const struct worker_args *a, char *out,
                         size_t outlen, char *why, size_t whylen)
{
  const unsigned *expect = a->expect;
  unsigned t, *on = a->nplaces < p->nthreads ? calloc(a->nplaces, sizeof(unsigned)) : NULL;
  size_t used = 0;
  int ok = 1;
  why[0] = '\0';
  out[0] = '\0';
  for (t = 0; t < p->nthreads; t++) {
    int n = snprintf(out + used, outlen - used, "%s%u:%s", t ? ";" : "", t,
                     p->team[t] ? p->cpus[t] : "?");
    if (n > 0 && (size_t)n < outlen - used)
      used += n;
    if (ok && p->team[t] != (int)p->nthreads) {
      snprintf(why, whylen, "thread %u ran in a team of %d, not %u", t, p->team[t], p->nthreads);
      ok = 0;
    } else if (ok && a->unbound) { /* unbound: the process's mask */
      if (p->cpu_count[t] != a->unbound_count || p->first_cpu[t] != a->unbound_first) {
        snprintf(why, whylen, "thread %u bound to {%s}, intended unbound (%d CPUs from %d)", t,
                 p->cpus[t], a->unbound_count, a->unbound_first);
        ok = 0;
      }
    } else if (ok && on) { /* oversubscribed: on one of the places */
      unsigned q;
      for (q = 0; q < a->nplaces && (int)expect[q] != p->first_cpu[t]; q++)
        ;
      if (p->cpu_count[t] != 1 || q == a->nplaces) {
        snprintf(why, whylen, "thread %u bound to {%s}, intended one of the %u places", t,
                 p->cpus[t], a->nplaces);
        ok = 0;
      } else {
        on[q]++;
      }
    } else if (ok && a->nplaces < p->nthreads) {
      snprintf(why, whylen, "out of memory");
      ok = 0;
    } else if (ok && (p->cpu_count[t] != 1 || p->first_cpu[t] != (int)expect[t])) {
      snprintf(why, whylen, "thread %u bound to {%s}, intended {%u}", t, p->cpus[t], expect[t]);
      ok = 0;
    }
  }
  if (ok && on) { /* the team spread evenly: per place floor or ceil of T/P */
    unsigned q, lo = p->nthreads / a->nplaces, hi = lo + (p->nthreads % a->nplaces != 0);
    for (q = 0; q < a->nplaces && ok; q++)
      if (on[q] < lo || on[q] > hi) {
        snprintf(why, whylen, "place {%u} has %u threads, intended %u to %u", expect[q], on[q],
                 lo, hi);
        ok = 0;
      }
  }
  free(on);
  return ok;
}

/* EPCC: inner repetitions doubled (or scaled) until one outer repetition
 * lasts the target time. */
static unsigned long calibrate(const struct htb_kernel *k, void *st, double target)
{
  unsigned long inner = 1;
  for (;;) {
    double t0 = sweep_now(), dt;
    k->run(st, inner, NULL);
    dt = sweep_now() - t0;
    if (dt >= target || inner >= (1UL << 30))
      return inner;
    if (dt < target / 100)
      inner *= 16;
    else
      inner = (unsigned long)ceil(inner * target / dt);
  }
}

/* Outer repetitions: x[r] = time per inner repetition.  A work kernel's
 * reference (the split kernels' serial loop), when pair_ms > 0, is paired:
 * timed next to each repetition, before it on even r and after it on odd
 * r, each time after pair_ms of rest (the team's idle threads stop
 * spinning, as before split-serial: spinning siblings change the serial
 * loop's speed on a VM), so that the ratio x[r] / ref[r] compares two
 * times taken under the same machine speed (a VM's CPU can change speed by
 * a third within a second: benchmarks/RESULTS.md).
 * With an overhead kernel's reference (EPCC overheads), as EPCC's
 * syncbench: the reference's outer repetitions first (after their own
 * warm-up), then the test's (after one untimed
 * repetition), and ref[r] receives the reference's.  (Timing the reference
 * right before each test repetition instead left the team idle for a whole
 * repetition before every timed one: +0.07 us per libomp region on a VM.) */
static void measure(const struct htb_kernel *k, void *st, unsigned long inner, unsigned reps,
                    double *x, double *ref, unsigned long pair_ms, double *paired_cpu,
                    double *paired_wall)
{
  unsigned r;
  double t0;
  if (ref && k->kind == HTB_WORK) { /* cpu_util then covers the kernel's own runs */
    *paired_cpu = *paired_wall = 0;
    k->reference(st, inner); /* its warm-up */
    for (r = 0; r < reps; r++) {
      unsigned side;
      for (side = 0; side < 2; side++) {
        int is_ref = (side == 0) == (r % 2 == 0);
        if (is_ref)
          usleep((useconds_t)(pair_ms * 1000));
        double c0 = htb_cpu_now();
        t0 = sweep_now();
        if (is_ref)
          k->reference(st, inner);
        else
          k->run(st, inner, NULL);
        (is_ref ? ref : x)[r] = (sweep_now() - t0) / inner;
        if (!is_ref) {
          *paired_wall += sweep_now() - t0;
          *paired_cpu += htb_cpu_now() - c0;
        }
      }
    }
    return;
  }
  if (ref) {
    k->reference(st, inner);
    for (r = 0; r < reps; r++) {
      t0 = sweep_now();
      k->reference(st, inner);
      ref[r] = (sweep_now() - t0) / inner;
    }
    k->run(st, inner, NULL);
  }
  for (r = 0; r < reps; r++) {
    t0 = sweep_now();
    k->run(st, inner, NULL);
    x[r] = (sweep_now() - t0) / inner;
  }
}

static int print_result(const struct htb_result *r)
{
  char buf[HTB_STR];
  unsigned i;
  fputs("htbench-result", stdout);
  for (i = 0; i < htb_nfields; i++) {
    char *c;
    htb_field_get(r, &htb_fields[i], buf, sizeof(buf));
    for (c = buf; *c; c++)
      if (*c == '\t' || *c == '\n')
        *c = ' ';
    printf("\t%s=%s", htb_fields[i].name, buf);
  }
  putchar('\n');
  return htb_stdout_done();
}

static int worker_run(const struct worker_args *a, const struct htb_sizes *sz)
{
  const struct htb_kernel *k = a->kernel;
  struct htb_result r;
  omp_ext_stats_t s;
  struct htb_probe *probe = probe_new(a->nthreads);
  double *x = calloc(sz->outer_reps, sizeof(double)), *ref, joules, c0, w0;
  double paired_cpu = 0, paired_wall = 0;
  omp_ext_rapl_t *rapl;
  char err[256], why[256];
  void *st;
  int wrc, pairs;

  htb_result_init(&r);
  snprintf(r.kernel, sizeof(r.kernel), "%s", k->name);
  snprintf(r.path, sizeof(r.path), "%s", a->incode ? "incode" : "env");
  r.threads = a->nthreads;
  if (!probe || !x) {
    probe_free(probe);
    free(x);
    return htb_error(HTB_EXIT_FAIL, "worker: out of memory");
  }
  st = k->setup(sz, a->nthreads, err, sizeof(err));
  if (!st) {
    probe_free(probe);
    free(x);
    return htb_error(HTB_EXIT_FAIL, "%s: %s", k->name, err);
  }

  k->run(st, 1, probe); /* warm-up, discarded; records the binding */
  r.binding_ok = check_binding(probe, a, r.bindings, sizeof(r.bindings), why, sizeof(why));
  r.ht_hooks = a->api && a->incode ? a->api->hooks() : 0;
  r.inner_reps = calibrate(k, st, sz->target_s);
  r.outer_reps = sz->outer_reps;
  /* a work kernel's reference is paired only when asked */
  pairs = k->reference && (k->kind != HTB_WORK || sz->split_pair_ms > 0);
  ref = pairs ? calloc(sz->outer_reps, sizeof(double)) : NULL;
  if (pairs && !ref) {
    k->teardown(st);
    probe_free(probe);
    free(x);
    return htb_error(HTB_EXIT_FAIL, "worker: out of memory");
  }
  rapl = htb_rapl_open();
  c0 = htb_cpu_now();
  w0 = sweep_now();
  measure(k, st, r.inner_reps, sz->outer_reps, x, ref, (unsigned long)sz->split_pair_ms,
          &paired_cpu, &paired_wall);
  w0 = sweep_now() - w0;
  c0 = htb_cpu_now() - c0;
  /* oversubscribed: the team can use its places' CPUs, not one per thread;
   * split-serial runs on the initial thread alone; paired: the serial loops
   * and rests between the runs are not the kernel's */
  r.cpu_util = (paired_wall > 0 ? paired_cpu : c0) /
               ((paired_wall > 0 ? paired_wall : w0) *
                (k == &htb_kernel_split_serial ? 1
                 : a->nplaces < a->nthreads ? a->nplaces : a->nthreads));
  /* energy since the open, counter wraps counted by the library */
  if (rapl && omp_ext_rapl_read(rapl, &joules) == 0 && w0 > 0)
    r.rapl_w = joules / w0;
  omp_ext_rapl_close(rapl);
  if (ref && k->kind == HTB_WORK) { /* paired: x[r] / (ref[r] / capacity) */
    omp_ext_stats_t rs, bs;
    double *ratio = calloc(sz->outer_reps, sizeof(double)), cap = k->capacity ? k->capacity(st) : 0;
    unsigned i;
    omp_ext_stats_compute(ref, sz->outer_reps, &rs);
    r.ref_mean_s = rs.mean;
    if (ratio && cap > 0) {
      for (i = 0; i < sz->outer_reps; i++)
        ratio[i] = ref[i] > 0 ? x[i] / (ref[i] / cap) : NAN;
      if (omp_ext_stats_compute(ratio, sz->outer_reps, &bs) == 0) {
        r.vs_balanced = bs.median;
        r.vs_balanced_lo = bs.ci95_lo;
        r.vs_balanced_hi = bs.ci95_hi;
      }
    }
    free(ratio);
    free(ref);
  } else if (ref) { /* EPCC: overhead = test - the reference's median */
    omp_ext_stats_t rs;
    unsigned i;
    omp_ext_stats_compute(ref, sz->outer_reps, &rs);
    for (i = 0; i < sz->outer_reps; i++)
      x[i] -= rs.median;
    r.ref_mean_s = rs.mean;
    free(ref);
  }
  omp_ext_stats_compute(x, sz->outer_reps, &s);
  r.median_s = s.median;
  r.min_s = s.min;
  r.max_s = s.max;
  r.mean_s = s.mean;
  r.sd_s = s.sd;
  r.ci95_lo_s = s.ci95_lo;
  r.ci95_hi_s = s.ci95_hi;
  r.outliers = s.outliers;
  r.verified = k->verify(st, r.check, sizeof(r.check));
  if (k->capacity)
    r.capacity = k->capacity(st);
  r.oversub = a->nthreads - a->nplaces;
  if (k->work && k->unit) {
    r.work = k->work(st);
    r.rate = r.work / r.median_s;
    snprintf(r.unit, sizeof(r.unit), "%s", k->unit);
  }
  snprintf(r.status, sizeof(r.status), "%s",
           !r.verified ? "verification failed" : !r.binding_ok ? "binding differs" : "ok");
  if (!r.binding_ok)
    htb_error(0, "%s N=%u: invalid run: %s", k->name, a->nthreads, why);
  if (!r.verified)
    htb_error(0, "%s N=%u: %s", k->name, a->nthreads, r.check);
  wrc = print_result(&r);
  k->teardown(st);
  probe_free(probe);
  free(x);
  return r.verified && !wrc ? HTB_EXIT_OK : HTB_EXIT_FAIL;
}

/* The process's mask, which unbound threads keep. */
static int process_mask(struct worker_args *a)
{
  cpu_set_t set;
  int cpu;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0)
    return htb_error(HTB_EXIT_FAIL, "sched_getaffinity failed");
  a->unbound = 1;
  a->unbound_count = CPU_COUNT(&set);
  a->unbound_first = -1;
  for (cpu = 0; cpu < CPU_SETSIZE && a->unbound_first < 0; cpu++)
    if (CPU_ISSET(cpu, &set))
      a->unbound_first = cpu;
  return 0;
}

/* Parse the comma list of OS indexes given with --expect: 1 to n of them;
 * returns how many, or -1.  ("unbound" is not parsed: see htb_worker.) */
static int parse_expect(const char *text, unsigned n, unsigned *out)
{
  unsigned t = 0;
  const char *p = text;
  while (*p && t < n) {
    char *end;
    unsigned long v = strtoul(p, &end, 10);
    if (end == p || v > 1u << 20)
      return -1;
    out[t++] = (unsigned)v;
    p = *end == ',' ? end + 1 : end;
  }
  return t >= 1 && *p == '\0' ? (int)t : -1;
}

/* The in-code path: the policy set by the API before anything else runs
 * (OMP_PLACES and OMP_PROC_BIND are not set: the parent removed them).
 * none: omp_ht_policy_os, which the library documents as unbinding. */
static int incode_start(struct worker_args *a)
{
  omp_ht_policy_t pol;
  int rc;
  if (!a->api)
    return htb_error(HTB_EXIT_USAGE, "--incode: this htbench has no in-code API linked in; "
                                     "in-code workers run as htbench-incode");
  if (!strcmp(a->incode, "none"))
    pol = omp_ht_policy_os;
  else if (omp_ext_policy_from_name(a->incode, &pol) != 0)
    return htb_error(HTB_EXIT_USAGE, "--incode: unknown policy '%s'", a->incode);
  if (pol == omp_ht_policy_os && (rc = process_mask(a)) != 0) /* os unbinds */
    return rc;
  rc = a->api->set_policy(pol, (int)a->nthreads);
  if (rc != 0)
    return htb_error(HTB_EXIT_FAIL, "omp_set_ht_policy_num_threads(%s, %u): %s", a->incode,
                     a->nthreads, omp_ext_strerror(rc));
  return 0;
}

int htb_worker(const char *kernel, unsigned nthreads, const char *expect,
               const struct htb_sizes *sz, const char *incode_policy,
               const struct htb_incode_api *api)
{
  struct worker_args a;
  unsigned *places;
  int status;

  a.kernel = kernel ? htb_kernel_by_name(kernel) : NULL;
  if (!a.kernel)
    return htb_error(HTB_EXIT_USAGE, "--worker needs --kernel NAME (one kernel)");
  if (nthreads == 0 || !expect)
    return htb_error(HTB_EXIT_USAGE, "--worker needs --threads N and --expect LIST");
  places = calloc(nthreads, sizeof(unsigned));
  if (!places)
    return htb_error(HTB_EXIT_FAIL, "out of memory");
  if (!strcmp(expect, "unbound")) /* none: no places, every thread unbound */
    status = (int)nthreads;
  else if ((status = parse_expect(expect, nthreads, places)) < 0) {
    free(places);
    return htb_error(HTB_EXIT_USAGE, "--expect '%s': need 1 to %u comma-separated OS indexes",
                     expect, nthreads);
  }
  a.nplaces = (unsigned)status;
  if (a.nplaces < nthreads && incode_policy) {
    free(places);
    return htb_error(HTB_EXIT_USAGE, "--incode: the in-code path places one thread per PU "
                                     "(no oversubscription)");
  }
  a.nthreads = nthreads;
  a.expect = places;
  a.incode = incode_policy;
  a.api = api;
  a.unbound = 0;
  a.unbound_count = 0;
  a.unbound_first = -1;
  status = !strcmp(expect, "unbound") ? process_mask(&a) : 0;
  if (!status && incode_policy)
    status = incode_start(&a);
  if (!status)
    status = worker_run(&a, sz);
  free(places);
  return status;
}
