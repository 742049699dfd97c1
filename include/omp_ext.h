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

#include <stddef.h>

#include <hwloc.h>

#include "omp_ext/export.h"

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
  omp_ext_success = 0,
  omp_ext_err_invalid = -1,     /**< an argument is NULL or out of its domain */
  omp_ext_err_nomem = -2,       /**< memory allocation failed */
  omp_ext_err_topology = -3,    /**< the topology could not be read or is invalid */
  omp_ext_err_range = -4,       /**< a count (N) is 0 or above the allowed PUs */
  omp_ext_err_empty = -5,       /**< no PU is allowed (empty cpuset) */
  omp_ext_err_policy = -6,      /**< unknown placement policy */
  omp_ext_err_format = -7,      /**< unknown output format */
  omp_ext_err_in_parallel = -8, /**< called inside a parallel region (active or not) */
  omp_ext_err_bind = -9,        /**< the OS refused a binding */
  omp_ext_err_runtime = -10,    /**< no usable OpenMP runtime was found */
  omp_ext_err_parse = -11,      /**< text could not be parsed */
  omp_ext_err_unsupported = -12 /**< not supported on this system */
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
  omp_ht_policy_spread = 3,
  /** The order of whichever of speedup, spn, spread (in that order of
   *  preference on ties) reaches the lowest modelled energy to solution at
   *  its best thread count, under the default model (see
   *  omp_ext_model_default() and omp_ext_energy_choice(), paper §2).  The
   *  recommended thread count comes from omp_ext_energy_choice(). */
  omp_ht_policy_energy = 4
} omp_ht_policy_t;

/** Number of policies: valid values are 0 .. OMP_EXT_NPOLICIES - 1. */
#define OMP_EXT_NPOLICIES 5

/**
 * Policy from its name ("os", "speedup", "spn", "spread", "energy";
 * case-sensitive).
 *
 * \param name    the name, NUL-terminated.
 * \param policy  receives the policy on success.
 * \return 0, omp_ext_err_invalid if an argument is NULL, omp_ext_err_policy if
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
  unsigned core;          /**< its core's position among all cores (a PU without a core
                               counts as one) in hwloc's depth-first order: hwloc's core
                               logical index when all cores sit at one depth */
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
 *         omp_ext_err_empty (no allowed PU); omp_ext_err_nomem.
 */
int omp_ext_topo_load(omp_ext_topo_t **topo, const char *input, unsigned long flags);

/** Release a topology from omp_ext_topo_load(); NULL is ignored. */
void omp_ext_topo_destroy(omp_ext_topo_t *topo);

/**
 * Keep only the PUs of \p set among the allowed ones (like hwloc's
 * --restrict); the tables are rebuilt.
 *
 * \param set  a cpuset of OS indexes.
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_empty (no allowed PU
 *         left; the topology is then unchanged); omp_ext_err_nomem.
 */
int omp_ext_topo_restrict(omp_ext_topo_t *topo, hwloc_const_cpuset_t set);

/** The hwloc topology inside (owned by \p topo; do not destroy it). */
hwloc_topology_t omp_ext_topo_hwloc(const omp_ext_topo_t *topo);

/** The allowed PUs, as a cpuset of OS indexes (owned by \p topo). */
hwloc_const_cpuset_t omp_ext_topo_allowed(const omp_ext_topo_t *topo);

/** Where the topology came from: "this machine", the XML path or the
 * string; without input while hwloc's environment replaces this machine,
 * "NAME=value (hwloc's environment: not this machine)" with NAME the first
 * of HWLOC_FSROOT, HWLOC_SYNTHETIC, HWLOC_XMLFILE that is set. */
const char *omp_ext_topo_source(const omp_ext_topo_t *topo);

/** Non-zero when the topology is this machine's (binding is meaningful). */
int omp_ext_topo_is_thissystem(const omp_ext_topo_t *topo);

/** Number of allowed PUs (>= 1). */
unsigned omp_ext_topo_npus(const omp_ext_topo_t *topo);

/** Number of cores with at least one allowed PU (>= 1). */
unsigned omp_ext_topo_ncores(const omp_ext_topo_t *topo);

/** Number of packages with at least one allowed PU (>= 1). */
unsigned omp_ext_topo_npackages(const omp_ext_topo_t *topo);

