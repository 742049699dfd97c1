/*
 * mpi_probe: an MPI + OpenMP program that reports, for each rank and each
 * thread of one parallel region, the CPUs the thread may run on
 * (sched_getaffinity).  Rank 0 prints every rank's lines, in rank order:
 *   "RANK LOCAL_RANK THREAD LIST"
 * LOCAL_RANK is the rank in MPI_COMM_TYPE_SHARED (MPI's own view of the
 * node, not the launcher's variables); LIST is "0,8", ascending OS indexes.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

#define LINE 256
#define MAXTHREADS 64

int main(int argc, char **argv)
{
  static char mine[MAXTHREADS][LINE];
  char *all = NULL;
  int rank, size, local, provided, t, team = 0;
  MPI_Comm node;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
#pragma omp parallel
  {
    int me = omp_get_thread_num();
    char cpus[LINE - 32];
#pragma omp single
    team = omp_get_num_threads();
    cpulist_of_thread(cpus, sizeof(cpus));
    if (me < MAXTHREADS)
      snprintf(mine[me], LINE, "%d %d %d %s\n", rank, local, me, cpus);
  }
  for (t = team < MAXTHREADS ? team : MAXTHREADS; t < MAXTHREADS; t++)
    mine[t][0] = '\0';
  if (rank == 0 && !(all = malloc((size_t)size * sizeof(mine))))
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Gather(mine, (int)sizeof(mine), MPI_CHAR, all, (int)sizeof(mine), MPI_CHAR, 0,
             MPI_COMM_WORLD);
  if (rank == 0) {
    for (t = 0; t < size * MAXTHREADS; t++)
      fputs(all + (size_t)t * LINE, stdout);
    fflush(stdout);
    free(all);
  }
  MPI_Comm_free(&node);
  MPI_Finalize();
  return 0;
}
