/*
 * Domains: one disjoint share of the node per MPI rank.
 *
 * The allowed cores, in hwloc logical order (depth-first, so packages and
 * NUMA nodes are runs of consecutive cores), are cut into k consecutive
 * ranges.  Every range has floor(C/k) or ceil(C/k) cores (balanced to within
 * one core); among those cuttings, a dynamic program picks the one whose cuts
 * fall on the most package boundaries, then NUMA-node boundaries, then
 * CPU-kind boundaries.  When the packages (NUMA nodes) have equal core
 * counts and k is a multiple or a divisor of their number, this is
 * hwloc_distrib()'s split (hwloc/helper.h): each domain inside one package,
 * or made of whole packages.
 */
#include <stdlib.h>

#include "private/internal.h"

/* Worth of a cut just before core p (0 < p < ncores): lexicographic in
 * (package, NUMA, kind) boundaries, as at most k - 1 cuts are made. */
static long long cut_score(const omp_ext_topo_t *t, unsigned p, unsigned k)
{
  const struct omp_ext_core *a = &t->cores[p - 1], *b = &t->cores[p];
  long long w = (long long)k + 1;
  return (a->package != b->package) * w * w + (a->numa != b->numa) * w + (a->kind != b->kind);
}

/* best[r][p]: highest score of r domains covering cores [0, p), or -1. */
#define BEST(r, p) best[(size_t)(r) * (c + 1) + (p)]

static void fill_best(const omp_ext_topo_t *t, unsigned k, long long *best)
{
  unsigned c = t->ncores, q = c / k, r, p, s;
  for (p = 0; p < (size_t)(k + 1) * (c + 1); p++)
    best[p] = -1;
  BEST(0, 0) = 0;
  for (r = 1; r <= k; r++)
    for (p = r * q; p <= c && p <= r * (q + 1); p++)
      for (s = q; s <= q + 1; s++) {
        long long v;
        if (p < s || BEST(r - 1, p - s) < 0 || (r < k && p == c))
          continue;
        v = BEST(r - 1, p - s) + (r < k ? cut_score(t, p, k) : 0);
        if (v > BEST(r, p))
          BEST(r, p) = v;
      }
}

/* bound[0..k]: domain r is cores [bound[r], bound[r + 1]).  On a tie the
 * later domain takes the smaller size, so extra cores go to low ranks. */
static int cut_cores(const omp_ext_topo_t *t, unsigned k, unsigned *bound)
{
  unsigned c = t->ncores, q = c / k, r, p = c, s;
  long long *best = malloc((size_t)(k + 1) * (c + 1) * sizeof(*best));
  if (!best)
    return omp_ext_err_nomem;
  fill_best(t, k, best);
  for (r = k; r > 0; r--) {
    bound[r] = p;
    for (s = q; s <= q + 1; s++)
      if (p >= s && BEST(r - 1, p - s) >= 0 &&
          BEST(r - 1, p - s) + (r < k ? cut_score(t, p, k) : 0) == BEST(r, p))
        break;
    p -= s;
  }
  bound[0] = 0;
  free(best);
  return omp_ext_success;
}

#undef BEST

int omp_ext_domain_split(const omp_ext_topo_t *topo, unsigned k, unsigned r, hwloc_cpuset_t out)
{
  unsigned *bound, i;
  int err;
  if (!topo || !out || k == 0 || r >= k)
    return omp_ext_err_invalid;
  if (k > topo->ncores)
    return omp_ext_err_range;
  bound = malloc((k + 1) * sizeof(*bound));
  if (!bound)
    return omp_ext_err_nomem;
  err = cut_cores(topo, k, bound);
  if (!err) {
    /* The PUs of consecutive cores are consecutive in the PU table. */
    const struct omp_ext_core *last = &topo->cores[bound[r + 1] - 1];
    hwloc_bitmap_zero(out);
    for (i = topo->cores[bound[r]].first; i < last->first + last->npus; i++)
      hwloc_bitmap_set(out, topo->pus[i].os_index);
  }
  free(bound);
  return err;
}

int omp_ext_process_bound(const omp_ext_topo_t *topo, hwloc_cpuset_t binding)
{
  hwloc_bitmap_t bound, machine;
  int ret = 0;
  if (!topo)
    return omp_ext_err_invalid;
  if (!topo->thissystem)
    return 0;
  bound = hwloc_bitmap_alloc();
  machine = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topo->hw));
  if (!bound || !machine) {
    ret = omp_ext_err_nomem;
  } else if (hwloc_get_cpubind(topo->hw, bound, HWLOC_CPUBIND_PROCESS) < 0) {
    ret = omp_ext_err_unsupported;
  } else {
    hwloc_bitmap_and(machine, machine, hwloc_topology_get_topology_cpuset(topo->hw));
    hwloc_bitmap_and(bound, bound, machine);
    ret = !hwloc_bitmap_isequal(bound, machine) && !hwloc_bitmap_iszero(bound);
    if (binding)
      hwloc_bitmap_copy(binding, bound);
  }
  hwloc_bitmap_free(bound);
  hwloc_bitmap_free(machine);
  return ret;
}

int omp_ext_rank_apply(omp_ext_topo_t *topo, omp_ext_rank_t *rank, omp_ext_split_t split)
{
  hwloc_bitmap_t set;
  int err;
  if (!topo || !rank)
    return omp_ext_err_invalid;
  rank->mode = omp_ext_rank_none;
  if (!rank->launcher)
    return omp_ext_success;
  if (rank->size == 0 || rank->rank >= rank->size)
    return omp_ext_err_invalid;
  if (split == omp_ext_split_unless_bound) {
    if ((err = omp_ext_process_bound(topo, NULL)) < 0)
      return err;
    if (err == 1) {
      rank->mode = omp_ext_rank_bound;
      return omp_ext_success;
    }
  }
  if (!(set = hwloc_bitmap_alloc()))
    return omp_ext_err_nomem;
  err = omp_ext_domain_split(topo, rank->size, rank->rank, set);
  if (!err)
    err = omp_ext_topo_restrict(topo, set);
  hwloc_bitmap_free(set);
  if (!err)
    rank->mode = omp_ext_rank_split;
  return err;
}

int omp_ext_rank_restrict(omp_ext_topo_t *topo, char *const *envp, omp_ext_rank_t *info)
{
  int err;
  if (!topo || !info)
    return omp_ext_err_invalid;
  if ((err = omp_ext_rank_from_env(envp, info)) != 0)
    return err;
  return omp_ext_rank_apply(topo, info, omp_ext_split_unless_bound);
}
