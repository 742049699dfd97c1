/*
 * htplaces topo: a summary of the topology -- packages, NUMA nodes, cores,
 * PUs, SMT, how siblings are numbered, the CPU kinds and the allowed PUs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "htplaces.h"

/* "adjacent", "far +D" or "irregular": how a core's PUs are numbered. */
static void sibling_numbering(const omp_ext_topo_t *topo, char *buf, size_t len)
{
  unsigned npus = omp_ext_topo_npus(topo), i;
  long stride = 0;
  int regular = 1;
  if (omp_ext_topo_max_smt(topo) < 2) {
    snprintf(buf, len, "none (one PU per core)");
    return;
  }
  for (i = 1; i < npus; i++) {
    const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, i), *prev = omp_ext_topo_pu(topo, i - 1);
    long d;
    if (pu->sibling == 0)
      continue;
    d = (long)pu->os_index - (long)prev->os_index;
    if (stride == 0)
      stride = d;
    else if (d != stride)
      regular = 0;
  }
  if (!regular)
    snprintf(buf, len, "irregular (the OS index distance between siblings varies)");
  else if (stride == 1)
    snprintf(buf, len, "adjacent (a core's PUs have consecutive OS indexes)");
  else
    snprintf(buf, len, "far +%ld (the siblings of PU n are n+%ld, n+%ld, ...)", stride, stride,
             2 * stride);
}

/* Cores and PUs per core of each CPU kind, with hwloc's info on the kind. */
static void print_kinds(const omp_ext_topo_t *topo)
{
  unsigned maxkind = 0, k, i, first = 1;
  hwloc_topology_t hw = omp_ext_topo_hwloc(topo);
  /* Kind ranks are over all the machine's kinds: a restricted set may lack
   * some (e.g. only E-cores allowed), so list the ranks that have PUs. */
  for (i = 0; i < omp_ext_topo_npus(topo); i++)
    if (omp_ext_topo_pu(topo, i)->kind > maxkind)
      maxkind = omp_ext_topo_pu(topo, i)->kind;
  for (k = 0; k <= maxkind; k++) {
    unsigned cores = 0, pus = 0, minsmt = ~0u, maxsmt = 0, run = 0;
    const omp_ext_pu_t *any = NULL;
    for (i = 0; i < omp_ext_topo_npus(topo); i++) {
      const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, i);
      if (pu->kind != k)
        continue;
      any = any ? any : pu;
      pus++;
      if (pu->sibling == 0) {
        cores++;
        run = 0;
      }
      run++;
      if (i + 1 == omp_ext_topo_npus(topo) || omp_ext_topo_pu(topo, i + 1)->sibling == 0) {
        minsmt = run < minsmt ? run : minsmt;
        maxsmt = run > maxsmt ? run : maxsmt;
      }
    }
    if (pus == 0)
      continue;
    printf("kind %u%s: %u cores, %u PUs, %u", k, first ? " (most performant)" : "", cores, pus,
           minsmt);
    first = 0;
    if (maxsmt != minsmt)
      printf("-%u", maxsmt);
    printf(" PU(s) per core");
    if (any) {
      hwloc_obj_t obj = hwloc_get_pu_obj_by_os_index(hw, any->os_index);
      int idx = obj ? hwloc_cpukinds_get_by_cpuset(hw, obj->cpuset, 0) : -1;
      unsigned ninfos = 0, j;
      struct hwloc_info_s *infos = NULL;
      int eff = -1;
      if (idx >= 0 && hwloc_cpukinds_get_info(hw, (unsigned)idx, NULL, &eff, &ninfos, &infos, 0) == 0)
        for (j = 0; j < ninfos; j++)
          printf(", %s=%s", infos[j].name, infos[j].value);
    }
    putchar('\n');
  }
}

/* The options of htplaces topo (main.c's table: htplaces list options). */
const struct option htp_topo_longopts[] = {HTP_COMMON_LONGOPTS, {0}};

int htp_cmd_topo(struct htp_ctx *ctx, int argc, char **argv)
{
  omp_ext_topo_t *topo;
  hwloc_topology_t hw;
  char numbering[128], *allowed = NULL;
  int c, status = HTP_EXIT_OK;

  optind = 0;
  while ((c = getopt_long(argc, argv, ":" HTP_COMMON_SHORTOPTS, htp_topo_longopts, NULL)) != -1)
    htp_common_option(ctx, c, optarg, optopt, argv);
  if ((status = htp_no_format(ctx, "topo")) != 0)
    return status;
  if (optind < argc)
    return htp_error(HTP_EXIT_USAGE, "'topo' takes no argument, got '%s'", argv[optind]);
  if (!(topo = htp_topo(ctx, &status)))
    return status;
  hw = omp_ext_topo_hwloc(topo);
  sibling_numbering(topo, numbering, sizeof(numbering));
  if (hwloc_bitmap_list_asprintf(&allowed, omp_ext_topo_allowed(topo)) < 0)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  printf("topology:  %s\n", omp_ext_topo_source(topo));
  printf("packages:  %u%s\nNUMA nodes: %u\ncores:     %u\n", omp_ext_topo_npackages(topo),
         strcmp(htp_package_label(topo), "Package") != 0
           ? " (no Package object in the topology: the machine counts as one)" : "",
         omp_ext_topo_nnuma(topo), omp_ext_topo_ncores(topo));
  printf("PUs:       %u allowed of %d in the topology (%d incl. offline or disallowed)\n",
         omp_ext_topo_npus(topo), hwloc_bitmap_weight(hwloc_topology_get_topology_cpuset(hw)),
         hwloc_bitmap_weight(hwloc_topology_get_complete_cpuset(hw)));
  printf("SMT:       up to %u PUs per core\n", omp_ext_topo_max_smt(topo));
  printf("siblings:  %s\n", numbering);
  printf("CPU kinds: %u\n", omp_ext_topo_nkinds(topo));
  print_kinds(topo);
  printf("allowed:   %s\n", allowed);
  free(allowed);
  return fflush(stdout) == 0 ? HTP_EXIT_OK : htp_error(HTP_EXIT_FAIL, "cannot write output");
}
