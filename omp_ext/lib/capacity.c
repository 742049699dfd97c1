/*
 * Capacity: what each thread of a team is worth in cores, from the threads'
 * bindings, the topology and sigma (paper §1.2; model in omp_ext/share.h).
 * Pure functions of their arguments: no OpenMP, no binding, no state.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "private/internal.h"

/* hwloc's frequency of the CPU kind of PU \p os_index, in MHz; 0 if unknown. */
static double kind_mhz(hwloc_topology_t hw, unsigned os_index)
{
  static const char *const names[] = {"FrequencyMaxMHz", "FrequencyBaseMHz"};
  hwloc_bitmap_t one = hwloc_bitmap_alloc();
  struct hwloc_info_s *infos = NULL;
  unsigned ninfos = 0, i, k;
  int idx;
  double mhz = 0;
  if (!one)
    return 0;
  hwloc_bitmap_only(one, os_index);
  idx = hwloc_cpukinds_get_by_cpuset(hw, one, 0);
  hwloc_bitmap_free(one);
  if (idx < 0 || hwloc_cpukinds_get_info(hw, (unsigned)idx, NULL, NULL, &ninfos, &infos, 0) < 0)
    return 0;
  for (k = 0; k < sizeof(names) / sizeof(names[0]) && mhz <= 0; k++)
    for (i = 0; i < ninfos; i++)
      if (infos[i].name && infos[i].value && strcmp(infos[i].name, names[k]) == 0) {
        mhz = strtod(infos[i].value, NULL);
        break;
      }
  return isfinite(mhz) && mhz > 0 ? mhz : 0;
}

/* Frequency of kind rank \p kind as above; -1 if no allowed PU has it. */
static int rank_mhz(const omp_ext_topo_t *topo, unsigned kind, double *mhz)
{
  unsigned i;
  for (i = 0; i < topo->npus; i++)
    if (topo->pus[i].kind == kind) {
      *mhz = kind_mhz(topo->hw, topo->pus[i].os_index);
      return 0;
    }
  return -1;
}

int omp_ext_kind_capacity(const omp_ext_topo_t *topo, unsigned kind, double *factor)
{
  double mine, best;
  if (!topo || !factor || rank_mhz(topo, kind, &mine) != 0 || rank_mhz(topo, 0, &best) != 0)
    return omp_ext_err_invalid;
  /* Both frequencies known and the kind slower: their ratio; else 1. */
  *factor = kind != 0 && mine > 0 && best > 0 && mine < best ? mine / best : 1.0;
  return omp_ext_success;
}

/* The position in topo->pus of each allowed OS index, -1 elsewhere. */
static int *pu_index(const omp_ext_topo_t *topo, unsigned *len)
{
  int last = hwloc_bitmap_last(topo->allowed);
  unsigned i;
  int *index;
  *len = last < 0 ? 0 : (unsigned)last + 1;
  if (!(index = malloc((*len ? *len : 1) * sizeof(*index))))
    return NULL;
  for (i = 0; i < *len; i++)
    index[i] = -1;
  for (i = 0; i < topo->npus; i++)
    index[topo->pus[i].os_index] = (int)i;
  return index;
}

struct capacity_work {
  int *index;          /* OS index -> position in topo->pus */
  unsigned nindex;
  unsigned *core_of;   /* position in topo->pus -> position in topo->cores */
  unsigned *load;      /* threads on each PU */
  unsigned *busy;      /* busy PUs of each core */
  double *kind_factor; /* per kind rank */
  unsigned *pu_of;     /* thread -> position in topo->pus */
};

static void work_free(struct capacity_work *w)
{
  free(w->index);
  free(w->core_of);
  free(w->load);
  free(w->busy);
  free(w->kind_factor);
  free(w->pu_of);
}

static int work_init(const omp_ext_topo_t *topo, unsigned n, struct capacity_work *w)
{
  unsigned c, j, nkinds = 0;
  for (j = 0; j < topo->npus; j++)
    if (topo->pus[j].kind + 1 > nkinds)
      nkinds = topo->pus[j].kind + 1;
  w->index = pu_index(topo, &w->nindex);
  w->core_of = malloc(topo->npus * sizeof(*w->core_of));
  w->load = calloc(topo->npus, sizeof(*w->load));
  w->busy = calloc(topo->ncores, sizeof(*w->busy));
  w->kind_factor = malloc(nkinds * sizeof(*w->kind_factor));
  w->pu_of = malloc(n * sizeof(*w->pu_of));
  if (!w->index || !w->core_of || !w->load || !w->busy || !w->kind_factor || !w->pu_of)
    return omp_ext_err_nomem;
  for (c = 0; c < topo->ncores; c++)
    for (j = 0; j < topo->cores[c].npus; j++)
      w->core_of[topo->cores[c].first + j] = c;
  for (j = 0; j < nkinds; j++)
    if (omp_ext_kind_capacity(topo, j, &w->kind_factor[j]) != 0)
      w->kind_factor[j] = 1.0; /* a rank no allowed PU has: never used */
  return omp_ext_success;
}

