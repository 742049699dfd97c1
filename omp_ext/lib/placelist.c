/*
 * The place list object that parse.c builds: freed, and written back as its
 * canonical text ({0,8},{1,9}: every place's CPUs in ascending order), which
 * parses back to the same list in any of the three syntaxes' OMP_PLACES.
 */
#include <stdio.h>
#include <stdlib.h>

#include "private/internal.h"

void omp_ext_placelist_destroy(omp_ext_placelist_t *list)
{
  unsigned i;
  if (!list)
    return;
  for (i = 0; i < list->nplaces; i++)
    hwloc_bitmap_free(list->places[i]);
  free(list->places);
  free(list->pos);
  free(list);
}

int omp_ext_placelist_canonical(const omp_ext_placelist_t *list, char **text)
{
  size_t cap = 64, len = 0;
  char *buf;
  unsigned i, cpu;
  if (!list || !text)
    return omp_ext_err_invalid;
  for (i = 0; i < list->nplaces; i++)
    cap += 3 + 6 * (size_t)hwloc_bitmap_weight(list->places[i]);
  if (!(buf = malloc(cap)))
    return omp_ext_err_nomem;
  for (i = 0; i < list->nplaces; i++) {
    int first = 1;
    len += (size_t)snprintf(buf + len, cap - len, "%s{", i ? "," : "");
    hwloc_bitmap_foreach_begin(cpu, list->places[i]) {
      len += (size_t)snprintf(buf + len, cap - len, "%s%u", first ? "" : ",", cpu);
      first = 0;
    }
    hwloc_bitmap_foreach_end();
    len += (size_t)snprintf(buf + len, cap - len, "}");
  }
  buf[len] = '\0';
  *text = buf;
  return omp_ext_success;
}
