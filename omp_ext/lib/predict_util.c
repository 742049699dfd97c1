/*
 * Predict: the helpers the runtime families' predictors (predict_gomp.c,
 * predict_kmp.c) share, declared in predict_int.h.  In a file of their own
 * so that predict.c (the table of predictors) and the predictors do not
 * call each other: predict.c -> predict_NAME.c -> predict_util.c.
 */
#include <stdlib.h>
#include <string.h>

#include "private/predict_int.h"

const char *const omp_ext_pred_names[OMP_EXT_PRED_NNAMES] = {"threads", "cores", "sockets",
                                                             "ll_caches", "numa_domains"};

omp_ext_placelist_t *omp_ext_pred_list(omp_ext_syntax_t syntax)
{
  omp_ext_placelist_t *l = calloc(1, sizeof(*l));
  if (l)
    l->syntax = syntax;
  return l;
}

/* Append set (ownership passes) to l. */
int omp_ext_pred_push(omp_ext_placelist_t *l, hwloc_bitmap_t set)
{
  hwloc_bitmap_t *places;
  size_t *pos;
  if (!set)
    return omp_ext_err_nomem;
  if (l->nplaces >= OMP_EXT_PLACES_MAX_PLACES) {
    hwloc_bitmap_free(set);
    return omp_ext_err_parse; /* beyond omp_ext's limits */
  }
  if ((l->nplaces & (l->nplaces - 1)) == 0) { /* 0, 1, 2, 4...: grow twofold */
    size_t cap = l->nplaces ? 2 * (size_t)l->nplaces : 1;
    places = realloc(l->places, cap * sizeof(*places));
    if (places)
      l->places = places;
    pos = places ? realloc(l->pos, cap * sizeof(*pos)) : NULL;
    if (pos)
      l->pos = pos;
    if (!places || !pos) {
      hwloc_bitmap_free(set);
      return omp_ext_err_nomem;
    }
  }
  l->places[l->nplaces] = set;
  l->pos[l->nplaces++] = 0;
  return omp_ext_success;
}

hwloc_bitmap_t omp_ext_pred_allowed(const omp_ext_topo_t *t)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  unsigned i;
  for (i = 0; set && i < t->npus; i++)
    hwloc_bitmap_set(set, t->pus[i].os_index);
  return set;
}

/* An abstract name's places (over the allowed PUs), the first count of them. */
int omp_ext_pred_abstract(const omp_ext_topo_t *t, const char *name, unsigned long count,
                          omp_ext_placelist_t **out)
{
  int err = omp_ext_places_parse(t, name, omp_ext_syntax_omp, out, NULL);
  if (err)
    return err;
  while (count && (*out)->nplaces > count)
    hwloc_bitmap_free((*out)->places[--(*out)->nplaces]);
  return omp_ext_success;
}

void omp_ext_pred_set(omp_ext_prediction_t *pred, omp_ext_outcome_t outcome, const char *why)
{
  pred->outcome = outcome;
  pred->why = why;
}

/* Keep only allowed CPUs; drop empty places (keep[i] set: keep it anyway). */
void omp_ext_pred_keep_allowed(omp_ext_placelist_t *l, hwloc_const_bitmap_t allowed,
                               const char *keep, int *dropped_cpu, int *dropped_place)
{
  unsigned i, n = 0;
  for (i = 0; i < l->nplaces; i++) {
    if (!hwloc_bitmap_isincluded(l->places[i], allowed))
      *dropped_cpu = 1;
    hwloc_bitmap_and(l->places[i], l->places[i], allowed);
    if (hwloc_bitmap_iszero(l->places[i]) && !(keep && keep[i])) {
      hwloc_bitmap_free(l->places[i]);
      *dropped_place = 1;
      continue;
    }
    l->places[n] = l->places[i];
    l->pos[n++] = l->pos[i];
  }
  l->nplaces = n;
}
