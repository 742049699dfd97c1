/*
 * timing_probe: a program with two parallel regions in two functions, a
 * nested region, a serial part and a named measurement, for region timing
 * (OMP_EXT_TIMING=FILE).  Linked with libomp_ext, or not (timing_probe_plain:
 * then injected through OMP_TOOL_LIBRARIES or LD_PRELOAD).  Exported
 * functions (-rdynamic) so that the file names them.
 *
 *   region_scales: 5 instances, team 2 (a nested region of 2 inside each:
 *                  counted in the outer one)
 *   region_flat:   3 instances: teams 1, 1, 2
 *   serial:        about 0.05 s of sleep outside any region
 *   timer "setup"  (linked build only): 2 instances
 *
 * timing_probe roots: ROOTS root threads (pthreads, each its own team of
 * 2) run region_roots ROOT_INSTANCES times each, at the same time, and
 * nothing else runs: region_roots has ROOTS * ROOT_INSTANCES instances.
 *
 * timing_probe sleep: region_sleep 3 times, its thread 0 sleeping 20 ms in
 * each (the region's clock against a known lower bound and the wall time).
 *
 * timing_probe none: no region, no measurement (writes no timing file).
 * timing_probe fork: region_flat(2) once, then a forked child runs
 *   region_tiny twice (a team of 1: libgomp's thread pool is not the
 *   child's) and exits; the parent waits and runs region_flat(1) once: two
 *   processes, two files under "%p".
 * timing_probe many N: region_tiny (a team of 1) N times; prints
 *   "rss_kb D", the growth of the peak resident set over the loop.
 * timing_probe names N (linked): N named measurements "name-K", 2 instances
 *   each, and one whose name is 600 characters long.
 * timing_probe big (linked): as names 300, with the file size limited to
 *   4 kB (RLIMIT_FSIZE, SIGXFSZ ignored): the timing file cannot be written.
 */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef TIMING_PLAIN
#include "omp_ext.h"
#endif

volatile double sink;

__attribute__((noinline, visibility("default"))) void region_scales(void);
__attribute__((noinline, visibility("default"))) void region_flat(int nthreads);

void region_scales(void)
{
#pragma omp parallel num_threads(2)
  {
    double s = 0;
    int i;
    for (i = 0; i < 200000; i++)
      s += i * 0.5;
#pragma omp parallel num_threads(2)
    {
      sink = s;
    }
  }
  sink += 1; /* (no tail call: the region is named after this function) */
}

void region_flat(int nthreads)
{
#pragma omp parallel num_threads(nthreads)
  {
    sink = omp_get_thread_num();
  }
  sink += 1;
}

#define ROOTS 3
#define ROOT_INSTANCES 100 /* more than a thread's first room for samples (64) */

__attribute__((noinline, visibility("default"))) void region_roots(void);

void region_roots(void)
{
#pragma omp parallel num_threads(2)
  {
    sink = omp_get_thread_num();
  }
  sink += 1;
}

static void *root(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < ROOT_INSTANCES; i++)
    region_roots();
  return NULL;
}

static int roots(void)
{
  pthread_t t[ROOTS];
  int i;
  for (i = 0; i < ROOTS; i++)
    if (pthread_create(&t[i], NULL, root, NULL) != 0)
      return 1;
  for (i = 0; i < ROOTS; i++)
    pthread_join(t[i], NULL);
  printf("done\n");
  return 0;
}

static void pause_ms(long ms)
{
  struct timespec ts = {0, ms * 1000000L};
  while (nanosleep(&ts, &ts) != 0)
    ;
}

__attribute__((noinline, visibility("default"))) void region_sleep(void);

void region_sleep(void)
{
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0)
      pause_ms(20);
  }
  sink += 1;
}

__attribute__((noinline, visibility("default"))) void region_tiny(void);

void region_tiny(void)
{
#pragma omp parallel num_threads(1)
  {
    sink = 1;
  }
  sink += 1;
}

static long peak_rss_kb(void)
{
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

static int many(long n)
{
  long i, before;
  region_tiny(); /* (the runtime's own start-up outside the figure) */
  before = peak_rss_kb();
  for (i = 1; i < n; i++)
    region_tiny();
  printf("rss_kb %ld\n", peak_rss_kb() - before);
  return 0;
}

static int forked(void)
{
  int status;
  pid_t pid;
  region_flat(2);
  fflush(stdout);
  if ((pid = fork()) < 0)
    return 1;
  if (pid == 0) {
    region_tiny();
    region_tiny();
    exit(0);
  }
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return 1;
  region_flat(1);
  printf("done\n");
  return 0;
}

#ifndef TIMING_PLAIN
static int names(int n)
{
  char name[700];
  int i, k;
  for (i = 0; i < n; i++)
    for (k = 0; k < 2; k++) {
      snprintf(name, sizeof(name), "name-%d", i);
      if (omp_ext_timer_start(name) != 0 || omp_ext_timer_stop(name) != 0)
        return 1;
    }
  memset(name, 'x', 600);
  name[600] = '\0';
  if (omp_ext_timer_start(name) != 0 || omp_ext_timer_stop(name) != 0)
    return 1;
  printf("done\n");
  return 0;
}

static int big(void)
{
  struct rlimit rl = {4096, 4096};
  signal(SIGXFSZ, SIG_IGN);
  if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
    return 1;
  return names(300);
}
#endif

int main(int argc, char **argv)
{
  int i;
  if (argc == 2 && strcmp(argv[1], "none") == 0) {
    printf("done\n");
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "fork") == 0)
    return forked();
  if (argc == 3 && strcmp(argv[1], "many") == 0)
    return many(atol(argv[2]));
#ifndef TIMING_PLAIN
  if (argc == 3 && strcmp(argv[1], "names") == 0)
    return names(atoi(argv[2]));
  if (argc == 2 && strcmp(argv[1], "big") == 0)
    return big();
#endif
  if (argc == 2 && strcmp(argv[1], "roots") == 0)
    return roots();
  if (argc == 2 && strcmp(argv[1], "sleep") == 0) {
    for (i = 0; i < 3; i++)
      region_sleep();
    printf("done\n");
    return 0;
  }
  omp_set_max_active_levels(2);
#ifndef TIMING_PLAIN
  for (i = 0; i < 2; i++) {
    omp_ext_timer_start("setup");
    pause_ms(2);
    omp_ext_timer_stop("setup");
  }
#endif
  for (i = 0; i < 5; i++)
    region_scales();
  pause_ms(50);
  region_flat(1);
  region_flat(1);
  region_flat(2);
  printf("done\n");
  return 0;
}
