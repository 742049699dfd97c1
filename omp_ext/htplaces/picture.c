/*
 * htplaces: the picture of packages, cores and PUs, labelled with thread
 * (and rank) numbers; drawn by show and by show --ranks-per-node.
 */
#include <stdio.h>
#include <stdlib.h>

#include "htplaces.h"

static void print_core_line(const omp_ext_topo_t *topo, unsigned first, unsigned count,
                            const int *thread, const int *rank)
{
  const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, first);
  unsigned i;
  printf("    Core L#%-3u", pu->core);
  if (omp_ext_topo_nkinds(topo) > 1)
    printf(" kind %u", pu->kind);
  for (i = first; i < first + count; i++) {
    char tag[16];
    if (thread[i] >= 0 && rank)
      snprintf(tag, sizeof(tag), "r%d.t%d", rank[i], thread[i]);
    else if (thread[i] >= 0)
      snprintf(tag, sizeof(tag), "t%d", thread[i]);
    else
      snprintf(tag, sizeof(tag), "-");
    printf("  PU P#%-4u %-*s", omp_ext_topo_pu(topo, i)->os_index,
           i + 1 < first + count ? (rank ? 8 : 5) : 0, tag);
  }
  putchar('\n');
}

const char *htp_package_label(const omp_ext_topo_t *topo)
{
  return hwloc_get_nbobjs_by_type(omp_ext_topo_hwloc(topo), HWLOC_OBJ_PACKAGE) > 0 ? "Package"
                                                                                   : "Machine";
}

/* Packages -> NUMA nodes -> cores -> PUs, in topology order. */
void htp_show_picture(const omp_ext_topo_t *topo, const int *thread, const int *rank)
{
  unsigned npus = omp_ext_topo_npus(topo), i = 0;
  long last_pkg = -1, last_numa = -2;
  while (i < npus) {
    const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, i);
    unsigned j = i + 1;
    while (j < npus && omp_ext_topo_pu(topo, j)->core == pu->core &&
           omp_ext_topo_pu(topo, j)->sibling > 0)
      j++;
    if ((long)pu->package != last_pkg) {
      printf("%s L#%u\n", htp_package_label(topo), pu->package);
      last_pkg = pu->package;
      last_numa = -2;
    }
    if (pu->numa != last_numa) {
      if (pu->numa >= 0 && omp_ext_topo_nnuma(topo) > 1)
        printf("  NUMANode P#%d\n", pu->numa);
      last_numa = pu->numa;
    }
    print_core_line(topo, i, j - i, thread, rank);
    i = j;
  }
}
