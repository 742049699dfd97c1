/*
 * private/tools_plan.h -- plans as the tools read them (part of the tools
 * interface, private/tools.h): htplaces exec --plan and exec auto --learn
 * read a plan or a learnt state with the library's own reader, and ask
 * whether a learnt state amounts to one configuration.  Hidden in
 * libomp_ext.so (no ABI promise); the structures are plan_int.h's.
 */
#ifndef OMP_EXT_TOOLS_PLAN_H
#define OMP_EXT_TOOLS_PLAN_H

#include <stddef.h>

#include "omp_ext.h"

struct omp_ext_plan;

/* Read and check \p value (a path, opened only if it is a regular file of
 * at most OMP_EXT_PLAN_MAX_BYTES, never blocking; or the text itself)
 * against \p topo (NULL: the binding topology): 0 and *out, or an
 * omp_ext_err_* code and one line in why[len] ("'FILE' line N: FIELD
 * 'VALUE': what is wrong; what is allowed"). */
int omp_ext_plan_read(const char *value, const omp_ext_topo_t *topo, struct omp_ext_plan **out,
                      char *why, size_t len);
/* Release a plan of omp_ext_plan_read(); NULL is ignored. */
void omp_ext_plan_free(struct omp_ext_plan *p);

/* plan_ident.c: a plan's machine line of \p topo, "machine PUS CORES
 * PACKAGES SMT ALLOWED" (no newline), into buf[len]; 0, or -1 when it does
 * not fit. */
int omp_ext_machine_line(const omp_ext_topo_t *topo, char *buf, size_t len);

/* The build identity of the file \p path into id[len], as the library
 * finds it once the file is loaded (omp_ext_plan_build_id: "gnu:HEX", its
 * ELF build-id note, here read from the file; else "stat:SIZE:MTIME"):
 * 0, or -1 when unreadable. */
int omp_ext_plan_file_build_id(const char *path, char *id, size_t len);

/* Per-region control's win below which a plan or a learnt state is
 * applied as one configuration: a fraction of a run's time (plan_global.c;
 * htplaces exec --plan on tune's results). */
#define OMP_EXT_PLAN_GLOBAL_TIE 0.02

/* A plan's one configuration (plan_global.c): its THREADS (0: the
 * program's team) and places (NULL: unbound), pointing into the plan. */
struct omp_ext_plan_conf {
  unsigned threads;
  const omp_ext_placelist_t *places;
};

/* plan_global.c: does learnt state \p p, for team size \p team (0: the
 * one team all its lines must have; lines of other teams are ignored),
 * amount to one configuration?  Every line a settled region of one kept
 * team size, and the best of the regions' choices -- or the team unbound
 * ("none", a candidate of every region), when its samples say it is
 * cheaper -- for all of them costs at most OMP_EXT_PLAN_GLOBAL_TIE x the
 * run's time (the state's "run" line of that team, else its region time) more than
 * per-region control (by the samples' medians, weighted by instances):
 * 1, *conf that configuration, *cost its region time over per-region
 * control's; else 0. */
int omp_ext_plan_global(const struct omp_ext_plan *p, unsigned team, struct omp_ext_plan_conf *conf,
                        double *cost);

/* plan_global.c: does plan \p p amount to one configuration for team size
 * \p team (see omp_ext_plan_global)?  Its lines for that team (THREADS
 * \p team or 0; \p team 0: every line) all alike (the same THREADS and
 * places, no "team free", every learnt line settled), or a learnt
 * state for which omp_ext_plan_global says so: 1, *conf that
 * configuration; else 0. */
int omp_ext_plan_one(const struct omp_ext_plan *p, unsigned team, struct omp_ext_plan_conf *conf);

#endif /* OMP_EXT_TOOLS_PLAN_H */