/** Number of NUMA nodes whose CPUs include an allowed PU (0 if none known);
 *  memory-only nodes sharing CPUs, such as a KNL's MCDRAM, count. */
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
 * \return 0; omp_ext_err_invalid (NULL pointer); omp_ext_err_policy (not a
 *         policy); omp_ext_err_range (n is 0 or above the allowed PUs);
 *         omp_ext_err_nomem; for omp_ht_policy_energy also omp_ext_err_parse
 *         (OMP_EXT_POWER_MODEL, OMP_EXT_SIGMA or OMP_EXT_SERIAL_FRACTION is
 *         set to an invalid value, see omp_ext_model_default()).
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
  /** KMP_AFFINITY value (libomp, libiomp5):
   *  "granularity=fine,explicit,proclist=[0,8,1]" -- fine granularity, or
   *  Intel's default (core) would give each thread all PUs of its core. */
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
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_format (unknown name).
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
 * \return 0; omp_ext_err_invalid (NULL pointer or n == 0);
 *         omp_ext_err_format (not a format); omp_ext_err_nomem.
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
 * \return 0; omp_ext_err_invalid (NULL, k == 0 or r >= k);
 *         omp_ext_err_range (k above the allowed cores); omp_ext_err_nomem.
 */
int omp_ext_domain_split(const omp_ext_topo_t *topo, unsigned k, unsigned r, hwloc_cpuset_t out);

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
 *         omp_ext_err_invalid (topo NULL); omp_ext_err_unsupported (the OS
 *         cannot tell the binding); omp_ext_err_nomem.
 */
int omp_ext_process_bound(const omp_ext_topo_t *topo, hwloc_cpuset_t binding);

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
int omp_ext_rank_restrict(omp_ext_topo_t *topo, char *const *envp, omp_ext_rank_t *info);

/** \defgroup model Energy model (paper §2)                                  */
/* ------------------------------------------------------------------------ */

/**
 * Linear power model of a node (paper §2.1), in watts:
 *
 *     P = Pn + Ps * (packages with a busy PU) + Pc * (busy cores)
 *            + Pt * (busy PUs beyond the first of their core)
 *
 * The paper measured these at the wall socket; omp_ext_calibrate() fits them
 * from RAPL, which sees the packages only (Pn is then the packages' idle draw).
 */
typedef struct omp_ext_power_model {
  double pn; /**< W drawn by the node whatever runs (paper Pn) */
  double ps; /**< W per package with at least one busy PU (Ps) */
  double pc; /**< W per busy core (Pc) */
  double pt; /**< W per busy PU beyond the first of its core: SMT sibling (Pt) */
} omp_ext_power_model_t;

/**
 * Power model from text: a preset name, "c6100" (Dell C6100, 2x Xeon L5520:
 * Pn 76.11, Ps 25.19, Pc 9.68, Pt 2.61) or "dl380p" (HP DL380p Gen8:
 * Pn 106.41, Ps 39.74, Pc 11.13, Pt 2.83), the paper's measured coefficients;
 * or four comma-separated watts "Pn,Ps,Pc,Pt", each finite, >= 0 and at most
 * OMP_EXT_MODEL_MAX_WATTS, with Pn + Ps + Pc > 0 (a one-thread run must draw
 * power).
 *
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_parse (anything else).
 */
int omp_ext_power_model_parse(const char *text, omp_ext_power_model_t *pm);

/** Largest coefficient accepted, in watts (1 MW), so that modelled power
 *  stays finite for any machine. */
#define OMP_EXT_MODEL_MAX_WATTS 1e6

/** Default capacity of a busy SMT sibling relative to a core (paper: 0.3). */
#define OMP_EXT_MODEL_SIGMA 0.3
/** Default serial fraction: 0, Amdahl's ideal; give yours for real programs. */
#define OMP_EXT_MODEL_SERIAL 0.0
/** Power model preset used when OMP_EXT_POWER_MODEL is not set. */
#define OMP_EXT_MODEL_PRESET "c6100"

/** The whole model: power, SMT capacity and the program's serial fraction. */
typedef struct omp_ext_model {
  omp_ext_power_model_t power; /**< watts */
  double sigma;  /**< capacity added by each busy PU beyond the first of its
                      core, in (0, 1]; a busy core counts 1 */
  double serial; /**< serial fraction s of Amdahl's law, in [0, 1) */
} omp_ext_model_t;

/**
 * The default model, from the environment: OMP_EXT_POWER_MODEL (as
 * omp_ext_power_model_parse(); unset or empty: OMP_EXT_MODEL_PRESET),
 * OMP_EXT_SIGMA (unset: OMP_EXT_MODEL_SIGMA) and OMP_EXT_SERIAL_FRACTION
 * (unset: OMP_EXT_MODEL_SERIAL).
 *
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_parse (a variable is set
 *         to a value outside its domain; \p m is then unchanged).
 */
int omp_ext_model_default(omp_ext_model_t *m);

/**
 * Check a model's domains: watts in [0, OMP_EXT_MODEL_MAX_WATTS] with
 * Pn + Ps + Pc > 0,
 * sigma in (0, 1], serial in [0, 1).
 * \return 0 or omp_ext_err_invalid.
 */
int omp_ext_model_check(const omp_ext_model_t *m);

/** What a placement keeps busy. */
typedef struct omp_ext_usage {
  unsigned threads;  /**< busy PUs (one thread each) */
  unsigned packages; /**< packages with at least one busy PU */
  unsigned cores;    /**< cores with at least one busy PU */
  unsigned extra;    /**< busy PUs beyond the first of their core (threads - cores) */
} omp_ext_usage_t;

