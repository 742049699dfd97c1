/*
 * Shared body of the place-list fuzz targets: parse the input with one
 * syntax and check invariants, abort()ing (a crash for libFuzzer) when one
 * fails:
 *   - an error position lies inside the text (or at its end);
 *   - a parsed list's canonical text parses back, as OMP_PLACES, to the same
 *     canonical text (unless it has an empty place, which has no syntax).
 */
#ifndef OMP_EXT_FUZZ_PLACELIST_H
#define OMP_EXT_FUZZ_PLACELIST_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "omp_ext.h"

#define FUZZ_TOPOLOGY "pack:2 core:4 pu:2(indexes=core:pack)"

static omp_ext_topo_t *fuzz_topo;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  if (omp_ext_topo_load(&fuzz_topo, FUZZ_TOPOLOGY, 0) != 0)
    abort();
  return 0;
}

static int has_empty_place(const omp_ext_placelist_t *l)
{
  unsigned i;
  for (i = 0; i < l->nplaces; i++)
    if (hwloc_bitmap_iszero(l->places[i]))
      return 1;
  return l->nplaces == 0;
}

static void round_trip(const char *canonical)
{
  omp_ext_placelist_t *again = NULL;
  char *text2 = NULL;
  if (omp_ext_places_parse(fuzz_topo, canonical, omp_ext_syntax_omp, &again, NULL) != 0)
    abort();
  if (omp_ext_placelist_canonical(again, &text2) != 0 || strcmp(canonical, text2) != 0)
    abort();
  free(text2);
  omp_ext_placelist_destroy(again);
}

static int fuzz_placelist(const uint8_t *data, size_t size, omp_ext_syntax_t syntax)
{
  char *text = malloc(size + 1), *canonical = NULL;
  omp_ext_placelist_t *l = NULL;
  omp_ext_parse_error_t e = {0, NULL};
  int err;
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  err = omp_ext_places_parse(fuzz_topo, text, syntax, &l, &e);
  if (err == omp_ext_err_parse && (e.pos > strlen(text) || !e.what))
    abort();
  if (err == omp_ext_success) {
    if (l->nnotes > OMP_EXT_PLACES_MAX_NOTES || l->nplaces > OMP_EXT_PLACES_MAX_PLACES)
      abort();
    if (omp_ext_placelist_canonical(l, &canonical) == 0 && !has_empty_place(l))
      round_trip(canonical);
    free(canonical);
    omp_ext_placelist_destroy(l);
  } else if (l) {
    abort(); /* no list on failure */
  }
  free(text);
  return 0;
}

#endif
