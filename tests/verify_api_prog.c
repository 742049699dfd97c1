/*
 * A program that omp_ext's own API moves, for htplaces verify's test
 * (issue 24): omp_set_ht_policy_num_threads(spn, 1), then a team of 2.  The
 * runtime's affinity lines still say each thread's OMP_PLACES place; omp_ext
 * binds both threads within the one PU the policy allows, and the threads
 * then wait 300 ms on each side of a barrier, so that verify's samples of
 * /proc/PID/task see where they really are.  Prints where each thread is
 * (sched_getaffinity) after the barrier.
 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

#include "omp_ext.h"

int main(void)
{
  if (omp_set_ht_policy_num_threads(omp_ht_policy_spn, 1) != 0)
    return 2;
#pragma omp parallel num_threads(2)
  {
    struct timespec wait = {0, 300000000L};
    cpu_set_t set;
    int c, first = -1;
    nanosleep(&wait, NULL);
#pragma omp barrier
    nanosleep(&wait, NULL);
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
      for (c = 0; c < CPU_SETSIZE && first < 0; c++)
        if (CPU_ISSET(c, &set))
          first = c;
#pragma omp critical
    printf("verify_api_prog: thread %d on CPU %d (%d allowed)\n", omp_get_thread_num(), first,
           CPU_COUNT(&set));
  }
  return 0;
}
