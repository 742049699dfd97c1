/*
 * Private: place prediction, one predictor per runtime family (as the
 * runtime backends, runtime.h): predict_gomp.c (libgomp), predict_kmp.c
 * (libomp, libiomp5), listed in predict.c's table, indexed by the public
 * omp_ext_runtime_t (a backend's `places`); the helpers they share are
 * predict_util.c's (below), so that predict.c and its rows do not call each
 * other.  Adding a family = its file predict_NAME.c (defining
 * omp_ext_predictor_NAME) + its row in predict.c + its omp_ext_runtime_t
 * value (omp_ext/lib/private/tools_predict.h, OMP_EXT_NRUNTIMES).
 */
#ifndef OMP_EXT_PREDICT_INT_H
#define OMP_EXT_PREDICT_INT_H

#include "private/internal.h"

/** How one runtime family reads a place-list variable. */
struct omp_ext_predictor {
  const char *name;  /**< omp_ext_runtime_name(), e.g. "libgomp" */
  unsigned syntaxes; /**< the variables it reads: bits 1 << omp_ext_syntax_t */
  /** Fill \p pred (runtime and an empty list of \p syntax already set):
   *  outcome, list and why, and changed when the rule of predict.c (any
   *  outcome but places, or a why not in notes) is not enough.  Returns 0,
   *  omp_ext_err_parse (not predicted) or omp_ext_err_nomem. */
  int (*predict)(const omp_ext_topo_t *t, const char *text, omp_ext_syntax_t syntax,
                 omp_ext_prediction_t *pred);
  /** Whys that only inform (its own order of an abstract name), not a
   *  change; NULL-terminated, NULL for none. */
  const char *const *notes;
};

/* The abstract names of OMP_PLACES, in the order the families try them. */
#define OMP_EXT_PRED_NNAMES 5
extern const char *const omp_ext_pred_names[OMP_EXT_PRED_NNAMES];

/* An empty list of \p syntax (NULL: out of memory). */
omp_ext_placelist_t *omp_ext_pred_list(omp_ext_syntax_t syntax);
/* Append \p set to \p l; ownership passes, even on failure: 0,
 * omp_ext_err_nomem, omp_ext_err_parse (beyond OMP_EXT_PLACES_MAX_PLACES). */
int omp_ext_pred_push(omp_ext_placelist_t *l, hwloc_bitmap_t set);
/* The allowed PUs' OS indexes (NULL: out of memory). */
hwloc_bitmap_t omp_ext_pred_allowed(const omp_ext_topo_t *t);
/* An abstract name's places (omp_ext_places_parse(), over the allowed PUs),
 * the first \p count of them (0: all). */
int omp_ext_pred_abstract(const omp_ext_topo_t *t, const char *name, unsigned long count,
                          omp_ext_placelist_t **out);
/* Set the outcome and why of \p pred. */
void omp_ext_pred_set(omp_ext_prediction_t *pred, omp_ext_outcome_t outcome, const char *why);
/* Keep only allowed CPUs in \p l's places; drop the empty ones (unless
 * keep[i]); set *dropped_cpu / *dropped_place when it did. */
void omp_ext_pred_keep_allowed(omp_ext_placelist_t *l, hwloc_const_bitmap_t allowed,
                               const char *keep, int *dropped_cpu, int *dropped_place);

#endif /* OMP_EXT_PREDICT_INT_H */
