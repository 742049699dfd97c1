/*
 * Predict: what each OpenMP runtime builds from OMP_PLACES,
 * GOMP_CPU_AFFINITY and KMP_AFFINITY proclists on a machine (issue 13).
 *
 * One predictor per runtime family, each in its own file (predict_gomp.c:
 * libgomp 12; predict_kmp.c: libomp 14 and libiomp5), listed in the table
 * below, indexed by omp_ext_runtime_t as a runtime backend's `places`
 * (runtime.h); here the table, the public calls and the helpers the
 * predictors share (predict_int.h).  The rules are listed in
 * include/omp_ext/predict.h.
 */
#include <stdlib.h>
#include <string.h>

#include "predict_int.h"

extern const struct omp_ext_predictor omp_ext_predictor_gomp;
extern const struct omp_ext_predictor omp_ext_predictor_kmp;

/* One row per omp_ext_runtime_t value. */
static const struct omp_ext_predictor *const predictors[] = {
  [omp_ext_runtime_libgomp] = &omp_ext_predictor_gomp, /* GCC libgomp */
  [omp_ext_runtime_libomp] = &omp_ext_predictor_kmp,   /* LLVM libomp, Intel libiomp5 */
};
_Static_assert(sizeof(predictors) / sizeof(predictors[0]) == OMP_EXT_NRUNTIMES,
               "one predictor per omp_ext_runtime_t (OMP_EXT_NRUNTIMES)");

const char *const omp_ext_pred_names[OMP_EXT_PRED_NNAMES] = {"threads", "cores", "sockets",
                                                             "ll_caches", "numa_domains"};

static const struct omp_ext_predictor *predictor(omp_ext_runtime_t runtime)
{
  return (unsigned)runtime < OMP_EXT_NRUNTIMES ? predictors[runtime] : NULL;
}

const char *omp_ext_runtime_name(omp_ext_runtime_t runtime)
{
  const struct omp_ext_predictor *p = predictor(runtime);
  return p ? p->name : NULL;
}

int omp_ext_runtime_reads(omp_ext_runtime_t runtime, omp_ext_syntax_t syntax)
{
  const struct omp_ext_predictor *p = predictor(runtime);
  return p && (unsigned)syntax <= omp_ext_syntax_kmp && (p->syntaxes >> syntax & 1u);
}

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

/* Is why one of p's informational notes (not a change)? */
static int is_note(const struct omp_ext_predictor *p, const char *why)
{
  const char *const *n;
  for (n = p->notes; n && *n; n++)
    if (*n == why)
      return 1;
  return 0;
}

int omp_ext_places_predict(const omp_ext_topo_t *topo, const char *text, omp_ext_syntax_t syntax,
                           omp_ext_runtime_t runtime, omp_ext_prediction_t *pred)
{
  const struct omp_ext_predictor *p = predictor(runtime);
  int err;
  if (!topo || !text || !pred || (unsigned)syntax > omp_ext_syntax_kmp || !p)
    return omp_ext_err_invalid;
  memset(pred, 0, sizeof(*pred));
  pred->runtime = runtime;
  if (!(pred->list = omp_ext_pred_list(syntax)))
    return omp_ext_err_nomem;
  err = p->predict(topo, text, syntax, pred);
  if (err)
    omp_ext_prediction_clear(pred);
  else if (pred->outcome != omp_ext_outcome_places || (pred->why && !is_note(p, pred->why)))
    pred->changed = 1;
  return err;
}

void omp_ext_prediction_clear(omp_ext_prediction_t *pred)
{
  if (!pred)
    return;
  omp_ext_placelist_destroy(pred->list);
  pred->list = NULL;
}
