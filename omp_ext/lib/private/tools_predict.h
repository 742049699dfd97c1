/*
 * private/tools_predict.h -- What a real OpenMP runtime builds from a place list.
 *
 * Not exported: the tools (htplaces check) and tests call it, linking
 * libomp_ext.a; through private/tools.h.
 */
#ifndef OMP_EXT_TOOLS_PREDICT_H
#define OMP_EXT_TOOLS_PREDICT_H

#include "omp_ext/parse.h"
#include "omp_ext/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup predict Per-runtime prediction of the place list  */
/* ------------------------------------------------------------------------ */

/** The OpenMP runtimes whose reading of a place list is predicted. */
typedef enum omp_ext_runtime_t {
  /** GCC's libgomp (modelled on libgomp 12: env.c, config/linux/affinity.c). */
  omp_ext_runtime_libgomp = 0,
  /** LLVM's libomp, also shipped as libiomp5 (modelled on libomp 14:
   *  kmp_settings.cpp, kmp_affinity.cpp, and its observed behaviour). */
  omp_ext_runtime_libomp = 1
} omp_ext_runtime_t;

/** The number of omp_ext_runtime_t values: they are 0 .. OMP_EXT_NRUNTIMES - 1
 *  (a tool lists the runtimes with omp_ext_runtime_name() of each). */
#define OMP_EXT_NRUNTIMES 2

/** Name of a runtime ("libgomp", "libomp"), or NULL for an invalid value. */
const char *omp_ext_runtime_name(omp_ext_runtime_t runtime);

/** What a runtime does with the value. */
typedef enum omp_ext_outcome_t {
  /** It builds the places in omp_ext_prediction_t::list (possibly after
   *  dropping CPUs or places it cannot use: see why). */
  omp_ext_outcome_places = 0,
  /** It rejects the value or does not read the variable: no place list
   *  (omp_get_num_places() is 0), threads are not bound by places.
   *  libgomp on any error ("Invalid value for environment variable"). */
  omp_ext_outcome_ignored = 1,
  /** libomp rejects the value and replaces it with places of its own, in
   *  list: an OMP_PLACES syntax error ("syntax error, using cores"; after
   *  an abstract name, "syntax error, using socket": all places of that
   *  kind) or NUMA domains it cannot see (one place per core). */
  omp_ext_outcome_fallback = 2,
  /** libomp: no valid CPU in the list, or a proclist syntax error; it warns
   *  and disables affinity: list = one place of all allowed CPUs. */
  omp_ext_outcome_disabled = 3,
  /** The runtime crashes (SIGSEGV) or aborts on this value; list empty. */
  omp_ext_outcome_crash = 4
} omp_ext_outcome_t;

/** A prediction: the outcome, the places the runtime reports
 *  (omp_get_num_places(), omp_get_place_proc_ids()) and why. */
typedef struct omp_ext_prediction {
  omp_ext_runtime_t runtime;
  omp_ext_outcome_t outcome;
  /** The places, in the runtime's order; never NULL after success (0 places
   *  for omp_ext_outcome_ignored and omp_ext_outcome_crash). */
  omp_ext_placelist_t *list;
  /** Static English text: the rule that decided (for places: NULL unless the
   *  runtime dropped or changed something, or, for libgomp's abstract names,
   *  the note that its order is its own). */
  const char *why;
  /** 1 when the runtime does not build the places as written: any outcome
   *  but omp_ext_outcome_places, or places after dropping CPUs or places,
   *  a warning (libomp's "syntax error, using core", trailing characters,
   *  "NUMA domain does not exist"), libgomp 12's ll_caches bug or a
   *  KMP_AFFINITY granularity widening the places; 0 otherwise (libgomp's
   *  own order of an abstract name is not a change). */
  int changed;
} omp_ext_prediction_t;

