/*
 * omp_ext -- SMT-aware placement of OpenMP threads.
 *
 * One public header, one prefix (omp_ext_, and the OpenMP-style omp_ht_ names
 * for the policy type and the in-code API).  The data path is
 *
 *     topology (hwloc)  ->  order (policy)  ->  places (text) / binding
 *
 * and each step lives in its own source file of the same name under omp_ext/.
 *
 * Source: Lin, Feng et al., "Study on Hyper Threading Scheduling towards
 * Power Efficiency of Computing", 2017 (below: "the paper").  OpenMP
 * references are to the OpenMP 5.2 specification.
 */
#ifndef OMP_EXT_H
#define OMP_EXT_H

#include <hwloc.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of omp_ext as a string, "MAJOR.MINOR.PATCH". */
#define OMP_EXT_VERSION "0.1.0"

/* ------------------------------------------------------------------------ */
/** \defgroup errors Error codes                                             */
/* ------------------------------------------------------------------------ */

/**
 * Return codes of every omp_ext function that returns int: 0 on success,
 * one of these negative values on failure.  omp_ext_strerror() gives a
 * one-line English explanation of each.
 */
typedef enum omp_ext_error_t {
  OMP_EXT_SUCCESS = 0,
  OMP_EXT_ERR_INVALID = -1,     /**< an argument is NULL or out of its domain */
  OMP_EXT_ERR_NOMEM = -2,       /**< memory allocation failed */
  OMP_EXT_ERR_TOPOLOGY = -3,    /**< the topology could not be read or is invalid */
  OMP_EXT_ERR_RANGE = -4,       /**< a count (N) is 0 or above the allowed PUs */
  OMP_EXT_ERR_EMPTY = -5,       /**< no PU is allowed (empty cpuset) */
  OMP_EXT_ERR_POLICY = -6,      /**< unknown placement policy */
  OMP_EXT_ERR_FORMAT = -7,      /**< unknown output format */
  OMP_EXT_ERR_IN_PARALLEL = -8, /**< called inside an active parallel region */
  OMP_EXT_ERR_BIND = -9,        /**< the OS refused a binding */
  OMP_EXT_ERR_RUNTIME = -10,    /**< no usable OpenMP runtime was found */
  OMP_EXT_ERR_PARSE = -11,      /**< text could not be parsed */
  OMP_EXT_ERR_UNSUPPORTED = -12 /**< not supported on this system */
} omp_ext_error_t;

/**
 * One-line explanation of an omp_ext return code.
 *
 * \param err  a value of omp_ext_error_t (0 or negative).
 * \return     a static string, never NULL; "unknown error" for other values.
 */
const char *omp_ext_strerror(int err);

/* ------------------------------------------------------------------------ */
/** \defgroup policy Placement policies                                      */
/* ------------------------------------------------------------------------ */

/**
 * The order in which PUs (hardware threads) go to OpenMP threads 0, 1, 2...
 * Named in the style of OpenMP's omp_proc_bind_t (OpenMP 5.2 §18.8.1).
 *
 * Cores are always ordered first by CPU kind (hwloc cpukinds, most
 * performant kind first: highest hwloc efficiency), then in hwloc's logical
 * order (package after package).  SMT siblings always come from hwloc core
 * objects, never from OS index arithmetic.
 */
typedef enum omp_ht_policy_t {
  /** Ascending OS index: the baseline an unbound program sees. */
  omp_ht_policy_os = 0,
  /** Paper strategy 1 ("full-resource units first", best speed-up): the first
   *  PU of every core, packages one after another, then the second PU of each
   *  core in the same core order, and so on. */
  omp_ht_policy_speedup = 1,
  /** Paper strategy 2 (best SPN, speed-up per watt per physical core, paper
   *  §2.2): every PU of a core before the next core, cores in package order. */
  omp_ht_policy_spn = 2,
  /** First PU of each core, round-robin across packages and, inside a
   *  package, across NUMA nodes; then the siblings in the same way.  For
   *  memory-bandwidth-bound loops. */
  omp_ht_policy_spread = 3
} omp_ht_policy_t;

/** Number of policies: valid values are 0 .. OMP_EXT_NPOLICIES - 1. */
#define OMP_EXT_NPOLICIES 4

