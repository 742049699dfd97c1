/*
 * omp_ext/rank.h -- MPI ranks: one domain of the node per rank.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_RANK_H
#define OMP_EXT_RANK_H

#include <hwloc.h>

#include "omp_ext/export.h"
#include "omp_ext/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup ranks MPI ranks: one domain of the node per rank               */
/* ------------------------------------------------------------------------ */

/**
 * Domain \p r of \p k: the allowed PUs cut into k disjoint domains of whole
 * cores, one per MPI rank on the node (hybrid MPI + OpenMP).
 *
 * The allowed cores, in hwloc logical order, are cut into k consecutive
 * ranges of floor(C/k) or ceil(C/k) cores each (C = omp_ext_topo_ncores()):
 * balanced to within one core, always.  Among such cuttings the one whose
 * cuts fall on the most package boundaries is taken, then the most NUMA-node
 * boundaries, then CPU-kind boundaries.  So where the packages (NUMA nodes)
 * have equal core counts and k is a multiple or a divisor of their number,
 * every domain lies in one package (NUMA node) or is made of whole ones, as
 * hwloc_distrib() (hwloc/helper.h) would split them; where alignment would
 * break the balance (e.g. NUMA nodes of 4 and 2 allowed cores, k = 2), the
 * balance wins.  Domain 0 is the first in logical order; when the sizes
 * differ, lower ranks get the larger domains unless that would cost an
 * aligned cut.  Apply a policy inside a domain with omp_ext_topo_restrict()
 * then omp_ext_order().
 *
 * \param k    domains (ranks per node), 1 .. omp_ext_topo_ncores(topo).
 * \param r    the domain wanted (local rank), 0 .. k - 1.
 * \param out  receives the domain's PUs (OS indexes); allocated by the caller.
 * \return 0; omp_ext_err_invalid (NULL, k == 0 or r >= k);
 *         omp_ext_err_range (k above the allowed cores); omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_domain_split(const omp_ext_topo_t *topo, unsigned k, unsigned r, hwloc_cpuset_t out);

/** What omp_ext_rank_restrict() did with the rank. */
typedef enum omp_ext_rank_mode_t {
  omp_ext_rank_none = 0,  /**< no launcher variable: one process, whole allowed set */
  omp_ext_rank_split = 1, /**< restricted to the rank's domain (omp_ext_domain_split()) */
  omp_ext_rank_bound = 2  /**< the launcher bound the process already; its binding is used
                           *   as it is, not split again */
} omp_ext_rank_mode_t;

/** This process's local rank as the launcher's environment tells it. */
typedef struct omp_ext_rank {
  unsigned rank;          /**< local rank on this node, 0 .. size - 1 (0 without launcher) */
  unsigned size;          /**< ranks on this node, >= 1 (1 without launcher) */
  const char *launcher;   /**< "Open MPI", "MPICH/Intel MPI", "PMIx", "Slurm"; NULL if none */
  const char *rank_var;   /**< the variable the rank came from, or NULL */
  const char *size_var;   /**< the variable the size came from, or NULL */
  const char *bad_var;    /**< on error: the variable that is missing or wrong */
  omp_ext_rank_mode_t mode; /**< set by omp_ext_rank_restrict() */
} omp_ext_rank_t;

/**
 * The local rank and ranks per node from a launcher's environment.
 *
 * Checked in this order, the first launcher whose variables are present wins:
 *   Open MPI: OMPI_COMM_WORLD_LOCAL_RANK, OMPI_COMM_WORLD_LOCAL_SIZE;
 *   MPICH, Intel MPI (Hydra): MPI_LOCALRANKID, MPI_LOCALNRANKS;
 *   PMIx: PMIX_LOCAL_RANK, PMIX_LOCAL_SIZE;
 *   Slurm (srun tasks only: SLURM_STEP_ID or SLURM_STEP_TASKS_PER_NODE set;
 *   a batch script is one process): SLURM_LOCALID, and the size from
 *   SLURM_STEP_TASKS_PER_NODE, else SLURM_TASKS_PER_NODE, else
 *   SLURM_NTASKS_PER_NODE, each a list such as "4(x2),3" indexed by
 *   SLURM_NODEID (without SLURM_NODEID all entries must be equal).
 * Values are whole decimal numbers, digits only.
 *
 * \param envp  a NULL-terminated "NAME=VALUE" array, or NULL for the process
 *              environment (getenv()).
 * \param info  receives the result; all pointers in it are static strings.
 * \return 0 (info->launcher NULL when no launcher variable is set);
 *         omp_ext_err_invalid (info NULL);
 *         omp_ext_err_parse (a variable missing or not a number, or a Slurm
 *         list malformed or ambiguous: info->bad_var names it);
 *         omp_ext_err_range (size 0, rank >= size, SLURM_NODEID past the
 *         list: info->bad_var names the variable).
 */
OMP_EXT_API int omp_ext_rank_from_env(char *const *envp, omp_ext_rank_t *info);

/**
 * Restrict \p topo to this rank's share of the node: what htplaces, its exec
 * wrapper and the in-code API do under mpirun or srun.
 *
 * Reads the rank with omp_ext_rank_from_env(envp).  Without a launcher
 * nothing changes (info->mode omp_ext_rank_none).  If the process is already
 * bound (omp_ext_process_bound()), the topology, whose allowed PUs already
 * are that binding, is left as it is (omp_ext_rank_bound): several ranks bound
 * to the same set (mpirun --bind-to socket) then share it.  Otherwise the
 * topology is restricted to omp_ext_domain_split(topo, size, rank)
 * (omp_ext_rank_split).
 *
 * \return 0; the errors of omp_ext_rank_from_env() (info filled as there);
 *         omp_ext_err_range (more ranks than allowed cores);
 *         omp_ext_err_invalid (NULL); omp_ext_err_unsupported;
 *         omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_rank_restrict(omp_ext_topo_t *topo, char *const *envp, omp_ext_rank_t *info);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_RANK_H */
