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
 * \param err     may be NULL; on OMP_EXT_ERR_PARSE receives the position and
 *                reason.
 * \return 0; OMP_EXT_ERR_INVALID (NULL text or list, unknown syntax, or an
 *         abstract name with topo NULL); OMP_EXT_ERR_PARSE (the text does not
 *         follow the syntax, a number is above OMP_EXT_PLACES_MAX_CPU, an
 *         interval leaves 0..OMP_EXT_PLACES_MAX_CPU, or the list expands to
 *         more than OMP_EXT_PLACES_MAX_PLACES places or about a million
 *         numbers); OMP_EXT_ERR_NOMEM.
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
 * \return 0; OMP_EXT_ERR_INVALID (NULL); OMP_EXT_ERR_NOMEM.
 */
int omp_ext_placelist_canonical(const omp_ext_placelist_t *list, char **text);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_H */