/**
 * Predict what a runtime builds from a place-list value on a machine.
 *
 * The variable is the one of syntax: OMP_PLACES (omp), GOMP_CPU_AFFINITY
 * (gomp) or KMP_AFFINITY (kmp): either the proclist alone ("0,1" or
 * "[0,1]", read as with granularity=fine) or the whole value
 * ("granularity=fine,explicit,proclist=[0,1]", any order, any case).  The
 * runtime reads only that variable (the others unset).  Rules, per runtime:
 *
 * libgomp (12):
 *  - OMP_PLACES follows omp_ext_places_parse() with strtoul()'s reading of
 *    numbers ("+1" is 1); any error, a count of 0 ("threads(0)"), "!N"
 *    missing from its place, "!{...}" with no identical place, or a CPU
 *    number at or above the size of its CPU set (64 times the words of the
 *    kernel's possible CPUs: 64 on a machine of up to 64 CPUs) makes it
 *    ignore the variable.  Then every place keeps only allowed CPUs, empty
 *    places are dropped ("Number of places reduced"), and no place left
 *    means ignored.  Abstract names expand over the allowed PUs in
 *    libgomp's order (omp_ext_places_gomp_order(): by lowest OS index, a
 *    core's threads together; numa_domains by node number; ll_caches:
 *    libgomp 12's bug, one place; none, and the variable ignored, when no
 *    allowed CPU lists its caches with a shared_cpu_list in sysfs).
 *  - GOMP_CPU_AFFINITY: strtoul(..., 0) numbers (0x hex, 0 octal); a syntax
 *    error makes it ignore the variable; numbers at or above its CPU-set
 *    size are skipped silently; others are kept even if not allowed.
 *  - KMP_AFFINITY: not read (ignored).
 * libomp (14):
 *  - OMP_PLACES: abstract names only at the very start (a leading blank is a
 *    syntax error), case-insensitive; a count that is absent or 0 means
 *    all; one that is signed, not a number or not followed by ")" (or text
 *    after the name that is not "(") means all with a warning ("syntax
 *    error, using core"); text after "(n)" is ignored with a warning;
 *    numa_domains uses cores ("NUMA domain does not exist in topology"):
 *    libomp sees NUMA domains only through hwloc, and Debian's libomp 14 is
 *    built without it -- with one NUMA node or several.  Explicit places: no '!'
 *    inside braces, numbers are plain digits, a run of signs before a stride
 *    is folded ("--1" is 1, "+-1" is -1); "!place" is the complement of the
 *    place; CPU numbers not allowed are dropped; an interval inside braces
 *    ends at its first CPU not allowed, and crashes it when it goes below
 *    0 before; a place with no allowed CPU is dropped, complemented or not
 *    (the complement of a place with one is kept, even empty).  "P:n:s"
 *    builds each place from the previous one, every CPU moved by s: a CPU
 *    whose move is not allowed is dropped for good, and an empty place
 *    ends the interval (with allowed 0-4,6, "{0}:8" is {0},...,{4}; CPU 6
 *    never comes).  Syntax error: fallback to cores; no place left:
 *    disabled.
 *  - KMP_AFFINITY proclist and GOMP_CPU_AFFINITY: numbers, "a-b[:s]"
 *    (s may be negative, a range must go the way of its stride), "{...}"
 *    sets; items separated by ',' or blanks; numbers not allowed are
 *    dropped, empty places dropped, none left: disabled.  A syntax error
 *    disables affinity; for GOMP_CPU_AFFINITY, one after the first item
 *    makes libomp abort.  A whole KMP_AFFINITY value (kmp_settings.cpp,
 *    __kmp_parse_affinity_env): "proclist=[...]" anywhere (with or without
 *    "explicit"); missing, unterminated, empty or invalid: affinity none
 *    (disabled); granularity core unless fine or thread (socket or
 *    package: the package), each CPU of a place widened to the allowed
 *    CPUs of its core or package.  Another affinity type (compact,
 *    scatter...) or granularity (tile, die...) is not predicted:
 *    omp_ext_err_parse.
 *
 * What this can and cannot show: the rules were checked against the real
 * runtimes (tests/places-corpus.txt, tests/test_oracle) on a 2-PU machine
 * without SMT, where threads and cores coincide and sockets, ll_caches and
 * numa_domains are one place; the abstract names on SMT machines (threads,
 * cores, sockets, numa_domains, ll_caches, with and without a count) are
 * compared with both real runtimes inside the SMT guests
 * (tests/smtvm/checks.sh).
 *
 * \param topo     this machine's topology (allowed PUs, cores, NUMA nodes).
 * \param text     the value, NUL-terminated.
 * \param syntax   which variable it is.
 * \param runtime  an omp_ext_runtime_t.
 * \param pred     receives the prediction; release with
 *                 omp_ext_prediction_clear().
 * \return 0; omp_ext_err_invalid (NULL argument, unknown syntax or
 *         runtime); omp_ext_err_parse (the value is beyond omp_ext's own
 *         limits -- OMP_EXT_PLACES_MAX_NUMBERS, OMP_EXT_PLACES_MAX_SET_WORDS,
 *         OMP_EXT_PLACES_MAX_PLACES -- or a KMP_AFFINITY type or
 *         granularity not predicted, so no prediction is made; a syntax
 *         error of the runtime is an outcome, not this code);
 *         omp_ext_err_nomem.
 */
