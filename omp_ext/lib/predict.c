/*
 * Predict: what each OpenMP runtime builds from OMP_PLACES,
 * GOMP_CPU_AFFINITY and KMP_AFFINITY proclists on a machine (issue 13).
 *
 * One predictor per runtime family, each in its own file (predict_gomp.c:
 * libgomp 12; predict_kmp.c: libomp 14 and libiomp5), listed in the table
 * below, indexed by omp_ext_runtime_t as a runtime backend's `places`
 * (runtime.h); here the table and the public calls (the helpers the
 * predictors share are predict_util.c's, so that the table and its rows
 * do not call each other).  The rules are listed in
 * omp_ext/lib/private/tools_predict.h.
 */
#include <stdlib.h>
#include <string.h>

#include "private/predict_int.h"

extern const struct omp_ext_predictor omp_ext_predictor_gomp;
extern const struct omp_ext_predictor omp_ext_predictor_kmp;

/* One row per omp_ext_runtime_t value. */
static const struct omp_ext_predictor *const predictors[] = {
  [omp_ext_runtime_libgomp] = &omp_ext_predictor_gomp, /* GCC libgomp */
  [omp_ext_runtime_libomp] = &omp_ext_predictor_kmp,   /* LLVM libomp, Intel libiomp5 */
};
_Static_assert(sizeof(predictors) / sizeof(predictors[0]) == OMP_EXT_NRUNTIMES,
               "one predictor per omp_ext_runtime_t (OMP_EXT_NRUNTIMES)");

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
