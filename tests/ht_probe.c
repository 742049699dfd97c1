/*
 * ht_probe: an OpenMP program that uses omp_ext's in-code policy API and
 * prints, for each thread of REGIONS parallel regions, the CPUs it may run
 * on (sched_getaffinity): one line "REGION THREAD LIST", LIST as ascending
 * OS indexes "0,1".  Built with the build's compiler (gcc -> libgomp,
 * clang -> libomp) and linked with libomp_ext.
 *
 *   ht_probe                  no call: OMP_EXT_HT_POLICY alone decides
 *   ht_probe POLICY           omp_set_ht_policy(POLICY)
 *   ht_probe POLICY N         omp_set_ht_policy_num_threads(POLICY, N)
 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_ext.h"

#define REGIONS 3
#define MAXT 64

static void cpus_of_thread(char *buf, size_t len)
{
  cpu_set_t set;
  size_t used = 0;
  int cpu;
  buf[0] = '\0';
  if (sched_getaffinity(0, sizeof(set), &set) != 0) {
    snprintf(buf, len, "error");
    return;
  }
  for (cpu = 0; cpu < CPU_SETSIZE && used < len; cpu++)
    if (CPU_ISSET(cpu, &set))
      used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu);
}

int main(int argc, char **argv)
{
  static char lines[REGIONS][MAXT][256];
  int team[REGIONS], r, t, err = 0;
  omp_ht_policy_t policy;
  if (argc > 1) {
    if (omp_ext_policy_from_name(argv[1], &policy) != 0) {
      fprintf(stderr, "ht_probe: unknown policy '%s'\n", argv[1]);
      return 2;
    }
    err = argc > 2 ? omp_set_ht_policy_num_threads(policy, atoi(argv[2]))
                   : omp_set_ht_policy(policy);
    if (err) {
      fprintf(stderr, "ht_probe: %s\n", omp_ext_strerror(err));
      return 1;
    }
  }
  for (r = 0; r < REGIONS; r++) {
#pragma omp parallel
    {
      int me = omp_get_thread_num();
      if (me == 0)
        team[r] = omp_get_num_threads();
      if (me < MAXT)
        cpus_of_thread(lines[r][me], sizeof(lines[r][me]));
    }
  }
  for (r = 0; r < REGIONS; r++)
    for (t = 0; t < team[r] && t < MAXT; t++)
      printf("%d %d %s\n", r, t, lines[r][t]);
  return 0;
}
