/*
 * bench_hooks: what omp_ext's hooks cost per parallel region (a benchmark,
 * never a test), the four variants of an empty-bodied 2-thread region
 * alternating in one run:
 *
 *   plain          the program without omp_ext (bench_hooks_plain)
 *   plain+places   the same, bound by OMP_PLACES={a},{b} OMP_PROC_BIND=close,
 *                  a and b the first two PUs of the spn order (what
 *                  `htplaces exec spn 2` sets)
 *   linked         linked with libomp_ext, never naming the policy API
 *                  (bench_hooks_linked): no hook is started
 *   linked+policy  bench_hooks: omp_set_ht_policy_num_threads(spn, 2)
 *   linked+os      bench_hooks, policy os: the hooks armed, threads unbound
 *                  (the hooks' own cost apart from what binding does)
 *   capable        bench_hooks, no policy: names the policy API, so libomp
 *                  starts omp_ext's OMPT tool (no callback registered)
 *   capable+notool the same, OMP_TOOL=disabled (libomp: what the started
 *                  tool costs by itself; libgomp: as capable)
 *   linked+timing  bench_hooks_linked, OMP_EXT_TIMING=/dev/null: the region
 *                  timing layer's cost per region
 *
 *   bench_hooks [ROUNDS]      driver: ROUNDS rounds (default 11), each runs
 *                             every variant once as a child process, the
 *                             order rotated by one per round; prints every
 *                             round, then per variant the median and min
 *                             over rounds, and the ratios.
 *   bench_hooks --child       one measurement: 2000 regions of warm-up, then
 *                             20 repetitions of 5000 regions (10^5 regions);
 *                             prints the median time per region (us).
 *
 *   BENCH_HOOKS_N=N bench_hooks --child   N regions, untimed: for counting
 *                  instructions per region (bench_hooks_count.sh, valgrind),
 *                  which the load of a shared machine does not change.
 *
 * Built with the build's compiler (gcc -> libgomp, clang -> libomp).
 * Microseconds per region, CLOCK_MONOTONIC.
 */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "misc.h" /* the tools' header: the one median, compiled in (omp_ext_median) */
#ifndef BENCH_PLAIN
#include "omp_ext.h"
#endif

#define INNER 5000
#define REPS 20
#define MAXROUNDS 101

static void regions(int n)
{
  int i;
  for (i = 0; i < n; i++) {
#pragma omp parallel num_threads(2)
    {
      __asm__ __volatile__("" ::: "memory");
    }
  }
}

static int child(void)
{
  double t[REPS];
  int r;
#if !defined(BENCH_PLAIN) && !defined(BENCH_LINKED)
  const char *p = getenv("BENCH_HOOKS_POLICY");
  if (p && *p) {
    omp_ht_policy_t policy;
    int err;
    if (omp_ext_policy_from_name(p, &policy) != 0 ||
        (err = omp_set_ht_policy_num_threads(policy, 2)) != 0) {
      fprintf(stderr, "bench_hooks: cannot set policy '%s'\n", p);
      return 1;
    }
  }
#endif
  /* (A call into the runtime: with --as-needed, a program whose only
   * OpenMP symbols are GOMP_parallel, which libomp_ext provides, would
   * otherwise lose libgomp; see the report in benchmarks/results.) */
  if (omp_get_max_threads() < 1)
    return 1;
  if (getenv("BENCH_HOOKS_N")) { /* untimed: N regions (instruction counts) */
    regions(atoi(getenv("BENCH_HOOKS_N")));
    return 0;
  }
  regions(2000);
  for (r = 0; r < REPS; r++) {
    double t0 = now_us();
    regions(INNER);
    t[r] = (now_us() - t0) / INNER;
  }
  printf("%.4f\n", omp_ext_median(t, REPS));
  return 0;
}

#if defined(BENCH_PLAIN) || defined(BENCH_LINKED)
int main(int argc, char **argv)
{
  if (argc == 2 && strcmp(argv[1], "--child") == 0) {
    int rc = child();
#ifdef BENCH_LINKED
    if (omp_ext_ht_hooks() != 0 && !getenv("OMP_EXT_TIMING")) /* no hook was to start */
      fprintf(stderr, "bench_hooks_linked: hooks 0x%x\n", omp_ext_ht_hooks());
#endif
    return rc;
  }
  fprintf(stderr, "bench_hooks_plain/linked: run by bench_hooks (--child)\n");
  return 2;
}
#else

enum { V_PLAIN, V_PLACES, V_LINKED, V_POLICY, V_POLICY_OS, V_CAPABLE, V_NOTOOL, V_TIMING, NV };
static const char *const vname[NV] = {"plain", "plain+places", "linked", "linked+policy",
                                      "linked+os", "capable", "capable+notool", "linked+timing"};

