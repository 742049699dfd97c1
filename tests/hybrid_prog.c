/*
 * hybrid_prog: a small MPI + OpenMP program for `htplaces tune --launcher`
 * and `htplaces verify` under mpirun or srun.  The ranks share the
 * iterations 0..WORK-1, each rank's share split over its OpenMP team
 * (schedule static); every rank's sum of (i mod 1000) is reduced to rank 0,
 * which checks it against the closed form and prints
 *   hybrid_prog: ranks R threads T sum S ok
 * (exit 0), or "... WRONG" (exit 1).
 *   hybrid_prog [--work N] [--misplace-rank K]
 * --work N: iterations in all (default 20000000);
 * --misplace-rank K: in rank K, each thread of the region moves itself to
 *   another CPU it may use (sched_setaffinity), then waits 0.2 s in the
 *   region, so that `htplaces verify` sees it elsewhere than its place.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Move the calling thread to the first CPU of `allowed` other than the one
 * it is bound to now; 0 or -1 (no other CPU). */
static int move_away(const cpu_set_t *allowed)
{
  cpu_set_t now, to;
  int cpu;
  if (sched_getaffinity(0, sizeof(now), &now) != 0)
    return -1;
  for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET(cpu, allowed) && !CPU_ISSET(cpu, &now)) {
      CPU_ZERO(&to);
      CPU_SET(cpu, &to);
      if (sched_setaffinity(0, sizeof(to), &to) == 0)
        return 0;
    }
  return -1;
}

/* The CPUs this process may use: its cgroup's and the machine's online
 * CPUs (/proc/self/status Cpus_allowed_list is the initial thread's
 * binding, which the places already narrowed). */
static void usable_cpus(cpu_set_t *set)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN), cpu;
  CPU_ZERO(set);
  for (cpu = 0; cpu < n && cpu < CPU_SETSIZE; cpu++)
    CPU_SET((int)cpu, set);
}

int main(int argc, char **argv)
{
  long long work = 20000000, lo, hi, i;
  unsigned long long sum = 0, total = 0, want = 0, full, part;
  int rank, size, provided, team = 1, misplace = -1, k;
  cpu_set_t usable;
  for (k = 1; k < argc; k++)
    if (strcmp(argv[k], "--work") == 0 && k + 1 < argc)
      work = atoll(argv[++k]);
    else if (strcmp(argv[k], "--misplace-rank") == 0 && k + 1 < argc)
      misplace = atoi(argv[++k]);
    else
      return fprintf(stderr, "usage: hybrid_prog [--work N] [--misplace-rank K]\n"), 2;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  usable_cpus(&usable);
  lo = work * rank / size;
  hi = work * (rank + 1) / size;
#pragma omp parallel reduction(+ : sum)
  {
#pragma omp single
    team = omp_get_num_threads();
#pragma omp for schedule(static)
    for (i = lo; i < hi; i++)
      sum += (unsigned long long)(i % 1000);
    if (rank == misplace && move_away(&usable) == 0)
      usleep(200000);
  }
  MPI_Reduce(&sum, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  full = (unsigned long long)(work / 1000);
  part = (unsigned long long)(work % 1000);
  want = full * (999ULL * 1000 / 2) + part * (part - (part > 0)) / 2;
  if (rank == 0)
    printf("hybrid_prog: ranks %d threads %d sum %llu %s\n", size, team, total,
           total == want ? "ok" : "WRONG");
  MPI_Finalize();
  return rank == 0 && total != want;
}