/**
 * Usage of the first \p n PUs of an order (from omp_ext_order()); n may be 0
 * (idle).  Cores and packages are told apart by their hwloc logical index.
 * \return 0; omp_ext_err_invalid (order NULL with n > 0, or u NULL; a PU
 *         listed twice); omp_ext_err_nomem.
 */
int omp_ext_usage_of(const omp_ext_pu_t *order, unsigned n, omp_ext_usage_t *u);

/** Modelled power in watts of a usage (paper §2.1); 0 if an argument is
 *  NULL.  The model's domains are not checked (see omp_ext_model_check()). */
double omp_ext_model_power(const omp_ext_power_model_t *pm, const omp_ext_usage_t *u);

/** Capacity in cores' worth: cores + sigma * extra (0 when idle or u NULL). */
double omp_ext_model_capacity(const omp_ext_usage_t *u, double sigma);

/**
 * Amdahl speed-up over one thread: S = 1 / (s + (1 - s) / C).
 * \param serial    serial fraction s in [0, 1).
 * \param capacity  C > 0 (omp_ext_model_capacity()).
 * \return S, or 0 if an argument is outside its domain.
 */
double omp_ext_model_speedup(double serial, double capacity);

/**
 * Karp-Flatt metric: the experimentally determined serial fraction
 *     e = (1/S - 1/n) / (1 - 1/n)
 * of a measured speed-up S on n processors (equal to the paper's
 * (n - S) / (S (n - 1))).  Give n full cores (one thread per core) so that
 * capacity = n; e then serves as omp_ext_model_t.serial.
 *
 * \param n        processors, > 1.
 * \param speedup  measured speed-up, 1 < speedup <= n (S <= 1 gives e >= 1,
 *                 outside the model's [0, 1)).
 * \param serial   receives e, in [0, 1).
 * \return 0; omp_ext_err_invalid (NULL, n <= 1, S outside (1, n], not finite).
 */
int omp_ext_karp_flatt(double n, double speedup, double *serial);

/**
 * SPN, speed-up per power per physical core (paper §2.2):
 *     SPN = 1000 * S / (P * busy cores)
 * \return SPN (1 / (kW core)), or 0 if power <= 0 or cores == 0.
 */
double omp_ext_model_spn(double speedup, double power, unsigned cores);

/**
 * The paper's §2.3 rule: going from configuration 0 (time t0 seconds, power
 * p0 watts) to configuration 1 (one more unit: t1, p1) saves energy iff
 *     t1 / t0 < p0 / p1     (i.e. p1 * t1 < p0 * t0).
 * \return 1 (worth it), 0 (not worth it), omp_ext_err_invalid (an argument is
 *         not finite and > 0).
 */
int omp_ext_energy_worth(double t0, double p0, double t1, double p1);

/** Modelled figures of one placement. */
typedef struct omp_ext_estimate {
  omp_ext_usage_t usage; /**< what it keeps busy */
  double capacity;       /**< cores' worth (omp_ext_model_capacity()) */
  double speedup;        /**< modelled speed-up S over one thread */
  double power;          /**< modelled power P, watts */
  double spn;            /**< 1000 S / (P cores), paper §2.2 */
  double energy;         /**< energy to solution relative to one thread on one
                              core: (P / S) / P(1 thread); time T = T1 / S */
} omp_ext_estimate_t;

/**
 * Model the first \p n PUs (n >= 1) of an order.
 * \return 0; omp_ext_err_invalid (NULL, n == 0, model outside its domains,
 *         a PU listed twice); omp_ext_err_nomem.
 */
int omp_ext_model_eval(const omp_ext_model_t *m, const omp_ext_pu_t *order, unsigned n,
                       omp_ext_estimate_t *e);

/** What omp_ext_model_best() optimises. */
typedef enum omp_ext_objective_t {
  omp_ext_objective_speed = 0,  /**< highest speed-up; ties: lower energy, fewer threads */
  omp_ext_objective_spn = 1,    /**< highest SPN; ties: higher speed-up, fewer threads */
  omp_ext_objective_energy = 2  /**< lowest energy; ties: higher SPN, fewer threads */
} omp_ext_objective_t;

/**
 * The policy and thread count (1 .. allowed PUs) that best meet an objective
 * under a model.  Remaining ties go to the policy listed first.
 * omp_ht_policy_energy in \p policies stands for its base order under \p m.
 *
 * \param policies   \p npolicies policies to consider, npolicies >= 1.
 * \param policy, n  receive the choice; \p est (may be NULL) its figures.
 * \return 0; omp_ext_err_invalid (NULL, npolicies == 0, bad model);
 *         omp_ext_err_policy; omp_ext_err_nomem.
 */
