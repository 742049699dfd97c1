/*
 * Private to per-region control: a region's state (region.c) and what the
 * plan (plan.c) and the online tuner (auto.c) provide to region.c.
 */
#ifndef OMP_EXT_REGION_INT_H
#define OMP_EXT_REGION_INT_H

#include <stdio.h>

#include "region_config.h"

struct omp_ext_auto;

/* One outermost region (code address). */
struct omp_ext_region {
  const void *ra;
  char module[256];             /* file name of the object holding ra */
  unsigned long offset;         /* ra in that object's own terms */
  const struct omp_ext_rcfg *fixed; /* the plan's configuration, or NULL */
  struct omp_ext_auto *au;      /* auto's state, or NULL */
  unsigned long instances;      /* atomic */
};

/* team_size.c: has the program called omp_get_max_threads() (it may cut
 * its work by nthreads-var: every region keeps the program's team size)? */
OMP_EXT_HIDDEN int omp_ext_team_size_asked(void);

/* plan.c: OMP_EXT_PLAN=FILE read (0; else one line on stderr, -1). */
OMP_EXT_HIDDEN int omp_ext_plan_init(const char *path);
OMP_EXT_HIDDEN int omp_ext_plan_on(void);
/* The configuration of the region at \p offset in \p module (file name),
 * else the plan's default; NULL: none (the region is left alone). */
OMP_EXT_HIDDEN const struct omp_ext_rcfg *omp_ext_plan_config(const char *module,
                                                             unsigned long offset);

/* auto.c: OMP_EXT_HT_POLICY=auto[:time|energy] (0; else a line, -1). */
OMP_EXT_HIDDEN int omp_ext_auto_init(const char *value);
OMP_EXT_HIDDEN int omp_ext_auto_on(void);
/* omp_set_ht_policy(omp_ht_policy_auto): auto:time for regions seen from now. */
OMP_EXT_HIDDEN void omp_ext_auto_enable(void);
OMP_EXT_HIDDEN struct omp_ext_auto *omp_ext_auto_new(void);
OMP_EXT_HIDDEN void omp_ext_auto_pick(struct omp_ext_auto *a, unsigned clause,
                                      struct omp_ext_rpick *p);
OMP_EXT_HIDDEN void omp_ext_auto_done(struct omp_ext_auto *a, struct omp_ext_rpick *p);
OMP_EXT_HIDDEN void omp_ext_auto_write_json(FILE *f, const struct omp_ext_auto *a);

#endif /* OMP_EXT_REGION_INT_H */