/**
 * Policy from its name ("os", "speedup", "spn", "spread"; case-sensitive).
 *
 * \param name    the name, NUL-terminated.
 * \param policy  receives the policy on success.
 * \return 0, OMP_EXT_ERR_INVALID if an argument is NULL, OMP_EXT_ERR_POLICY if
 *         the name is unknown.
 */
int omp_ext_policy_from_name(const char *name, omp_ht_policy_t *policy);

/** Name of a policy ("spn"...), or NULL for a value that is not a policy. */
const char *omp_ext_policy_name(omp_ht_policy_t policy);

/** One-line description of a policy, or NULL for a value that is not one. */
const char *omp_ext_policy_description(omp_ht_policy_t policy);

/* ------------------------------------------------------------------------ */
/** \defgroup topology Topology                                              */
/* ------------------------------------------------------------------------ */

/** A loaded topology: hwloc's, plus the table of allowed PUs and cores. */
typedef struct omp_ext_topo omp_ext_topo_t;

/** One allowed PU (hardware thread) and where it sits. */
typedef struct omp_ext_pu {
  unsigned os_index;      /**< OS index: what OMP_PLACES, taskset and the kernel use */
  unsigned logical_index; /**< hwloc logical index of the PU */
  unsigned core;          /**< hwloc logical index of its core (of the PU if no core level) */
  unsigned core_os_index; /**< OS index of its core (may repeat across packages) */
  unsigned package;       /**< hwloc logical index of its package; 0 if none */
  int numa;               /**< OS index of its first local NUMA node; -1 if none */
  unsigned sibling;       /**< rank among the allowed PUs of its core: 0 = first */
  unsigned kind;          /**< CPU-kind rank: 0 = most performant kind */
} omp_ext_pu_t;

/** Flags of omp_ext_topo_load(). */
enum omp_ext_topo_flags_e {
  /** For this machine: do not intersect with the process's CPU binding
   *  (sched_getaffinity); only the OS-allowed set (cgroup, online) counts. */
  OMP_EXT_TOPO_IGNORE_BINDING = 1UL << 0
};

/**
 * Load a topology.
 *
 * \param topo   receives the new topology; release with omp_ext_topo_destroy().
 * \param input  NULL (or "") for this machine; otherwise the hwloc tools'
 *               convention (lstopo -i): the path of a readable hwloc XML file,
 *               else an hwloc synthetic string such as
 *               "pack:2 core:4 pu:2(indexes=core:pack)".
 * \param flags  0 or OMP_EXT_TOPO_IGNORE_BINDING.
 *
 * The allowed PUs are hwloc's allowed cpuset (cgroups, offline CPUs removed:
 * hwloc_topology_get_allowed_cpuset()) and, for this machine, the process's
 * binding (hwloc_get_cpubind(HWLOC_CPUBIND_PROCESS), i.e. taskset).
 *
 * \return 0; OMP_EXT_ERR_INVALID (topo NULL or unknown flag);
 *         OMP_EXT_ERR_TOPOLOGY (unreadable or invalid input; errno-free);
 *         OMP_EXT_ERR_EMPTY (no allowed PU); OMP_EXT_ERR_NOMEM.
 */
int omp_ext_topo_load(omp_ext_topo_t **topo, const char *input, unsigned long flags);

/** Release a topology from omp_ext_topo_load(); NULL is ignored. */
void omp_ext_topo_destroy(omp_ext_topo_t *topo);

/**
 * Keep only the PUs of \p set among the allowed ones (like hwloc's
 * --restrict); the tables are rebuilt.
 *
 * \param set  a cpuset of OS indexes.
 * \return 0; OMP_EXT_ERR_INVALID (NULL); OMP_EXT_ERR_EMPTY (no allowed PU
 *         left; the topology is then unchanged); OMP_EXT_ERR_NOMEM.
 */
int omp_ext_topo_restrict(omp_ext_topo_t *topo, hwloc_const_cpuset_t set);

/** The hwloc topology inside (owned by \p topo; do not destroy it). */
hwloc_topology_t omp_ext_topo_hwloc(const omp_ext_topo_t *topo);