int omp_ext_model_best(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                       const omp_ht_policy_t *policies, unsigned npolicies,
                       omp_ext_objective_t objective, omp_ht_policy_t *policy, unsigned *n,
                       omp_ext_estimate_t *est);

/**
 * The §2.3 bound of a policy: the largest N reached by adding threads one at
 * a time in the policy's order while each addition is worth it for energy
 * (omp_ext_energy_worth() with T = 1 / S); 1 if even the second thread is not.
 * \return 0; omp_ext_err_invalid; omp_ext_err_policy; omp_ext_err_nomem.
 */
int omp_ext_model_bound(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                        omp_ht_policy_t policy, unsigned *n);

/**
 * What omp_ht_policy_energy means on \p topo: among speedup, spn and spread
 * (preferred in that order on ties) and N = 1 .. allowed PUs, the pair with
 * the lowest modelled energy to solution, ties to the higher SPN then fewer
 * threads (omp_ext_model_best() with omp_ext_objective_energy).
 *
 * \param m     the model; NULL for omp_ext_model_default().
 * \param base  receives speedup, spn or spread: the order energy uses.
 * \param n     receives the recommended number of threads.
 * \return 0; omp_ext_err_invalid (NULL topo/base/n, bad model);
 *         omp_ext_err_parse (m NULL and the environment is invalid);
 *         omp_ext_err_nomem.
 */
int omp_ext_energy_choice(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                          omp_ht_policy_t *base, unsigned *n);

/* ------------------------------------------------------------------------ */
/** \defgroup calibrate Power model calibration from RAPL                     */
/* ------------------------------------------------------------------------ */

/** Where the powercap tree is when neither an argument nor OMP_EXT_POWERCAP_ROOT says. */
#define OMP_EXT_POWERCAP_ROOT "/sys/class/powercap"

/** An open RAPL energy reader over the package zones of a powercap tree. */
typedef struct omp_ext_rapl omp_ext_rapl_t;

/**
 * Open the package energy counters of a Linux powercap tree: every folder
 * ROOT/intel-rapl:N (one colon: a package zone, not a subzone) whose "name"
 * starts with "package-", reading energy_uj (microjoules) and
 * max_energy_range_uj (where energy_uj wraps to 0).
 *
 * \param root  the tree; NULL for $OMP_EXT_POWERCAP_ROOT, else
 *              OMP_EXT_POWERCAP_ROOT.
 * \param why   if not NULL, receives on failure a one-line reason (what was
 *              missing or unreadable), NUL-terminated, at most \p whylen bytes.
 * \return 0; omp_ext_err_invalid (rapl NULL); omp_ext_err_unsupported (no
 *         package zone, or one is unreadable: energy_uj needs root on Linux
 *         >= 5.10); omp_ext_err_nomem.
 */
int omp_ext_rapl_open(const char *root, omp_ext_rapl_t **rapl, char *why, size_t whylen);

/** Number of package zones read (>= 1). */
unsigned omp_ext_rapl_nzones(const omp_ext_rapl_t *rapl);

/**
 * Energy in joules used by all package zones since omp_ext_rapl_open(),
 * counting each counter wrap (a value below the previous one means the
 * counter passed max_energy_range_uj).  Call it at least once per wrap period
 * (minutes on current parts).
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_unsupported (a counter
 *         could not be read, or is above its max_energy_range_uj; the reader
 *         is then unchanged); omp_ext_err_nomem.
 */
int omp_ext_rapl_read(omp_ext_rapl_t *rapl, double *joules);

/** Close a reader; NULL is ignored. */
void omp_ext_rapl_close(omp_ext_rapl_t *rapl);

/** Where the perf power PMU is when neither an argument nor OMP_EXT_PERF_POWER_PMU says. */
#define OMP_EXT_PERF_POWER_PMU "/sys/bus/event_source/devices/power"

/** An open perf power/energy-pkg reader: the other RAPL source. */
typedef struct omp_ext_perf_energy omp_ext_perf_energy_t;

/**
 * Open perf's package energy counters (perf stat -e power/energy-pkg/): one
 * system-wide perf_event_open() counter per CPU of PMU/cpumask (one CPU per
 * package), event and scale from PMU/type, PMU/events/energy-pkg and
 * PMU/events/energy-pkg.scale.
 *
 * \param pmu  the PMU's sysfs folder; NULL for $OMP_EXT_PERF_POWER_PMU, else
 *             OMP_EXT_PERF_POWER_PMU.
 * \param why  as for omp_ext_rapl_open().
 * 
eturn 0; omp_ext_err_invalid (perf NULL); omp_ext_err_unsupported (no
 *         PMU, no energy-pkg event, or perf_event_open() refused: needs root,
 *         CAP_PERFMON or kernel.perf_event_paranoid <= 0); omp_ext_err_nomem.
 */
