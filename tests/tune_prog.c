/*
 * tune_prog: the program htplaces tune is tested on -- an OpenMP program
 * with a known serial part and two parallel regions: scaled_work (its
 * iterations split over the team: it scales) and fixed_work (every thread
 * repeats the same work: it does not).
 *   tune_prog [ITERATIONS]       (default 2000000)
 * TUNE_PROG_FAIL=N: exit N at once (a failing program); TUNE_PROG_KILL=N:
 * raise signal N at once (a crashing one); TUNE_PROG_SLEEP=S:
 * sleep S seconds first (a slow one, for --timeout); built with -g: tune
 * names the regions tune_prog.c:LINE, the lines marked "REGION" below; TUNE_PROG_REBIND=1:
 * inside scaled_work, thread 1 binds itself to thread 0's CPUs (a program
 * whose threads are not where intended: tune marks the run invalid);
 * TUNE_PROG_NAP_MS=M: sleep M ms x OMP_NUM_THREADS first (a program twice
 * as slow at 2 threads, in every round: tune's paired test separates it).
 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

static double spin(long n, double x)
{
  long i;
  for (i = 0; i < n; i++)
    x = x * 1.0000001 + 1e-9;
  return x;
}

static int rebind;
static cpu_set_t cpus0;

static void scaled_work(long n)
{
  double total = 0;
#pragma omp parallel reduction(+ : total) /* REGION scaled_work */
  {
    int t = omp_get_thread_num(), k = omp_get_num_threads();
    if (rebind) { /* thread 1 onto thread 0's CPUs */
      if (t == 0)
        sched_getaffinity(0, sizeof(cpus0), &cpus0);
#pragma omp barrier
      if (t == 1)
        sched_setaffinity(0, sizeof(cpus0), &cpus0);
    }
    total += spin(n / k + (t < n % k), t);
  }
  sink = total;
}

static void fixed_work(long n)
{
  double total = 0;
#pragma omp parallel reduction(+ : total) /* REGION fixed_work */
  total += spin(n / 8, omp_get_thread_num());
  sink = total;
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 2000000;
  const char *fail = getenv("TUNE_PROG_FAIL"), *slow = getenv("TUNE_PROG_SLEEP");
  if (fail) {
    fprintf(stderr, "tune_prog: failing on purpose with %s\n", fail);
    return atoi(fail);
  }
  if (getenv("TUNE_PROG_KILL")) {
    signal(atoi(getenv("TUNE_PROG_KILL")), SIG_DFL);
    raise(atoi(getenv("TUNE_PROG_KILL")));
  }
  if (slow)
    sleep((unsigned)atoi(slow));
  if (getenv("TUNE_PROG_NAP_MS")) {
    long ms = atol(getenv("TUNE_PROG_NAP_MS")) * omp_get_max_threads();
    struct timespec nap = {ms / 1000, ms % 1000 * 1000000};
    nanosleep(&nap, NULL);
  }
  rebind = getenv("TUNE_PROG_REBIND") != NULL;
  sink = spin(n / 4, 1); /* the serial part */
  scaled_work(n);
  fixed_work(n);
  printf("tune_prog: done (%g)\n", sink);
  return 0;
}
