/*
 * tune_names_prog: a program for the naming and reading of regions by
 * htplaces tune, built WITHOUT -g (its regions are named by the functions
 * of its symbol table, static ones too).
 *   tune_names_prog         crunch_numbers (a static function) 3 times
 *   tune_names_prog pin     each thread of crunch_numbers' team binds
 *                             itself to one allowed CPU first (a program
 *                             that pins its own threads)
 *   tune_names_prog fork    crunch_numbers, then a forked child runs
 *                             child_work twice (run it with 1 thread:
 *                             libgomp's pool is not the child's)
 *   tune_names_prog none    no parallel region at all
 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;
static int pin;

/* The n-th CPU of the allowed set (wrapping), or -1. */
static int nth_cpu(int n)
{
  cpu_set_t set;
  int cpu, k = 0, count;
  if (sched_getaffinity(0, sizeof(set), &set) != 0 || (count = CPU_COUNT(&set)) == 0)
    return -1;
  n %= count;
  for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET(cpu, &set) && k++ == n)
      return cpu;
  return -1;
}

static __attribute__((noinline)) void crunch_numbers(long n)
{
  double total = 0;
  if (pin) { /* before the first region: the binding it records is the pinned one */
#pragma omp parallel
    {
      int cpu = nth_cpu(omp_get_thread_num());
      cpu_set_t one;
      CPU_ZERO(&one);
      if (cpu >= 0) {
        CPU_SET(cpu, &one);
        sched_setaffinity(0, sizeof(one), &one);
      }
    }
    pin = 0;
  }
#pragma omp parallel reduction(+ : total)
  {
    long i;
    for (i = 0; i < n; i++)
      total += i * 0.5;
  }
  sink = total;
}

static __attribute__((noinline)) void child_work(long n)
{
  double total = 0;
#pragma omp parallel reduction(+ : total)
  {
    long i;
    for (i = 0; i < n; i++)
      total += i * 0.25;
  }
  sink = total;
}

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  int k, status;
  pid_t pid;
  if (strcmp(mode, "none") == 0) {
    printf("done\n");
    return 0;
  }
  pin = strcmp(mode, "pin") == 0;
  for (k = 0; k < 3; k++)
    crunch_numbers(200000);
  if (strcmp(mode, "fork") == 0) {
    fflush(stdout);
    if ((pid = fork()) < 0)
      return 1;
    if (pid == 0) {
      child_work(100000);
      child_work(100000);
      exit(0);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
      return 1;
  }
  printf("done\n");
  return 0;
}