int omp_ext_perf_energy_open(const char *pmu, omp_ext_perf_energy_t **perf, char *why,
                             size_t whylen);

/**
 * Energy in joules counted by all packages since omp_ext_perf_energy_open().
 * 
eturn 0; omp_ext_err_invalid (NULL); omp_ext_err_unsupported (read failed).
 */
int omp_ext_perf_energy_read(omp_ext_perf_energy_t *perf, double *joules);

/** Close a perf reader; NULL is ignored. */
void omp_ext_perf_energy_close(omp_ext_perf_energy_t *perf);

/** A source of cumulative energy (joules) and time (seconds) to sample. */
typedef struct omp_ext_energy_source {
  int (*read)(void *arg, double *joules); /**< cumulative joules; 0 or an error code */
  double (*now)(void *arg); /**< seconds; NULL for CLOCK_MONOTONIC */
  void *arg;
} omp_ext_energy_source_t;

/** A RAPL reader as an energy source. */
omp_ext_energy_source_t omp_ext_rapl_source(omp_ext_rapl_t *rapl);

/** A perf reader as an energy source. */
omp_ext_energy_source_t omp_ext_perf_energy_source(omp_ext_perf_energy_t *perf);

/** One calibration measurement: what was busy and the mean power drawn. */
typedef struct omp_ext_power_sample {
  omp_ext_usage_t usage; /**< busy set */
  double watts;          /**< mean power over the sample */
  omp_ht_policy_t policy; /**< order the busy set was taken from */
} omp_ext_power_sample_t;

/** Bits of omp_ext_power_fit()'s \p determined: which coefficients the samples fix. */
enum omp_ext_fit_flags_e {
  omp_ext_fit_pn = 1, omp_ext_fit_ps = 2, omp_ext_fit_pc = 4, omp_ext_fit_pt = 8
};

/**
 * Least-squares fit of the §2.1 model to samples (a pure function).  A
 * coefficient whose count is 0 in every sample (e.g. Pt without SMT) cannot
 * be determined: it is set to 0 and its bit left clear in \p determined.
 * Fitted values are not clamped (noise may make one slightly negative).
 *
 * \param determined  if not NULL, receives OMP_EXT_FIT_* bits.
 * \return 0; omp_ext_err_invalid (NULL, n == 0, a non-finite watt value, or
 *         the samples do not separate the coefficients, e.g. no idle sample
 *         when every busy sample uses the same packages).
 */
int omp_ext_power_fit(const omp_ext_power_sample_t *samples, unsigned n,
                      omp_ext_power_model_t *pm, unsigned *determined);

/**
 * Measure power on this machine: an idle sample (nothing busy), then for
 * each policy and N = 1 .. allowed PUs, N busy-loop threads bound one per PU
 * to the policy's first N PUs (hwloc_set_thread_cpubind), each held
 * \p seconds; power = energy difference / time difference from \p src.
 * Samples go out in that order: 1 + npolicies * allowed PUs of them.
 *
 * \param seconds   length of each sample, > 0.
 * \param samples   an array of at least 1 + npolicies * omp_ext_topo_npus().
 * \param nsamples  receives the number written.
 * \return 0; omp_ext_err_invalid (NULL, npolicies == 0, seconds <= 0,
 *         omp_ht_policy_energy listed); omp_ext_err_unsupported (topo is not
 *         this machine); omp_ext_err_bind; omp_ext_err_policy;
 *         omp_ext_err_nomem; or the source's error.
 */
int omp_ext_calibrate(const omp_ext_topo_t *topo, const omp_ht_policy_t *policies,
                      unsigned npolicies, double seconds, omp_ext_energy_source_t src,
                      omp_ext_power_sample_t *samples, unsigned *nsamples);

/* ------------------------------------------------------------------------ */
/** \defgroup ht_api In-code policy (OpenMP-style API)                       */
/* ------------------------------------------------------------------------ */

