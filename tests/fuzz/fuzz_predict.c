/* libFuzzer target: omp_ext_places_predict() for both runtimes and the
 * three syntaxes (issue 13).  The first byte picks runtime and syntax.
 * Invariants (abort() when broken): success or omp_ext_err_parse only; a
 * list after success; ignored and crash: no places; disabled: one place;
 * libomp's places hold only allowed CPUs; libgomp's OMP_PLACES places too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "omp_ext.h"
#include "private/tools.h" /* the tools interface: not exported (libomp_ext.a) */

static omp_ext_topo_t *topo;
static hwloc_bitmap_t allowed;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  omp_ext_placelist_t *l = NULL;
  unsigned i;
  (void)argc;
  (void)argv;
  if (omp_ext_topo_load(&topo, "pack:2 core:4 pu:2(indexes=core:pack)", 0) != 0 ||
      omp_ext_places_parse(topo, "threads", omp_ext_syntax_omp, &l, NULL) != 0)
    abort();
  allowed = hwloc_bitmap_alloc();
  for (i = 0; i < l->nplaces; i++)
    hwloc_bitmap_or(allowed, allowed, l->places[i]);
  omp_ext_placelist_destroy(l);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  omp_ext_prediction_t p;
  omp_ext_runtime_t rt;
  omp_ext_syntax_t syntax;
  char *text;
  unsigned i;
  int err;
  if (size < 1)
    return 0;
  rt = (omp_ext_runtime_t)(data[0] & 1);
  syntax = (omp_ext_syntax_t)((data[0] >> 1) % 3);
  if (!(text = malloc(size)))
    return 0;
  memcpy(text, data + 1, size - 1);
  text[size - 1] = '\0';
  err = omp_ext_places_predict(topo, text, syntax, rt, &p);
  if (err == omp_ext_err_parse) {
    free(text);
    return 0;
  }
  if (err != 0 || !p.list)
    abort();
  if ((p.outcome == omp_ext_outcome_ignored || p.outcome == omp_ext_outcome_crash) &&
      p.list->nplaces != 0)
    abort();
  if (p.outcome == omp_ext_outcome_disabled && p.list->nplaces != 1)
    abort();
  if (rt == omp_ext_runtime_libomp || syntax == omp_ext_syntax_omp)
    for (i = 0; i < p.list->nplaces; i++)
      if (!hwloc_bitmap_isincluded(p.list->places[i], allowed))
        abort();
  omp_ext_prediction_clear(&p);
  free(text);
  return 0;
}