/* Run one variant; its time per region (us), or -1. */
static double run_variant(int v, const char *self, const char *plain, const char *linked,
                          const char *places)
{
  int fd[2], status;
  pid_t pid;
  char buf[64] = "";
  ssize_t n;
  if (pipe(fd) != 0)
    return -1;
  if ((pid = fork()) == 0) {
    const char *bin = v <= V_PLACES ? plain : v == V_LINKED || v == V_TIMING ? linked : self;
    dup2(fd[1], 1);
    close(fd[0]);
    unsetenv("OMP_PLACES");
    unsetenv("OMP_PROC_BIND");
    unsetenv("OMP_EXT_HT_POLICY");
    unsetenv("BENCH_HOOKS_POLICY");
    unsetenv("OMP_TOOL");
    if (v == V_PLACES) {
      setenv("OMP_PLACES", places, 1);
      setenv("OMP_PROC_BIND", "close", 1);
    }
    if (v == V_POLICY)
      setenv("BENCH_HOOKS_POLICY", "spn", 1);
    if (v == V_POLICY_OS)
      setenv("BENCH_HOOKS_POLICY", "os", 1);
    if (v == V_NOTOOL)
      setenv("OMP_TOOL", "disabled", 1);
    unsetenv("OMP_EXT_TIMING");
    if (v == V_TIMING)
      setenv("OMP_EXT_TIMING", "/dev/null", 1);
    execl(bin, bin, "--child", (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  n = read(fd[0], buf, sizeof(buf) - 1);
  close(fd[0]);
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0 || n <= 0)
    return -1;
  return atof(buf);
}

int main(int argc, char **argv)
{
  static double t[NV][MAXROUNDS], sorted[MAXROUNDS];
  double med[NV], mn[NV];
  char self[4096], plain[4200], linked[4200], places[64];
  omp_ext_topo_t *topo;
  omp_ext_pu_t order[2];
  int rounds = argc > 1 ? atoi(argv[1]) : 11, r, i, v;
  ssize_t len;

  if (argc == 2 && strcmp(argv[1], "--child") == 0)
    return child();
  if (rounds < 1 || rounds > MAXROUNDS) {
    fprintf(stderr, "bench_hooks: usage: bench_hooks [ROUNDS 1..%d] | --child\n", MAXROUNDS);
    return 2;
  }
  if ((len = readlink("/proc/self/exe", self, sizeof(self) - 1)) <= 0)
    return 1;
  self[len] = '\0';
  snprintf(plain, sizeof(plain), "%s_plain", self);
  snprintf(linked, sizeof(linked), "%s_linked", self);
  /* The places `htplaces exec spn 2` would set: spn's first two PUs. */
  if (omp_ext_topo_load(&topo, NULL, 0) != 0)
    return 1;
  if (omp_ext_topo_npus(topo) >= 2 && omp_ext_order(topo, NULL, omp_ht_policy_spn, 2, order) == 0)
    snprintf(places, sizeof(places), "{%u},{%u}", order[0].os_index, order[1].os_index);
  else if (omp_ext_order(topo, NULL, omp_ht_policy_spn, 1, order) == 0)
    snprintf(places, sizeof(places), "{%u},{%u}", order[0].os_index, order[0].os_index);
  else
    return 1;
  omp_ext_topo_destroy(topo);
  printf("# bench_hooks: empty 2-thread region, us per region (median of 20 x 5000 in each "
         "child)\n# OMP_PLACES=%s for plain+places\n# round", places);
  for (v = 0; v < NV; v++)
    printf(" %14s", vname[v]);
  printf("\n");
  for (r = 0; r < rounds; r++) {
    for (i = 0; i < NV; i++) {
      v = (r + i) % NV; /* rotated: each variant runs first, second, ... in turn */
      if ((t[v][r] = run_variant(v, self, plain, linked, places)) < 0) {
        fprintf(stderr, "bench_hooks: variant %s failed\n", vname[v]);
        return 1;
      }
    }
    printf("  %5d", r + 1);
    for (v = 0; v < NV; v++)
      printf(" %14.4f", t[v][r]);
    printf("\n");
    fflush(stdout);
  }
  for (v = 0; v < NV; v++) {
    memcpy(sorted, t[v], (size_t)rounds * sizeof(double));
    sort_doubles(sorted, rounds);
    med[v] = omp_ext_median(sorted, (size_t)rounds); /* (sorted stays sorted) */
    mn[v] = sorted[0];
  }
  printf("# %-14s %10s %10s\n", "variant", "median", "min");
  for (v = 0; v < NV; v++)
    printf("  %-14s %10.4f %10.4f\n", vname[v], med[v], mn[v]);
  printf("# ratios of medians (of mins)\n");
  printf("  linked / plain                 %6.3f (%6.3f)   target <= 1.02\n",
         med[V_LINKED] / med[V_PLAIN], mn[V_LINKED] / mn[V_PLAIN]);
  printf("  linked+policy / plain+places   %6.3f (%6.3f)   target <= 1.02\n",
         med[V_POLICY] / med[V_PLACES], mn[V_POLICY] / mn[V_PLACES]);
  printf("  plain+places / plain           %6.3f (%6.3f)   (binding itself)\n",
         med[V_PLACES] / med[V_PLAIN], mn[V_PLACES] / mn[V_PLAIN]);
  printf("  linked+policy / plain          %6.3f (%6.3f)\n", med[V_POLICY] / med[V_PLAIN],
         mn[V_POLICY] / mn[V_PLAIN]);
  printf("  capable / capable+notool       %6.3f (%6.3f)   (a started OMPT tool, no callback)\n",
         med[V_CAPABLE] / med[V_NOTOOL], mn[V_CAPABLE] / mn[V_NOTOOL]);
  printf("  linked+os / plain              %6.3f (%6.3f)   (hooks armed, unbound)\n",
         med[V_POLICY_OS] / med[V_PLAIN], mn[V_POLICY_OS] / mn[V_PLAIN]);
  printf("  linked+policy / linked+os      %6.3f (%6.3f)   (binding, hooks equal)\n",
         med[V_POLICY] / med[V_POLICY_OS], mn[V_POLICY] / mn[V_POLICY_OS]);
  printf("  linked+timing / linked         %6.3f (%6.3f)   (timing layer: %+.4f us per region)\n",
         med[V_TIMING] / med[V_LINKED], mn[V_TIMING] / mn[V_LINKED],
         med[V_TIMING] - med[V_LINKED]);
  return 0;
}
#endif
