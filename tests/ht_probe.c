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
 *   ht_probe share            omp_ext_share(0, 100) in a team of 2: "share
 *                             0 OK" per thread, or "ht_probe: omp_ext_share:
 *                             TEXT" on stderr and exit 1
 * HT_PROBE_FORK=1: the regions run in a fork()ed child of the process that
 * set the policy (and ran one region).
 * HT_PROBE_HOOKS=1 in the environment: "ht_probe: hooks BITS" on stderr
 * (omp_ext_ht_hooks()) right after the call, before any region.
 */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpulist.h"

#include "omp_ext.h"

#define REGIONS 3

/* "ht_probe share": every thread's omp_ext_share() result. */
static int share(void)
{
  int errs[2] = {-1, -1}, t;
#pragma omp parallel num_threads(2)
  {
    long lo, hi;
    errs[omp_get_thread_num() & 1] = omp_ext_share(0, 100, &lo, &hi);
  }
  for (t = 0; t < 2; t++)
    if (errs[t]) {
      fprintf(stderr, "ht_probe: omp_ext_share: %s\n", omp_ext_strerror(errs[t]));
      return 1;
    }
  puts("share 0 OK");
  return 0;
}

int main(int argc, char **argv)
{
  char(*lines[REGIONS])[256]; /* lines[r][thread], sized by the team */
  int team[REGIONS], r, t, err = 0;
  omp_ht_policy_t policy;
  if (argc > 1 && strcmp(argv[1], "share") == 0)
    return share();
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
    /* HT_PROBE_HOOKS=1: omp_ext_ht_hooks() right after the set, before any
     * region of the program, on stderr. */
    if (getenv("HT_PROBE_HOOKS"))
      fprintf(stderr, "ht_probe: hooks %d\n", omp_ext_ht_hooks());
  }
  /* HT_PROBE_FORK=1: one region here, then the regions in a fork()ed
   * child, which prints; exit status the child's. */
  if (getenv("HT_PROBE_FORK")) {
    pid_t pid;
    int status;
#pragma omp parallel
    (void)omp_get_thread_num();
    fflush(stdout);
    if ((pid = fork()) < 0)
      return 1;
    if (pid > 0)
      return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  for (r = 0; r < REGIONS; r++) {
#pragma omp parallel
    {
      int me = omp_get_thread_num();
#pragma omp single
      { /* the team's size is known inside only (a policy may set it at the fork) */
        team[r] = omp_get_num_threads();
        lines[r] = calloc((size_t)team[r], sizeof(*lines[r]));
      }
      if (lines[r])
        cpulist_of_thread(lines[r][me], sizeof(lines[r][me]));
    }
    if (!lines[r])
      return 1;
  }
  for (r = 0; r < REGIONS; r++) {
    for (t = 0; t < team[r]; t++)
      printf("%d %d %s\n", r, t, lines[r][t]);
    free(lines[r]);
  }
  return 0;
}
