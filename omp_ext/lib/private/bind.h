/*
 * Private: binding threads on this machine (bind.c) -- the topology that
 * binding uses, the global policy's state and its binder (registered with
 * the hooks), and binding the calling thread to a place of per-region
 * control.  Below per-region control (region.c, region_config.c, auto.c)
 * and the policy setters (incode.c), which call it; it calls none of them.
 */
#ifndef OMP_EXT_BIND_H
#define OMP_EXT_BIND_H

#include <hwloc.h>

#include "omp_ext.h"
#include "private/runtime.h"

/* This machine's topology for binding (loaded once, as for a policy);
 * 0 or an omp_ext_err_* code (*topo NULL then). */
OMP_EXT_HIDDEN int omp_ext_bind_topology(const omp_ext_topo_t **topo);
/* Bind the calling thread to place \p id (region_config.c's number of
 * \p set, a subset of the allowed PUs) unless it is there: 0 (bound), 1
 * (bound, but the runtime may re-pin it at the next fork: bind again next
 * time), or an omp_ext_err_* code. */
OMP_EXT_HIDDEN int omp_ext_bind_place(unsigned id, hwloc_const_bitmap_t set);

/* For incode.c's setters: publish \p policy (a base or meta-policy: its
 * order computed, a new generation), 0 or an omp_ext_err_* code; note that
 * auto is on (omp_get_ht_policy()); bind the calling thread, number
 * \p index of a level-1 team, for the current policy (0 or an error). */
OMP_EXT_HIDDEN int omp_ext_bind_publish(omp_ht_policy_t policy);
OMP_EXT_HIDDEN void omp_ext_bind_set_auto(void);
OMP_EXT_HIDDEN int omp_ext_bind_self(unsigned index);

#endif /* OMP_EXT_BIND_H */
