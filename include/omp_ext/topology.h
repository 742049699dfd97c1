/*
 * omp_ext/topology.h -- Topology.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_TOPOLOGY_H
#define OMP_EXT_TOPOLOGY_H

#include <hwloc.h>

#include "omp_ext/export.h"
#include "omp_ext/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup topology Topology                                              */
/* ------------------------------------------------------------------------ */

/** A loaded topology: hwloc's, plus the table of allowed PUs and cores. */
typedef struct omp_ext_topo omp_ext_topo_t;

/** One allowed PU (hardware thread) and where it sits. */
typedef struct omp_ext_pu {
  unsigned os_index;      /**< OS index: what OMP_PLACES, taskset and the kernel use */
  unsigned logical_index; /**< hwloc logical index of the PU */
  unsigned core;          /**< its core's position among all cores (a PU without a core
                               counts as one) in hwloc's depth-first order: hwloc's core
                               logical index when all cores sit at one depth */
  unsigned core_os_index; /**< OS index of its core (may repeat across packages) */
  unsigned package;       /**< hwloc logical index of its package; 0 if none */
  int numa;               /**< OS index of its first local NUMA node; -1 if none */
  unsigned sibling;       /**< rank among the allowed PUs of its core: 0 = first */
  unsigned kind;          /**< CPU-kind rank over the machine's kinds: 0 = most
                               performant (highest hwloc efficiency; where hwloc
                               gives none, the kind hwloc lists last, as hwloc
                               lists kinds by increasing efficiency); a
                               restricted set may lack some ranks */
} omp_ext_pu_t;

/** Most PUs a topology may have (omp_ext_topo_load() refuses more, before
 *  hwloc builds a synthetic one in memory: "pack:1000 core:1000 pu:1000"
 *  would take minutes and gigabytes). */
#define OMP_EXT_TOPO_MAX_PUS 65536

/** Flags of omp_ext_topo_load(). */
enum omp_ext_topo_flags_e {
  /** For this machine: do not intersect with the process's CPU binding
   *  (sched_getaffinity); only the OS-allowed set (cgroup, online) counts. */
  omp_ext_topo_ignore_binding = 1UL << 0
};

/**
 * Load a topology.
 *
 * \param topo   receives the new topology; release with omp_ext_topo_destroy().
 * \param input  NULL (or "") for this machine; otherwise the hwloc tools'
 *               convention (lstopo -i): the path of a readable hwloc XML file,
 *               else an hwloc synthetic string such as
 *               "pack:2 core:4 pu:2(indexes=core:pack)".
 * \param flags  0 or omp_ext_topo_ignore_binding.
 *
 * The allowed PUs are hwloc's allowed cpuset (cgroups, offline CPUs removed:
 * hwloc_topology_get_allowed_cpuset()) and, for this machine, the process's
 * binding (hwloc_get_cpubind(HWLOC_CPUBIND_PROCESS), i.e. taskset).
 *
 * \return 0; omp_ext_err_invalid (topo NULL or unknown flag);
 *         omp_ext_err_topology (unreadable or invalid input; errno-free);
 *         omp_ext_err_too_large (more than OMP_EXT_TOPO_MAX_PUS PUs: a
 *         synthetic string, also in HWLOC_SYNTHETIC, is refused before it
 *         is built, an XML file after it is read);
 *         omp_ext_err_empty (no allowed PU); omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_topo_load(omp_ext_topo_t **topo, const char *input, unsigned long flags);

/** Release a topology from omp_ext_topo_load(); NULL is ignored. */
OMP_EXT_API void omp_ext_topo_destroy(omp_ext_topo_t *topo);

/**
 * Keep only the PUs of \p set among the allowed ones (like hwloc's
 * --restrict); the tables are rebuilt.
 *
 * \param set  a cpuset of OS indexes.
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_empty (no allowed PU
 *         left; the topology is then unchanged); omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_topo_restrict(omp_ext_topo_t *topo, hwloc_const_cpuset_t set);

/** The hwloc topology inside (owned by \p topo; do not destroy it). */
OMP_EXT_API hwloc_topology_t omp_ext_topo_hwloc(const omp_ext_topo_t *topo);

/** The allowed PUs, as a cpuset of OS indexes (owned by \p topo). */
OMP_EXT_API hwloc_const_cpuset_t omp_ext_topo_allowed(const omp_ext_topo_t *topo);

/** Where the topology came from: "this machine", the XML path or the
 * string; without input while hwloc's environment replaces this machine,
 * "NAME=value (hwloc's environment: not this machine)" with NAME the first
 * of HWLOC_FSROOT, HWLOC_SYNTHETIC, HWLOC_XMLFILE that is set. */
OMP_EXT_API const char *omp_ext_topo_source(const omp_ext_topo_t *topo);

/** Non-zero when the topology is this machine's (binding is meaningful). */
OMP_EXT_API int omp_ext_topo_is_thissystem(const omp_ext_topo_t *topo);

/** Number of allowed PUs (>= 1). */
OMP_EXT_API unsigned omp_ext_topo_npus(const omp_ext_topo_t *topo);

/** Number of cores with at least one allowed PU (>= 1). */
OMP_EXT_API unsigned omp_ext_topo_ncores(const omp_ext_topo_t *topo);

/** Number of packages with at least one allowed PU (>= 1). */
OMP_EXT_API unsigned omp_ext_topo_npackages(const omp_ext_topo_t *topo);

/** Number of NUMA nodes whose CPUs include an allowed PU (0 if none known);
 *  memory-only nodes sharing CPUs, such as a KNL's MCDRAM, count. */
OMP_EXT_API unsigned omp_ext_topo_nnuma(const omp_ext_topo_t *topo);

/** Number of CPU kinds among the allowed PUs (1 on homogeneous machines). */
OMP_EXT_API unsigned omp_ext_topo_nkinds(const omp_ext_topo_t *topo);

/** Largest number of allowed PUs on one core (1 without SMT). */
OMP_EXT_API unsigned omp_ext_topo_max_smt(const omp_ext_topo_t *topo);

/**
 * The i-th allowed PU in hwloc's topology (logical) order.
 * \return a pointer owned by \p topo, or NULL if i >= omp_ext_topo_npus().
 */
OMP_EXT_API const omp_ext_pu_t *omp_ext_topo_pu(const omp_ext_topo_t *topo, unsigned i);

/**
 * The allowed PU with OS index \p os_index.
 * \return a pointer owned by \p topo, or NULL if that PU is not allowed.
 */
OMP_EXT_API const omp_ext_pu_t *omp_ext_topo_pu_by_os(const omp_ext_topo_t *topo, unsigned os_index);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_TOPOLOGY_H */
