/*
 * Private: what the timing layer's files share.  timing_inline.h is the
 * per-region path, inline in the hooks; timing.c the state (the regions and
 * their index, under its lock), the hooks' slow path, the binding records
 * and the named measurements; timing_stats.c a region's statistics (its
 * parts merged); timing_file.c the file OMP_EXT_TIMING names (its JSON
 * object, written whole).  Both of the latter are given the regions by
 * timing.c, which holds its lock around the calls.
 */
#ifndef OMP_EXT_TIMING_INT_H
#define OMP_EXT_TIMING_INT_H

#include <sched.h>
#include <sys/types.h>

#include "omp_ext.h"
#include "private/timing_inline.h"

#define OMP_EXT_TIMING_MAXSIZES 16 /* team sizes noted, bindings recorded, per region */

/* One thread of a recorded team. */
struct tbind {
  pid_t tid;       /* 0: the thread did not report (a smaller team) */
  int pu;          /* sched_getcpu() as it started its part; -1 unknown */
  int have_cpus;   /* cpus read */
  cpu_set_t cpus;  /* its affinity mask after the join */
};

/* The binding of the first instance of one (region, team size). */
struct bindrec {
  unsigned team;
  struct tbind *th; /* th[0 .. team-1] */
};


struct omp_ext_timing_region {
  const void *key; /* the construct (code address); NULL for a named measurement */
  const void *at;  /* where it starts (the address its name comes from): a
                    * construct started from two places (a function holding
                    * it inlined twice) is two regions, as per-region control
                    * (region.c) sees them */
  char *name;      /* named measurement's name */
  struct omp_ext_timing_part own;      /* a named measurement's instances */
  struct omp_ext_timing_part *parts;   /* a parallel region's: per root thread and team size */
  double start;
  unsigned sizes[OMP_EXT_TIMING_MAXSIZES], nsizes;
  struct bindrec binds[OMP_EXT_TIMING_MAXSIZES];
  unsigned nbinds;
};

/* timing_stats.c: statistics of \p r, its parts merged, in seconds
 * (\p tick_s per unit of a parallel region's parts); *\p nsamples (unless
 * NULL) the samples the median comes from.  timing.c's lock held; writers
 * of parts may run on: what they add after the snapshot of their n is not
 * counted. */
OMP_EXT_HIDDEN void omp_ext_timing_region_stats(const struct omp_ext_timing_region *r,
                                                omp_ext_timer_stats_t *s, double tick_s,
                                                size_t *nsamples);

/* timing_file.c: write the file \p pattern names (each "%p" the process
 * ID) for regions[0 .. n-1]: the program loaded at \p t_load (seconds of
 * CLOCK_MONOTONIC), ran \p wall_s seconds, \p tick_s seconds per tick.
 * A failure is one line on stderr.  timing.c's lock held (the team sizes
 * are sorted in place). */
OMP_EXT_HIDDEN void omp_ext_timing_write_file(const char *pattern,
                                              struct omp_ext_timing_region *regions, size_t n,
                                              double t_load, double wall_s, double tick_s);

#endif /* OMP_EXT_TIMING_INT_H */
