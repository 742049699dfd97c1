/*
 * share_weights: the capacity weights omp_ext_capacity_weights() gives the
 * first N PUs of a policy's order on a topology (a fixture XML, a synthetic
 * string, or this machine), and the share of a range of iterations each
 * thread gets (omp_ext_share_split()).  Figures for README and the man page
 * (benchmarks/results/share-weights.txt); no OpenMP.
 *
 *   share_weights TOPOLOGY POLICY N [SIGMA [ITERATIONS]]
 *
 * TOPOLOGY: an hwloc XML path, a synthetic string, or "" for this machine.
 * Prints one line per thread: thread, PU (OS index), core (logical), kind
 * rank, weight, share; then the sum of the weights.  Exit 2 on bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp_ext.h"

static int usage(const char *why)
{
  char names[128];
  size_t len = 0;
  unsigned i;
  for (i = 0; i < OMP_EXT_NPOLICIES && len < sizeof(names); i++) /* the policy table's */
    len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? "|" : "",
                            omp_ext_policy_name((omp_ht_policy_t)i));
  fprintf(stderr, "share_weights: %s (usage: share_weights TOPOLOGY POLICY N [SIGMA [ITERATIONS]];"
                  " POLICY %s, N 1..PUs, SIGMA in [0, 1])\n",
          why, names);
  return 2;
}

int main(int argc, char **argv)
{
  omp_ext_topo_t *topo;
  omp_ht_policy_t policy;
  omp_ext_pu_t *order;
  hwloc_bitmap_t *binds;
  double sigma = OMP_EXT_MODEL_SIGMA, *w, sum = 0, kf;
  long iters = 1000, *bounds;
  unsigned n, t;
  char *end;
  int err;
  if (argc < 4 || argc > 6)
    return usage("wrong number of arguments");
  if (omp_ext_policy_from_name(argv[2], &policy) != 0)
    return usage("unknown policy");
  n = (unsigned)strtoul(argv[3], &end, 10);
  if (*end || !*argv[3] || n == 0)
    return usage("N must be a whole number >= 1");
  if (argc > 4 && (sigma = strtod(argv[4], &end), *end || !(sigma >= 0 && sigma <= 1)))
    return usage("SIGMA must be a number in [0, 1]");
  if (argc > 5 && (iters = strtol(argv[5], &end, 10), *end || iters < 0))
    return usage("ITERATIONS must be a whole number >= 0");
  if ((err = omp_ext_topo_load(&topo, argv[1], 0)) != 0)
    return usage(omp_ext_strerror(err));
  if (n > omp_ext_topo_npus(topo)) {
    omp_ext_topo_destroy(topo);
    return usage("N is above the allowed PUs");
  }
  order = calloc(n, sizeof(*order));
  binds = calloc(n, sizeof(*binds));
  w = calloc(n, sizeof(*w));
  bounds = calloc(n + 1, sizeof(*bounds));
  if (!order || !binds || !w || !bounds)
    return 1;
  if ((err = omp_ext_order(topo, NULL, policy, n, order)) != 0)
    return usage(omp_ext_strerror(err));
  for (t = 0; t < n; t++)
    binds[t] = hwloc_bitmap_alloc(), hwloc_bitmap_only(binds[t], order[t].os_index);
  if ((err = omp_ext_capacity_weights(topo, (const hwloc_const_cpuset_t *)binds, n, sigma, w)) ||
      (err = omp_ext_share_split(0, iters, w, n, bounds))) {
    fprintf(stderr, "share_weights: %s\n", omp_ext_strerror(err));
    return 1;
  }
  printf("# %s, policy %s, N %u, sigma %g, %ld iterations\n", omp_ext_topo_source(topo), argv[2],
         n, sigma, iters);
  for (t = 0; t < omp_ext_topo_nkinds(topo); t++)
    if (omp_ext_kind_capacity(topo, t, &kf) == 0)
      printf("# kind %u: capacity factor %.4f\n", t, kf);
  printf("%-6s %-5s %-5s %-4s %-8s %s\n", "thread", "pu", "core", "kind", "weight", "share");
  for (t = 0; t < n; t++) {
    printf("%-6u %-5u %-5u %-4u %-8.4f [%ld, %ld) %ld\n", t, order[t].os_index, order[t].core,
           order[t].kind, w[t], bounds[t], bounds[t + 1], bounds[t + 1] - bounds[t]);
    sum += w[t];
    hwloc_bitmap_free(binds[t]);
  }
  printf("# sum of weights %.4f (cores' worth)\n", sum);
  free(order);
  free(binds);
  free(w);
  free(bounds);
  omp_ext_topo_destroy(topo);
  return 0;
}