/*
 * The program chooses the policy between parallel regions; from then on,
 * thread t of every level-1 team runs on PU order[t % P], order being the
 * policy's order (omp_ext_order()) over the P allowed PUs of this machine.
 * The same libomp_ext works under libgomp (GCC), libomp (Clang) and libiomp5:
 * it links no OpenMP runtime and finds the program's at run time (dlsym).
 *
 * How the binding is kept (details and limits: README, "In-code policy"):
 * - omp_set_ht_policy() binds a team of the next region's size at once,
 *   from inside a region it runs (GOMP_parallel, which libgomp, libomp and
 *   libiomp5 all export);
 * - then a hook re-binds, at the start of each region, every thread whose
 *   number changed or that is new (a team that grows): an OMPT tool under
 *   libomp/libiomp5 (ompt_callback_implicit_task), wrappers of GOMP_parallel
 *   and GOMP_parallel_loop_* / _sections under libgomp (effective when
 *   libomp_ext comes before the runtime in the link order, as with
 *   `cc ... -lomp_ext -fopenmp`);
 * - each thread binds itself with kmp_set_affinity() where the runtime has
 *   it (keeps libomp's own place bookkeeping right), else
 *   hwloc_set_cpubind(HWLOC_CPUBIND_THREAD).
 * Nested regions (omp_get_level() > 1) are not bound: an inner team's
 * primary keeps its outer PU; its other threads keep the mask they were
 * created with (both runtimes: the creator's, so the outer thread's PU).
 * After fork() the child's next level-1 region binds every thread again,
 * thread 0 included (pthread_atfork): libomp re-initialises in the child and
 * would otherwise leave thread 0 on the whole allowed set.  (libgomp does
 * not run a parallel region in the child of a process that ran one: it
 * hangs there, with or without omp_ext.)
 * Nothing is ever bound outside the allowed PUs, read once, at first use
 * (hwloc allowed cpuset and the process binding, as omp_ext_topo_load()).
 * Under an MPI launcher (omp_ext_rank_from_env()) the allowed PUs are this
 * rank's domain, as for htplaces exec: omp_ext_rank_restrict().
 *
 * Environment: OMP_EXT_HT_POLICY=POLICY[:N] (e.g. "spn:8") acts as
 * omp_set_ht_policy_num_threads(POLICY, N) before the first region (N
 * optional); an invalid value is reported on stderr and ignored.
 */

/** Bits of omp_ext_ht_hooks(). */
enum omp_ext_hook_e {
  omp_ext_hook_ompt_ready = 1 << 0, /**< the runtime started omp_ext's OMPT tool */
  omp_ext_hook_ompt = 1 << 1,       /**< the OMPT hook ran in a region with a policy */
  omp_ext_hook_gomp = 1 << 2,       /**< a GOMP_parallel* wrapper ran with a policy */
  omp_ext_hook_gomp_ready = 1 << 3  /**< libgomp: the program's GOMP_parallel* calls reach
                                         omp_ext's wrappers (link order right; known from
                                         the first omp_set_ht_policy(), before any region) */
};

/**
 * Set the placement policy of the following parallel regions.
 *
 * Binds a team of omp_get_max_threads() threads at once (runs one empty
 * region); later teams are bound by the hooks.  A team larger than the
 * allowed PUs wraps around (thread t on order[t % P]); omp_ext says so once
 * on stderr.  omp_ht_policy_os unbinds: every thread gets the whole allowed
 * set back.  Thread-safe (one process-wide policy, guarded by a mutex);
 * callable from the initial thread of any contention group.
 *
 * \param policy  an omp_ht_policy_t.
 * \return 0; omp_ext_err_policy (not a policy); omp_ext_err_in_parallel
 *         (called inside a parallel region, active or not: omp_get_level()
 *         > 0; nothing changed); omp_ext_err_runtime (no OpenMP runtime in
 *         the process); omp_ext_err_topology, omp_ext_err_empty,
 *         omp_ext_err_nomem (as omp_ext_topo_load()); omp_ext_err_topology
 *         also when hwloc's environment (HWLOC_XMLFILE, HWLOC_SYNTHETIC,
 *         HWLOC_FSROOT, without HWLOC_THISSYSTEM=1) replaces this machine:
 *         hwloc_topology_is_thissystem() is then false and hwloc's binding
 *         calls would do nothing, so nothing is bound; omp_ext_err_parse
 *         (omp_ht_policy_energy with an invalid model environment, as
 *         omp_ext_order()); omp_ext_err_bind (the OS refused a binding: the
 *         policy is set, some thread is not bound); the errors of
 *         omp_ext_rank_restrict() (inconsistent launcher variables, more
 *         ranks than cores).
 * omp_ht_policy_energy binds in its base order (omp_ext_order()); the team
 * size stays the caller's: omp_ext_energy_choice() recommends one.
 * Source: paper §3 (application layer); OpenMP 5.2 §18.2 (omp_get_level),
 * §19 (OMPT); hwloc_set_cpubind().
 */
int omp_set_ht_policy(omp_ht_policy_t policy);

/**
 * omp_set_num_threads(\p num_threads), then omp_set_ht_policy(\p policy),
 * binding a team of \p num_threads threads at once.
 *
 * \param num_threads  team size of the following regions, >= 1 (may exceed
 *                     the allowed PUs: wrap-around).
 * \return as omp_set_ht_policy(); omp_ext_err_range if num_threads < 1.
 */
int omp_set_ht_policy_num_threads(omp_ht_policy_t policy, int num_threads);

/** The current policy; omp_ht_policy_os until one is set. */
omp_ht_policy_t omp_get_ht_policy(void);

/**
 * The PU that thread \p thread_num of a level-1 team gets under the current
 * policy: its OS index (what sched_getcpu() reports there).
 *
 * \return the OS index (>= 0); omp_ext_err_invalid (thread_num < 0);
 *         omp_ext_err_unsupported (policy os: no single PU, see
 *         omp_get_ht_cpuset()); errors of omp_ext_topo_load().
 */