int omp_ext_places_predict(const omp_ext_topo_t *topo, const char *text,
                                       omp_ext_syntax_t syntax, omp_ext_runtime_t runtime,
                                       omp_ext_prediction_t *pred);

/**
 * An abstract name's places in the order libgomp builds them
 * (config/linux/affinity.c, gomp_affinity_init_level): it scans CPUs by
 * ascending OS index and opens a place at the first CPU of each thread,
 * core, socket, cache or NUMA node not yet placed, so places are ordered by
 * their lowest OS index, ignoring packages (numa_domains: by NUMA node
 * number, as libgomp walks /sys/devices/system/node/online, each node's
 * allowed CPUs not placed yet; a node partly outside the allowed set is
 * still its own place); threads come a core at a time
 * (each CPU's thread_siblings_list), so {0},{4},{1},{5} on a machine whose
 * siblings are 4 apart (on a machine whose packages
 * interleave OS indexes, cores(4) is {0,12},{1,13},{2,14},{3,15}, not hwloc's
 * {0,12},{2,14},{4,16},{6,18}).  libgomp 12's ll_caches re-reads CPU 0's
 * shared_cpu_list for every CPU: one place only, the last-level cache of the
 * lowest allowed CPU; *bug is then set to 1 if the machine has more than one.
 * libgomp reads caches from sysfs only (cpuN/cache/indexM/level, then the
 * last level's shared_cpu_list): on this machine (a topology of this
 * system) the lowest allowed CPU that lists its caches takes that role, the
 * CPUs below it are left out, and when none does, or its shared_cpu_list
 * is missing, the list is empty (libgomp: "Error reading core/socket
 * topology", OMP_PLACES ignored) -- as on a VM whose kernel shows no cache
 * folders while hwloc finds caches through cpuid.  A fixture (XML) lists
 * none when it has no cache object or its Architecture info is ia64 (IA-64
 * kernels export shared_cpu_map only); a synthetic one lists them.  libomp builds places in
 * topology order, as omp_ext_places_parse() does.
 *
 * \param topo      the machine or a fixture; only allowed PUs are used.
 * \param abstract  omp_ext_abstract_threads ... omp_ext_abstract_sockets.
 * \param count     the "(n)" of the name; 0: all.
 * \param list      receives the places (none: see ll_caches above);
 *                  omp_ext_placelist_destroy() it.
 * \param bug       receives 1 when the libgomp 12 ll_caches bug shaped the
 *                  list, else 0.
 * \return 0; omp_ext_err_invalid (NULL argument, abstract none or unknown);
 *         omp_ext_err_nomem.
 */
int omp_ext_places_gomp_order(const omp_ext_topo_t *topo, omp_ext_abstract_t abstract,
                                          unsigned long count, omp_ext_placelist_t **list,
                                          int *bug);

/**
 * Does a runtime read the variable of a syntax at all?
 *
 * \param runtime  an omp_ext_runtime_t.
 * \param syntax   the variable: OMP_PLACES (omp), GOMP_CPU_AFFINITY (gomp) or
 *                 KMP_AFFINITY (kmp).
 * \return 1 when it reads it (omp_ext_places_predict() then says what it
 *         builds from a value); 0 when it does not (libgomp: KMP_AFFINITY;
 *         its prediction is omp_ext_outcome_ignored) or for an invalid
 *         runtime or syntax.
 */
int omp_ext_runtime_reads(omp_ext_runtime_t runtime, omp_ext_syntax_t syntax);

/** Release what a prediction holds (its list); NULL is ignored. */
void omp_ext_prediction_clear(omp_ext_prediction_t *pred);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_TOOLS_PREDICT_H */
