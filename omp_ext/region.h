/*
 * Private: per-region control (region.c) -- a team size and a place list
 * chosen for each outermost parallel region, by a plan (OMP_EXT_PLAN, what
 * `htplaces exec --plan` writes: plan.c) or by the online tuner
 * (OMP_EXT_HT_POLICY=auto: auto.c).  The hooks (hooks.c) ask before each
 * outermost region (omp_ext_region_pick), bind each thread of the team as
 * it starts its part (omp_ext_region_bind), and report the end
 * (omp_ext_region_done).
 */
#ifndef OMP_EXT_REGION_H
#define OMP_EXT_REGION_H

#include <stdint.h>
#include <stdio.h>

#include <hwloc.h>

#include "omp_ext.h"
#include "runtime.h"

/* A configuration: a team size and where thread t runs. */
struct omp_ext_rcfg {
  unsigned threads;      /* team size; 0: the program's */
  unsigned nplaces;      /* 0: unbound (every allowed PU) */
  unsigned *place_id;    /* place_id[t % nplaces]: an interned place (region.c) */
  char label[48];        /* "spn:2", "plan:3", "default" */
};

/* What the hooks do with one instance of a region. */
struct omp_ext_rpick {
  const struct omp_ext_rcfg *cfg; /* NULL: leave the region to the global policy */
  unsigned threads;               /* team size to ask for; 0: the program's */
  void *region;                   /* region.c's state of the region (NULL: none) */
  int64_t t0;                     /* measured instance: start (ns), else 0 */
  int cand;                       /* auto: the candidate run */
  int switched;                   /* auto: its team size differs from the previous region's */
};

/* Non-zero while a plan or auto is on (atomic; the hooks' one test). */
extern int omp_ext_region_mode OMP_EXT_HIDDEN;

/* Before an outermost region at code address \p ra (the return address of
 * the runtime call: OMPT's codeptr_ra), \p clause its num_threads clause
 * (0: none; a clause keeps the user's count): fills \p p. */
OMP_EXT_HIDDEN void omp_ext_region_pick(const void *ra, unsigned clause, struct omp_ext_rpick *p);
/* After its join (in the same thread). */
OMP_EXT_HIDDEN void omp_ext_region_done(struct omp_ext_rpick *p);
/* In thread \p index of the team: bind it to its place of \p cfg (unless it
 * is there).  0: bound; 1: bound, but the runtime may re-pin it (bind
 * again next time); an omp_ext_err_* code. */
OMP_EXT_HIDDEN int omp_ext_region_bind(const struct omp_ext_rcfg *cfg, unsigned index);
/* The calling thread was bound by the global policy (bind.c): its place is
 * no longer one of region.c's. */
OMP_EXT_HIDDEN void omp_ext_region_forget(void);
/* A configuration of \p threads threads on places \p sets[0 .. n-1] (n 0:
 * unbound), labelled \p label; places outside the allowed PUs are cut to
 * them.  NULL on error (no memory, a place with no allowed PU). */
OMP_EXT_HIDDEN struct omp_ext_rcfg *omp_ext_rcfg_new(unsigned threads, hwloc_const_bitmap_t *sets,
                                                    unsigned n, const char *label);
/* The JSON object of what per-region control did at \p at (timing file),
 * ", \"control\": {...}", or nothing. */
OMP_EXT_HIDDEN void omp_ext_region_write_json(FILE *f, const void *at);

/* omp_set_ht_policy(omp_ht_policy_auto): auto from the next region on
 * (0; an omp_ext_err_* code: the topology); any other policy: per-region
 * control off. */
OMP_EXT_HIDDEN int omp_ext_region_auto_start(void);
OMP_EXT_HIDDEN void omp_ext_region_stop(void);

/* bind.c: this machine's topology for binding (loaded once), and binding
 * the calling thread to \p set (kmp_set_affinity or hwloc). */
OMP_EXT_HIDDEN int omp_ext_bind_topology(const omp_ext_topo_t **topo);
OMP_EXT_HIDDEN int omp_ext_bind_set(hwloc_const_bitmap_t set);
/* Does the runtime re-pin threads at each fork (OMP_PROC_BIND, OMP_PLACES,
 * KMP_AFFINITY, GOMP_CPU_AFFINITY in the environment)?  Then every region
 * binds again. */
OMP_EXT_HIDDEN int omp_ext_bind_always(void);
/* The calling thread was bound by region.c: bind.c's record is stale. */
OMP_EXT_HIDDEN void omp_ext_bind_forget(void);

#endif /* OMP_EXT_REGION_H */