/* Put a thread on PU \p p (a position in topo->pus). */
static void occupy(struct capacity_work *w, unsigned p)
{
  if (w->load[p]++ == 0)
    w->busy[w->core_of[p]]++;
}

/* Allowed PUs of a binding: how many, and the first one's position. */
static unsigned allowed_count(const struct capacity_work *w, hwloc_const_cpuset_t set,
                              unsigned *first)
{
  unsigned count = 0;
  int i;
  hwloc_bitmap_foreach_begin(i, set)
    if ((unsigned)i >= w->nindex)
      break;
    if (w->index[i] >= 0 && count++ == 0)
      *first = (unsigned)w->index[i];
  hwloc_bitmap_foreach_end();
  return count;
}

/* The PU of \p set a new thread goes to: fewest threads, then fewest busy
 * PUs on its core, then the more performant kind, then logical order. */
static unsigned least_loaded(const omp_ext_topo_t *topo, const struct capacity_work *w,
                             hwloc_const_cpuset_t set)
{
  unsigned best = 0, found = 0;
  int i;
  hwloc_bitmap_foreach_begin(i, set)
    if ((unsigned)i >= w->nindex)
      break;
    if (w->index[i] >= 0) {
      unsigned p = (unsigned)w->index[i];
      if (!found || w->load[p] < w->load[best] ||
          (w->load[p] == w->load[best] &&
           (w->busy[w->core_of[p]] < w->busy[w->core_of[best]] ||
            (w->busy[w->core_of[p]] == w->busy[w->core_of[best]] &&
             (topo->pus[p].kind < topo->pus[best].kind ||
              (topo->pus[p].kind == topo->pus[best].kind && p < best))))))
        best = p;
      found = 1;
    }
  hwloc_bitmap_foreach_end();
  return best;
}

/* Average the weights of the threads bound exactly as thread \p t, from
 * the first of them (later ones are then equal: nothing to do). */
static void share_group(const hwloc_const_cpuset_t *bindings, unsigned n, unsigned t,
                        double *weights)
{
  double sum = 0;
  unsigned u, count = 0;
  for (u = 0; u < t; u++)
    if (hwloc_bitmap_isequal(bindings[u], bindings[t]))
      return;
  for (u = t; u < n; u++)
    if (hwloc_bitmap_isequal(bindings[u], bindings[t]))
      sum += weights[u], count++;
  for (u = t; u < n; u++)
    if (hwloc_bitmap_isequal(bindings[u], bindings[t]))
      weights[u] = sum / count;
}

int omp_ext_capacity_weights(const omp_ext_topo_t *topo, const hwloc_const_cpuset_t *bindings,
                             unsigned n, double sigma, double *weights)
{
  struct capacity_work w = {0};
  unsigned t, first = 0;
  int err;
  if (!topo || !bindings || !weights || n == 0 || !(sigma >= 0 && sigma <= 1))
    return omp_ext_err_invalid;
  for (t = 0; t < n; t++)
    if (!bindings[t])
      return omp_ext_err_invalid;
  if ((err = work_init(topo, n, &w)) != 0) {
    work_free(&w);
    return err;
  }
  /* Threads bound to one PU first: they are where they are. */
  for (t = 0; t < n && !err; t++) {
    unsigned count = allowed_count(&w, bindings[t], &first);
    if (count == 0)
      err = omp_ext_err_invalid;
    else if (count == 1)
      occupy(&w, w.pu_of[t] = first);
  }
  /* Then the others, in thread order, where the scheduler would put them. */
  for (t = 0; t < n && !err; t++)
    if (allowed_count(&w, bindings[t], &first) > 1)
      occupy(&w, w.pu_of[t] = least_loaded(topo, &w, bindings[t]));
  for (t = 0; t < n && !err; t++) {
    unsigned p = w.pu_of[t], busy = w.busy[w.core_of[p]];
    weights[t] = w.kind_factor[topo->pus[p].kind] * (1 + sigma * (busy - 1)) / busy / w.load[p];
  }
  /* Threads with the same wider binding are interchangeable: the scheduler
   * migrates them among its PUs, so they share the group's capacity
   * equally. */
  for (t = 0; t < n && !err; t++)
    if (allowed_count(&w, bindings[t], &first) > 1)
      share_group(bindings, n, t, weights);
  work_free(&w);
  return err;
}