int omp_get_ht_pu(int thread_num);

/**
 * The cpuset (OS indexes) that thread \p thread_num of a level-1 team gets
 * under the current policy: one PU, or every allowed PU for
 * omp_ht_policy_os.
 *
 * \param set  an allocated hwloc bitmap; overwritten.
 * \return 0; omp_ext_err_invalid (thread_num < 0 or set NULL); errors of
 *         omp_ext_topo_load().
 */
int omp_get_ht_cpuset(int thread_num, hwloc_bitmap_t set);

/**
 * Bind the calling thread as the policy says, if it is not already: for a
 * region that no hook sees (see above), call it first thing in the region.
 * Does nothing outside level-1 regions or while no policy was set.
 *
 * \return 0; omp_ext_err_runtime; omp_ext_err_bind; omp_ext_err_nomem.
 */
int omp_ht_rebind(void);

/**
 * Which hooks are live in this process: OMP_EXT_HOOK_* bits (diagnostics:
 * which path keeps the binding under the runtime the program uses).
 */
int omp_ext_ht_hooks(void);

/** \defgroup parse Parsing place lists (OMP_PLACES, GOMP_CPU_AFFINITY, KMP)  */
/* ------------------------------------------------------------------------ */

/** Largest CPU number (OS index) the parsers accept; larger ones are a parse
 *  error.  libgomp refuses GOMP_CPU_AFFINITY numbers >= 65536 too. */
#define OMP_EXT_PLACES_MAX_CPU 65535

/** Largest number of places (and of a length in an interval) the parsers
 *  accept; libgomp rejects an OMP_PLACES value with more. */
#define OMP_EXT_PLACES_MAX_PLACES 65536

/** Which variable's syntax a place-list text follows. */
typedef enum omp_ext_syntax_t {
  /** OMP_PLACES (OpenMP 5.2 §6.5 and §21.1.6): an abstract name with an
   *  optional count ("cores(4)") or explicit places: "{0,8},{1,9}",
   *  "{0:2:8}:4", "0,8,1", "{0:4},!{0:4}", "{0:8,!3}", "{7}:4:-1". */
  omp_ext_syntax_omp = 0,
  /** GOMP_CPU_AFFINITY (libgomp): numbers and ranges "0 3 1-2 4-15:2"
   *  separated by spaces or commas, one place per CPU.  Numbers follow
   *  strtoul(..., 0): "0x10" is hex and "010" octal, as in libgomp. */
  omp_ext_syntax_gomp = 1,
  /** KMP_AFFINITY explicit proclist (libomp): "0,{1,2},4-7,15-8:-1", given
   *  bare, in brackets "[...]" or as the whole KMP_AFFINITY value
   *  ("granularity=fine,explicit,proclist=[0,8,1]"). */
  omp_ext_syntax_kmp = 2
} omp_ext_syntax_t;

/** OMP_PLACES abstract names (OpenMP 5.2 §6.5, Table 6.1). */
typedef enum omp_ext_abstract_t {
  omp_ext_abstract_none = 0,         /**< an explicit list */
  omp_ext_abstract_threads = 1,      /**< one place per PU (hardware thread) */
  omp_ext_abstract_cores = 2,        /**< one place per core: its PUs */
  omp_ext_abstract_ll_caches = 3,    /**< one place per last-level cache */
  omp_ext_abstract_numa_domains = 4, /**< one place per NUMA node */
  omp_ext_abstract_sockets = 5       /**< one place per package */
} omp_ext_abstract_t;

/** Name of an abstract place name ("threads"...), or NULL for none/invalid. */
const char *omp_ext_abstract_name(omp_ext_abstract_t abstract);

/** Things a parser noticed that the OpenMP runtimes treat differently or
 *  that usually are mistakes; none of them makes the text unparsable. */
typedef enum omp_ext_note_kind_t {
  /** '!' before a number inside braces ("{0:4,!2}").  OpenMP 5.2 allows it
   *  and libgomp accepts it; libomp rejects the whole OMP_PLACES value as a
   *  syntax error and falls back to "cores". */
  omp_ext_note_exclude_resource = 0,
  /** "!N" inside braces where N is not in the place (value = N): libgomp
   *  rejects the variable ("Logical CPU N to be removed is not in the set"). */
  omp_ext_note_exclude_missing = 1,
  /** '!' before a place: libgomp removes an identical earlier place; libomp
   *  uses the complement of the place instead. */
  omp_ext_note_exclude_place = 2,
  /** "!{...}" with no identical earlier place: libgomp rejects the variable
   *  ("Trying to remove a non-existing place from list of places"). */
  omp_ext_note_exclude_place_missing = 3,
  /** GOMP_CPU_AFFINITY number with a leading 0 or 0x (value = what libgomp
   *  reads): libgomp reads it with strtoul base 0 (octal/hex), libomp's
   *  GOMP_CPU_AFFINITY parser reads decimal digits. */
  omp_ext_note_radix = 4,
  /** An abstract name's count (value) is above the places that exist; both
   *  runtimes then use all of them. */
  omp_ext_note_count_capped = 5,
  /** ll_caches on a topology without cache objects: one place per package,
   *  as libomp does (libgomp reads sysfs caches and may find none). */
  omp_ext_note_no_cache = 6,
  /** A place became empty by exclusions. */
  omp_ext_note_empty_place = 7
} omp_ext_note_kind_t;

