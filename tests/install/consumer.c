/* Prints the spn order of the C6100 through the installed library. */
#include <stdio.h>
#include <stdlib.h>

#include <omp_ext.h>

int main(void)
{
  omp_ext_topo_t *topo;
  omp_ext_pu_t order[4];
  char *text;
  if (omp_ext_topo_load(&topo, "pack:2 core:4 pu:2(indexes=core:pack)", 0) != 0 ||
      omp_ext_order(topo, NULL, omp_ht_policy_spn, 4, order) != 0 ||
      omp_ext_places_format(order, 4, omp_ext_format_omp, &text) != 0)
    return 1;
  puts(text);
  free(text);
  omp_ext_topo_destroy(topo);
  return 0;
}
