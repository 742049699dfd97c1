/*
 * Private declarations shared by the omp_ext library sources.
 */
#ifndef OMP_EXT_INTERNAL_H
#define OMP_EXT_INTERNAL_H

#include "omp_ext.h"

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

/* sysfs.c: the first line of DIR/FILE into buf[len], newline removed; -1
 * with errno set if unreadable or empty (ENODATA). */
int omp_ext_read_line(const char *dir, const char *file, char *buf, size_t len);

/* omp_ext_places_parse() where a CPU number above max_cpu is an error whose
 * message is OMP_EXT_PARSE_CAPPED (predict.c: libgomp's CPU-set size, found
 * before any budget is spent on the numbers beyond it). */
#define OMP_EXT_PARSE_CAPPED "a CPU number beyond the runtime's CPU set"
int omp_ext_places_parse_capped(const omp_ext_topo_t *topo, const char *text,
                                omp_ext_syntax_t syntax, unsigned long max_cpu,
                                omp_ext_placelist_t **list, omp_ext_parse_error_t *err);

#endif /* OMP_EXT_INTERNAL_H */