/** One note: what, where (0-based character offset in the text) and a value. */
typedef struct omp_ext_places_note {
  omp_ext_note_kind_t kind;
  size_t pos;
  unsigned long value;
} omp_ext_places_note_t;

/** Largest number of notes kept in a place list (later ones are counted in
 *  omp_ext_placelist_t::dropped_notes). */
#define OMP_EXT_PLACES_MAX_NOTES 64

/** A parsed place list: what the text says, expanded to sets of OS indexes.
 *  Numbers are kept as written, even those outside the machine or the
 *  allowed cpuset: checking them against a topology is the caller's job. */
typedef struct omp_ext_placelist {
  omp_ext_syntax_t syntax;      /**< the syntax it was parsed with */
  omp_ext_abstract_t abstract;  /**< abstract name, or omp_ext_abstract_none */
  unsigned long count;          /**< abstract name's (n); 0 when absent */
  unsigned nplaces;             /**< number of places (0 only for an abstract
                                     name on a topology without such objects) */
  hwloc_bitmap_t *places;       /**< places[i]: OS indexes of place i */
  size_t *pos;                  /**< pos[i]: offset in the text of place i's source */
  unsigned nnotes;              /**< number of notes kept */
  omp_ext_places_note_t notes[OMP_EXT_PLACES_MAX_NOTES]; /**< in text order */
  unsigned dropped_notes;       /**< notes beyond OMP_EXT_PLACES_MAX_NOTES */
} omp_ext_placelist_t;

/** Where and why a text could not be parsed. */
typedef struct omp_ext_parse_error {
  size_t pos;        /**< 0-based character offset of the offending character */
  const char *what;  /**< static English text: what was expected or is wrong */
} omp_ext_parse_error_t;

/**
 * Parse a place list (OMP_PLACES, GOMP_CPU_AFFINITY or a KMP proclist) and
 * expand it to places of OS indexes.
 *
 * Explicit lists follow the OpenMP 5.2 grammar (§6.5): places "{res-list}"
 * or a bare number, each optionally ":len[:stride]" (place intervals, the
 * stride may be negative); inside braces "num[:len[:stride]]" and "!num";
 * "!place" removes an identical earlier place (libgomp's reading).  Spaces
 * may surround every token.  Abstract names are case-insensitive, with an
 * optional "(n)", n >= 1, and expand in hwloc's logical (topology) order, as
 * both runtimes build them: threads -> allowed PUs; cores -> hwloc cores;
 * ll_caches -> the highest cache above each PU; numa_domains -> each PU's
 * first local NUMA node; sockets -> packages.  Only allowed PUs are used.
 *
 * \param topo    the topology for abstract names; may be NULL for explicit
 *                lists and the gomp and kmp syntaxes.
 * \param text    the value, NUL-terminated.
 * \param syntax  an omp_ext_syntax_t.
 * \param list    receives the list; release with omp_ext_placelist_destroy().
 * \param err     may be NULL; on omp_ext_err_parse receives the position and
 *                reason.
 * \return 0; omp_ext_err_invalid (NULL text or list, unknown syntax, or an
 *         abstract name with topo NULL); omp_ext_err_parse (the text does not
 *         follow the syntax, a number is above OMP_EXT_PLACES_MAX_CPU, an
 *         interval leaves 0..OMP_EXT_PLACES_MAX_CPU, or the list expands to
 *         more than OMP_EXT_PLACES_MAX_PLACES places or about a million
 *         numbers); omp_ext_err_nomem.
 */
int omp_ext_places_parse(const omp_ext_topo_t *topo, const char *text, omp_ext_syntax_t syntax,
                         omp_ext_placelist_t **list, omp_ext_parse_error_t *err);

/** Release a list from omp_ext_places_parse(); NULL is ignored. */
void omp_ext_placelist_destroy(omp_ext_placelist_t *list);

/**
 * The canonical text of a place list: places in order, each place's OS
 * indexes ascending and comma-separated, no ranges: "{0,8},{1,9}"; an empty
 * place is "{}"; an empty list is "".
 *
 * \param text  receives a malloc'ed NUL-terminated string; free() it.
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_nomem.
 */
int omp_ext_placelist_canonical(const omp_ext_placelist_t *list, char **text);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_H */