/** The allowed PUs, as a cpuset of OS indexes (owned by \p topo). */
hwloc_const_cpuset_t omp_ext_topo_allowed(const omp_ext_topo_t *topo);

/** Where the topology came from: "this machine", the XML path or the string. */
const char *omp_ext_topo_source(const omp_ext_topo_t *topo);

/** Non-zero when the topology is this machine's (binding is meaningful). */
int omp_ext_topo_is_thissystem(const omp_ext_topo_t *topo);

/** Number of allowed PUs (>= 1). */
unsigned omp_ext_topo_npus(const omp_ext_topo_t *topo);

/** Number of cores with at least one allowed PU (>= 1). */
unsigned omp_ext_topo_ncores(const omp_ext_topo_t *topo);

/** Number of packages with at least one allowed PU (>= 1). */
unsigned omp_ext_topo_npackages(const omp_ext_topo_t *topo);

/** Number of distinct NUMA nodes local to the allowed PUs (0 if none known). */
unsigned omp_ext_topo_nnuma(const omp_ext_topo_t *topo);

/** Number of CPU kinds among the allowed PUs (1 on homogeneous machines). */
unsigned omp_ext_topo_nkinds(const omp_ext_topo_t *topo);

/** Largest number of allowed PUs on one core (1 without SMT). */
unsigned omp_ext_topo_max_smt(const omp_ext_topo_t *topo);

/**
 * The i-th allowed PU in hwloc's topology (logical) order.
 * \return a pointer owned by \p topo, or NULL if i >= omp_ext_topo_npus().
 */
const omp_ext_pu_t *omp_ext_topo_pu(const omp_ext_topo_t *topo, unsigned i);

/**
 * The allowed PU with OS index \p os_index.
 * \return a pointer owned by \p topo, or NULL if that PU is not allowed.
 */
const omp_ext_pu_t *omp_ext_topo_pu_by_os(const omp_ext_topo_t *topo, unsigned os_index);

/* ------------------------------------------------------------------------ */
/** \defgroup order Orders                                                   */
/* ------------------------------------------------------------------------ */

/**
 * The first \p n PUs of a policy's order: out[t] is the PU of thread t.
 *
 * The order is a permutation of the allowed PUs; every prefix of it is the
 * answer for a smaller n.  Paper §3 (strategies 1 and 2).
 *
 * \param policy  an omp_ht_policy_t.
 * \param n       number of threads, 1 .. omp_ext_topo_npus(topo).
 * \param out     an array of at least \p n elements.
 * \return 0; OMP_EXT_ERR_INVALID (NULL pointer); OMP_EXT_ERR_POLICY (not a
 *         policy); OMP_EXT_ERR_RANGE (n is 0 or above the allowed PUs);
 *         OMP_EXT_ERR_NOMEM.
 */
int omp_ext_order(const omp_ext_topo_t *topo, omp_ht_policy_t policy, unsigned n,
                  omp_ext_pu_t *out);

/* ------------------------------------------------------------------------ */
/** \defgroup places Place lists                                             */
/* ------------------------------------------------------------------------ */

/** Text formats of an order. */
typedef enum omp_ext_format_t {
  /** OMP_PLACES value, one PU a place: "{0},{8},{1}" (OpenMP 5.2 §6.5). */
  omp_ext_format_omp = 0,
  /** GOMP_CPU_AFFINITY value (libgomp): "0 8 1". */
  omp_ext_format_gomp = 1,
  /** KMP_AFFINITY value (libomp, libiomp5): "explicit,proclist=[0,8,1]". */
  omp_ext_format_kmp = 2,
  /** Plain comma list, for taskset -c or likwid-pin -c: "0,8,1". */
  omp_ext_format_list = 3,
  /** JSON array, one object per thread: {"thread","pu","pu_logical","core",
   *  "core_os","package","numa","sibling","kind"} (numa is null if unknown). */
  omp_ext_format_json = 4
} omp_ext_format_t;

/** Number of formats: valid values are 0 .. OMP_EXT_NFORMATS - 1. */
#define OMP_EXT_NFORMATS 5

/**
 * Format from its name ("omp", "gomp", "kmp", "list", "json").
 * \return 0; OMP_EXT_ERR_INVALID (NULL); OMP_EXT_ERR_FORMAT (unknown name).
 */
