/*
 * Private: per-region control (region.c) -- a team size and a place list
 * chosen for each outermost parallel region, by a plan (OMP_EXT_PLAN, what
 * `htplaces exec --plan` writes: plan.c) or by the online tuner
 * (OMP_EXT_HT_POLICY=auto: auto.c).  The wrappers (trampoline.c) ask before
 * each outermost region (omp_ext_region_pick), bind each thread of the team
 * as it starts its part (omp_ext_region_bind: region_config.h), and report
 * the end (omp_ext_region_done).
 */
#ifndef OMP_EXT_REGION_H
#define OMP_EXT_REGION_H

#include <stdint.h>
#include <stdio.h>

#include <hwloc.h>

#include "omp_ext.h"
#include "private/region_config.h"
#include "private/runtime.h"

/* Non-zero while a plan or auto is on (atomic; the hooks' one test). */
extern int omp_ext_region_mode OMP_EXT_HIDDEN;

/* Before an outermost region at code address \p ra (the return address of
 * the runtime call: OMPT's codeptr_ra), \p clause its num_threads clause
 * (0: none; a clause keeps the user's count): fills \p p. */
OMP_EXT_HIDDEN void omp_ext_region_pick(const void *ra, unsigned clause, struct omp_ext_rpick *p);
/* After its join (in the same thread). */
OMP_EXT_HIDDEN void omp_ext_region_done(struct omp_ext_rpick *p);
/* The JSON object of what per-region control did at \p at (timing file),
 * ", \"control\": {...}", or nothing; registered with timing.c at load
 * (omp_ext_timing_set_control). */
OMP_EXT_HIDDEN void omp_ext_region_write_json(FILE *f, const void *at);

/* omp_set_ht_policy(omp_ht_policy_auto) (incode.c): auto from the next
 * region on (0; an omp_ext_err_* code: the topology); any other policy:
 * per-region control off. */
OMP_EXT_HIDDEN int omp_ext_region_auto_start(void);
OMP_EXT_HIDDEN void omp_ext_region_stop(void);

#endif /* OMP_EXT_REGION_H */
