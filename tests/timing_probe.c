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
 */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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

int main(int argc, char **argv)
{
  int i;
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
