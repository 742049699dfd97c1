/*
 * Scope: the topology a process, or an MPI rank, may use -- one call for
 * htplaces, the Slurm plugin and the binding topology (bind.c).  The steps,
 * in this order: load (this machine, an XML file, a synthetic string), keep
 * the PUs given (-r, a step's PUs, the affinity at load), keep a number of
 * PUs per core (the plugin's --ht-smt), then the rank's domain (domain.c).
 */
#include <stdlib.h>

#include "private/internal.h"

/* Keep at most \p cap allowed PUs of each core (cap 0: all). */
static int keep_smt(omp_ext_topo_t *topo, unsigned cap)
{
  hwloc_bitmap_t keep;
  unsigned i;
  int err;
  if (cap == 0 || cap >= topo->max_smt)
    return omp_ext_success;
  if (!(keep = hwloc_bitmap_alloc()))
    return omp_ext_err_nomem;
  for (i = 0; i < topo->npus; i++)
    if (topo->pus[i].sibling < cap)
      hwloc_bitmap_set(keep, topo->pus[i].os_index);
  err = omp_ext_topo_restrict(topo, keep);
  hwloc_bitmap_free(keep);
  return err;
}

int omp_ext_scope_load(struct omp_ext_scope *s, omp_ext_topo_t **topo,
                       omp_ext_scope_step_t *failed)
{
  omp_ext_scope_step_t step = omp_ext_scope_load_step;
  int err;
  if (!s || !topo) {
    err = omp_ext_err_invalid;
  } else if ((err = omp_ext_topo_load_as(topo, s->input, s->xml, s->flags, s->lean)) != 0) {
    *topo = NULL;
  } else {
    step = omp_ext_scope_within_step;
    if (s->within)
      err = omp_ext_topo_restrict(*topo, s->within);
    if (!err) {
      step = omp_ext_scope_smt_step;
      err = keep_smt(*topo, s->max_smt);
    }
    if (!err) {
      step = omp_ext_scope_rank_step;
      err = omp_ext_rank_apply(*topo, &s->rank, s->split);
    }
  }
  if (failed)
    *failed = step;
  return err;
}
