/*
 * Private: per-region control's configurations (region_config.c) -- a team
 * size and the place of each thread -- and what the wrappers do with one
 * instance of a region.  Below region.c, the plan (plan.c) and the online
 * tuner (auto.c), which all make or read them; above the binding (bind.c).
 */
#ifndef OMP_EXT_REGION_CONFIG_H
#define OMP_EXT_REGION_CONFIG_H

#include <stdint.h>

#include <hwloc.h>

#include "private/runtime.h"

/* A configuration: a team size and where thread t runs. */
struct omp_ext_rcfg {
  unsigned threads;      /* team size; 0: the program's */
  unsigned nplaces;      /* 0: unbound (every allowed PU) */
  unsigned *place_id;    /* place_id[t % nplaces]: an interned place (region_config.c) */
  char label[48];        /* "spn:2", "none:2", "places:4" */
};

/* What the hooks do with one instance of a region. */
struct omp_ext_rpick {
  const struct omp_ext_rcfg *cfg; /* NULL: leave the region to the global policy */
  unsigned threads;               /* team size to ask for; 0: the program's */
  void *region;                   /* region.c's state of the region (NULL: none) */
  int64_t t0;                     /* measured instance: start (ns), else 0 */
  int cand;                       /* auto: the candidate run */
  int switched;                   /* auto: its team size or places differ from the previous
                                   * region's (the runtime resizes the team, threads rebind) */
};

/* In thread \p index of the team: bind it to its place of \p cfg (unless it
 * is there).  0: bound; 1: bound, but the runtime may re-pin it (bind
 * again next time); an omp_ext_err_* code. */
OMP_EXT_HIDDEN int omp_ext_region_bind(const struct omp_ext_rcfg *cfg, unsigned index);
/* A configuration of \p threads threads on places \p sets[0 .. n-1] (n 0:
 * unbound), labelled \p label; places outside the allowed PUs are cut to
 * them.  NULL on error (no memory, a place with no allowed PU). */
OMP_EXT_HIDDEN struct omp_ext_rcfg *omp_ext_rcfg_new(unsigned threads, hwloc_const_bitmap_t *sets,
                                                    unsigned n, const char *label);

/* OR the PUs of place \p i (0 .. nplaces-1) of \p cfg into \p set. */
OMP_EXT_HIDDEN void omp_ext_rcfg_place_or(const struct omp_ext_rcfg *cfg, unsigned i,
                                          hwloc_bitmap_t set);
/* The place list of \p cfg as OMP_PLACES text ("{0},{1}"; "-": unbound),
 * malloc'd; NULL without memory. */
OMP_EXT_HIDDEN char *omp_ext_rcfg_places_text(const struct omp_ext_rcfg *cfg);

#endif /* OMP_EXT_REGION_CONFIG_H */