int omp_ext_format_from_name(const char *name, omp_ext_format_t *format);

/** Name of a format, or NULL for a value that is not one. */
const char *omp_ext_format_name(omp_ext_format_t format);

/**
 * Write an order (from omp_ext_order()) as text, without a trailing newline.
 *
 * \param order   n PUs, order[t] the PU of thread t.
 * \param n       number of PUs, >= 1.
 * \param format  an omp_ext_format_t.
 * \param text    receives a malloc'ed NUL-terminated string; free() it.
 * \return 0; OMP_EXT_ERR_INVALID (NULL pointer or n == 0);
 *         OMP_EXT_ERR_FORMAT (not a format); OMP_EXT_ERR_NOMEM.
 */
int omp_ext_places_format(const omp_ext_pu_t *order, unsigned n, omp_ext_format_t format,
                          char **text);

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
 * \return 0; OMP_EXT_ERR_INVALID (NULL, k == 0 or r >= k);
 *         OMP_EXT_ERR_RANGE (k above the allowed cores); OMP_EXT_ERR_NOMEM.
 */
int omp_ext_domain_split(const omp_ext_topo_t *topo, unsigned k, unsigned r, hwloc_cpuset_t out);

/** What omp_ext_rank_restrict() did with the rank. */
typedef enum omp_ext_rank_mode_t {
  OMP_EXT_RANK_NONE = 0,  /**< no launcher variable: one process, whole allowed set */
  OMP_EXT_RANK_SPLIT = 1, /**< restricted to the rank's domain (omp_ext_domain_split()) */
  OMP_EXT_RANK_BOUND = 2  /**< the launcher bound the process already; its binding is used
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
 *         OMP_EXT_ERR_INVALID (info NULL);
 *         OMP_EXT_ERR_PARSE (a variable missing or not a number, or a Slurm
 *         list malformed or ambiguous: info->bad_var names it);
 *         OMP_EXT_ERR_RANGE (size 0, rank >= size, SLURM_NODEID past the
 *         list: info->bad_var names the variable).
 */
int omp_ext_rank_from_env(char *const *envp, omp_ext_rank_t *info);

/**
 * Whether the launcher (srun --cpu-bind, mpirun --bind-to, taskset) already
 * bound this process to part of the machine: its binding
 * (hwloc_get_cpubind(HWLOC_CPUBIND_PROCESS)) is a strict, non-empty subset of
 * the machine's allowed PUs (hwloc_topology_get_allowed_cpuset()).
 *
 * \param topo     a topology of this machine (others are never bound).
 * \param binding  NULL, or receives the binding within the allowed PUs.
 * \return 1 if bound, 0 if not (or \p topo is not this machine);
 *         OMP_EXT_ERR_INVALID (topo NULL); OMP_EXT_ERR_UNSUPPORTED (the OS
 *         cannot tell the binding); OMP_EXT_ERR_NOMEM.
 */
int omp_ext_process_bound(const omp_ext_topo_t *topo, hwloc_cpuset_t binding);

/**
 * Restrict \p topo to this rank's share of the node: what htplaces, its exec
 * wrapper and the in-code API do under mpirun or srun.
 *
 * Reads the rank with omp_ext_rank_from_env(envp).  Without a launcher
 * nothing changes (info->mode OMP_EXT_RANK_NONE).  If the process is already
 * bound (omp_ext_process_bound()), the topology, whose allowed PUs already
 * are that binding, is left as it is (OMP_EXT_RANK_BOUND): several ranks bound
 * to the same set (mpirun --bind-to socket) then share it.  Otherwise the
 * topology is restricted to omp_ext_domain_split(topo, size, rank)
 * (OMP_EXT_RANK_SPLIT).
 *
 * \return 0; the errors of omp_ext_rank_from_env() (info filled as there);
 *         OMP_EXT_ERR_RANGE (more ranks than allowed cores);
 *         OMP_EXT_ERR_INVALID (NULL); OMP_EXT_ERR_UNSUPPORTED;
 *         OMP_EXT_ERR_NOMEM.
 */
int omp_ext_rank_restrict(omp_ext_topo_t *topo, char *const *envp, omp_ext_rank_t *info);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_H */
