/*
 * Private declarations shared by the omp_ext library sources.
 */
#ifndef OMP_EXT_INTERNAL_H
#define OMP_EXT_INTERNAL_H

#include "omp_ext.h"
#include "private/tools.h"
#include "private/util.h"

/** A core with at least one allowed PU: a slice of the PU table. */
struct omp_ext_core {
  unsigned first;   /**< index of its first PU in topo->pus */
  unsigned npus;    /**< number of its allowed PUs (consecutive in topo->pus) */
  unsigned package; /**< package logical index */
  int numa;         /**< first local NUMA node's OS index, -1 if none */
  unsigned kind;    /**< CPU-kind rank, 0 = most performant */
};

struct omp_ext_topo {
  hwloc_topology_t hw;
  hwloc_bitmap_t allowed;     /**< allowed PUs (OS indexes) */
  char *source;               /**< "this machine", XML path or synthetic string */
  int thissystem;
  omp_ext_pu_t *pus;          /**< allowed PUs in hwloc logical order */
  unsigned npus;
  struct omp_ext_core *cores; /**< cores in hwloc logical order */
  unsigned ncores;
  unsigned npackages, nnuma, nkinds, max_smt;
};

/* sysfs.c: write a reason into why[len] (nothing if why is NULL). */
void omp_ext_say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The energy-source adapter of a reader (omp_ext_energy_source_t): defines
 * NAME(TYPE *reader), whose source's read() calls READ(reader, joules) and
 * whose clock is CLOCK_MONOTONIC.  One for RAPL (calibrate.c), one for perf
 * (perf_energy.c). */
#define OMP_EXT_ENERGY_SOURCE(name, type, read)                                  \
  static int name##_read(void *reader, double *joules)                           \
  {                                                                              \
    return read((type *)reader, joules);                                         \
  }                                                                              \
  omp_ext_energy_source_t name(type *reader)                                     \
  {                                                                              \
    omp_ext_energy_source_t src = {name##_read, NULL, reader};                   \
    return src;                                                                  \
  }

/* sysfs.c: the first line of DIR/FILE into buf[len], newline removed; -1
 * with errno set if unreadable or empty (ENODATA). */
int omp_ext_read_line(const char *dir, const char *file, char *buf, size_t len);

/* sysfs.c: the lowest CPU of set whose sysfs lists a cache
 * (/sys/devices/system/cpu/cpuN/cache/index0/level readable, as libgomp
 * reads it), -1 if none or if that CPU's last-level cache has no
 * shared_cpu_list (libgomp then places no CPU). */
int omp_ext_sysfs_cache_cpu(hwloc_const_bitmap_t set);

/* rank.c: the value of variable \p name in envp ("NAME=VALUE" strings
 * ending with NULL; NULL: the process's environment), NULL if unset. */
const char *omp_ext_env_get(char *const *envp, const char *name);

/* topology.c: omp_ext_topo_load(), and with \p lean nonzero a topology for
 * binding only: without caches (no ll_caches places), NUMA distances or
 * memory attributes, cheaper to discover in a program's start.  \p xml
 * (without input): this machine as hwloc XML, handed over by htplaces exec
 * (its stamp checked: omp_ext_handoff_usable()), imported as this system
 * with the allowed PUs of this process; NULL: discovery. */
int omp_ext_topo_load_as(omp_ext_topo_t **topo, const char *input, const char *xml,
                         unsigned long flags, int lean);

/* order.c: the first n PUs of a base policy's order, from its rule;
 * omp_ext_err_policy for a meta-policy or a value that is no policy,
 * omp_ext_err_range (n 0 or above the allowed PUs), omp_ext_err_nomem.
 * topo and out are not NULL. */
int omp_ext_base_order(const omp_ext_topo_t *topo, omp_ht_policy_t base, unsigned n,
                       omp_ext_pu_t *out);

/* model.c: omp_ext_model_best() and omp_ext_model_bound() over base
 * policies only (meta-policies give omp_ext_err_policy); best's *index is
 * the position of the choice in bases.  policy.c resolves meta-policies. */
int omp_ext_model_best_base(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                            const omp_ht_policy_t *bases, unsigned nbases,
                            omp_ext_objective_t objective, unsigned *index, unsigned *n,
                            omp_ext_estimate_t *est);
int omp_ext_model_bound_base(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                             omp_ht_policy_t base, unsigned *n);
/* omp_ext_places_parse() where a CPU number above max_cpu is an error whose
 * message is OMP_EXT_PARSE_CAPPED (predict.c: libgomp's CPU-set size, found
 * before any budget is spent on the numbers beyond it). */
#define OMP_EXT_PARSE_CAPPED "a CPU number beyond the runtime's CPU set"
int omp_ext_places_parse_capped(const omp_ext_topo_t *topo, const char *text,
                                omp_ext_syntax_t syntax, unsigned long max_cpu,
                                omp_ext_placelist_t **list, omp_ext_parse_error_t *err);

#endif /* OMP_EXT_INTERNAL_H */
