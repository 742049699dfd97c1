/*
 * Private to per-region control: a region's state (region.c), the team a
 * region may get (the contract), the candidate configurations of a team
 * (auto_cands.c), and what the plan (plan.c), the online tuner (auto.c)
 * and its learnt state (learn.c) provide to region.c.
 */
#ifndef OMP_EXT_REGION_INT_H
#define OMP_EXT_REGION_INT_H

#include <stdio.h>

#include "private/plan_int.h"
#include "private/region_config.h"

struct omp_ext_auto;

/* The team a region may get (region.c, at each instance).  OpenMP 5.2
 * §10.1.1: with dyn-var false a region without a num_threads clause gets
 * nthreads-var threads, and programs rely on it; so per-region control
 * changes only places, unless dyn-var is true or the user opted in
 * (auto:threads, a plan with "team free"), and then only to fewer threads
 * than nthreads-var.  A num_threads clause is always kept. */
struct omp_ext_team {
  unsigned n;  /* the region's team when kept: its clause, else nthreads-var */
  int free;    /* per-region control may give it 1 .. n threads */
};

/* One outermost region (code address). */
#define OMP_EXT_REGION_NFIXED 4
struct omp_ext_region {
  const void *ra;
  char module[256];             /* file name of the object holding ra */
  unsigned long offset;         /* ra in that object's own terms */
  struct {
    struct omp_ext_team team;
    const struct omp_ext_rcfg *cfg;
  } fixed[OMP_EXT_REGION_NFIXED]; /* the plan's configuration per team */
  unsigned nfixed;                /* atomic: published after fixed[] */
  const struct omp_ext_rcfg *applied; /* the configuration the last instance ran (atomic) */
  int applied_free;               /* its team could change (atomic) */
  struct omp_ext_auto *au;      /* auto's state, or NULL */
  unsigned long instances;      /* atomic */
};

/* auto_cands.c: the candidates of a team (see there).  c[0] is the base. */
#define OMP_EXT_AUTO_BUCKETS 40
struct omp_ext_cands {
  unsigned team;
  int free, energy;
  unsigned n;
  struct omp_ext_rcfg *c[OMP_EXT_PLAN_MAXC];
  double power[OMP_EXT_PLAN_MAXC]; /* modelled watts */
  /* What similar regions learnt (auto.c's peers): per bucket of region
   * length and candidate, how many dropped it in their first round and
   * how many kept it (atomic, no lock). */
  unsigned peer_drop[OMP_EXT_AUTO_BUCKETS][OMP_EXT_PLAN_MAXC];
  unsigned peer_keep[OMP_EXT_AUTO_BUCKETS][OMP_EXT_PLAN_MAXC];
};
/* The candidates of a team of \p team threads (\p free: smaller teams
 * too), for the time or \p energy objective; NULL: none (no topology, no
 * memory, too many sets). */
OMP_EXT_HIDDEN const struct omp_ext_cands *omp_ext_cands_get(unsigned team, int free_,
                                                             int energy);
/* The index of the candidate labelled \p label, or -1. */
OMP_EXT_HIDDEN int omp_ext_cands_find(const struct omp_ext_cands *s, const char *label);

/* team_size.c: has the program called omp_get_max_threads() (it may cut
 * its work by nthreads-var: no region's team changes, even where the
 * contract would allow it)? */
OMP_EXT_HIDDEN int omp_ext_team_size_asked(void);

/* plan.c: the plan of OMP_EXT_PLAN=VALUE, read and checked at the first
 * region (0; else one line on stderr, -1: per-region control off). */
OMP_EXT_HIDDEN int omp_ext_plan_load(const char *value);
OMP_EXT_HIDDEN int omp_ext_plan_on(void);
/* Does the plan let team sizes change ("team free")? */
OMP_EXT_HIDDEN int omp_ext_plan_team_free(void);
/* The configuration for the region at \p offset in \p module (file name)
 * and team \p team: its best line for that team, else the plan's default
 * if it fits, else the base placement; NULL: none (left alone). */
OMP_EXT_HIDDEN const struct omp_ext_rcfg *omp_ext_plan_config(const char *module,
                                                             unsigned long offset,
                                                             const struct omp_ext_team *team);

/* auto.c: the objective and options of OMP_EXT_HT_POLICY=auto... (0; -1:
 * invalid, said by bind.c's constructor). */
OMP_EXT_HIDDEN int omp_ext_auto_init(const char *value);
OMP_EXT_HIDDEN int omp_ext_auto_on(void);
/* auto:threads: team sizes may change (up to nthreads-var). */
OMP_EXT_HIDDEN int omp_ext_auto_threads(void);
/* The value auto runs under ("auto:energy:threads"), for learnt states. */
OMP_EXT_HIDDEN const char *omp_ext_auto_value_now(void);
/* omp_set_ht_policy(omp_ht_policy_auto): auto:time for regions seen from now. */
OMP_EXT_HIDDEN void omp_ext_auto_enable(void);
/* The most learnt states a region keeps, one per team size it ran with. */
#define OMP_EXT_LEARN_TEAMS 4
/* A region's state; \p lines: its \p n lines of the learnt state (one per
 * team: the one of the team it runs is restored). */
OMP_EXT_HIDDEN struct omp_ext_auto *omp_ext_auto_new(const struct omp_ext_plan_line *const *lines,
                                                     unsigned n);
OMP_EXT_HIDDEN void omp_ext_auto_pick(struct omp_ext_auto *a, const struct omp_ext_team *team,
                                      struct omp_ext_rpick *p);
OMP_EXT_HIDDEN void omp_ext_auto_done(struct omp_ext_auto *a, struct omp_ext_rpick *p);
OMP_EXT_HIDDEN void omp_ext_auto_write_json(FILE *f, const struct omp_ext_auto *a);
/* The region's learnt state as a plan line's THREADS PLACES LABEL
 * KEY=VALUE... (after "region MODULE OFFSET "), with a newline; 0, or -1
 * when there is nothing to keep (no instance ran under auto). */
OMP_EXT_HIDDEN int omp_ext_auto_write_state(FILE *f, const struct omp_ext_auto *a);

/* region.c's regions, each passed to \p fn (learn.c, at exit). */
typedef void (*omp_ext_region_fn)(const struct omp_ext_region *r, void *arg);
typedef void (*omp_ext_region_each_fn)(omp_ext_region_fn fn, void *arg);
/* learn.c: OMP_EXT_LEARN=DIR (auto's state kept across runs), at the first
 * region: the state of this program, read and checked; saved at exit,
 * from the regions that \p each (region.c's table, passed down: learn.c
 * sits below region.c) walks. */
OMP_EXT_HIDDEN void omp_ext_learn_init(const char *dir, omp_ext_region_each_fn each);
/* The learnt lines of the region at \p offset in \p module (one per team
 * it ran with) into \p out (OMP_EXT_LEARN_TEAMS at most): their number. */
OMP_EXT_HIDDEN unsigned omp_ext_learn_lines(const char *module, unsigned long offset,
                                            const struct omp_ext_plan_line **out);

#endif /* OMP_EXT_REGION_INT_H */
