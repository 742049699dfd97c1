/*
 * omp_ext/parse.h -- Parsing place lists (OMP_PLACES, GOMP_CPU_AFFINITY, KMP).
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_PARSE_H
#define OMP_EXT_PARSE_H

#include <stddef.h>

#include <hwloc.h>

#include "omp_ext/export.h"
#include "omp_ext/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup parse Parsing place lists (OMP_PLACES, GOMP_CPU_AFFINITY, KMP)  */
/* ------------------------------------------------------------------------ */

/** Largest CPU number (OS index) the parsers accept; larger ones are a parse
 *  error.  libgomp refuses GOMP_CPU_AFFINITY numbers >= 65536 too. */
#define OMP_EXT_PLACES_MAX_CPU 65535

/** Largest number of places (and of a length in an interval) the parsers
 *  accept; libgomp rejects an OMP_PLACES value with more. */
#define OMP_EXT_PLACES_MAX_PLACES 65536

/** Largest number of CPU numbers an expansion may set in all (each number
 *  of each place, plus repeats inside an interval): bounds the time of a
 *  parse and the length of the canonical text.  omp_ext's own limit. */
#define OMP_EXT_PLACES_MAX_NUMBERS (1UL << 20)

/** Largest number of 64-bit words the places' cpusets may need in all (a
 *  place whose highest number is n needs n/64+1): 2^23 words, 64 MiB, enough
 *  for 65536 places of 8192 CPUs (the largest NR_CPUS of Linux on x86_64)
 *  or for "{0}:25000".  omp_ext's own limit, bounding memory. */
#define OMP_EXT_PLACES_MAX_SET_WORDS (1UL << 23)

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
 *         more than OMP_EXT_PLACES_MAX_PLACES places, sets more than
 *         OMP_EXT_PLACES_MAX_NUMBERS numbers or needs more than
 *         OMP_EXT_PLACES_MAX_SET_WORDS cpuset words); omp_ext_err_nomem.
 *         The budgets are charged alike in the three syntaxes: the
 *         canonical text of a parsed list always parses back (as OMP_PLACES)
 *         to the same list.
 */
OMP_EXT_API int omp_ext_places_parse(const omp_ext_topo_t *topo, const char *text, omp_ext_syntax_t syntax,
                         omp_ext_placelist_t **list, omp_ext_parse_error_t *err);

/** Release a list from omp_ext_places_parse(); NULL is ignored. */
OMP_EXT_API void omp_ext_placelist_destroy(omp_ext_placelist_t *list);

/**
 * The canonical text of a place list: places in order, each place's OS
 * indexes ascending and comma-separated, no ranges: "{0,8},{1,9}"; an empty
 * place is "{}"; an empty list is "".
 *
 * \param text  receives a malloc'ed NUL-terminated string; free() it.
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_placelist_canonical(const omp_ext_placelist_t *list, char **text);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_PARSE_H */
